// The remote adapter against a faulty server on 127.0.0.1: 429 and 503 answers, cut connections,
// stalls. It retries what is safe, never creates a Bundle twice, and says clearly when it gives up.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteService } from '../../src/remote/remote.js';
import { TransportError } from '../../src/remote/http.js';
import { bundleRequest, expectApiError } from '../helpers.js';

type Step = (req: IncomingMessage, res: ServerResponse) => void;
const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
const cut: Step = (req) => req.socket.destroy();
const stall: Step = () => {};

let server: Server | undefined;
let client: RemoteService | undefined;
const notes: string[] = [];

/** Waits the client asked for (ms), when a test injects time instead of sleeping. */
const waited: number[] = [];
const injected = async (ms: number) => void waited.push(ms);

/** A server that answers the n-th request with steps[n] (the last step repeats); records what it got. */
async function faulty(steps: Step[], sleep?: (ms: number) => Promise<void>) {
  const seen: { method: string; url: string; body: string }[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, body });
      steps[Math.min(seen.length - 1, steps.length - 1)](req, res);
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  notes.length = 0;
  waited.length = 0;
  client = new RemoteService({
    baseUrl: `http://127.0.0.1:${port}/api/v2`,
    apiKey: 'k',
    maxRetries: 3,
    baseDelayMs: 5,
    maxDelayMs: 20,
    timeoutMs: 300,
    note: (l) => notes.push(l),
    sleep,
  });
  return seen;
}

afterEach(async () => {
  await client?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

const bundle = { id: 'B1', status: 'se', custom_key: 'ck-1', packets: [], documents: [], tags: [] };

describe('remote adapter under faults', () => {
  it('retries a GET through 503, 429 and a cut connection, with a note for each wait', async () => {
    const seen = await faulty([
      json(503, { code: 'service_unavailable', message: 'down' }),
      json(429, { code: 'throttled', message: 'slow down' }),
      cut,
      json(200, bundle),
    ]);
    expect((await client!.getBundle('B1')).id).toBe('B1');
    expect(seen).toHaveLength(4);
    expect(notes).toHaveLength(3);
    expect(notes[0]).toMatch(/HTTP 503 from GET \/bundles\/B1\/; retrying in \d+\.\d s \(retry 1 of 3\)/);
  });

  it('honours Retry-After', async () => {
    await faulty(
      [json(429, { code: 'throttled', message: 'wait' }, { 'retry-after': '1' }), json(200, bundle)],
      injected,
    );
    await client!.getBundle('B1');
    expect(waited).toHaveLength(1);
    expect(waited[0]).toBeGreaterThanOrEqual(1000);
  });

  it('does not sit out a Retry-After longer than a minute: the 429 comes back at once', async () => {
    const seen = await faulty(
      [json(429, { code: 'throttled', message: 'come back in an hour' }, { 'retry-after': '3600' })],
      injected,
    );
    await expectApiError(client!.getBundle('B1'), 429, { code: 'throttled' });
    // No pause at all (the sleeps it asks for are recorded, not slept), and no second try.
    expect(waited).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('gives up after the retries with the last error (429 stays a 429)', async () => {
    const seen = await faulty([json(429, { code: 'throttled', message: 'Request was throttled.' })]);
    await expectApiError(client!.listBundles(), 429, { code: 'throttled' });
    expect(seen).toHaveLength(4);
  });

  it('times out a stalled server and says so after the retries', async () => {
    const seen = await faulty([stall]);
    const err = await client!.getBundle('B1').catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toMatch(/GET .*\/bundles\/B1\/ failed: .*after 4 attempts/);
    expect(seen).toHaveLength(4);
  });

  it('never repeats a create without a custom_key', async () => {
    const seen = await faulty([json(503, { code: 'service_unavailable', message: 'down' }), json(201, bundle)]);
    await expectApiError(client!.createBundle(bundleRequest()), 503);
    expect(seen.filter((s) => s.method === 'POST')).toHaveLength(1);
  });

  it('with a custom_key, finds the Bundle a cut create already made instead of creating it again', async () => {
    const seen = await faulty([cut, json(200, [bundle], { 'x-blueink-pagination': '1,1,100,1' })]);
    const got = await client!.createBundle(bundleRequest({ custom_key: 'ck-1' }));
    expect(got.id).toBe('B1');
    expect(seen.map((s) => `${s.method} ${s.url.split('?')[0]}`)).toEqual([
      'POST /api/v2/bundles/',
      'GET /api/v2/bundles/',
    ]);
    expect(seen[1].url).toContain('search=ck-1');
  });

  it('with a custom_key and no Bundle found, creates again once the server answers', async () => {
    const seen = await faulty([
      json(503, { code: 'service_unavailable', message: 'down' }),
      json(200, []),
      json(201, bundle),
    ]);
    expect((await client!.createBundle(bundleRequest({ custom_key: 'ck-1' }))).id).toBe('B1');
    expect(seen.filter((s) => s.method === 'POST')).toHaveLength(2);
  });

  it('does not retry a 400 or a 404', async () => {
    const seen = await faulty([json(404, { code: 'not_found', message: 'nope' })]);
    await expectApiError(client!.getBundle('x'), 404);
    expect(seen).toHaveLength(1);
  });

  it('waits out a 429 on a create (Retry-After) and posts it again, with no lookup in between', async () => {
    const seen = await faulty(
      [json(429, { code: 'throttled', message: 'wait' }, { 'retry-after': '7' }), json(201, bundle)],
      injected,
    );
    expect((await client!.createBundle(bundleRequest({ custom_key: 'ck-1' }))).id).toBe('B1');
    expect(seen.map((s) => s.method)).toEqual(['POST', 'POST']);
    expect(waited).toHaveLength(1);
    expect(waited[0]).toBeGreaterThanOrEqual(7000);
  });

  it('tells a listener until when it waits out a 429 (a batch pauses every row meanwhile)', async () => {
    await faulty(
      [json(429, { code: 'throttled', message: 'wait' }, { 'retry-after': '3' }), json(200, bundle)],
      injected,
    );
    const told: number[] = [];
    const listening = new RemoteService({
      baseUrl: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/api/v2`,
      apiKey: 'k',
      sleep: injected,
      onThrottle: (u) => told.push(u),
    });
    const before = Date.now();
    await listening.getBundle('B1');
    await listening.close();
    expect(told).toHaveLength(1);
    expect(told[0] - before).toBeGreaterThanOrEqual(3000);
  });

  it('waits out a 429 on an operation that is not safe to repeat (send): it was not processed', async () => {
    const seen = await faulty(
      [json(429, { code: 'throttled', message: 'wait' }, { 'retry-after': '2' }), json(200, bundle)],
      injected,
    );
    expect((await client!.sendBundle('B1')).id).toBe('B1');
    expect(seen.map((s) => s.method)).toEqual(['POST', 'POST']);
    expect(waited[0]).toBeGreaterThanOrEqual(2000);
  });

  it('looks the custom_key up across every page of the search before creating again', async () => {
    const other = (n: number) => ({ ...bundle, id: `X${n}`, custom_key: `ck-1${n}` });
    const page1 = Array.from({ length: 100 }, (_, i) => other(i));
    const seen = await faulty(
      [
        cut,
        json(200, page1, { 'x-blueink-pagination': '1,2,100,101' }),
        json(200, [bundle], { 'x-blueink-pagination': '2,2,100,101' }),
      ],
      injected,
    );
    expect((await client!.createBundle(bundleRequest({ custom_key: 'ck-1' }))).id).toBe('B1');
    expect(seen.map((s) => `${s.method} ${new URL(s.url, 'http://x').searchParams.get('page') ?? ''}`)).toEqual([
      'POST ',
      'GET 1',
      'GET 2',
    ]);
  });
});
