// The HTTP wire of `esign serve` itself: auth, errors, pagination headers, multipart, rate limits.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.js';
import { apiCaller } from '../engineServer.js';
import { CONTRACT_PDF, bundleRequest, newEngine } from '../helpers.js';

let engine: ReturnType<typeof newEngine>;
let app: FastifyInstance;
let base: string;
let key: string;
const logLines: string[] = [];

async function start(rateLimits?: { limit?: number; createLimit?: number; windowSeconds?: number }) {
  engine = newEngine();
  key = engine.keys.create('test').key;
  app = await buildServer({
    service: engine,
    authenticate: (k) => engine.keys.authenticate(k),
    rateLimits,
    log: (l) => logLines.push(l),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v2`;
}

const call: ReturnType<typeof apiCaller> = (path, init) => apiCaller(base, key)(path, init);

beforeEach(async () => {
  logLines.length = 0;
});
afterEach(async () => {
  await app?.close();
  await engine?.dispose();
});

describe('esign serve: the wire', () => {
  it('creates with JSON (201) and with multipart files + bundle_request', async () => {
    await start();
    const json = await call('/bundles/', { method: 'POST', json: bundleRequest() });
    expect(json.status).toBe(201);
    expect((await json.json()).status).toBe('se');
    const form = new FormData();
    form.append('files', new Blob([CONTRACT_PDF], { type: 'application/pdf' }), 'contract.pdf');
    form.append(
      'bundle_request',
      JSON.stringify({
        label: 'multi',
        packets: [{ name: 'B', email: 'b@example.com' }],
        documents: [{ file_index: 0 }],
      }),
    );
    const multi = await call('/bundles/', { method: 'POST', body: form });
    expect(multi.status).toBe(201);
    expect(await multi.json()).toMatchObject({ label: 'multi', documents: [{ key: 'doc-1', name: 'contract.pdf' }] });
  });

  it('answers 401 without a key or with a wrong one, and never logs the key', async () => {
    await start();
    const missing = await call('/bundles/', { auth: null });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ code: 'not_authenticated' });
    const wrong = await call('/bundles/', { auth: 'esk_wrong' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: 'authentication_failed' });
    engine.keys.revoke(engine.keys.list()[0].id);
    expect((await call('/bundles/')).status).toBe(401);
    expect(logLines.join('\n')).not.toContain(key);
    expect(logLines[0]).toMatch(/^GET \/api\/v2\/bundles\/ 401 \d+\.\d+ms$/);
  });

  it('gives the Error object for 400 (field errors), parse errors, 404, 405 and 415', async () => {
    await start();
    const bad = await call('/bundles/', { method: 'POST', json: bundleRequest({ email_subject: 's'.repeat(401) }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      code: 'invalid',
      errors: [{ field: 'email_subject', messsage: expect.stringMatching(/400 characters/) }],
    });
    const parse = await call('/bundles/', {
      method: 'POST',
      body: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(parse.status).toBe(400);
    expect((await parse.json()).code).toBe('parse_error');
    const missing = await call('/bundles/nope/');
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe('not_found');
    const unknown = await call('/nothing-here/');
    expect(unknown.status).toBe(404);
    const method = await call('/bundles/', { method: 'DELETE' });
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('GET, POST');
    expect((await method.json()).code).toBe('method_not_allowed');
    const media = await call('/bundles/', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } });
    expect(media.status).toBe(415);
    expect((await media.json()).code).toBe('unsupported_media_type');
    const include = await call('/bundles/nope/?include=bogus');
    expect(include.status).toBe(400);
    expect(await include.json()).toEqual({ error: expect.stringMatching(/bogus.*data, events, files/) });
  });

  it('accepts an empty JSON body on PUT actions (cancel)', async () => {
    await start();
    const b = await (await call('/bundles/', { method: 'POST', json: bundleRequest() })).json();
    const r = await call(`/bundles/${b.id}/cancel/`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(200);
    expect((await r.json()).status).toBe('ca');
  });

  it('pages lists with X-Blueink-Pagination and a Link header', async () => {
    await start();
    for (let i = 0; i < 5; i++) await engine.createBundle(bundleRequest({ label: `b${i}` }));
    const r = await call('/bundles/?per_page=2&page=2');
    expect(r.headers.get('x-blueink-pagination')).toBe('2,3,2,5');
    const link = r.headers.get('link')!;
    expect(link).toMatch(/page=1>; rel="first"/);
    expect(link).toMatch(/page=1>; rel="prev"/);
    expect(link).toMatch(/page=3>; rel="next"/);
    expect(link).toMatch(/page=3>; rel="last"/);
    expect((await r.json()).map((b: { label: string }) => b.label)).toEqual(['b2', 'b1']);
    expect((await call('/bundles/?page=4&per_page=2')).status).toBe(404);
  });

  it('limits requests per key: 429 throttled with Retry-After; rate_limit reports without using a request', async () => {
    await start({ limit: 3, createLimit: 1, windowSeconds: 60 });
    expect((await call('/bundles/', { method: 'POST', json: bundleRequest() })).status).toBe(201);
    const secondCreate = await call('/bundles/', { method: 'POST', json: bundleRequest() });
    expect(secondCreate.status).toBe(429);
    expect(Number(secondCreate.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await secondCreate.json()).code).toBe('throttled');
    const status = await (await call('/rate_limit/')).json();
    expect(status).toMatchObject({ limit: 3, remaining: 2, window: 60 });
    expect(await (await call('/rate_limit/')).json()).toMatchObject({ remaining: 2 });
    expect((await call('/bundles/')).status).toBe(200);
    expect((await call('/bundles/')).status).toBe(200);
    expect((await call('/bundles/')).status).toBe(429);
    const other = engine.keys.create('other').key;
    expect((await call('/bundles/', { auth: other })).status).toBe(200);
  });

  it('serves every group of the spec, and public verify without a key', async () => {
    await start();
    for (const path of [
      '/persons/',
      '/templates/',
      '/envelope-templates/',
      '/webhooks/',
      '/webhooks/headers/',
      '/webhooks/events/',
      '/webhooks/deliveries/',
    ]) {
      const r = await call(path);
      expect(r.status, path).toBe(200);
      expect(await r.json(), path).toEqual([]);
    }
    expect((await call('/webhooks/secret/')).status).toBe(200);
    const verify = await call('/verify/', { method: 'POST', json: { hash: '0'.repeat(64) }, auth: null });
    expect(verify.status).toBe(200);
    expect((await verify.json()).status).toBe('no_match');
  });
});
