// `esign api` and file links on a remote backend go through the remote adapter's HTTP client: its
// retry policy (a 429 waited out, a 503 on a safe method sent again) and its timeouts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RemoteService } from '../../src/remote/remote.js';
import { withRemoteServer } from '../helpers.js';
import { esignIn } from './inProcess.js';

/** A server that answers each request with the next of `answers` (the last one again when they run out). */
function scripted(answers: ((req: IncomingMessage, res: ServerResponse) => void)[]) {
  const seen: { method?: string; url?: string; authorization?: string; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body });
      answers[Math.min(seen.length, answers.length) - 1]!(req, res);
    });
  });
  return { server, seen };
}
const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (_: IncomingMessage, res: ServerResponse) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

describe('esign api on a remote backend', () => {
  it('waits out a 429 (Retry-After) and prints the answer that follows, with the key sent each time', async () => {
    const { server, seen } = scripted([
      json(429, { code: 'throttled', message: 'Request was throttled.' }, { 'retry-after': '1' }),
      json(200, [{ id: 'b1' }]),
    ]);
    await withRemoteServer(server, async (env) => {
      const r = await esignIn(['api', 'GET', '/bundles/?per_page=1'], { env });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([{ id: 'b1' }]);
      expect(r.stderr).toMatch(/HTTP 429 from GET \/bundles\/\?per_page=1; retrying in 1\.\d s/);
    });
    expect(seen.map((s) => [s.method, s.url, s.authorization])).toEqual([
      ['GET', '/api/v2/bundles/?per_page=1', 'Token k'],
      ['GET', '/api/v2/bundles/?per_page=1', 'Token k'],
    ]);
  });

  it('sends a POST once when its outcome is unknown (503), and prints the error as the server gave it', async () => {
    const { server, seen } = scripted([json(503, { code: 'unavailable', message: 'Down for a moment.' })]);
    await withRemoteServer(server, async (env) => {
      const r = await esignIn(['api', 'POST', '/persons/', '-f', 'name=Ada'], { env });
      expect(r.exitCode).toBe(1);
      expect(JSON.parse(r.stdout)).toEqual({ code: 'unavailable', message: 'Down for a moment.' });
    });
    expect(seen).toHaveLength(1);
    expect(JSON.parse(seen[0]!.body)).toEqual({ name: 'Ada' });
  });

  it('sends a GET again after a 503, and keeps a caller-given Authorization', async () => {
    const { server, seen } = scripted([json(503, { code: 'unavailable', message: 'x' }), json(200, { ok: true })]);
    await withRemoteServer(server, async (env) => {
      const r = await esignIn(['api', 'GET', 'rate_limit/', '-H', 'Authorization: Token other'], { env });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ ok: true });
    });
    expect(seen.map((s) => s.authorization)).toEqual(['Token other', 'Token other']);
  });
});

describe('file links on a remote backend', () => {
  it('are fetched without the key, a 503 sent again, and anything but 200 refused naming the link', async () => {
    const { server, seen } = scripted([
      (_q, res) => res.writeHead(503).end('busy'),
      (_q, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7 bytes'),
      (_q, res) => res.writeHead(410).end('gone'),
    ]);
    await withRemoteServer(server, async (env) => {
      const remote = new RemoteService({ baseUrl: env.ESIGN_BASE_URL!, apiKey: 'k', baseDelayMs: 10 });
      try {
        const link = `${env.ESIGN_BASE_URL!.replace('/api/v2', '')}/files/abc`;
        const got = await Readable.from(await remote.openFileLink(link)).toArray();
        expect(Buffer.concat(got).toString()).toBe('%PDF-1.7 bytes');
        await expect(remote.openFileLink(link)).rejects.toThrow(`Downloading ${link} failed: HTTP 410.`);
      } finally {
        await remote.close();
      }
    });
    expect(seen.map((s) => [s.method, s.url, s.authorization])).toEqual([
      ['GET', '/files/abc', undefined],
      ['GET', '/files/abc', undefined],
      ['GET', '/files/abc', undefined],
    ]);
  });
});
