// Webhooks, extra headers, events, deliveries and the secret: the same scenarios on every backend.
import { describe, expect, it } from 'vitest';
import { enqueueOccurrence } from '../../src/local/webhooks/queue.js';
import { HOOK_MADE, HOOK_URL as URL_A, expectApiError, hookRequest as hook } from '../helpers.js';
import { BACKENDS, useBackend } from './backends.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe.each(BACKENDS)('contract webhooks: $name', ({ make }) => {
  const b = useBackend(make);

  it('creates, reads, lists, replaces, updates and deletes a webhook', async () => {
    const w = await b.service.createWebhook(hook({ event_types: ['bundle_sent', 'packet_viewed', 'bundle_sent'] }));
    expect(w).toMatchObject(HOOK_MADE);
    expect(await b.service.getWebhook(w.id)).toEqual(w);
    const off = await b.service.createWebhook(hook({ name: 'off', enabled: false, event_types: ['bundle_error'] }));
    const names = async (q: Record<string, unknown>) => (await b.service.listWebhooks(q)).items.map((x) => x.name);
    expect(await names({})).toEqual(['off', 'hook']);
    expect(await names({ enabled: false })).toEqual(['off']);
    expect(await names({ event_type: 'packet_viewed' })).toEqual(['hook']);
    await expectApiError(b.service.listWebhooks({ event_type: 'bundle_signed' }), 400, { field: 'event_type' });

    const put = await b.service.replaceWebhook(w.id, {
      name: 'renamed',
      url: 'https://hooks.example/x',
      event_types: ['packet_viewed'],
    });
    expect(put).toMatchObject({
      id: w.id,
      name: 'renamed',
      url: 'https://hooks.example/x',
      event_types: ['packet_viewed'],
    });
    expect(await names({ event_type: 'bundle_sent' })).toEqual([]);
    const patched = await b.service.updateWebhook(off.id, { enabled: true });
    expect(patched).toMatchObject({ name: 'off', enabled: true, event_types: ['bundle_error'] });

    await b.service.deleteWebhook(w.id);
    await expectApiError(b.service.getWebhook(w.id), 404, { code: 'not_found' });
    await expectApiError(b.service.deleteWebhook(w.id), 404, { code: 'not_found' });
    await expectApiError(b.service.updateWebhook(UNKNOWN, { name: 'x' }), 404, { code: 'not_found' });
    expect(await names({})).toEqual(['off']);
  });

  it('refuses bad webhooks with 400 naming the field', async () => {
    await expectApiError(b.service.createWebhook(hook({ name: undefined })), 400, { code: 'invalid', field: 'name' });
    await expectApiError(b.service.createWebhook(hook({ name: 'n'.repeat(81) })), 400, { field: 'name' });
    await expectApiError(b.service.createWebhook(hook({ url: 'ftp://127.0.0.1/' })), 400, { field: 'url' });
    await expectApiError(b.service.createWebhook(hook({ event_types: [] })), 400, { field: 'event_types' });
    await expectApiError(b.service.createWebhook(hook({ event_types: ['nope'] })), 400, { field: 'event_types[0]' });
    const w = await b.service.createWebhook(hook());
    await expectApiError(b.service.replaceWebhook(w.id, { name: 'x', url: URL_A }), 400, { field: 'event_types' });
    expect((await b.service.listWebhooks()).total).toBe(1);
  });

  it('manages extra headers, shown on the webhook by order then creation', async () => {
    const w = await b.service.createWebhook(hook());
    const other = await b.service.createWebhook(hook({ name: 'other', event_types: ['packet_complete'] }));
    const late = await b.service.createWebhookHeader({ webhook: w.id, name: 'X-Late', value: 'z', order: 5 });
    const auth = await b.service.createWebhookHeader({ webhook: w.id, name: 'Authorization', value: 'Bearer abc def' });
    expect(auth).toEqual({
      id: expect.any(String),
      webhook: w.id,
      name: 'Authorization',
      value: 'Bearer abc def',
      order: 1,
    });
    expect((await b.service.getWebhook(w.id)).extra_headers).toEqual([auth, late]);
    expect(await b.service.getWebhookHeader(late.id)).toEqual(late);

    const moved = await b.service.replaceWebhookHeader(late.id, { webhook: other.id, name: 'X-Moved', value: 'm' });
    expect(moved).toEqual({ id: late.id, webhook: other.id, name: 'X-Moved', value: 'm', order: 5 });
    expect(await b.service.updateWebhookHeader(auth.id, { value: 'Bearer xyz' })).toMatchObject({
      name: 'Authorization',
      value: 'Bearer xyz',
    });
    const names = async (q: Record<string, unknown>) =>
      (await b.service.listWebhookHeaders(q)).items.map((h) => h.name);
    expect(await names({ webhook: w.id })).toEqual(['Authorization']);
    expect(await names({ event_type: 'packet_complete' })).toEqual(['X-Moved']);
    await expectApiError(b.service.listWebhookHeaders({ webhook: 'nope' }), 400, { field: 'webhook' });

    await expectApiError(b.service.createWebhookHeader({ webhook: UNKNOWN, name: 'X-A', value: 'v' }), 400, {
      field: 'webhook',
    });
    await expectApiError(b.service.createWebhookHeader({ webhook: w.id, name: 'Content-Length', value: '1' }), 400, {
      field: 'name',
    });
    await expectApiError(b.service.createWebhookHeader({ webhook: w.id, name: 'X A', value: 'v' }), 400, {
      field: 'name',
    });
    await expectApiError(b.service.createWebhookHeader({ webhook: w.id, name: 'X-A', value: 'v'.repeat(241) }), 400, {
      field: 'value',
    });
    await expectApiError(b.service.updateWebhookHeader(auth.id, { name: 'x-blueink-signature' }), 400, {
      field: 'name',
    });

    await b.service.deleteWebhookHeader(auth.id);
    await expectApiError(b.service.getWebhookHeader(auth.id), 404, { code: 'not_found' });
    await expectApiError(b.service.deleteWebhookHeader(auth.id), 404, { code: 'not_found' });
    expect((await b.service.getWebhook(w.id)).extra_headers).toEqual([]);
  });

  it('lists events and delivery attempts with their filters, and gets each by pk', async () => {
    const a = await b.service.createWebhook(hook({ name: 'a', event_types: ['bundle_sent', 'packet_viewed'] }));
    const other = await b.service.createWebhook(hook({ name: 'b', event_types: ['bundle_sent'] }));
    const db = b.engine.db;
    const [sentA, sentB] = enqueueOccurrence(db, {
      eventType: 'bundle_sent',
      at: '2026-04-01T09:00:00.000Z',
      bundleId: 'B1',
    });
    const [viewedA] = enqueueOccurrence(db, {
      eventType: 'packet_viewed',
      at: '2026-04-02T09:00:00.000Z',
      bundleId: 'B1',
      packetId: 'P1',
    });
    const attempt = (pk: string, event: string, timestamp: string, status: number, message: string) =>
      db
        .prepare(`INSERT INTO webhook_deliveries (pk, event_seq, timestamp, status, success, message)
        VALUES (?, (SELECT seq FROM webhook_events WHERE pk = ?), ?, ?, ?, ?)`)
        .run(pk, event, timestamp, status, status < 300 ? 1 : 0, message);
    const fail = '20000000-0000-4000-8000-000000000001';
    const okA = '20000000-0000-4000-8000-000000000002';
    const okB = '20000000-0000-4000-8000-000000000003';
    attempt(fail, sentA, '2026-04-01T09:00:01.000Z', 503, 'Service Unavailable');
    attempt(okA, sentA, '2026-04-01T09:04:00.000Z', 200, 'OK');
    attempt(okB, sentB, '2026-04-01T09:00:02.000Z', 202, 'Accepted');
    db.prepare('UPDATE webhook_events SET status = 200, success = 1 WHERE pk = ?').run(sentA);
    db.prepare('UPDATE webhook_events SET status = 202, success = 1 WHERE pk = ?').run(sentB);

    const event = await b.service.getWebhookEvent(sentA);
    expect(event).toMatchObject({
      pk: sentA,
      webhook: a.id,
      event_type: 'bundle_sent',
      created: '2026-04-01T09:00:00.000Z',
      status: 200,
      success: true,
    });
    expect(event.deliveries.map((d) => [d.pk, d.status, d.message])).toEqual([
      [fail, 503, 'Service Unavailable'],
      [okA, 200, 'OK'],
    ]);
    expect(JSON.parse(event.payload)).toMatchObject({
      event_id: sentA,
      event_type: 'bundle_sent',
      payload: { bundle_id: 'B1' },
    });
    await expectApiError(b.service.getWebhookEvent(UNKNOWN), 404, { code: 'not_found' });

    const events = async (q: Record<string, unknown>) => (await b.service.listWebhookEvents(q)).items.map((x) => x.pk);
    expect(await events({})).toEqual([viewedA, sentB, sentA]);
    expect(await events({ webhook: other.id })).toEqual([sentB]);
    expect(await events({ event_type: 'packet_viewed' })).toEqual([viewedA]);
    expect(await events({ status: 202 })).toEqual([sentB]);
    expect(await events({ success: false })).toEqual([viewedA]);
    expect(await events({ after_date: '2026-04-02' })).toEqual([viewedA]);
    expect(await events({ before_date: '2026-04-01' })).toEqual([sentB, sentA]);
    await expectApiError(b.service.listWebhookEvents({ status: 'abc' as unknown as number }), 400, { field: 'status' });
    await expectApiError(b.service.listWebhookEvents({ after_date: '2026-02-30' }), 400, { field: 'after_date' });

    const record = await b.service.getWebhookDelivery(fail);
    expect(record).toEqual({
      pk: fail,
      webhook: a.id,
      webhook_event: sentA,
      event_type: 'bundle_sent',
      created: '2026-04-01T09:00:01.000Z',
      status: 503,
      success: false,
      payload: event.payload,
      deliveries: [{ pk: fail, timestamp: '2026-04-01T09:00:01.000Z', status: 503, message: 'Service Unavailable' }],
    });
    await expectApiError(b.service.getWebhookDelivery(UNKNOWN), 404, { code: 'not_found' });
    const deliveries = async (q: Record<string, unknown>) =>
      (await b.service.listWebhookDeliveries(q)).items.map((x) => x.pk);
    expect(await deliveries({})).toEqual([okA, okB, fail]);
    expect(await deliveries({ webhook_event: sentA })).toEqual([okA, fail]);
    expect(await deliveries({ webhook: other.id })).toEqual([okB]);
    expect(await deliveries({ status: 503 })).toEqual([fail]);
    expect(await deliveries({ event_type: 'packet_viewed' })).toEqual([]);
    expect(await deliveries({ after_date: '2026-04-02' })).toEqual([]);
    await expectApiError(b.service.listWebhookDeliveries({ webhook_event: 'nope' }), 400, { field: 'webhook_event' });

    await b.service.deleteWebhook(a.id);
    await expectApiError(b.service.getWebhookEvent(sentA), 404);
    expect(await deliveries({})).toEqual([okB]);
  });

  it('keeps the secret until it is regenerated', async () => {
    const first = await b.service.getWebhookSecret();
    expect(await b.service.getWebhookSecret()).toEqual(first);
    b.engine.clock.advance(60_000);
    const next = await b.service.regenerateWebhookSecret();
    expect(next.secret).not.toBe(first.secret);
    expect(Date.parse(next.create_date)).toBeGreaterThan(Date.parse(first.create_date));
    expect(await b.service.getWebhookSecret()).toEqual(next);
  });
});
