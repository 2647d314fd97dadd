// Webhook bodies sent as application/x-www-form-urlencoded with JSON-string members (some clients do).
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.js';
import { newEngine } from '../helpers.js';

let engine: ReturnType<typeof newEngine>;
let app: FastifyInstance;
let base: string;
let key: string;

beforeEach(async () => {
  engine = newEngine();
  key = engine.keys.create('test').key;
  app = await buildServer({ service: engine, authenticate: (k) => engine.keys.authenticate(k) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v2`;
});
afterEach(async () => {
  await app.close();
  await engine.dispose();
});

/** Sends `members` form-encoded (a list value repeats its key, as Python's requests does). */
async function form(method: string, path: string, members: Record<string, string | string[]>) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(members)) for (const one of [v].flat()) params.append(k, one);
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Token ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: params.toString(),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

const URL_A = 'http://127.0.0.1:1/a';

describe('esign serve: form-urlencoded webhook bodies', () => {
  it('creates a webhook from a form with JSON-string members (201, event_types an array)', async () => {
    const r = await form('POST', '/webhooks/', {
      name: 'Form hook',
      url: URL_A,
      event_types: '["bundle_sent","packet_viewed"]',
      enabled: 'false',
      json: 'true',
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: 'Form hook',
      url: URL_A,
      enabled: false,
      json: true,
      event_types: ['bundle_sent', 'packet_viewed'],
    });
    expect(await engine.getWebhook(r.body.id as string)).toEqual(r.body);
  });

  it('takes repeated keys and a single plain value as the list of event types, and Python booleans', async () => {
    const repeated = await form('POST', '/webhooks/', {
      name: 'r',
      url: URL_A,
      event_types: ['bundle_sent', 'bundle_complete'],
      json: 'False',
    });
    expect(repeated.status).toBe(201);
    expect(repeated.body).toMatchObject({
      event_types: ['bundle_sent', 'bundle_complete'],
      json: false,
      enabled: true,
    });
    const single = await form('POST', '/webhooks/', { name: 's', url: URL_A, event_types: 'packet_complete' });
    expect(single.status).toBe(201);
    expect(single.body.event_types).toEqual(['packet_complete']);
  });

  it('replaces and updates a webhook from forms', async () => {
    const id = (
      await form('POST', '/webhooks/', { name: 'w', url: URL_A, event_types: '["bundle_sent","bundle_error"]' })
    ).body.id as string;
    const put = await form('PUT', `/webhooks/${id}/`, { name: 'w2', url: URL_A, event_types: '["bundle_error"]' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'w2', event_types: ['bundle_error'] });
    const patch = await form('PATCH', `/webhooks/${id}/`, { enabled: 'false' });
    expect(patch.status).toBe(200);
    expect(patch.body).toMatchObject({ enabled: false, event_types: ['bundle_error'] });
  });

  it('decodes only typed members: a header order becomes a number, a numeric header value stays a string', async () => {
    const id = (await form('POST', '/webhooks/', { name: 'w', url: URL_A, event_types: '["bundle_sent"]' })).body
      .id as string;
    const h = await form('POST', '/webhooks/headers/', { webhook: id, name: 'X-Account', value: '12345', order: '2' });
    expect(h.status).toBe(201);
    expect(h.body).toMatchObject({ webhook: id, name: 'X-Account', value: '12345', order: 2 });
    const patched = await form('PATCH', `/webhooks/headers/${h.body.id as string}/`, { order: '7', value: 'true' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ value: 'true', order: 7 });
  });

  it('answers 400 naming the member when a form value is not what the member needs', async () => {
    const bad = await form('POST', '/webhooks/', {
      name: 'w',
      url: URL_A,
      event_types: '["bundle_sent"',
      enabled: 'sometimes',
    });
    expect(bad.status).toBe(400);
    const fields = (bad.body.errors as { field: string }[]).map((e) => e.field).sort();
    expect(fields).toEqual(['enabled', 'event_types[0]']);
    expect((await engine.listWebhooks()).total).toBe(0);
  });
});
