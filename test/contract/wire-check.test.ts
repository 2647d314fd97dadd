// The contract suite's wire check can fail: each rule it holds esign serve to, shown on a real
// answer of the engine made wrong in one way, and the hook in the remote adapter's HTTP path
// catching what the adapter itself forgives.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteService } from '../../src/remote/remote.js';
import { bundleRequest, newEngine } from '../helpers.js';
import { type WireResponse, wireProblems } from '../wireCheck.js';
import { watchWire } from './wireHook.js';

let bundle: Record<string, unknown>;
beforeAll(async () => {
  const engine = newEngine();
  bundle = JSON.parse(JSON.stringify(await engine.createBundle(bundleRequest())));
  await engine.dispose();
});

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
const answer = (method: string, url: string, status: number, body: unknown, headers: Record<string, string> = {}) =>
  ({
    method,
    url,
    status,
    headers: { ...JSON_TYPE, ...headers },
    body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
  }) satisfies WireResponse;
const anError = (over: Record<string, unknown> = {}) => ({
  code: 'not_found',
  message: 'Bundle "x" was not found.',
  detail: 'Bundle "x" was not found.',
  errors: [],
  ...over,
});

describe('the wire check', () => {
  it("passes the engine's own answers as esign serve sends them", () => {
    expect(wireProblems(answer('POST', '/api/v2/bundles/', 201, bundle))).toEqual([]);
    const page = answer('GET', '/api/v2/bundles/?per_page=1', 200, [bundle], { 'x-blueink-pagination': '1,1,1,1' });
    expect(wireProblems(page)).toEqual([]);
    expect(wireProblems(answer('GET', '/api/v2/bundles/x/', 404, anError()))).toEqual([]);
    expect(wireProblems(answer('GET', '/api/v2/bundles/x/', 400, { error: 'include: unsupported.' }))).toEqual([]);
  });

  it.each([
    [
      'a member the schema does not name',
      () => ({ ...bundle, surprise: 1 }),
      'body.surprise: a member the schema does not name',
    ],
    [
      'a member the schema does not name, deep inside',
      () => ({ ...bundle, packets: [{ ...(bundle.packets as object[])[0], surprise: 1 }] }),
      'body.packets[0].surprise: a member the schema does not name',
    ],
    ['a member missing', () => ({ ...bundle, status: undefined }), 'body.status:'],
    ['a value of the wrong kind', () => ({ ...bundle, is_test: 'no' }), 'body.is_test:'],
  ])('fails a success with %s', (_what, body, problem) => {
    expect(wireProblems(answer('GET', '/api/v2/bundles/x/', 200, body())).join('\n')).toContain(problem);
  });

  it('fails a success at another status than the table says, or a 204 with a body', () => {
    expect(wireProblems(answer('POST', '/api/v2/bundles/', 200, bundle))).toEqual(['status 200, the table says 201']);
    expect(wireProblems(answer('DELETE', '/api/v2/persons/p/', 204, {}))).toEqual(['a 204 with a body']);
    expect(wireProblems(answer('GET', '/api/v2/no/such/', 200, {}))).toEqual([
      'no operation of the table answers GET /api/v2/no/such/',
    ]);
  });

  it('holds a file link (the remote adapter fetches it through the same client) to its type, not to the table', () => {
    const pdf = { method: 'GET', url: '/files/tok/contract.pdf', status: 200, body: Buffer.from('%PDF-1.7') };
    const typed = { 'content-type': 'application/pdf', 'x-content-type-options': 'nosniff' };
    expect(wireProblems({ ...pdf, headers: typed })).toEqual([]);
    expect(wireProblems({ ...pdf, headers: {} })).toEqual([
      'file link: no content-type',
      'file link: no X-Content-Type-Options: nosniff',
    ]);
  });

  it('fails a page of a list without X-Blueink-Pagination, or with one that does not add up', () => {
    expect(wireProblems(answer('GET', '/api/v2/bundles/', 200, [bundle])).join()).toMatch(/X-Blueink-Pagination/);
    const short = answer('GET', '/api/v2/bundles/', 200, [bundle], { 'x-blueink-pagination': '1,2,2,3' });
    expect(wireProblems(short)).toEqual(['page 1 of 2 holds 1, not 2']);
  });

  it("fails an error that is not the Error object: fastify's own body, a key missing, one spelling of the field message", () => {
    const fastify = { statusCode: 404, code: 'not_found', error: 'Not Found', message: 'Bundle "x" was not found.' };
    expect(wireProblems(answer('GET', '/api/v2/bundles/x/', 404, fastify)).sort()).toEqual([
      'body.detail: Invalid input: expected string, received undefined',
      'body.errors: Invalid input: expected array, received undefined',
      'body: Unrecognized keys: "statusCode", "error"',
    ]);
    const oneSpelling = anError({ code: 'invalid', errors: [{ field: 'label', messsage: 'Too long.' }] });
    expect(wireProblems(answer('POST', '/api/v2/bundles/', 400, oneSpelling)).join()).toMatch(/errors\.0\.message/);
    expect(wireProblems(answer('GET', '/api/v2/bundles/x/', 404, anError({ code: 'FST_ERR_X' }))).join()).toMatch(
      /body\.code/,
    );
    const html = { ...answer('GET', '/api/v2/bundles/x/', 404, anError()), headers: { 'content-type': 'text/html' } };
    expect(wireProblems(html)).toEqual(['content-type "text/html", not JSON']);
  });

  it('fails a 429 without Retry-After and a 405 without Allow', () => {
    const throttled = anError({ code: 'throttled', message: 'Slow down.', detail: 'Slow down.' });
    expect(wireProblems(answer('GET', '/api/v2/bundles/', 429, throttled))).toEqual([
      'a 429 without Retry-After in seconds',
    ]);
    expect(wireProblems(answer('GET', '/api/v2/bundles/', 429, throttled, { 'retry-after': '12' }))).toEqual([]);
    const method = anError({ code: 'method_not_allowed', message: 'No.', detail: 'No.' });
    expect(wireProblems(answer('PUT', '/api/v2/bundles/', 405, method))).toEqual(['a 405 without Allow']);
  });
});

describe("the hook in the remote adapter's HTTP path", () => {
  let server: ReturnType<typeof createServer>;
  let origin: string;
  beforeAll(async () => {
    // A server that answers a Bundle with one member more than the table's schema names.
    server = createServer((_req, res) => res.writeHead(200, JSON_TYPE).end(JSON.stringify({ ...bundle, extra: true })));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('reads what the adapter forgives, and fails the scenario at its end', async () => {
    const wire = watchWire();
    const service = new RemoteService({
      baseUrl: `${origin}/api/v2`,
      apiKey: 'k',
      maxRetries: 0,
      dispatcher: wire.dispatcher,
    });
    expect((await service.getBundle('x')).id).toBe(bundle.id);
    await service.close();
    await wire.dispatcher.close();
    expect(wire.seen).toBe(1);
    expect(() => wire.assertClean()).toThrow(
      'The wire differs from the operations table:\nGET /api/v2/bundles/x/ -> 200: body.extra: a member the schema does not name',
    );
  });
});
