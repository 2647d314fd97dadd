// esign api on both backends: the local engine through the server's own routes in-process, and a
// real esign server over HTTP on 127.0.0.1.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { buildServer } from '../../src/server/app.js';
import { tempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';

const localDir = tempDir('esign-api-local-');
const remoteDir = tempDir('esign-api-remote-');
const config = tempDir('esign-api-config-');
let server: FastifyInstance;
let remoteEngine: LocalEngine;
const env: Record<'local' | 'remote', Record<string, string | undefined>> = {
  local: {
    ESIGN_DATA_DIR: localDir.dir,
    ESIGN_BASE_URL: undefined,
    ESIGN_API_KEY: undefined,
    ESIGN_PROFILE: undefined,
    ESIGN_CONFIG_DIR: config.dir,
  },
  remote: {},
};

beforeAll(async () => {
  remoteEngine = new LocalEngine({ dataDir: remoteDir.dir });
  server = await buildServer({
    service: remoteEngine,
    local: remoteEngine,
    authenticate: (k) => remoteEngine.keys.authenticate(k),
  });
  const address = await server.listen({ host: '127.0.0.1', port: 0 });
  const { key } = remoteEngine.keys.create('test');
  env.remote = { ...env.local, ESIGN_DATA_DIR: undefined, ESIGN_BASE_URL: `${address}/api/v2`, ESIGN_API_KEY: key };
});
afterAll(async () => {
  await server.close();
  await remoteEngine.close();
  for (const d of [localDir, remoteDir, config]) d.cleanup();
});

describe.each(['local', 'remote'] as const)('esign api (%s backend)', (backend) => {
  const run = (args: string[], input?: string) => esignIn(['api', ...args], { env: env[backend], input });

  it('POSTs typed and raw fields and GETs the object back', async () => {
    const nameFile = join(config.dir, 'name.txt');
    writeFileSync(nameFile, 'Ada Lovelace\n');
    const created = await run([
      'POST',
      '/persons/',
      '-F',
      `name=@${nameFile}`,
      '-F',
      'metadata[age]=36',
      '-F',
      'metadata[vip]=true',
      '-f',
      'metadata[code]=007',
      '-f',
      'channels[][email]=ada@example.com',
    ]);
    expect(created.stderr).toBe('');
    expect(created.exitCode).toBe(0);
    const person = JSON.parse(created.stdout);
    expect(person).toMatchObject({
      name: 'Ada Lovelace',
      metadata: { age: 36, vip: true, code: '007' },
      channels: [{ kind: 'em', email: 'ada@example.com' }],
    });
    const got = await run(['GET', `persons/${person.id}/`]);
    expect(got.exitCode).toBe(0);
    expect(JSON.parse(got.stdout)).toEqual(person);
  });

  it('sends a raw body from stdin with --input - and shows status and headers with -i', async () => {
    const r = await run(['post', '/api/v2/persons/', '--input', '-', '-i'], JSON.stringify({ name: 'Bob' }));
    expect(r.exitCode).toBe(0);
    const [head, body] = r.stdout.split('\n\n');
    expect(head.split('\n')[0]).toBe('HTTP/1.1 201 Created');
    expect(head).toMatch(/^content-type: application\/json/m);
    expect(JSON.parse(body).name).toBe('Bob');
  });

  it('--paginate follows X-Blueink-Pagination and prints one array', async () => {
    for (const n of ['C', 'D', 'E']) expect((await run(['POST', 'persons/', '-f', `name=${n}`])).exitCode).toBe(0);
    const one = await run(['GET', 'persons/', '-F', 'per_page=2']);
    expect(JSON.parse(one.stdout)).toHaveLength(2);
    const all = await run(['GET', 'persons/', '-F', 'per_page=2', '--paginate']);
    expect(all.exitCode).toBe(0);
    const names = (JSON.parse(all.stdout) as { name: string }[]).map((p) => p.name).sort();
    expect(names).toEqual(['Ada Lovelace', 'Bob', 'C', 'D', 'E']);
  });

  it('an error status prints the Error object and exits by the one table', async () => {
    const missing = await run(['GET', '/bundles/no-such-bundle/']);
    expect(missing.exitCode).toBe(6);
    expect(JSON.parse(missing.stdout).code).toBe('not_found');
    expect(missing.stderr).toMatch(/^esign: /);
    const invalid = await run(['POST', '/persons/', '-F', 'name=5']);
    expect(invalid.exitCode).toBe(3);
    expect(JSON.parse(invalid.stdout).errors[0].field).toBe('name');
    const unauth = await run(['GET', '/persons/', '-H', 'Authorization: Token wrong']);
    expect(unauth.exitCode).toBe(4);
  });

  it('rejects a malformed field or method as usage (2)', async () => {
    expect((await run(['GET', '/persons/', '-f', 'novalue'])).exitCode).toBe(2);
    expect((await run(['FETCH', '/persons/'])).exitCode).toBe(2);
  });
});
