// The events a webhook misses while disabled: kept by the engine, sent once each after it is enabled
// again, to a real receiver on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { DISABLE_AFTER_FAILED_EVENTS, RETRY_DELAYS_MIN } from '../../src/local/webhooks/dispatcher.js';
import { LocalEngine } from '../../src/local/engine.js';
import { enqueueOccurrence, MISSED_KEPT } from '../../src/local/webhooks/queue.js';
import { missedWords, resendMissedOutcome } from '../../src/app/missedEvents.js';
import { bundleRequest, expectApiError, type newEngine } from '../helpers.js';
import { eachEngineAndReceiver } from './support.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';

type Engine = ReturnType<typeof newEngine>;
let engine: Engine;
let rx: Receiver;

eachEngineAndReceiver(startReceiver, (e, r) => ([engine, rx] = [e, r]), 'engine');

const TYPES = ['bundle_sent', 'bundle_cancelled'];

/** A webhook disabled by its receiver's failures: 10 test events given up in a row. */
async function disabledByFailures(name = 'crm') {
  const w = await engine.createWebhook({ name, url: rx.url, event_types: TYPES });
  rx.respond = () => 500;
  for (let i = 0; i < DISABLE_AFTER_FAILED_EVENTS; i++) await engine.triggerWebhookEvent('bundle_sent');
  for (const minutes of RETRY_DELAYS_MIN) {
    engine.clock.advance(minutes * 60_000);
    await engine.deliverWebhooks();
  }
  expect((await engine.getWebhook(w.id)).enabled).toBe(false);
  rx.received.length = 0;
  return w;
}

const bodies = () => rx.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);

describe('events missed while a webhook was disabled', () => {
  it('are kept, refused while still disabled, and sent once each after it is enabled again', async () => {
    const w = await disabledByFailures();
    const never = await engine.createWebhook({ name: 'never-on', url: rx.url, event_types: TYPES, enabled: false });

    const first = await engine.createBundle(bundleRequest({ label: 'first' }));
    engine.clock.advance(60_000);
    const second = await engine.createBundle(bundleRequest({ label: 'second' }));
    engine.clock.advance(60_000);
    await engine.cancelBundle(first.id);
    // A test event is not an occurrence: it is never kept as missed.
    await engine.triggerWebhookEvent('bundle_sent');
    await engine.deliverWebhooks();
    expect(rx.received).toHaveLength(0);

    const occurred = (await engine.listBundleEvents(first.id)).find((e) => e.kind === 'bl')!.timestamp;
    const [missed] = await engine.listMissedWebhookEvents({ webhook: w.id });
    expect(missed).toMatchObject({ webhook: w.id, count: 3, first_at: occurred });
    expect(missed!.last_at! > missed!.first_at!).toBe(true);
    // A webhook created disabled was never on: it missed nothing.
    expect(await engine.listMissedWebhookEvents({ webhook: never.id })).toEqual([]);
    expect(await engine.listMissedWebhookEvents({ bundle: second.id })).toEqual([
      expect.objectContaining({ webhook: w.id, count: 1 }),
    ]);

    await expectApiError(engine.resendMissedWebhookEvents(w.id), 409, { message: /disabled: enable it first/ });
    expect((await engine.listMissedWebhookEvents({ webhook: w.id }))[0]?.count).toBe(3);

    rx.respond = () => 204;
    await engine.updateWebhook(w.id, { enabled: true });
    const sent = await engine.resendMissedWebhookEvents(w.id);
    expect(sent).toMatchObject({ webhook: w.id, delivered: 3, failed: 0, queued: 0 });
    expect(sent.events).toHaveLength(3);
    // In the order they happened, each with the time it happened and its own new event id.
    expect(bodies().map((b) => [b.event_type, (b.payload as { bundle_id: string }).bundle_id])).toEqual([
      ['bundle_sent', first.id],
      ['bundle_sent', second.id],
      ['bundle_cancelled', first.id],
    ]);
    expect(bodies()[0]!.event_date).toBe(occurred);
    expect(new Set(bodies().map((b) => b.event_id))).toEqual(new Set(sent.events));
    const listed = (await engine.listWebhookEvents({ webhook: w.id, bundle: first.id })).items;
    expect(listed.map((e) => e.event_type).sort()).toEqual(['bundle_cancelled', 'bundle_sent']);

    // Once each: nothing is left to send a second time.
    expect(await engine.listMissedWebhookEvents({ webhook: w.id })).toEqual([]);
    expect(await engine.resendMissedWebhookEvents(w.id)).toMatchObject({ events: [], delivered: 0 });
    await engine.deliverWebhooks();
    expect(rx.received).toHaveLength(3);
  });

  it('a webhook disabled by a person keeps what it misses; a failed first attempt is retried on the schedule', async () => {
    const w = await engine.createWebhook({ name: 'audit', url: rx.url, event_types: TYPES });
    await engine.updateWebhook(w.id, { enabled: false });
    await engine.createBundle(bundleRequest());
    await engine.updateWebhook(w.id, { enabled: true });
    rx.respond = () => 503;
    const sent = await engine.resendMissedWebhookEvents(w.id);
    expect(sent).toMatchObject({ delivered: 0, failed: 1, queued: 0 });
    const event = await engine.getWebhookEvent(sent.events[0]!);
    expect(event.next_attempt_at).not.toBeNull();
    rx.respond = () => 200;
    engine.clock.advance(RETRY_DELAYS_MIN[0] * 60_000);
    expect(await engine.deliverWebhooks()).toEqual({ delivered: 1, failed: 0 });
  });

  it('two processes sending at once send each missed event once', async () => {
    const w = await engine.createWebhook({ name: 'audit', url: rx.url, event_types: TYPES });
    await engine.updateWebhook(w.id, { enabled: false });
    for (let i = 0; i < 5; i++) await engine.createBundle(bundleRequest());
    await engine.updateWebhook(w.id, { enabled: true });
    const other = new LocalEngine({ dataDir: engine.dataDir });
    try {
      const [a, b] = await Promise.all([engine.resendMissedWebhookEvents(w.id), other.resendMissedWebhookEvents(w.id)]);
      expect(a.events.length + b.events.length).toBe(5);
      await engine.deliverWebhooks();
      expect(rx.received).toHaveLength(5);
      expect(new Set(bodies().map((x) => x.event_id)).size).toBe(5);
    } finally {
      await other.close();
    }
  });

  it("one another process's delivery run claims first is reported as that process delivers it, and sent once", async () => {
    const w = await engine.createWebhook({ name: 'audit', url: rx.url, event_types: TYPES });
    await engine.updateWebhook(w.id, { enabled: false });
    // One more than a send attempts at once: the last waits, and another process's run takes it.
    const n = 9;
    for (let i = 0; i < n; i++) await engine.createBundle(bundleRequest());
    await engine.updateWebhook(w.id, { enabled: true });
    const other = new LocalEngine({ dataDir: engine.dataDir });
    let otherRun: Promise<{ delivered: number }> | undefined;
    rx.respond = (_, count) => {
      // esign serve's loop, in another process, finds the queued event this send has not reached yet.
      if (count === 1) otherRun = other.deliverWebhooks();
      return 200;
    };
    try {
      const sent = await engine.resendMissedWebhookEvents(w.id);
      expect(await otherRun).toMatchObject({ delivered: 1 });
      expect(sent).toMatchObject({ delivered: n, failed: 0, queued: 0 });
      expect(rx.received).toHaveLength(n);
      expect(new Set(bodies().map((x) => x.event_id))).toEqual(new Set(sent.events));
    } finally {
      await other.close();
    }
  });

  it('a deleted webhook takes what it missed with it', async () => {
    const w = await engine.createWebhook({ name: 'gone', url: rx.url, event_types: TYPES });
    await engine.updateWebhook(w.id, { enabled: false });
    await engine.createBundle(bundleRequest());
    await engine.deleteWebhook(w.id);
    expect(await engine.listMissedWebhookEvents()).toEqual([]);
    await expectApiError(engine.resendMissedWebhookEvents(w.id), 404);
  });
});

describe('the record of missed events, bounded per webhook', () => {
  it('keeps the newest MISSED_KEPT, drops the oldest and counts them, says so, and forgets the count once sent', async () => {
    const w = await engine.createWebhook({ name: 'bounded', url: rx.url, event_types: ['bundle_sent'] });
    await engine.updateWebhook(w.id, { enabled: false });
    const over = 5;
    // Occurrences as the engine records them (the queue's own function), each a minute apart.
    const start = Date.parse('2026-01-01T00:00:00Z');
    const at = (i: number) => new Date(start + i * 60_000).toISOString();
    engine.db.transaction(() => {
      for (let i = 0; i < MISSED_KEPT + over; i++)
        enqueueOccurrence(engine.db, { eventType: 'bundle_sent', at: at(i), bundleId: `b${i}` });
    })();
    const [m] = await engine.listMissedWebhookEvents({ webhook: w.id });
    expect(m).toEqual({
      webhook: w.id,
      count: MISSED_KEPT,
      first_at: at(over),
      last_at: at(MISSED_KEPT + over - 1),
      dropped: over,
      kept_at_most: MISSED_KEPT,
    });
    expect(missedWords(m!)).toBe(
      `10,000 events missed while disabled (from ${at(over)} to ${at(MISSED_KEPT + over - 1)}); 5 older ones were dropped (at most 10,000 are kept per webhook)`,
    );
    // One more: one more dropped, still MISSED_KEPT kept.
    engine.db.transaction(() =>
      enqueueOccurrence(engine.db, { eventType: 'bundle_sent', at: at(MISSED_KEPT + over), bundleId: 'last' }),
    )();
    expect(await engine.listMissedWebhookEvents({ webhook: w.id })).toMatchObject([
      { count: MISSED_KEPT, dropped: over + 1, first_at: at(over + 1) },
    ]);

    // One Bundle's alone: sent, and the dropped count stays with the rest.
    await engine.updateWebhook(w.id, { enabled: true });
    rx.respond = () => 200;
    const one = await engine.resendMissedWebhookEvents(w.id, { bundle: 'last' });
    expect(one).toMatchObject({ events: [expect.any(String)], dropped: 0 });
    expect(rx.received).toHaveLength(1);
    expect(await engine.listMissedWebhookEvents({ webhook: w.id })).toMatchObject([
      { count: MISSED_KEPT - 1, dropped: over + 1 },
    ]);
    // Sending all of them closes the record: the outcome says how many had been dropped.
    engine.db.prepare('DELETE FROM webhook_missed WHERE webhook_id = ? AND bundle_id <> ?').run(w.id, 'b10');
    const all = await engine.resendMissedWebhookEvents(w.id);
    expect(all.dropped).toBe(over + 1);
    expect(resendMissedOutcome('bounded', all).text).toBe(
      'Sent the 1 event webhook bounded missed while disabled, each once: 1 delivered. 6 older missed events had been dropped (a bounded number is kept) and could not be sent.',
    );
    expect(await engine.listMissedWebhookEvents({ webhook: w.id })).toEqual([]);
    expect(engine.db.prepare('SELECT missed_dropped FROM webhooks WHERE id = ?').pluck().get(w.id)).toBe(0);
  }, 60_000);
});
