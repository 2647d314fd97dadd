// bundle wait through an outage, from the built binary against a real esign serve: the server stopped
// mid-wait and started again on the same port (the wait goes on and succeeds), a stop that outlasts
// the wait's timeout (exit 10, naming the URL, where it came from, and what it waited through), and a
// real HTTP server in front that answers 503s and a 429 before the real answers.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, tempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';
import { BIN, type ServeProcess, startServe } from './serveProcess.js';

const data = tempDir('esign-wait-outage-');
const serveEnv = { ESIGN_DATA_DIR: join(data.dir, 'serve') };
let serve: ServeProcess;
let port: number;
let key: string;
const clientEnv = (baseUrl: string) => ({
  ESIGN_BASE_URL: baseUrl,
  ESIGN_API_KEY: key,
  ESIGN_DATA_DIR: join(data.dir, 'client'),
  ESIGN_CONFIG_DIR: join(data.dir, 'config'),
  ESIGN_PROFILE: '',
  NO_COLOR: '1',
});
const env = () => clientEnv(`http://127.0.0.1:${port}/api/v2`);

/** A sent Bundle of one signer on the serve: its id and the signer's packet. */
async function sentBundle(label: string): Promise<{ id: string; packet: string }> {
  const r = await esignIn(
    [
      'bundle',
      'create',
      '--label',
      label,
      '--file',
      fixture('contract.pdf'),
      '--signer',
      'Ada <ada@example.com>',
    ].concat(['--live', '--json']),
    { env: env() },
  );
  expect(r.exitCode, r.stderr).toBe(0);
  const b = JSON.parse(r.stdout) as { id: string; packets: { id: string }[] };
  const sent = await esignIn(['bundle', 'wait', b.id, '--until', 'sent', '--timeout', '30s'], { env: env() });
  expect(sent.exitCode, sent.stderr).toBe(0);
  return { id: b.id, packet: b.packets[0]!.id };
}

/** Resolves once `text` has shown `pattern` (a child's stderr as it grows). */
function seen(read: () => string, pattern: RegExp, ms = 60_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = setInterval(() => {
      if (pattern.test(read())) {
        clearInterval(tick);
        resolve();
      } else if (Date.now() - started > ms) {
        clearInterval(tick);
        reject(new Error(`not seen in ${ms} ms: ${pattern}\n${read()}`));
      }
    }, 50);
  });
}

beforeAll(async () => {
  key = (
    await execa('node', [BIN, 'local', 'keys', 'create', '--name', 'waits', '-q'], { env: serveEnv })
  ).stdout.trim();
  serve = await startServe(serveEnv);
  port = Number(new URL(serve.address).port);
}, 60_000);
afterAll(async () => {
  await serve?.stop();
  data.cleanup();
});

describe('bundle wait through an outage (built binary, real esign serve)', () => {
  it('goes on through a server stopped and started again on the same port, then succeeds', async () => {
    const b = await sentBundle('Through a restart');
    let serveLog = '';
    serve.process.stderr!.on('data', (d: Buffer) => {
      serveLog += d.toString();
    });
    const waiting = execa('node', [BIN, 'bundle', 'wait', b.id, '--until', 'complete', '--timeout', '120s'], {
      env: env(),
      reject: false,
    });
    let err = '';
    waiting.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
    });
    // The wait has looked at least twice (its first look and a poll) before the server goes.
    await seen(
      () => (serveLog.match(new RegExp(`GET /api/v2/bundles/${b.id}/ 200`, 'g')) ?? []).length.toString(),
      /^[2-9]|\d\d/,
    );
    await serve.stop();
    try {
      await seen(() => err, /Waiting through an outage/);
    } finally {
      serve = await startServe(serveEnv, ['--port', String(port)]);
    }
    const signed = await esignIn(['local', 'sign', b.packet], { env: env() });
    expect(signed.exitCode, signed.stderr).toBe(0);
    const done = await waiting;
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stdout).toBe(`${b.id}\tco`);
    const url = `http://127.0.0.1:${port}/api/v2`;
    const lines = done.stderr.split('\n').filter(Boolean);
    // One line says what it waited through (the URL, where it came from, the failure), one that it is over.
    expect(lines.filter((l) => l.includes('Waiting through an outage'))).toEqual([
      expect.stringContaining(
        `${url} (ESIGN_BASE_URL): connection refused (ECONNREFUSED); looking again until the timeout`,
      ),
    ]);
    expect(lines.some((l) => l.startsWith(`esign: ${url} (ESIGN_BASE_URL) answers again, after `))).toBe(true);
    // The backend's own retries are not said line by line.
    expect(done.stderr).not.toMatch(/retrying in/);
  }, 150_000);

  it('exits 10 at its own timeout when the outage outlasts it, naming what it waited through', async () => {
    const b = await sentBundle('Outlasted');
    // The outage must be met before the wait's own timeout: under load the server's stop alone took
    // most of 8 s, and the wait timed out having seen only answers.
    const waiting = execa('node', [BIN, 'bundle', 'wait', b.id, '--until', 'complete', '--timeout', '20s'], {
      env: env(),
      reject: false,
    });
    let err = '';
    waiting.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
    });
    let serveLog = '';
    serve.process.stderr!.on('data', (d: Buffer) => {
      serveLog += d.toString();
    });
    await seen(() => serveLog, new RegExp(`GET /api/v2/bundles/${b.id}/ 200`));
    await serve.stop();
    try {
      const done = await waiting;
      expect(done.exitCode, err).toBe(10);
      const url = `http://127.0.0.1:${port}/api/v2`;
      // Before: 5 attempts in about 3 s, then exit 1. Now the wait's own timeout, and what it ran into.
      expect(done.stderr).toContain(
        `esign: Timed out after 20 s waiting for complete: ${b.id} is Sent (${url} (ESIGN_BASE_URL): connection refused (ECONNREFUSED)).`,
      );
      expect(done.stderr).toContain(`esign: Waiting through an outage: ${url} (ESIGN_BASE_URL): connection refused`);
    } finally {
      serve = await startServe(serveEnv, ['--port', String(port)]);
    }
  }, 60_000);

  it('waits through 503s and a 429 with Retry-After from a real HTTP server in front, then reads the answer', async () => {
    const b = await sentBundle('Behind a flaky gateway');
    expect((await esignIn(['local', 'sign', b.packet], { env: env() })).exitCode).toBe(0);
    // Five 503s (the backend's first look and its four retries), then one 429, then the real answers.
    const script = [...Array(5).fill(503), 429];
    const served: number[] = [];
    const gateway: Server = createServer(async (req, res) => {
      const next = req.method === 'GET' && req.url === `/api/v2/bundles/${b.id}/` ? script.shift() : undefined;
      if (next) {
        served.push(next);
        res.writeHead(next, { 'content-type': 'application/json', ...(next === 429 ? { 'retry-after': '1' } : {}) });
        return res.end(
          JSON.stringify({ code: next === 429 ? 'throttled' : 'unavailable', message: 'Down for maintenance' }),
        );
      }
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const answer = await fetch(`http://127.0.0.1:${port}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/api/v2`;
    try {
      const done = await execa('node', [BIN, 'bundle', 'wait', b.id, '--timeout', '60s'], {
        env: clientEnv(url),
        reject: false,
      });
      expect(done.exitCode, done.stderr).toBe(0);
      expect(served).toEqual([503, 503, 503, 503, 503, 429]);
      expect(done.stdout).toBe(`${b.id}\tco`);
      expect(done.stderr).toContain(
        `esign: Waiting through an outage: ${url} (ESIGN_BASE_URL): HTTP 503: Down for maintenance; looking again`,
      );
      expect(done.stderr).toContain(
        `esign: Waiting through an outage: ${url} (ESIGN_BASE_URL): rate limited (HTTP 429)`,
      );
      expect(done.stderr).toContain(`esign: ${url} (ESIGN_BASE_URL) answers again, after `);
      expect(done.stderr).not.toMatch(/retrying in/);
    } finally {
      await new Promise((r) => gateway.close(r));
    }
  }, 90_000);
});
