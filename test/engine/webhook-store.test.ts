// The webhook records of the local engine: webhooks, extra headers, events, delivery attempts, the secret.
import { describe, expect, it } from 'vitest';
import { enqueueOccurrence } from '../../src/local/webhooks/queue.js';
import type { Webhook } from '../../src/service/types.js';
import { HOOK_MADE, HOOK_URL as URL_A, expectApiError, hookRequest as hook } from '../helpers.js';
import { DAY_MS, type TestEngine, chars, useEngine } from './support.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('webhooks', () => {
  const t = useEngine();

  it('creates with defaults, collapsing duplicate event types', async () => {
    const w = await t.e.createWebhook(hook({ event_types: ['bundle_sent', 'packet_viewed', 'bundle_sent'] }));
    expect(w).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), ...HOOK_MADE });
    expect(await t.e.getWebhook(w.id)).toEqual(w);
    const off = await t.e.createWebhook(hook({ enabled: false, json: false }));
    expect(off).toMatchObject({ enabled: false, json: false });
  });

  it.each([
    ['name', hook({ name: undefined })],
    ['name', hook({ name: chars(81) })],
    ['name', hook({ name: '  ' })],
    ['url', hook({ url: undefined })],
    ['url', hook({ url: 'ftp://127.0.0.1/x' })],
    ['url', hook({ url: 'example.com/hook' })],
    ['event_types', hook({ event_types: undefined })],
    ['event_types', hook({ event_types: [] })],
    ['event_types[1]', hook({ event_types: ['bundle_sent', 'bundle_signed'] })],
    ['enabled', hook({ enabled: 'sometimes' })],
    ['json', hook({ json: 2 })],
  ])('refuses a bad create: 400 on %s', async (field, body) => {
    await expectApiError(t.e.createWebhook(body), 400, { code: 'invalid', field });
    expect((await t.e.listWebhooks()).total).toBe(0);
  });

  it('accepts a name of exactly 80 characters and every event type of the spec', async () => {
    const all = [
      'bundle_sent',
      'bundle_complete',
      'bundle_docs_ready',
      'bundle_error',
      'bundle_cancelled',
      'packet_viewed',
      'packet_complete',
      'packet_declined',
    ];
    const w = await t.e.createWebhook(hook({ name: chars(80), event_types: all }));
    expect(w.name).toHaveLength(80);
    expect(w.event_types).toEqual(all);
  });

  it('answers 404 for an unknown webhook on every operation', async () => {
    await expectApiError(t.e.getWebhook(UNKNOWN), 404, { code: 'not_found' });
    await expectApiError(t.e.replaceWebhook(UNKNOWN, hook()), 404, { code: 'not_found' });
    await expectApiError(t.e.updateWebhook(UNKNOWN, { name: 'x' }), 404, { code: 'not_found' });
    await expectApiError(t.e.deleteWebhook(UNKNOWN), 404, { code: 'not_found' });
    await expectApiError(t.e.getWebhook('not-a-uuid'), 404, { code: 'not_found' });
  });

  it('PUT is a full update: omitted subscriptions are dropped, required members are required', async () => {
    const w = await t.e.createWebhook(
      hook({ event_types: ['bundle_sent', 'packet_viewed', 'packet_complete'], enabled: false }),
    );
    const put = await t.e.replaceWebhook(w.id, {
      name: 'renamed',
      url: 'https://hooks.example/x',
      event_types: ['packet_complete'],
    });
    expect(put).toMatchObject({
      name: 'renamed',
      url: 'https://hooks.example/x',
      event_types: ['packet_complete'],
      enabled: false,
      json: true,
    });
    expect((await t.e.getWebhook(w.id)).event_types).toEqual(['packet_complete']);
    expect((await t.e.listWebhooks({ event_type: 'bundle_sent' })).total).toBe(0);
    await expectApiError(t.e.replaceWebhook(w.id, { url: URL_A, event_types: ['bundle_sent'] }), 400, {
      field: 'name',
    });
    await expectApiError(t.e.replaceWebhook(w.id, { name: 'n', url: URL_A }), 400, { field: 'event_types' });
    expect((await t.e.getWebhook(w.id)).name).toBe('renamed');
  });

  it('PATCH changes only the members given; event_types given replace the subscriptions', async () => {
    const w = await t.e.createWebhook(hook({ event_types: ['bundle_sent', 'packet_viewed'] }));
    expect(await t.e.updateWebhook(w.id, { url: 'https://other.example/' })).toMatchObject({
      name: 'hook',
      url: 'https://other.example/',
      event_types: ['bundle_sent', 'packet_viewed'],
    });
    expect(await t.e.updateWebhook(w.id, { event_types: ['bundle_error'], json: false })).toMatchObject({
      event_types: ['bundle_error'],
      json: false,
      enabled: true,
    });
    await expectApiError(t.e.updateWebhook(w.id, { event_types: [] }), 400, { field: 'event_types' });
    await expectApiError(t.e.updateWebhook(w.id, { name: chars(81) }), 400, { field: 'name' });
    await expectApiError(t.e.updateWebhook(w.id, { url: 'mailto:a@example.com' }), 400, { field: 'url' });
    expect((await t.e.getWebhook(w.id)).event_types).toEqual(['bundle_error']);
  });

  it('re-enabling a webhook (PATCH or PUT) resets its count of failures in a row', async () => {
    const w = await t.e.createWebhook(hook());
    const failures = () =>
      (t.e.db.prepare('SELECT failed_in_a_row AS n FROM webhooks WHERE id = ?').get(w.id) as { n: number }).n;
    const setFailures = (n: number) =>
      t.e.db.prepare('UPDATE webhooks SET failed_in_a_row = ? WHERE id = ?').run(n, w.id);
    setFailures(7);
    await t.e.updateWebhook(w.id, { enabled: true });
    expect(failures()).toBe(7); // already enabled: nothing to reset
    await t.e.updateWebhook(w.id, { enabled: false });
    expect(failures()).toBe(7);
    await t.e.updateWebhook(w.id, { enabled: true });
    expect(failures()).toBe(0);
    setFailures(9);
    await t.e.updateWebhook(w.id, { enabled: false });
    await t.e.replaceWebhook(w.id, hook({ enabled: true }));
    expect(failures()).toBe(0);
  });

  it('deletes a webhook with its headers and events', async () => {
    const w = await t.e.createWebhook(hook());
    const h = await t.e.createWebhookHeader({ webhook: w.id, name: 'X-Token', value: 'abc' });
    const [pk] = enqueueOccurrence(t.e.db, { eventType: 'bundle_sent', at: t.e.clock.now(), bundleId: 'B1' });
    await t.e.deleteWebhook(w.id);
    await expectApiError(t.e.getWebhook(w.id), 404);
    await expectApiError(t.e.getWebhookHeader(h.id), 404);
    await expectApiError(t.e.getWebhookEvent(pk), 404);
    await expectApiError(t.e.deleteWebhook(w.id), 404);
  });

  it('lists newest first, in pages, filtered by enabled and event_type', async () => {
    const made: Webhook[] = [];
    made.push(await t.e.createWebhook(hook({ name: 'w0', event_types: ['bundle_sent'] })));
    made.push(await t.e.createWebhook(hook({ name: 'w1', event_types: ['packet_viewed'], enabled: false })));
    made.push(await t.e.createWebhook(hook({ name: 'w2', event_types: ['bundle_sent', 'packet_viewed'] })));
    const names = async (q: Record<string, unknown>) => (await t.e.listWebhooks(q)).items.map((w) => w.name);
    expect(await names({})).toEqual(['w2', 'w1', 'w0']);
    const p2 = await t.e.listWebhooks({ page: 2, per_page: 2 });
    expect([p2.page, p2.total_pages, p2.total, p2.items.map((w) => w.name)]).toEqual([2, 2, 3, ['w0']]);
    await expectApiError(t.e.listWebhooks({ page: 3, per_page: 2 }), 404);
    expect(await names({ enabled: false })).toEqual(['w1']);
    expect(await names({ enabled: true })).toEqual(['w2', 'w0']);
    expect(await names({ event_type: 'packet_viewed' })).toEqual(['w2', 'w1']);
    expect(await names({ event_type: 'packet_viewed', enabled: true })).toEqual(['w2']);
    await expectApiError(t.e.listWebhooks({ event_type: 'bundle_signed' }), 400, { field: 'event_type' });
    await expectApiError(t.e.listWebhooks({ enabled: 'maybe' as unknown as boolean }), 400, { field: 'enabled' });
  });
});

describe('webhook extra headers', () => {
  const t = useEngine();
  const withHook = () => t.e.createWebhook(hook());

  it('creates with order 1 by default and shows headers on the webhook by order, then creation', async () => {
    const w = await withHook();
    const second = await t.e.createWebhookHeader({ webhook: w.id, name: 'X-Second', value: 'b', order: 2 });
    const firstA = await t.e.createWebhookHeader({ webhook: w.id, name: 'X-First-A', value: 'a' });
    const firstB = await t.e.createWebhookHeader({ webhook: w.id, name: 'X-First-B', value: 'a2', order: 1 });
    expect(firstA).toEqual({ id: expect.any(String), webhook: w.id, name: 'X-First-A', value: 'a', order: 1 });
    expect((await t.e.getWebhook(w.id)).extra_headers.map((h) => h.name)).toEqual([
      'X-First-A',
      'X-First-B',
      'X-Second',
    ]);
    await t.e.updateWebhookHeader(firstA.id, { order: 3 });
    expect((await t.e.getWebhook(w.id)).extra_headers.map((h) => [h.name, h.order])).toEqual([
      ['X-First-B', 1],
      ['X-Second', 2],
      ['X-First-A', 3],
    ]);
    expect(second.order).toBe(2);
    expect(firstB.order).toBe(1);
  });

  it.each([
    ['webhook', { webhook: UNKNOWN }],
    ['webhook', { webhook: 'nope' }],
    ['webhook', { webhook: undefined }],
    ['name', { name: undefined }],
    ['name', { name: '' }],
    ['name', { name: 'X Bad' }],
    ['name', { name: 'X-Bad:' }],
    ['name', { name: chars(81) }],
    ['value', { value: undefined }],
    ['value', { value: chars(241) }],
    ['value', { value: 'a\r\nX-Injected: 1' }],
    ['value', { value: ' padded' }],
    ['order', { order: 1.5 }],
    ['order', { order: 'second' }],
  ])('refuses a bad create: 400 on %s', async (field, over) => {
    const w = await withHook();
    await expectApiError(t.e.createWebhookHeader({ webhook: w.id, name: 'X-Ok', value: 'v', ...over }), 400, {
      code: 'invalid',
      field,
    });
    expect((await t.e.listWebhookHeaders()).total).toBe(0);
  });

  it('accepts a name of 80 and a value of 240 characters, with inner spaces', async () => {
    const w = await withHook();
    const h = await t.e.createWebhookHeader({ webhook: w.id, name: chars(80, 'x'), value: `Bearer ${chars(233)}` });
    expect([h.name.length, h.value.length]).toEqual([80, 240]);
  });

  it.each([
    'Host',
    'content-length',
    'Content-Type',
    'TRANSFER-ENCODING',
    'Connection',
    'User-Agent',
    'X-Blueink-Signature',
    'x-blueink-request-timestamp',
  ])('refuses the reserved name %s on create, PUT and PATCH', async (name) => {
    const w = await withHook();
    await expectApiError(t.e.createWebhookHeader({ webhook: w.id, name, value: 'v' }), 400, {
      field: 'name',
      message: /set by the delivery/,
    });
    const h = await t.e.createWebhookHeader({ webhook: w.id, name: 'X-Fine', value: 'v' });
    await expectApiError(t.e.replaceWebhookHeader(h.id, { webhook: w.id, name, value: 'v' }), 400, { field: 'name' });
    await expectApiError(t.e.updateWebhookHeader(h.id, { name }), 400, { field: 'name' });
    expect((await t.e.getWebhookHeader(h.id)).name).toBe('X-Fine');
  });

  it('gets, replaces, updates and deletes; 404 for unknown ids', async () => {
    const w = await withHook();
    const other = await t.e.createWebhook(hook({ name: 'other' }));
    const h = await t.e.createWebhookHeader({ webhook: w.id, name: 'X-A', value: '1', order: 4 });
    expect(await t.e.getWebhookHeader(h.id)).toEqual(h);
    const put = await t.e.replaceWebhookHeader(h.id, { webhook: other.id, name: 'X-B', value: '2' });
    expect(put).toEqual({ id: h.id, webhook: other.id, name: 'X-B', value: '2', order: 4 });
    expect((await t.e.getWebhook(w.id)).extra_headers).toEqual([]);
    expect((await t.e.getWebhook(other.id)).extra_headers).toEqual([put]);
    await expectApiError(t.e.replaceWebhookHeader(h.id, { webhook: other.id, name: 'X-B' }), 400, { field: 'value' });
    await expectApiError(t.e.updateWebhookHeader(h.id, { webhook: UNKNOWN }), 400, { field: 'webhook' });
    expect(await t.e.updateWebhookHeader(h.id, { value: 'three' })).toMatchObject({
      name: 'X-B',
      value: 'three',
      order: 4,
    });
    await t.e.deleteWebhookHeader(h.id);
    await expectApiError(t.e.getWebhookHeader(h.id), 404, { code: 'not_found' });
    await expectApiError(t.e.deleteWebhookHeader(h.id), 404, { code: 'not_found' });
    await expectApiError(t.e.updateWebhookHeader(h.id, { value: 'x' }), 404);
    await expectApiError(t.e.replaceWebhookHeader(h.id, { webhook: w.id, name: 'X', value: 'x' }), 404);
  });

  it('lists filtered by webhook and by event type of the webhook', async () => {
    const sent = await t.e.createWebhook(hook({ name: 'sent', event_types: ['bundle_sent'] }));
    const viewed = await t.e.createWebhook(hook({ name: 'viewed', event_types: ['packet_viewed'] }));
    await t.e.createWebhookHeader({ webhook: sent.id, name: 'X-Sent', value: 's' });
    await t.e.createWebhookHeader({ webhook: viewed.id, name: 'X-Viewed-2', value: 'v', order: 2 });
    await t.e.createWebhookHeader({ webhook: viewed.id, name: 'X-Viewed-1', value: 'v' });
    const names = async (q: Record<string, unknown>) => (await t.e.listWebhookHeaders(q)).items.map((h) => h.name);
    expect(await names({})).toEqual(['X-Viewed-1', 'X-Viewed-2', 'X-Sent']);
    expect(await names({ webhook: sent.id })).toEqual(['X-Sent']);
    expect(await names({ event_type: 'packet_viewed' })).toEqual(['X-Viewed-1', 'X-Viewed-2']);
    expect(await names({ event_type: 'bundle_cancelled' })).toEqual([]);
    expect(await names({ webhook: UNKNOWN })).toEqual([]);
    await expectApiError(t.e.listWebhookHeaders({ webhook: 'nope' }), 400, { field: 'webhook' });
    await expectApiError(t.e.listWebhookHeaders({ event_type: 'nope' }), 400, { field: 'event_type' });
  });
});

/** Two webhooks, four events on three days, and delivery attempts written as the dispatcher writes them. */
async function eventsFixture(e: TestEngine) {
  const a = await e.createWebhook(hook({ name: 'a', event_types: ['bundle_sent', 'packet_viewed'] }));
  const b = await e.createWebhook(hook({ name: 'b', event_types: ['bundle_sent'] }));
  const one = (eventType: string, at: string, bundleId: string) => enqueueOccurrence(e.db, { eventType, at, bundleId });
  // Queued out of time order: lists sort by time, not by insertion.
  const [viewedA] = one('packet_viewed', '2026-03-02T23:59:59.000Z', 'B1');
  const [sentA, sentB] = one('bundle_sent', '2026-03-01T10:00:00.000Z', 'B1'); // a, then b
  // Only `a` gets this one: `b` is switched off while it is queued.
  e.db.prepare('UPDATE webhooks SET enabled = 0 WHERE id = ?').run(b.id);
  const [lateSentA] = one('bundle_sent', '2026-03-03T00:00:00.000Z', 'B2');
  e.db.prepare('UPDATE webhooks SET enabled = 1 WHERE id = ?').run(b.id);
  const attempt = (pk: string, event: string, timestamp: string, status: number, message: string) =>
    e.db
      .prepare(`INSERT INTO webhook_deliveries (pk, event_seq, timestamp, status, success, message)
      VALUES (?, (SELECT seq FROM webhook_events WHERE pk = ?), ?, ?, ?, ?)`)
      .run(pk, event, timestamp, status, status < 300 ? 1 : 0, message);
  const settle = (pk: string, status: number) =>
    e.db
      .prepare('UPDATE webhook_events SET status = ?, success = ? WHERE pk = ?')
      .run(status, status < 300 ? 1 : 0, pk);
  const d = {
    aFail: '10000000-0000-4000-8000-000000000001',
    aOk: '10000000-0000-4000-8000-000000000002',
    bOk: '10000000-0000-4000-8000-000000000003',
    viewedFail: '10000000-0000-4000-8000-000000000004',
  };
  // Attempts too are written out of time order.
  attempt(d.aOk, sentA, '2026-03-01T10:04:00.000Z', 200, 'OK');
  attempt(d.aFail, sentA, '2026-03-01T10:00:01.000Z', 500, 'Internal Server Error');
  attempt(d.bOk, sentB, '2026-03-01T10:00:02.000Z', 204, 'No Content');
  attempt(d.viewedFail, viewedA, '2026-03-03T00:00:05.000Z', 404, 'Not Found');
  settle(sentA, 200);
  settle(sentB, 204);
  settle(viewedA, 404);
  return { a, b, sentA, sentB, viewedA, lateSentA, d };
}

describe('webhook events', () => {
  const t = useEngine();

  it('gets an event with its payload and its attempts, oldest first', async () => {
    const f = await eventsFixture(t.e);
    const ev = await t.e.getWebhookEvent(f.sentA);
    expect(ev).toEqual({
      pk: f.sentA,
      webhook: f.a.id,
      event_type: 'bundle_sent',
      created: '2026-03-01T10:00:00.000Z',
      status: 200,
      success: true,
      next_attempt_at: null,
      payload: expect.any(String),
      deliveries: [
        { pk: f.d.aFail, timestamp: '2026-03-01T10:00:01.000Z', status: 500, message: 'Internal Server Error' },
        { pk: f.d.aOk, timestamp: '2026-03-01T10:04:00.000Z', status: 200, message: 'OK' },
      ],
    });
    expect(JSON.parse(ev.payload)).toMatchObject({
      event_id: f.sentA,
      event_type: 'bundle_sent',
      payload: { bundle_id: 'B1' },
    });
    expect(await t.e.getWebhookEvent(f.lateSentA)).toMatchObject({ status: 0, success: false, deliveries: [] });
    await expectApiError(t.e.getWebhookEvent(UNKNOWN), 404, { code: 'not_found' });
  });

  it('lists newest first and filters by webhook, event_type, status, success and dates (inclusive)', async () => {
    const f = await eventsFixture(t.e);
    const pks = async (q: Record<string, unknown>) => (await t.e.listWebhookEvents(q)).items.map((x) => x.pk);
    expect(await pks({})).toEqual([f.lateSentA, f.viewedA, f.sentB, f.sentA]);
    expect(await pks({ webhook: f.b.id })).toEqual([f.sentB]);
    expect(await pks({ event_type: 'packet_viewed' })).toEqual([f.viewedA]);
    expect(await pks({ status: 404 })).toEqual([f.viewedA]);
    expect(await pks({ status: '204' })).toEqual([f.sentB]);
    expect(await pks({ success: true })).toEqual([f.sentB, f.sentA]);
    expect(await pks({ success: 'false' })).toEqual([f.lateSentA, f.viewedA]);
    expect(await pks({ after_date: '2026-03-02' })).toEqual([f.lateSentA, f.viewedA]);
    expect(await pks({ before_date: '2026-03-02' })).toEqual([f.viewedA, f.sentB, f.sentA]);
    expect(await pks({ after_date: '2026-03-02', before_date: '2026-03-02' })).toEqual([f.viewedA]);
    expect(await pks({ webhook: f.a.id, event_type: 'bundle_sent', success: true })).toEqual([f.sentA]);
    const page = await t.e.listWebhookEvents({ per_page: 3, page: 2 });
    expect([page.total, page.total_pages, page.items.map((x) => x.pk)]).toEqual([4, 2, [f.sentA]]);
  });

  it.each([
    ['webhook', { webhook: 'nope' }],
    ['event_type', { event_type: 'bundle_signed' }],
    ['status', { status: 'abc' }],
    ['status', { status: 2.5 }],
    ['success', { success: 'maybe' }],
    ['after_date', { after_date: '2026-02-30' }],
    ['before_date', { before_date: '03/01/2026' }],
  ])('refuses a bad filter: 400 on %s', async (field, q) => {
    await eventsFixture(t.e);
    await expectApiError(t.e.listWebhookEvents(q as Record<string, unknown>), 400, { field });
  });
});

describe('webhook deliveries', () => {
  const t = useEngine();

  it('gets one attempt in the WebhookEvent shape, naming its event', async () => {
    const f = await eventsFixture(t.e);
    const payload = (await t.e.getWebhookEvent(f.sentA)).payload;
    expect(await t.e.getWebhookDelivery(f.d.aFail)).toEqual({
      pk: f.d.aFail,
      webhook: f.a.id,
      webhook_event: f.sentA,
      event_type: 'bundle_sent',
      created: '2026-03-01T10:00:01.000Z',
      status: 500,
      success: false,
      payload,
      deliveries: [
        { pk: f.d.aFail, timestamp: '2026-03-01T10:00:01.000Z', status: 500, message: 'Internal Server Error' },
      ],
    });
    expect(await t.e.getWebhookDelivery(f.d.aOk)).toMatchObject({ status: 200, success: true, webhook_event: f.sentA });
    await expectApiError(t.e.getWebhookDelivery(f.sentA), 404, { code: 'not_found' });
  });

  it('lists newest attempt first and filters by webhook, webhook_event, event_type, status and dates', async () => {
    const f = await eventsFixture(t.e);
    const pks = async (q: Record<string, unknown>) => (await t.e.listWebhookDeliveries(q)).items.map((x) => x.pk);
    expect(await pks({})).toEqual([f.d.viewedFail, f.d.aOk, f.d.bOk, f.d.aFail]);
    expect(await pks({ webhook: f.b.id })).toEqual([f.d.bOk]);
    expect(await pks({ webhook_event: f.sentA })).toEqual([f.d.aOk, f.d.aFail]);
    expect(await pks({ event_type: 'packet_viewed' })).toEqual([f.d.viewedFail]);
    expect(await pks({ status: 500 })).toEqual([f.d.aFail]);
    // On the attempt's date: the packet_viewed event is of 2 March, its attempt of 3 March.
    expect(await pks({ after_date: '2026-03-03' })).toEqual([f.d.viewedFail]);
    expect(await pks({ before_date: '2026-03-02' })).toEqual([f.d.aOk, f.d.bOk, f.d.aFail]);
    expect(await pks({ webhook_event: f.lateSentA })).toEqual([]);
    await expectApiError(t.e.listWebhookDeliveries({ webhook_event: 'nope' }), 400, { field: 'webhook_event' });
    await expectApiError(t.e.listWebhookDeliveries({ webhook: 'nope' }), 400, { field: 'webhook' });
    await expectApiError(t.e.listWebhookDeliveries({ event_type: 'nope' }), 400, { field: 'event_type' });
    await expectApiError(t.e.listWebhookDeliveries({ status: 'x' as unknown as number }), 400, { field: 'status' });
    await expectApiError(t.e.listWebhookDeliveries({ after_date: '2026-13-01' }), 400, { field: 'after_date' });
    await expectApiError(t.e.listWebhookDeliveries({ before_date: 'yesterday' }), 400, { field: 'before_date' });
  });
});

describe('webhook secret', () => {
  const t = useEngine();

  it('is stable until regenerated; regenerating changes the secret and its date', async () => {
    const first = await t.e.getWebhookSecret();
    expect(first.secret.length).toBeGreaterThanOrEqual(32);
    expect(await t.e.getWebhookSecret()).toEqual(first);
    t.e.clock.advance(DAY_MS);
    const next = await t.e.regenerateWebhookSecret();
    expect(next.secret).not.toBe(first.secret);
    expect(Date.parse(next.create_date) - Date.parse(first.create_date)).toBeGreaterThanOrEqual(DAY_MS);
    expect(await t.e.getWebhookSecret()).toEqual(next);
  });
});
