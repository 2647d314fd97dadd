// profile add checks the key against the server before saving it; profile show says whether it still works.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { buildServer } from '../../src/server/app.js';
import { tempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';

const data = tempDir('esign-profile-check-');
const config = tempDir('esign-profile-check-config-');
const env = {
  ESIGN_CONFIG_DIR: config.dir,
  ESIGN_DATA_DIR: undefined,
  ESIGN_BASE_URL: undefined,
  ESIGN_API_KEY: undefined,
  ESIGN_PROFILE: undefined,
};
let engine: LocalEngine;
let server: FastifyInstance;
let base: string;
let key: { record: { id: string }; key: string };

beforeAll(async () => {
  engine = new LocalEngine({ dataDir: data.dir });
  server = await buildServer({ service: engine, authenticate: (k) => engine.keys.authenticate(k) });
  base = `${await server.listen({ host: '127.0.0.1', port: 0 })}/api/v2`;
  key = engine.keys.create('cli');
});
afterAll(async () => {
  await server.close();
  await engine.close();
  data.cleanup();
  config.cleanup();
});

const add = (name: string, k: string, ...extra: string[]) =>
  esignIn(['profile', 'add', name, '--base-url', base, '--api-key-stdin', ...extra], { env, input: `${k}\n` });
const names = async () => (await esignIn(['profile', 'list', '-q'], { env })).stdout.split('\n');
const show = async (name: string) => JSON.parse((await esignIn(['profile', 'show', name, '--json'], { env })).stdout);

describe('profile key check', () => {
  it('refuses a key the server rejects (exit 4) and saves nothing', async () => {
    const r = await add('bad', 'esk_wrong');
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/Not saved: .* did not accept the key \(HTTP 401: Invalid token\.\)\. Pass --no-verify/);
    expect(await names()).not.toContain('bad');
  });

  it('saves a working key, and show reports it works', async () => {
    expect((await add('good', key.key)).exitCode).toBe(0);
    expect(await show('good')).toMatchObject({ name: 'good', key_works: true });
  });

  it('a base URL without /api/v2 is named as the problem, not the key (exit 2), and nothing is saved', async () => {
    const origin = base.replace(/\/api\/v2$/, '');
    const r = await esignIn(['profile', 'add', 'nopath', '--base-url', origin, '--api-key-stdin'], {
      env,
      input: `${key.key}\n`,
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      `esign: Not saved: --base-url ${origin} is not an API v2 base URL (an API v2 base URL ends in /api/v2: ${origin}/api/v2?): no API v2 at this URL (HTTP 404 for GET rate_limit/). Pass --no-verify to save it anyway.`,
    );
    expect(await names()).not.toContain('nopath');
  });

  it('--no-verify saves a rejected key; show says it does not work and why', async () => {
    expect((await add('unchecked', 'esk_wrong', '--no-verify')).exitCode).toBe(0);
    expect(await show('unchecked')).toMatchObject({ key_works: false, key_check: 'HTTP 401: Invalid token.' });
  });

  it('a revoked key shows as no longer working; an unreachable server is exit 1', async () => {
    engine.keys.revoke(key.record.id);
    expect((await show('good')).key_works).toBe(false);
    const closed = await buildServer({ service: engine, authenticate: () => undefined });
    const address = await closed.listen({ host: '127.0.0.1', port: 0 });
    await closed.close();
    const r = await esignIn(['profile', 'add', 'gone', '--base-url', `${address}/api/v2`, '--api-key-stdin'], {
      env,
      input: 'esk_x\n',
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/unreachable/);
    expect(await names()).not.toContain('gone');
  });
});
