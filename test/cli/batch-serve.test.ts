import { type IncomingMessage, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeBatchFiles } from '../helpers.js';
import { esignIn } from './inProcess.js';
import { BIN } from './serveProcess.js';

const ROWS = 24;
let data: ReturnType<typeof tempDir>;
let engineEnv: Record<string, string>;
let serve: ReturnType<typeof execa>;
let serveUrl = '';
let key = '';
const seen = { creates: 0, throttled: 0, cut: 0 };
let cutEvery = 0;
let proxy: ReturnType<typeof createServer>;
let proxyUrl = '';

beforeAll(async () => {
  data = tempDir('esign-batch-serve-');
  engineEnv = { ESIGN_DATA_DIR: join(data.dir, 'engine') };
  writeBatchFiles(data.dir, 'Offer', ROWS, { is_test: false });
  key = (await execa('node', [BIN, 'local', 'keys', 'create', '-q'], { env: engineEnv })).stdout.trim();
  // 100 calls and 10 creations per 2 s window.
  serve = execa(
    'node',
    [BIN, 'serve', '--port', '0', '--rate-limit', '100', '--create-rate-limit', '10', '--rate-window', '2'],
    { env: engineEnv, reject: false },
  );
  serveUrl = await new Promise((resolve) => serve.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())));
  const target = new URL(serveUrl);
  // Forwards everything; every `cutEvery`-th create reaches the server, then the client's connection is cut before the answer.
  proxy = createServer((req: IncomingMessage, res) => {
    const isCreate = req.method === 'POST' && req.url === '/api/v2/bundles/';
    const n = isCreate ? ++seen.creates : 0;
    const up = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (r) => {
        if (r.statusCode === 429) seen.throttled++;
        if (isCreate && cutEvery && n % cutEvery === 0 && r.statusCode === 201) {
          seen.cut++;
          r.resume();
          req.socket.destroy();
          return;
        }
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    // The server may answer (a 429) and close before the body is through: the write fails with EPIPE,
    // and the client sees its connection cut, as through any proxy.
    up.on('error', () => req.socket.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v2`;
}, 60_000);

afterAll(async () => {
  proxy?.close();
  serve?.kill('SIGTERM');
  await serve;
  data.cleanup();
});

const remote = () => ({ ESIGN_BASE_URL: proxyUrl, ESIGN_API_KEY: key, ESIGN_DATA_DIR: join(data.dir, 'client') });

async function keysOnServer(): Promise<string[]> {
  const r = await esignIn(['bundle', 'list', '--all', '--per-page', '100', '--json'], {
    env: { ESIGN_BASE_URL: `${serveUrl}/api/v2`, ESIGN_API_KEY: key },
  });
  return (JSON.parse(r.stdout) as { custom_key: string }[]).map((b) => b.custom_key);
}

describe('batch send against esign serve', () => {
  it('refuses non-test Bundles on a remote server without --live', async () => {
    const r = await esignIn(
      ['batch', 'send', join(data.dir, 'rows.csv'), '--spec', join(data.dir, 'spec.json'), '--yes'],
      { env: remote() },
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/Refusing to create a non-test Bundle/);
  });

  it('paces by GET /rate_limit/ and survives 429s and cut connections: one Bundle per row, none failed', async () => {
    cutEvery = 5;
    const before = { ...seen };
    const started = Date.now();
    const r = await execa(
      'node',
      [BIN, 'batch', 'send', 'rows.csv', '--spec', 'spec.json', '--yes', '--live', '--json', '--batch-id', 'paced'],
      { cwd: data.dir, env: remote(), reject: false },
    );
    const seconds = (Date.now() - started) / 1000;
    expect(r.exitCode, r.stderr).toBe(0);
    if (!r.stdout) throw new Error(`no output: exit ${r.exitCode}: ${r.stderr}`);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({ rows: ROWS, failed: 0 });
    expect(s.pacing).toMatch(/^10 per 2 s \(GET \/rate_limit\/ \(100 calls per 2 s; creations 10\)\)/);
    expect(seen.cut - before.cut).toBeGreaterThan(2);
    const keys = (await keysOnServer()).filter((k) => k.startsWith('paced-'));
    expect(keys.sort()).toEqual(Array.from({ length: ROWS }, (_, i) => `paced-${i + 1}`).sort());
    // 24 creates at 10 per 2 s need at least ~4 s; pacing should not make it much slower.
    expect(seconds).toBeGreaterThan(3.5);
  }, 60_000);

  it('with --rate above what the server allows, waits out every 429 (Retry-After) and fails no row', async () => {
    cutEvery = 0;
    const before = seen.throttled;
    const r = await execa(
      'node',
      [
        BIN,
        'batch',
        'send',
        'rows.csv',
        '--spec',
        'spec.json',
        '--yes',
        '--live',
        '--json',
        '--batch-id',
        'pushy',
        '--rate',
        '100/2',
      ],
      { cwd: data.dir, env: remote(), reject: false },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: ROWS, created: ROWS, failed: 0 });
    expect(seen.throttled - before).toBeGreaterThan(0);
    const keys = (await keysOnServer()).filter((k) => k.startsWith('pushy-'));
    expect(new Set(keys).size).toBe(ROWS);
    expect(keys).toHaveLength(ROWS);
  }, 60_000);
});
