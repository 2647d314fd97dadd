// esign auth status and the errors that say what to do next, from the built binary: a refused key
// names where it came from (ESIGN_API_KEY, or the profile) and the command that replaces it; a
// server that does not answer names its URL and where it came from; a base URL without /api/v2 says
// so; auth status on both backends, never printing the key.
import { createServer } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';
import { localBackend, openedBackend, serveBackend } from './backends.js';
import { BIN } from './serveProcess.js';

const config = tempDir('esign-auth-config-');
afterAll(() => config.cleanup());

/** The built binary with `env` over a clean slate (no profile, no variables from this shell). */
const esign = (args: string[], env: Record<string, string>, input?: string) =>
  execa('node', [BIN, ...args], {
    env: { ESIGN_CONFIG_DIR: config.dir, ESIGN_PROFILE: '', NO_COLOR: '1', ...env },
    reject: false,
    input,
  });

/** A port with nothing listening on it. */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

const errorLines = (stderr: string) => stderr.split('\n').filter((l) => l && !/retrying in/.test(l));

describe('esign auth status (built binary)', () => {
  const local = openedBackend(localBackend);
  const remote = openedBackend(() => serveBackend());

  it('on the local engine: no server, no key, the data directory', async () => {
    const r = await esign(['auth', 'status'], local.env);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('backend\tlocal: the embedded engine (no server, no key)');
    expect(r.stdout).toContain(`data dir\t${local.env.ESIGN_DATA_DIR}`);
    const j = await esign(['auth', 'status', '--json'], local.env);
    expect(JSON.parse(j.stdout)).toMatchObject({ backend: 'local', key_works: null });
  });

  it('on esign serve: the server and where it came from, the key source, that it works and its rate limit; never the key', async () => {
    const r = await esign(['auth', 'status'], remote.env);
    expect(r.exitCode, r.stderr).toBe(0);
    const url = remote.env.ESIGN_BASE_URL;
    expect(r.stdout).toContain(`server\t${url} (from ESIGN_BASE_URL)`);
    expect(r.stdout).toContain('api key\tset, from ESIGN_API_KEY');
    expect(r.stdout).toContain('key works\tyes');
    expect(r.stdout).toMatch(/rate limit\t\d+ of \d+ left in a \d+ s window, resets \d{4}-/);
    const j = JSON.parse((await esign(['auth', 'status', '--json'], remote.env)).stdout);
    expect(j).toMatchObject({ backend: 'remote', base_url: url, api_key_from: 'ESIGN_API_KEY', key_works: true });
    expect(j.rate_limit.limit).toBeGreaterThan(0);
    for (const out of [r.stdout, r.stderr, JSON.stringify(j)]) expect(out).not.toContain(remote.key!);
  });

  it('a refused key: status says no and exits 4 with one line naming ESIGN_API_KEY', async () => {
    const env = { ...remote.env, ESIGN_API_KEY: 'esk_not_a_key' };
    const r = await esign(['auth', 'status'], env);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toContain('key works\tno: HTTP 401');
    expect(errorLines(r.stderr)).toEqual([
      `esign: The key in ESIGN_API_KEY was refused by ${remote.env.ESIGN_BASE_URL} (from ESIGN_BASE_URL): set ESIGN_API_KEY to a key of that server (then esign auth status again).`,
    ]);
    expect(r.stdout + r.stderr).not.toContain('esk_not_a_key');
  });

  it("a profile's key refused by any command: the profile and the command that replaces its key, exit 4", async () => {
    const url = remote.env.ESIGN_BASE_URL;
    const dataDir = join(config.dir, 'unused');
    const saved = await esign(
      ['profile', 'add', 'prod', '--base-url', url, '--api-key-stdin', '--no-verify', '--use'],
      { ESIGN_DATA_DIR: dataDir },
      'esk_stale',
    );
    expect(saved.exitCode, saved.stderr).toBe(0);
    try {
      const r = await esign(['bundle', 'list'], { ESIGN_DATA_DIR: dataDir });
      expect(r.exitCode).toBe(4);
      expect(errorLines(r.stderr)).toEqual([
        `esign: Invalid token. The key of profile "prod" was refused by ${url}: save a working one with printenv KEY | esign profile add prod --base-url ${url} --api-key-stdin --force (esign auth status shows what is used).`,
      ]);
      const j = await esign(['bundle', 'list', '--json'], { ESIGN_DATA_DIR: dataDir });
      expect(j.exitCode).toBe(4);
      expect(JSON.parse(j.stderr)).toMatchObject({
        status: 401,
        exit_code: 4,
        next_step: expect.stringContaining('profile "prod"'),
      });
      const s = await esign(['auth', 'status'], { ESIGN_DATA_DIR: dataDir });
      expect(s.exitCode).toBe(4);
      expect(s.stdout).toContain('api key\tset, from profile "prod"');
    } finally {
      await esign(['profile', 'remove', 'prod', '--yes'], {});
    }
  });

  it('a base URL without /api/v2 says so and gives the one to set (exit 6)', async () => {
    const origin = remote.env.ESIGN_BASE_URL.replace(/\/api\/v2$/, '');
    const r = await esign(['bundle', 'list'], { ...remote.env, ESIGN_BASE_URL: origin });
    expect(r.exitCode).toBe(6);
    expect(errorLines(r.stderr)).toEqual([
      `esign: No such endpoint: GET /bundles/. ${origin}, the base URL from ESIGN_BASE_URL, does not end in /api/v2, as an API v2 base URL does: set ESIGN_BASE_URL=${origin}/api/v2.`,
    ]);
  });
});

describe('a server that does not answer (built binary)', () => {
  it('any command: one error line naming the URL and where it came from, exit 1', async () => {
    const url = `http://127.0.0.1:${await deadPort()}/api/v2`;
    const r = await esign(['bundle', 'list'], { ESIGN_BASE_URL: url, ESIGN_API_KEY: 'esk_x', ESIGN_DATA_DIR: '' });
    expect(r.exitCode).toBe(1);
    const [line, ...more] = errorLines(r.stderr);
    expect(more).toEqual([]);
    expect(line).toMatch(new RegExp(`^esign: GET ${url}/bundles/ failed: .*ECONNREFUSED.*\\. Nothing answered at `));
    expect(line).toContain(`Nothing answered at ${url}, the base URL from ESIGN_BASE_URL: start that server`);
    const status = await esign(['auth', 'status'], { ESIGN_BASE_URL: url, ESIGN_API_KEY: 'esk_x', ESIGN_DATA_DIR: '' });
    expect(status.exitCode).toBe(1);
    expect(status.stdout).toContain('key works\tno: unreachable');
    expect(errorLines(status.stderr)).toEqual([
      `esign: The key was not checked. Nothing answered at ${url}, the base URL from ESIGN_BASE_URL: start that server (esign serve, for a local one) or set ESIGN_BASE_URL to one that answers.`,
    ]);
  });

  it('profile add says nothing answered, not that the key was refused (exit 1, nothing saved)', async () => {
    const url = `http://127.0.0.1:${await deadPort()}/api/v2`;
    const r = await esign(['profile', 'add', 'down', '--base-url', url, '--api-key-stdin'], {}, 'esk_x');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`esign: Not saved: nothing answered at --base-url ${url} (unreachable: `);
    expect(r.stderr).not.toContain('did not accept the key');
    expect((await esign(['profile', 'list', '-q'], {})).stdout).not.toContain('down');
  });
});
