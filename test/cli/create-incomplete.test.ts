// bundle create whose tags cannot be added: a bad tag is refused before anything is created; a tags
// call that fails after the create (a quota used up in between, on esign serve) still prints the
// Bundle's id on stdout, -q included, and exits 15 (created, but not all of it was applied).
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, EXIT_TABLE } from '../../src/cli/exitCodes.js';
import { buildServer } from '../../src/server/app.js';
import { fixture, newEngine } from '../helpers.js';
import { esignIn } from './inProcess.js';

const create = ['bundle', 'create', '--file', fixture('contract.pdf'), '--signer', 'Ada <ada@example.com>'];

describe('bundle create with tags', () => {
  let engine: ReturnType<typeof newEngine>;
  let served: ReturnType<typeof newEngine>;
  let app: Awaited<ReturnType<typeof buildServer>>;
  let remoteEnv: Record<string, string> = {};
  beforeAll(async () => {
    engine = newEngine();
    served = newEngine();
    const key = served.keys.create('tags').key;
    // One call per hour: the create goes through, the tags call after it is a 429 whose Retry-After
    // is too long to wait for, so the remote adapter gives it back at once.
    app = await buildServer({
      service: served,
      local: served,
      authenticate: (k) => served.keys.authenticate(k),
      rateLimits: { limit: 1, createLimit: 10, windowSeconds: 3600 },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    remoteEnv = {
      ESIGN_BASE_URL: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v2`,
      ESIGN_API_KEY: key,
      ESIGN_DATA_DIR: engine.dataDir,
    };
  });
  afterAll(async () => {
    await app.close();
    await served.dispose();
    await engine.dispose();
  });

  it('refuses a tag the tags call would refuse before creating anything (local engine)', async () => {
    const r = await esignIn([...create, '--tag', 'ok', '--tag', 't'.repeat(10_001), '-q'], {
      env: { ESIGN_DATA_DIR: engine.dataDir },
    });
    expect(r.exitCode).toBe(EXIT.INVALID);
    expect(r.stderr).toMatch(/^esign: tags\[1\]: /);
    expect(r.stdout).toBe('');
    expect((await engine.listBundles()).total).toBe(0);
  });

  it('prints the id and exits 15 when the tags call fails after the create (esign serve)', async () => {
    const r = await esignIn([...create, '--draft', '--tag', 'vip', '-q'], { env: remoteEnv });
    expect(r.exitCode, r.stderr).toBe(EXIT.INCOMPLETE);
    const id = r.stdout.trim();
    expect(id).toMatch(/^\S+$/);
    const made = await served.listBundles();
    expect(made.items.map((b) => b.id)).toEqual([id]);
    expect(made.items[0]!.tags).toEqual([]);
    expect(r.stderr).toContain(`esign: Bundle ${id} was created as a draft, but its tags were not added:`);
    expect(r.stderr).toContain(`esign bundle tags add ${id} vip`);
  });

  it('has its code in the one exit-code table, and the README shows the same line', async () => {
    const { readFileSync } = await import('node:fs');
    const line = EXIT_TABLE.find(([c]) => c === EXIT.INCOMPLETE)?.[1];
    expect(line).toMatch(/^Created, but not all of it was applied/);
    expect(readFileSync(new URL('../../README.md', import.meta.url), 'utf8')).toContain(`| 15 | ${line} |`);
    expect((await esignIn(['help', 'exit-codes'])).stdout).toContain(`15  ${line}`);
  });
});
