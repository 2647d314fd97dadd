// Issue 24 item 12: a revoked key is refused at the next request, whichever process revoked it
// (esign serve in one, `esign local keys revoke` in another), with no second of grace.
// Issue 36: `esign local keys revoke` takes the whole key too (fbda499: "No API key").
import { afterEach, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { esignIn } from '../cli/inProcess.js';
import { tempDir } from '../helpers.js';

const open: LocalEngine[] = [];
let cleanup = () => {};
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
  cleanup();
});

describe('revoking a key', () => {
  it('ends it at once in the serving process when another process revokes it', async () => {
    const dir = tempDir();
    cleanup = dir.cleanup;
    // The wall clock stands still: only a change in the database can end the serving process's trust.
    const serving = new LocalEngine({ dataDir: dir.dir, wallMs: () => 1_000_000 });
    const cli = new LocalEngine({ dataDir: dir.dir, wallMs: () => 1_000_000 });
    open.push(serving, cli);
    const { record, key } = serving.keys.create('ci');
    const other = serving.keys.create('other').key;
    expect(serving.keys.authenticate(key)).toBe(record.id);
    expect(serving.keys.authenticate(key)).toBe(record.id);
    cli.keys.revoke(record.id);
    expect(serving.keys.authenticate(key)).toBeUndefined();
    expect(serving.keys.authenticate(other)).toBeDefined();
  });

  it('ends it at once in the process that revoked it', async () => {
    const dir = tempDir();
    cleanup = dir.cleanup;
    const e = new LocalEngine({ dataDir: dir.dir, wallMs: () => 1_000_000 });
    open.push(e);
    const { record, key } = e.keys.create('ci');
    expect(e.keys.authenticate(key)).toBe(record.id);
    e.keys.revoke(record.id);
    expect(e.keys.authenticate(key)).toBeUndefined();
  });

  it('esign local keys revoke takes the whole key as printed, and never repeats a whole key it does not know', async () => {
    const dir = tempDir();
    cleanup = dir.cleanup;
    const e = new LocalEngine({ dataDir: dir.dir });
    open.push(e);
    const { record, key } = e.keys.create('ci');
    const env = { ESIGN_DATA_DIR: dir.dir };
    const r = await esignIn(['local', 'keys', 'revoke', key, '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: record.id });
    expect(r.stdout).not.toContain(key);
    expect(e.keys.authenticate(key)).toBeUndefined();
    const unknown = `${key.slice(0, -4)}zzzz`;
    const miss = await esignIn(['local', 'keys', 'revoke', unknown], { env });
    expect(miss.exitCode).toBe(6);
    expect(miss.stderr).toContain('No API key with that value');
    expect(miss.stderr).not.toContain(unknown);
  });
});
