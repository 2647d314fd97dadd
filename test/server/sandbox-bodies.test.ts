// The sandbox's sign and decline bodies are read by schemas (PacketSignRequest,
// PacketDeclineRequest): a malformed member is a 400 naming it, and nothing is recorded.
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.js';
import { serveEngine } from '../engineServer.js';
import { bundleRequest, newEngine } from '../helpers.js';

let engine: ReturnType<typeof newEngine>;
afterEach(async () => engine?.dispose());

describe('sandbox bodies', () => {
  it('refuses malformed sign and decline bodies by field, and signs with a well-formed one', async () => {
    engine = newEngine();
    const key = engine.keys.create('t').key;
    const app = await buildServer({ service: engine, local: engine, authenticate: (k) => engine.keys.authenticate(k) });
    const b = await engine.createBundle(bundleRequest({ in_order: false }));
    const [ada, bob] = b.packets;
    const post = (id: string, verb: string, payload: unknown) =>
      app.inject({
        method: 'POST',
        url: `/sandbox/packets/${id}/${verb}/`,
        headers: { authorization: `Token ${key}` },
        payload: payload as object,
      });
    const fields = (r: { json(): unknown }) =>
      (r.json() as { errors?: { field: string }[] }).errors?.map((e) => e.field);

    let r = await post(ada!.id, 'sign', { values: { title: { nested: true } } });
    expect(r.statusCode).toBe(400);
    expect(fields(r)).toEqual(['values.title']);
    r = await post(ada!.id, 'sign', { attachments: { scan: [{ name: 'a.png' }] } });
    expect(r.statusCode).toBe(400);
    expect(fields(r)).toEqual(['attachments.scan[0].b64']);
    r = await post(ada!.id, 'sign', { values: 'title=CEO' });
    expect(r.statusCode).toBe(400);
    expect(fields(r)).toEqual(['values']);
    r = await post(bob!.id, 'decline', { reason: 42 });
    expect(r.statusCode).toBe(400);
    expect(fields(r)).toEqual(['reason']);
    expect((await engine.getBundle(b.id)).status).toBe('se');

    r = await post(ada!.id, 'sign', {});
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ id: ada!.id, status: 'co' });
    r = await post(bob!.id, 'decline', { reason: 'Wrong name' });
    expect(r.json()).toMatchObject({ id: bob!.id, status: 'ca' });
    await app.close();
  });
});

describe('the sandbox account facts', () => {
  it('GET /sandbox/account/ answers the features and verified addresses to a key holder only (real HTTP)', async () => {
    engine = newEngine();
    engine.account.addUser({ email: 'pat@example.com', verified: false });
    const served = await serveEngine(engine);
    try {
      const url = `${served.origin}/sandbox/account/`;
      const anonymous = await fetch(url);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ code: 'not_authenticated' });
      const r = await fetch(url, { headers: { authorization: `Token ${served.key}` } });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await r.json()).toEqual({
        features: engine.account.settings().features,
        verified_addresses: ['owner@example.com'],
      });
    } finally {
      await served.close();
    }
  });
});
