// esign sandbox create|list|get|delete against an esign serve hosting sandboxes: what each prints
// (the key once, shell exports with --env, never a key in a list), and the embedded engine refused.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exitCodes.js';
import { LocalEngine } from '../../src/local/engine.js';
import { serveEngine } from '../engineServer.js';
import { kv, newEngine, tempDir } from '../helpers.js';
import { raw } from '../rawHttp.js';
import { esignIn } from './inProcess.js';

describe('esign sandbox', () => {
  const dirs = tempDir('esign-cli-sandbox-');
  const engine = newEngine();
  let served: Awaited<ReturnType<typeof serveEngine>>;
  const env = () => ({
    ESIGN_BASE_URL: `${served.origin}/api/v2`,
    ESIGN_API_KEY: served.key,
    ESIGN_CONFIG_DIR: join(dirs.dir, 'config'),
    ESIGN_DATA_DIR: join(dirs.dir, 'unused'),
  });

  beforeAll(async () => {
    served = await serveEngine(engine, {
      sandboxes: { dir: join(dirs.dir, 'sandboxes'), openEngine: async (dataDir) => new LocalEngine({ dataDir }) },
    });
  });
  afterAll(async () => {
    await served.close();
    await engine.dispose();
    dirs.cleanup();
  });

  it('creates one and prints its base URL and key (piped: key and value a line)', async () => {
    const r = await esignIn(['sandbox', 'create', '--name', 'job 7', '--ttl', '10m'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    const made = kv(r.stdout);
    expect(made.name).toBe('job 7');
    expect(made.base_url).toBe(`${served.origin}/sandboxes/${made.id}/api/v2`);
    expect(Date.parse(made.expires_at!) - Date.parse(made.created_at!)).toBe(600_000);
    // The key works there, and only there.
    expect((await raw(served.origin, `/sandboxes/${made.id}/api/v2/bundles/`, { key: made.api_key })).status).toBe(200);
    expect((await raw(served.origin, '/api/v2/bundles/', { key: made.api_key })).status).toBe(401);
  });

  it('prints shell exports with --env that a shell takes as they are', async () => {
    const r = await esignIn(['sandbox', 'create', '--name', "it's", '--env'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    const shell = execFileSync('sh', ['-c', `${r.stdout}\nprintf '%s\\n%s' "$ESIGN_BASE_URL" "$ESIGN_API_KEY"`], {
      encoding: 'utf8',
    });
    const [base, key] = shell.split('\n');
    expect(base).toMatch(new RegExp(`^${served.origin}/sandboxes/sbx_[0-9a-f]{20}/api/v2$`));
    // The exported pair is a client's whole configuration: esign itself lists the sandbox's Bundles with it.
    const list = await esignIn(['bundle', 'list', '--json'], {
      env: { ...env(), ESIGN_BASE_URL: base, ESIGN_API_KEY: key },
    });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('lists, gets and deletes them; a list never shows a key', async () => {
    const list = await esignIn(['sandbox', 'list', '--json'], { env: env() });
    const rows = JSON.parse(list.stdout) as { id: string; name: string; api_key?: string }[];
    expect(rows.map((s) => s.name).sort()).toEqual(["it's", 'job 7']);
    expect(rows.every((s) => s.api_key === undefined)).toBe(true);
    const id = rows[0]!.id;
    const got = await esignIn(['sandbox', 'get', id], { env: env() });
    expect(kv(got.stdout).id).toBe(id);
    const ids = await esignIn(['sandbox', 'list', '-q'], { env: env() });
    expect(ids.stdout.split('\n').sort()).toEqual(rows.map((s) => s.id).sort());
    const refused = await esignIn(['sandbox', 'delete', id], { env: env() });
    expect(refused.exitCode).toBe(EXIT.USAGE);
    expect(refused.stderr).toContain('--yes');
    const gone = await esignIn(['sandbox', 'delete', id, '--yes'], { env: env() });
    expect(gone.exitCode, gone.stderr).toBe(0);
    const again = await esignIn(['sandbox', 'get', id], { env: env() });
    expect(again.exitCode).toBe(EXIT.NOT_FOUND);
    expect(again.stderr).toContain('No such sandbox');
  });

  it('refuses bad input in one line with its exit code', async () => {
    const ttl = await esignIn(['sandbox', 'create', '--ttl', '2d'], { env: env() });
    expect(ttl.exitCode).toBe(EXIT.INVALID);
    expect(ttl.stderr).toMatch(/ttl_seconds: Give a whole number of seconds from 1 to 86400/);
    const key = await esignIn(['sandbox', 'list'], { env: { ...env(), ESIGN_API_KEY: 'nope' } });
    expect(key.exitCode).toBe(EXIT.AUTH);
  });

  it('is refused on the embedded engine, saying how to name a server', async () => {
    const r = await esignIn(['sandbox', 'list'], {
      env: { ...env(), ESIGN_BASE_URL: '', ESIGN_API_KEY: '', ESIGN_DATA_DIR: join(dirs.dir, 'local') },
    });
    expect(r.exitCode).toBe(EXIT.USAGE);
    expect(r.stderr).toContain('Sandboxes live on an esign serve');
  });
});
