// Profiles end to end: stored with mode 0600, keys never printed, precedence flag > env > profile,
// and the live guard on remote backends (checked against a real esign serve).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, tempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';
import { type ServeProcess, startServe } from './serveProcess.js';

let server: ServeProcess;
let data: ReturnType<typeof tempDir>;
let config: ReturnType<typeof tempDir>;
let key: string;

/** In-process against a real esign serve (its own process). */
function esign(args: string[], opts: { input?: string; env?: Record<string, string> } = {}) {
  return esignIn(args, {
    input: opts.input,
    env: { ESIGN_CONFIG_DIR: config.dir, ESIGN_DATA_DIR: join(data.dir, 'client'), ...opts.env },
  });
}

const serverBundles = async () => {
  const r = await fetch(`${server.address}/api/v2/bundles/`, { headers: { authorization: `Token ${key}` } });
  return (await r.json()) as { id: string; is_test: boolean; status: string }[];
};

beforeAll(async () => {
  data = tempDir('esign-profile-data-');
  config = tempDir('esign-profile-config-');
  const env = { ESIGN_DATA_DIR: join(data.dir, 'server') };
  key = (await esignIn(['local', 'keys', 'create', '-q'], { env })).stdout.trim();
  server = await startServe(env);
});

afterAll(async () => {
  server.process.kill('SIGTERM');
  await server.process;
  data.cleanup();
  config.cleanup();
});

describe('esign profile', () => {
  it('adds a remote profile with the key from stdin, stores it mode 0600 and never prints the key', async () => {
    const add = await esign(
      ['profile', 'add', 'dev', '--base-url', `${server.address}/api/v2`, '--api-key-stdin', '--json'],
      { input: `${key}\n` },
    );
    expect(add.exitCode, add.stderr).toBe(0);
    expect(JSON.parse(add.stdout)).toMatchObject({ name: 'dev', backend: 'remote', live: false, current: false });
    const file = join(config.dir, 'profiles.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    for (const args of [
      ['profile', 'list'],
      ['profile', 'list', '--json'],
      ['profile', 'show', 'dev'],
      ['-p', 'dev', 'profile', 'show', '--json'],
    ]) {
      const r = await esign(args);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(key);
      expect(r.stdout).toContain(key.slice(-4));
    }
  });

  it('refuses a remote profile without a key when not interactive, naming --api-key-stdin', async () => {
    const r = await esign(['profile', 'add', 'nokey', '--base-url', `${server.address}/api/v2`]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--api-key-stdin');
    expect((await esign(['profile', 'list', '-q'])).stdout).not.toContain('nokey');
  });

  it('uses the profile named by -p over ESIGN_PROFILE, and ESIGN_BASE_URL over the profile', async () => {
    const viaFlag = await esign(['-p', 'dev', 'bundle', 'list', '--json'], { env: { ESIGN_PROFILE: 'missing' } });
    expect(viaFlag.exitCode, viaFlag.stderr).toBe(0);
    // Names that are members of every object are not profiles either.
    expect((await esign(['-p', 'toString', 'bundle', 'list'])).exitCode).toBe(2);
    // A stored key goes only to its own server: another base URL from the environment gets none.
    const elsewhere = await esign(['-p', 'dev', 'bundle', 'list'], {
      env: { ESIGN_BASE_URL: `${server.address}/api/v2/` },
    });
    expect(elsewhere.exitCode).toBe(4);
    const viaEnv = await esign(['bundle', 'list'], { env: { ESIGN_PROFILE: 'missing' } });
    expect(viaEnv.exitCode).toBe(2);
    expect(viaEnv.stderr).toContain('No profile named "missing"');
    // The environment's base URL wins over the profile's: nothing listens on port 9 of 127.0.0.1.
    const overridden = await esign(['-p', 'dev', 'bundle', 'list'], {
      env: { ESIGN_BASE_URL: 'http://127.0.0.1:9/api/v2' },
    });
    expect(overridden.exitCode).toBe(1);
    expect(overridden.stderr).toContain('127.0.0.1:9');
    const shown = JSON.parse(
      (await esign(['-p', 'dev', 'profile', 'show', '--json'], { env: { ESIGN_API_KEY: 'esk_fromenvironment1234' } }))
        .stdout,
    );
    expect(shown).toMatchObject({ profile: 'dev', backend: 'remote', api_key: 'esk_…1234' });
  });

  it('refuses a non-test Bundle on a remote profile unless --live or the profile is live', async () => {
    const before = (await serverBundles()).length;
    const args = [
      '-p',
      'dev',
      'bundle',
      'create',
      '--file',
      fixture('contract.pdf'),
      '--signer',
      'Real Person <real@example.com>',
      '-q',
    ];
    const refused = await esign(args);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/Refusing to create a non-test Bundle on profile "dev".*--live/);
    expect((await serverBundles()).length).toBe(before);

    // Test Bundles reach only the account's verified users.
    const test = await esign([...args.slice(0, -2), 'Owner <owner@example.com>', '--test', '-q']);
    expect(test.exitCode, test.stderr).toBe(0);
    const live = await esign([...args, '--live']);
    expect(live.exitCode, live.stderr).toBe(0);
    const created = await serverBundles();
    expect(created.find((b) => b.id === test.stdout.trim())?.is_test).toBe(true);
    expect(created.find((b) => b.id === live.stdout.trim())?.is_test).toBe(false);

    // Sending a non-test draft is guarded the same way; a draft itself reaches nobody.
    const draft = await esign([...args, '--draft']);
    expect(draft.exitCode, draft.stderr).toBe(0);
    const slug = draft.stdout.trim();
    const send = await esign(['-p', 'dev', 'bundle', 'send', slug]);
    expect(send.exitCode).toBe(2);
    expect(send.stderr).toContain('Refusing to send');
    expect((await serverBundles()).find((b) => b.id === slug)?.status).toBe('dr');

    const liveAdd = await esign(
      ['profile', 'add', 'dev-live', '--base-url', `${server.address}/api/v2`, '--api-key-stdin', '--live'],
      { input: key },
    );
    expect(liveAdd.exitCode, liveAdd.stderr).toBe(0);
    const sent = await esign(['-p', 'dev-live', 'bundle', 'send', slug, '--json']);
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout).status).toBe('se');
  });

  it('keeps the key out of ESIGN_DEBUG=api logs', async () => {
    const r = await esign(['-p', 'dev', 'bundle', 'list', '-q'], { env: { ESIGN_DEBUG: 'api' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/api: GET .*\/bundles\/.* 200/);
    expect(r.stderr).not.toContain(key);
  });

  it('switches the current profile, falls back to the local engine with --none, and removes profiles', async () => {
    const local = await esign(['profile', 'add', 'sandbox', '--use', '--data-dir', join(data.dir, 'sandbox')]);
    expect(local.exitCode, local.stderr).toBe(0);
    const created = await esign(
      ['bundle', 'create', '--file', fixture('contract.pdf'), '--signer', 'S <s@example.com>', '-q'],
      { env: { ESIGN_DATA_DIR: '' } },
    );
    expect(created.exitCode, created.stderr).toBe(0);
    // The Bundle went to the sandbox profile's data directory, not to the server or the client directory.
    const inSandbox = await esign(['--data-dir', join(data.dir, 'sandbox'), '-p', 'sandbox', 'bundle', 'list', '-q']);
    expect(inSandbox.stdout.trim()).toBe(created.stdout.trim());
    expect((await serverBundles()).some((b) => b.id === created.stdout.trim())).toBe(false);

    expect((await esign(['profile', 'use', 'dev'])).exitCode).toBe(0);
    expect(JSON.parse((await esign(['profile', 'show', '--json'])).stdout)).toMatchObject({
      profile: 'dev',
      backend: 'remote',
    });
    expect((await esign(['profile', 'use', '--none'])).exitCode).toBe(0);
    expect(JSON.parse((await esign(['profile', 'show', '--json'])).stdout)).toMatchObject({
      profile: null,
      backend: 'local',
    });

    expect((await esign(['profile', 'remove', 'sandbox'])).exitCode).toBe(2);
    expect((await esign(['profile', 'remove', 'sandbox', '--yes'])).exitCode).toBe(0);
    expect((await esign(['profile', 'list', '-q'])).stdout.split('\n')).not.toContain('sandbox');
    expect((await esign(['profile', 'remove', 'sandbox', '--yes'])).exitCode).toBe(2);
  });
});
