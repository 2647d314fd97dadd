// What the service's Python and PHP clients send, byte for byte as their public sources show it,
// against esign serve over raw HTTP (nothing forgiven by a client of ours): phones as people type
// them, multipart parts named files[0], form-encoded webhook and header bodies with repeated keys
// and Python's True/False, status_in/tag_in, and a create missing its members. Where a client
// itself is wrong, the test says so and shows what the wire answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedEngine, serveEngine } from '../engineServer.js';
import { CONTRACT_PDF, bundleRequest, newEngine } from '../helpers.js';
import { raw } from '../rawHttp.js';

let engine: ReturnType<typeof newEngine>;
let served: ServedEngine;
beforeAll(async () => {
  engine = newEngine();
  served = await serveEngine(engine);
});
afterAll(async () => {
  await served?.close();
  await engine?.dispose();
});

type Errors = { code: string; errors: { field: string; messsage: string; message: string }[] };
const json = (method: string, path: string, body: unknown) =>
  raw(served.origin, `/api/v2${path}`, {
    method,
    key: served.key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
/** As Python's requests sends `data=dict`: form-encoded, a list repeating its key. */
const form = (method: string, path: string, members: Record<string, string | string[]>) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(members)) for (const one of [v].flat()) params.append(k, one);
  return raw(served.origin, `/api/v2${path}`, {
    method,
    key: served.key,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: params.toString(),
  });
};

describe('the Python client: phones as its tests and examples type them', () => {
  const TYPED = ['505 555 5555', '(505) 555-5555', '505.555.5555', '+1 505-555-5555', '+44 20 7946 0958'];

  it('creates a Bundle with a signer by phone, and a Person, with "505 555 5555" (its own tests), answered as sent', async () => {
    for (const phone of TYPED) {
      const b = await json(
        'POST',
        '/bundles/',
        bundleRequest({ packets: [{ name: 'Sam', phone, deliver_via: 'phone' }] }),
      );
      expect(b.status, `${phone}: ${b.text}`).toBe(201);
      expect((b.json() as { packets: { phone: string }[] }).packets[0]!.phone).toBe(phone);
    }
    const person = await json('POST', '/persons/', { name: 'Sam', channels: [{ kind: 'mp', phone: '505 555 5555' }] });
    expect(person.status, person.text).toBe(201);
    expect((person.json() as { channels: { phone: string }[] }).channels[0]!.phone).toBe('505 555 5555');
    // The text goes to the number in E.164, whichever way it was typed.
    const sms = engine.outbox().filter((m) => m.channel === 'sms');
    expect(new Set(sms.map((m) => m.recipient))).toEqual(new Set(['+15055555555', '+442079460958']));
  });

  it('refuses only what holds no number, naming the field', async () => {
    for (const phone of ['12', 'call me', '1-800-FLOWERS']) {
      const r = await json('POST', '/persons/', { name: 'Sam', channels: [{ phone }] });
      expect(r.status, phone).toBe(400);
      expect((r.json() as Errors).errors.map((e) => e.field)).toEqual(['channels[0].phone']);
    }
  });
});

describe('the Python and JS clients: multipart Bundle creation', () => {
  it('reads files[0], files[1] parts beside the bundle_request JSON part (file_index names them)', async () => {
    const boundary = '----strangerboundary';
    const spec = bundleRequest({
      documents: [
        { key: 'a', file_index: 0 },
        { key: 'b', file_index: 1 },
      ],
    });
    const part = (headers: string, body: Buffer | string) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.from(body), Buffer.from('\r\n')]);
    const body = Buffer.concat([
      part('Content-Disposition: form-data; name="bundle_request"', JSON.stringify(spec)),
      part(
        'Content-Disposition: form-data; name="files[0]"; filename="one.pdf"\r\nContent-Type: application/pdf',
        CONTRACT_PDF,
      ),
      part(
        'Content-Disposition: form-data; name="files[1]"; filename="two.pdf"\r\nContent-Type: application/pdf',
        CONTRACT_PDF,
      ),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const r = await raw(served.origin, '/api/v2/bundles/', {
      method: 'POST',
      key: served.key,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(r.status, r.text).toBe(201);
    expect((r.json() as { documents: { key: string; name: string }[] }).documents).toEqual([
      { key: 'a', name: 'one.pdf' },
      { key: 'b', name: 'two.pdf' },
    ]);
  });
});

describe('the Python client: webhook and header bodies form-encoded', () => {
  it('repeated event_types keys and True/False, for a webhook and its extra header', async () => {
    const hook = await form('POST', '/webhooks/', {
      name: 'py',
      url: 'https://hooks.example.com/in',
      event_types: ['bundle_sent', 'bundle_complete'],
      enabled: 'True',
      json: 'False',
    });
    expect(hook.status, hook.text).toBe(201);
    const made = hook.json() as { id: string; enabled: boolean; json: boolean; event_types: string[] };
    expect([made.enabled, made.json, made.event_types]).toEqual([true, false, ['bundle_sent', 'bundle_complete']]);
    const header = await form('POST', '/webhooks/headers/', {
      webhook: made.id,
      name: 'X-Py',
      value: 'True',
      order: '0',
    });
    expect(header.status, header.text).toBe(201);
    // A header's value is text: "True" stays "True".
    expect(header.json()).toMatchObject({ webhook: made.id, name: 'X-Py', value: 'True', order: 0 });
    const off = await form('PATCH', `/webhooks/${made.id}/`, { enabled: 'False' });
    expect((off.json() as { enabled: boolean }).enabled).toBe(false);
  });
});

describe('the Python client: list filters spelt status_in and tag_in', () => {
  it('filters as status__in and tag__in do, and pages in X-Blueink-Pagination', async () => {
    const draft = (await json('POST', '/bundles/', bundleRequest({ status: 'dr', label: 'py-draft' }))).json() as {
      id: string;
    };
    expect((await json('PUT', `/bundles/${draft.id}/add_tags/`, { tags: ['py-tag'] })).status).toBe(200);
    const one = await raw(served.origin, '/api/v2/bundles/?status_in=dr&tag_in=py-tag', { key: served.key });
    expect(one.status).toBe(200);
    expect((one.json() as { id: string }[]).map((b) => b.id)).toEqual([draft.id]);
    expect(one.headers['x-blueink-pagination']).toBe('1,1,50,1');
    const spelt = await raw(served.origin, '/api/v2/bundles/?status__in=dr&tag__in=py-tag', { key: served.key });
    expect(spelt.json()).toEqual(one.json());
  });
});

describe('a create missing its members', () => {
  it('{} names every missing member: packets and documents', async () => {
    const r = await json('POST', '/bundles/', {});
    expect(r.status).toBe(400);
    const body = r.json() as Errors;
    expect(body.code).toBe('invalid');
    expect(body.errors.map((e) => e.field).sort()).toEqual(['documents', 'packets']);
    expect(body.errors.every((e) => e.messsage === e.message)).toBe(true);
  });

  it('"documents": [] is a 400 naming documents (an envelope_template brings its own)', async () => {
    const r = await json('POST', '/bundles/', bundleRequest({ documents: [] }));
    expect(r.status).toBe(400);
    expect((r.json() as Errors).errors).toMatchObject([
      { field: 'documents', message: 'At least one document is required.' },
    ]);
  });
});

describe("the account's default verified address", () => {
  // The Python client validates addresses with a library that refuses special-use domains; these are its names.
  const SPECIAL_USE = ['arpa', 'invalid', 'local', 'localhost', 'onion', 'test'];
  it('is on a reserved example domain that library accepts (not .local)', async () => {
    const facts = (await raw(served.origin, '/sandbox/account/', { key: served.key })).json() as {
      verified_addresses: string[];
    };
    expect(facts.verified_addresses).toEqual(['owner@example.com']);
    const tld = facts.verified_addresses[0]!.split('.').pop()!;
    expect(SPECIAL_USE).not.toContain(tld);
  });
});

describe('the PHP client 1.1.0', () => {
  it('is wrong to call /apps/ and /account/ (API v1 leftovers, in no spec of API v2): 404 with the Error object', async () => {
    for (const path of ['/api/v2/apps/', '/api/v2/account/']) {
      const r = await raw(served.origin, path, { key: served.key });
      expect(r.status, path).toBe(404);
      expect(r.json()).toMatchObject({ code: 'not_found' });
    }
  });
});
