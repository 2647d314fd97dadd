// esign logs tail: the requests a scenario makes against esign serve, filtered, read from the
// server's data directory and over the wire (an authenticated stream), followed live; the key's id
// is shown, never the key.
import { existsSync, readFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exitCodes.js';
import { MAX_LOG_STREAMS } from '../../src/server/requestLogRoute.js';
import type { RequestLogEntry } from '../../src/service/types.js';
import { apiCaller, serveEngine } from '../engineServer.js';
import { fixture, newEngine, useTempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';
import { BIN, type ServeProcess, startServe } from './serveProcess.js';

const tmp = useTempDir('esign-logs-');
let serve: ServeProcess;
let key: string;
let keyId: string;
const served = () => join(tmp.dir, 'served');
const remote = () => ({ ESIGN_BASE_URL: `${serve.address}/api/v2`, ESIGN_API_KEY: key, ESIGN_DATA_DIR: '' });
const entries = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RequestLogEntry);

beforeAll(async () => {
  const made = await esignIn(['local', 'keys', 'create', '--name', 'ci', '--json'], {
    env: { ESIGN_DATA_DIR: served() },
  });
  ({ key, id: keyId } = JSON.parse(made.stdout) as { key: string; id: string });
  serve = await startServe({ ESIGN_DATA_DIR: served(), NO_COLOR: '1' }, ['--allow-private-urls']);
  // --shared: the run's requests go to the server itself, whose log this reads (a sandbox keeps its own).
  const run = await esignIn(
    ['scenario', 'run', fixture('scenarios/ci-nda.yaml'), '--backend', `${serve.address}/api/v2`, '--shared'],
    {
      env: { ESIGN_API_KEY: key, ESIGN_CONFIG_DIR: join(tmp.dir, 'config') },
    },
  );
  expect(run.exitCode, run.stderr).toBe(0);
  // esign serve writes its log in batches: the run's last request (its webhook removed) is in it.
  await written(join(served(), 'requests.log'), 'deleteWebhook');
}, 60_000);

/** Resolves once `file` holds `text` (watched, not polled). */
function written(file: string, text: string): Promise<void> {
  const has = () => existsSync(file) && readFileSync(file, 'utf8').includes(text);
  return new Promise((resolve) => {
    if (has()) return resolve();
    const w = watch(join(file, '..'), () => {
      if (!has()) return;
      w.close();
      resolve();
    });
  });
}
afterAll(async () => serve?.stop());

describe("esign logs tail: a scenario's requests", () => {
  it('from the data directory, filtered by operation, status, method and path', async () => {
    const local = { ESIGN_DATA_DIR: served() };
    const signs = entries(
      (await esignIn(['logs', 'tail', '--no-follow', '--operation', 'signPacket', '--json'], { env: local })).stdout,
    );
    expect(signs.map((e) => [e.method, e.status, e.operation])).toEqual([
      ['POST', 409, 'signPacket'],
      ['POST', 200, 'signPacket'],
      ['POST', 200, 'signPacket'],
    ]);
    for (const e of signs) {
      expect(e.path).toMatch(/^\/sandbox\/packets\/\w+\/sign\/$/);
      expect(e.key_id).toBe(keyId);
      expect(Date.parse(e.time)).toBeGreaterThan(0);
      expect(e.ms).toBeGreaterThan(0);
    }
    const errors = entries(
      (await esignIn(['logs', 'tail', '--no-follow', '--status', '4xx', '--json'], { env: local })).stdout,
    );
    expect(errors.map((e) => `${e.status} ${e.operation}`)).toEqual(['409 signPacket']);
    const deletes = entries(
      (await esignIn(['logs', 'tail', '--no-follow', '--method', 'delete', '--json'], { env: local })).stdout,
    );
    expect(deletes.map((e) => e.operation)).toEqual(['deleteWebhook']);
    const clock = await esignIn(['logs', 'tail', '--no-follow', '--path', '/sandbox/clock/'], { env: local });
    expect(clock.stdout.split('\n').map((l) => l.split('\t').slice(1, 3).concat(l.split('\t')[4]!))).toEqual([
      ['POST', '200', '/sandbox/clock/advance/'],
    ]);
    expect(clock.stdout.split('\t').at(-1)).toBe(`key ${keyId}`);
    // The key itself is nowhere in the log.
    expect(readFileSync(join(served(), 'requests.log'), 'utf8')).not.toContain(key);
  });

  it('over the wire from the remote esign serve, the same, and -n limits the backlog', async () => {
    const viaWire = await esignIn(['logs', 'tail', '--no-follow', '--operation', 'signPacket', '--json'], {
      env: remote(),
    });
    expect(entries(viaWire.stdout).map((e) => e.status)).toEqual([409, 200, 200]);
    const last = entries(
      (await esignIn(['logs', 'tail', '--no-follow', '-n', '2', '--json'], { env: remote() })).stdout,
    );
    expect(last).toHaveLength(2);
  });

  it('follows new requests live over the wire, and stops on Ctrl-C', async () => {
    const p = execa('node', [BIN, 'logs', 'tail', '-n', '1', '--operation', 'listBundles', '--json'], {
      env: remote(),
      reject: false,
    });
    const seen: RequestLogEntry[] = [];
    const next = () =>
      new Promise<void>((resolve) => {
        const on = () => {
          p.stdout!.off('data', on);
          resolve();
        };
        p.stdout!.on('data', on);
      });
    p.stdout!.on('data', (d: Buffer) => seen.push(...entries(d.toString())));
    // Something to show first, so the stream is known to be open before the next request.
    await esignIn(['bundle', 'list', '-q'], { env: remote() });
    await next();
    await esignIn(['bundle', 'list', '-q'], { env: remote() });
    await next();
    expect(seen.map((e) => e.operation)).toEqual(['listBundles', 'listBundles']);
    expect(Date.parse(seen[1]!.time)).toBeGreaterThan(Date.parse(seen[0]!.time));
    p.kill('SIGINT');
    expect((await p).exitCode).toBe(EXIT.INTERRUPTED);
  });

  it('refuses a filter it cannot apply, naming the flag, before asking anything', async () => {
    const env = { ESIGN_DATA_DIR: join(tmp.dir, 'nothing') };
    expect(await esignIn(['logs', 'tail', '--status', '42'], { env })).toMatchObject({
      exitCode: EXIT.USAGE,
      stderr: 'esign: --status: A status (404) or a class of them (4xx).',
    });
    expect(await esignIn(['logs', 'tail', '--operation', 'signpacket'], { env })).toMatchObject({
      exitCode: EXIT.USAGE,
      stderr: 'esign: --operation signpacket: no such operation (esign api lists them).',
    });
  });
});

describe('the request log stream on the wire', () => {
  it('answers at once when it has nothing to show yet: its headers do not wait for the first request', async () => {
    const engine = newEngine();
    const server = await serveEngine(engine);
    const stream = new AbortController();
    try {
      const quiet = await apiCaller(server.origin, server.key)('/sandbox/requests/?operation=signPacket', {
        signal: AbortSignal.any([stream.signal, AbortSignal.timeout(20_000)]),
      });
      expect([quiet.status, quiet.headers.get('content-type')]).toEqual([200, 'application/x-ndjson; charset=utf-8']);
    } finally {
      stream.abort();
      await server.close();
      await engine.dispose();
    }
  });

  it('needs a key, is limited to a few at once (429 with Retry-After), and a server without one is named', async () => {
    const engine = newEngine();
    const server = await serveEngine(engine);
    const call = apiCaller(server.origin, server.key);
    const streams: AbortController[] = [];
    try {
      expect((await call('/sandbox/requests/', { auth: null })).status).toBe(401);
      for (let i = 0; i < MAX_LOG_STREAMS; i++) {
        const c = new AbortController();
        streams.push(c);
        expect((await call('/sandbox/requests/', { signal: c.signal })).status).toBe(200);
      }
      const over = await call('/sandbox/requests/');
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toBe('5');
      expect(await over.json()).toMatchObject({ code: 'throttled' });
      expect((await call('/sandbox/requests/?status=7')).status).toBe(400);
    } finally {
      for (const c of streams) c.abort();
      await server.close();
      await engine.dispose();
    }
    const bare = newEngine();
    const api = await serveEngine(bare, { local: undefined });
    try {
      const r = await esignIn(['logs', 'tail'], {
        env: { ESIGN_BASE_URL: `${api.origin}/api/v2`, ESIGN_API_KEY: api.key, ESIGN_DATA_DIR: '' },
      });
      expect(r).toMatchObject({
        exitCode: EXIT.USAGE,
        stderr: `esign: ${api.origin}/api/v2 keeps no request log (esign serve does; the hosted service does not).`,
      });
    } finally {
      await api.close();
      await bare.dispose();
    }
  });
});
