// Real webhook delivery from the engine to a receiver on 127.0.0.1: body, headers in order,
// signature, retries on the documented schedule by the engine's clock, giving up, disabling.
import { describe, expect, it } from 'vitest';
import { DISABLE_AFTER_FAILED_EVENTS, RETRY_DELAYS_MIN } from '../../src/local/webhooks/dispatcher.js';
import { inspectBundle } from '../../src/app/inspection.js';
import { bundleRequest, expectApiError, type newEngine } from '../helpers.js';
import { eachEngineAndReceiver } from './support.js';
import { type Receiver, expectedSignature, headerOrder, startReceiver } from '../webhooks/receiver.js';

type Engine = ReturnType<typeof newEngine>;
let engine: Engine;
let rx: Receiver;

eachEngineAndReceiver(startReceiver, (e, r) => ([engine, rx] = [e, r]), 'engine');

const hook = (over: Record<string, unknown> = {}) =>
  engine.createWebhook({
    name: 'receiver',
    url: rx.url,
    event_types: ['bundle_sent', 'bundle_cancelled', 'packet_viewed'],
    ...over,
  });

describe('webhook delivery', () => {
  it('POSTs each subscribed event with the documented body, the extra headers in order, and a signature that verifies', async () => {
    const w = await hook();
    await engine.createWebhookHeader({ webhook: w.id, name: 'X-Second', value: 'two', order: 2 });
    await engine.createWebhookHeader({ webhook: w.id, name: 'X-First', value: 'one', order: 1 });
    await engine.createWebhookHeader({ webhook: w.id, name: 'Authorization', value: 'Bearer shared-token', order: 3 });
    const b = await engine.createBundle(bundleRequest());
    expect(await engine.deliverWebhooks()).toEqual({ delivered: 1, failed: 0 });

    const [got] = await rx.waitFor(1);
    const body = JSON.parse(got!.body);
    expect(body).toEqual({
      event_id: expect.any(String),
      event_type: 'bundle_sent',
      event_date: expect.any(String),
      account_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      payload: { bundle_id: b.id },
    });
    expect(got!.headers['content-type']).toBe('application/json');
    const names = headerOrder(got!);
    expect(names.indexOf('x-first')).toBeLessThan(names.indexOf('x-second'));
    expect(names.indexOf('x-second')).toBeLessThan(names.indexOf('authorization'));
    expect(got!.headers.authorization).toBe('Bearer shared-token');

    const { secret } = await engine.getWebhookSecret();
    const ts = got!.headers['x-blueink-request-timestamp'] as string;
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(30);
    expect(got!.headers['x-blueink-signature']).toBe(expectedSignature(secret, ts, got!.body));

    const event = await engine.getWebhookEvent(body.event_id);
    expect(event).toMatchObject({
      webhook: w.id,
      event_type: 'bundle_sent',
      status: 200,
      success: true,
      payload: got!.body,
    });
    expect(event.deliveries).toEqual([
      {
        pk: expect.any(String),
        timestamp: expect.any(String),
        status: 200,
        message: expect.stringContaining('HTTP 200'),
      },
    ]);
  });

  it('fires only for subscribed types and enabled webhooks', async () => {
    await hook({ event_types: ['bundle_cancelled'] });
    await hook({ enabled: false, event_types: ['bundle_sent'] });
    const b = await engine.createBundle(bundleRequest());
    await engine.deliverWebhooks();
    expect(rx.received).toHaveLength(0);
    await engine.cancelBundle(b.id);
    await engine.deliverWebhooks();
    expect(rx.received.map((r) => JSON.parse(r.body).event_type)).toEqual(['bundle_cancelled']);
  });

  it('sends a form body when json is off, signed over the bytes sent', async () => {
    await hook({ json: false });
    const b = await engine.createBundle(bundleRequest());
    await engine.deliverWebhooks();
    const [got] = await rx.waitFor(1);
    expect(got!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(got!.body);
    expect(form.get('event_type')).toBe('bundle_sent');
    expect(JSON.parse(form.get('payload')!)).toEqual({ bundle_id: b.id });
    const { secret } = await engine.getWebhookSecret();
    expect(got!.headers['x-blueink-signature']).toBe(
      expectedSignature(secret, got!.headers['x-blueink-request-timestamp'] as string, got!.body),
    );
  });

  it('retries a failing receiver after 4 and 12 minutes of the engine clock, and records every attempt', async () => {
    await hook();
    rx.respond = (_r, n) => (n < 3 ? 500 : 200);
    await engine.createBundle(bundleRequest());
    expect(await engine.deliverWebhooks()).toEqual({ delivered: 0, failed: 1 });
    expect(await engine.deliverWebhooks()).toEqual({ delivered: 0, failed: 0 });

    engine.clock.advance(4 * 60_000 - 5_000);
    expect(await engine.deliverWebhooks()).toEqual({ delivered: 0, failed: 0 });
    engine.clock.advance(5_000);
    expect(await engine.deliverWebhooks()).toEqual({ delivered: 0, failed: 1 });
    engine.clock.advance(12 * 60_000);
    expect(await engine.deliverWebhooks()).toEqual({ delivered: 1, failed: 0 });

    const [event] = (await engine.listWebhookEvents()).items;
    expect(event).toMatchObject({ status: 200, success: true });
    expect(event!.deliveries.map((d) => d.status)).toEqual([500, 500, 200]);
    // The record keeps the status and how the receiver's reply began (support reads why it failed).
    expect(event!.deliveries[0]!.message).toBe('HTTP 500: receiver says no');
    // Every attempt carried the same event.
    expect(new Set(rx.received.map((r) => JSON.parse(r.body).event_id)).size).toBe(1);
  });

  it("keeps the start of a receiver's reply on one line, bounded however long the reply", async () => {
    await hook();
    const long = `Service Unavailable\n\n${'maintenance until 18:00, '.repeat(2000)}`;
    rx.respond = () => ({ status: 503, body: long });
    await engine.createBundle(bundleRequest());
    expect(await engine.deliverWebhooks()).toEqual({ delivered: 0, failed: 1 });
    const [d] = (await engine.listWebhookEvents()).items[0]!.deliveries;
    expect(d!.message).toMatch(/^HTTP 503: Service Unavailable maintenance until 18:00, maintenance/);
    expect(d!.message).not.toContain('\n');
    expect([...d!.message.slice('HTTP 503: '.length)]).toHaveLength(200);
    expect(d!.message.endsWith('…')).toBe(true);
  });

  it('records an unreachable receiver as status 0 with the reason', async () => {
    const url = rx.url;
    await rx.close();
    rx = await startReceiver();
    await engine.createWebhook({ name: 'gone', url, event_types: ['bundle_sent'] });
    await engine.createBundle(bundleRequest());
    expect(await engine.deliverWebhooks()).toEqual({ delivered: 0, failed: 1 });
    const [event] = (await engine.listWebhookEvents()).items;
    expect(event).toMatchObject({ status: 0, success: false });
    expect(event!.deliveries[0]!.message).toMatch(/ECONNREFUSED/);
  });

  it(`gives an event up after ${RETRY_DELAYS_MIN.length} retries, and disables a webhook after ${DISABLE_AFTER_FAILED_EVENTS} given-up events in a row`, async () => {
    const w = await hook();
    rx.respond = () => 503;
    for (let i = 0; i < DISABLE_AFTER_FAILED_EVENTS; i++) await engine.triggerWebhookEvent('bundle_sent');
    for (const minutes of RETRY_DELAYS_MIN) {
      expect((await engine.getWebhook(w.id)).enabled).toBe(true);
      engine.clock.advance(minutes * 60_000);
      expect(await engine.deliverWebhooks()).toEqual({ delivered: 0, failed: DISABLE_AFTER_FAILED_EVENTS });
    }
    expect(rx.received).toHaveLength(DISABLE_AFTER_FAILED_EVENTS * (RETRY_DELAYS_MIN.length + 1));
    expect((await engine.getWebhook(w.id)).enabled).toBe(false);
    const events = (await engine.listWebhookEvents({ webhook: w.id })).items;
    expect(events.every((e) => !e.success && e.deliveries.length === RETRY_DELAYS_MIN.length + 1)).toBe(true);
    engine.clock.advance(7 * 24 * 3600_000);
    expect(await engine.deliverWebhooks()).toEqual({ delivered: 0, failed: 0 });

    // Re-enabled, it takes new events again; a resend delivers a given-up event once.
    rx.respond = () => 204;
    await engine.updateWebhook(w.id, { enabled: true });
    const resent = await engine.resendWebhookEvent(events[0]!.pk);
    expect(resent).toMatchObject({ success: true, status: 204 });
    expect(resent.deliveries.at(-1)!.status).toBe(204);
  });

  it('a disabled webhook says since when and after how many failures; a Bundle lists it as not sent', async () => {
    const w = await hook({ name: 'crm' });
    const other = await hook({ name: 'audit-log' });
    let failing = true;
    await engine.createWebhookHeader({ webhook: w.id, name: 'X-Hook', value: 'crm' });
    rx.respond = (req) => (failing && req.headers['x-hook'] === 'crm' ? 500 : 204);
    for (let i = 0; i < DISABLE_AFTER_FAILED_EVENTS; i++) await engine.triggerWebhookEvent('bundle_sent');
    let before = '';
    for (const minutes of RETRY_DELAYS_MIN) {
      engine.clock.advance(minutes * 60_000);
      before = engine.clock.now();
      await engine.deliverWebhooks();
    }
    const after = engine.clock.now();
    const disabled = await engine.getWebhook(w.id);
    expect(disabled).toMatchObject({ enabled: false, disabled_after_failures: DISABLE_AFTER_FAILED_EVENTS });
    const disabledAt = disabled.disabled_at!;
    expect(disabledAt >= before && disabledAt <= after, `${disabledAt} in [${before}, ${after}]`).toBe(true);
    expect(await engine.getWebhook(other.id)).not.toHaveProperty('disabled_at');

    const b = await engine.createBundle(bundleRequest());
    await engine.deliverWebhooks();
    const r = await inspectBundle(engine, await engine.getBundle(b.id));
    const byName = Object.fromEntries(r.webhooks.map((x) => [x.name, x]));
    expect(byName['audit-log']).toMatchObject({ enabled: true, occurrences: 1, delivered: 1, not_sent: 0 });
    expect(byName['audit-log']!.outcome).toBe('1 delivered');
    expect(byName.crm).toMatchObject({ enabled: false, occurrences: 1, delivered: 0, not_sent: 1, missed: 1 });
    expect(byName.crm!.outcome).toBe(
      `1 not sent: webhook disabled since ${disabledAt} after ${DISABLE_AFTER_FAILED_EVENTS} failures in a row; kept to be sent once it is enabled again`,
    );

    // Enabled again it forgets when it was disabled; disabled by a person, it says so.
    failing = false;
    expect(await engine.updateWebhook(w.id, { enabled: true })).not.toHaveProperty('disabled_at');
    const t0 = engine.clock.now();
    const byHand = await engine.updateWebhook(w.id, { enabled: false });
    expect(byHand).toMatchObject({ enabled: false, disabled_after_failures: null });
    expect(byHand.disabled_at! >= t0).toBe(true);
  });

  it('a success in between resets the run of failures', async () => {
    const w = await hook();
    let fail = true;
    rx.respond = () => (fail ? 500 : 200);
    const giveUp = async () => {
      await engine.triggerWebhookEvent('bundle_sent');
      for (const minutes of RETRY_DELAYS_MIN) {
        engine.clock.advance(minutes * 60_000);
        await engine.deliverWebhooks();
      }
    };
    for (let i = 0; i < DISABLE_AFTER_FAILED_EVENTS - 1; i++) await giveUp();
    fail = false;
    await engine.triggerWebhookEvent('bundle_sent');
    fail = true;
    await giveUp();
    expect((await engine.getWebhook(w.id)).enabled).toBe(true);
  });

  it('trigger fires a test event for a Bundle (packet events name its first packet) and refuses unknown types', async () => {
    await hook();
    const b = await engine.createBundle(bundleRequest({ status: 'dr' }));
    const [e] = await engine.triggerWebhookEvent('packet_viewed', b.id);
    expect(e).toMatchObject({ event_type: 'packet_viewed', success: true });
    expect(JSON.parse(rx.received[0]!.body).payload).toEqual({ bundle_id: b.id, packet_id: b.packets[0]!.id });
    await expectApiError(engine.triggerWebhookEvent('bundle_exploded'), 400, { field: 'event_type' });
    await expectApiError(engine.triggerWebhookEvent('bundle_sent', 'NOPE'), 404);
    await expectApiError(engine.resendWebhookEvent('7c9e6679-7425-40de-944b-e07fc1f90ae7'), 404);
  });

  it('a one-shot process makes its first attempts when it closes', async () => {
    await hook();
    await engine.createBundle(bundleRequest());
    expect(rx.received).toHaveLength(0);
    await engine.close();
    expect(rx.received).toHaveLength(1);
  });

  it('delivers continuously once started, as esign serve does', async () => {
    await hook();
    await engine.startWebhookDelivery();
    const b = await engine.createBundle(bundleRequest());
    const [got] = await rx.waitFor(1, 5_000);
    expect(JSON.parse(got!.body).payload.bundle_id).toBe(b.id);
  });
});
