// Time by the engine's clock: expiry and automatic reminders, applied whenever the engine runs.
import { describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { bundleRequest } from '../helpers.js';
import { eventKinds, outboxOf, useEngine } from './support.js';

const t = useEngine();
const DAY = 86400e3;
const reminders = (e: LocalEngine, slug: string) => outboxOf(e as never, slug).filter((m) => m.kind === 'reminder');

describe('expiry', () => {
  it('moves a sent Bundle past its expiry to ex, with its open packets, when the clock passes it', async () => {
    const e = t.e;
    const b = await e.createBundle(bundleRequest());
    await e.updateBundle(b.id, { expires: new Date(e.clock.nowMs() + 2 * DAY).toISOString() });
    await e.signPacket(b.packets[0]!.id, {});
    e.clock.advance(DAY);
    expect(e.runDue().expired).toBe(0);
    e.clock.advance(DAY + 1000);
    expect(e.runDue().expired).toBe(1);
    const got = await e.getBundle(b.id);
    expect(got.status).toBe('ex');
    expect(got.packets.map((p) => p.status)).toEqual(['co', 'ex']);
    expect((await eventKinds(e, b.id)).at(-1)).toBe('be');
    await expect(e.signPacket(b.packets[1]!.id, {})).rejects.toThrow(/expired/);
  });

  it('is applied by any process that opens the engine after the time has passed', async () => {
    const e = t.e;
    const b = await e.createBundle(bundleRequest({ status: 'dr' }));
    await e.updateBundle(b.id, { expires: new Date(e.clock.nowMs() + DAY).toISOString() });
    e.clock.advance(2 * DAY);
    const other = new LocalEngine({ dataDir: e.dataDir });
    try {
      expect((await other.getBundle(b.id)).status).toBe('ex');
    } finally {
      await other.close();
    }
  });

  it('leaves completed Bundles alone', async () => {
    const e = t.e;
    const b = await e.createBundle(bundleRequest());
    await e.updateBundle(b.id, { expires: new Date(e.clock.nowMs() + DAY).toISOString() });
    for (const p of b.packets) await e.signPacket(p.id, {});
    e.clock.advance(3 * DAY);
    e.runDue();
    expect((await e.getBundle(b.id)).status).toBe('co');
  });
});

describe('automatic reminders', () => {
  it('follow reminder_offset and reminder_interval, stop at reminder_expires, and skip signers who finished', async () => {
    const e = t.e;
    const b = await e.createBundle(bundleRequest());
    await e.updateBundle(b.id, { reminder_offset: 2, reminder_interval: 3, reminder_expires: 9 });
    e.clock.advance(DAY);
    e.runDue();
    expect(reminders(e, b.id)).toHaveLength(0);
    e.clock.advance(DAY + 1000); // day 2: first reminder to both
    expect(e.runDue().reminded).toBe(2);
    await e.signPacket(b.packets[0]!.id, {});
    e.clock.advance(3 * DAY); // day 5: only Bob
    e.runDue();
    e.clock.advance(3 * DAY); // day 8
    e.runDue();
    e.clock.advance(3 * DAY); // day 11: past reminder_expires (9 days)
    e.runDue();
    expect(reminders(e, b.id).map((m) => m.recipient)).toEqual([
      'ada@example.com',
      'bob@example.com',
      'bob@example.com',
      'bob@example.com',
    ]);
  });

  it('send nothing with send_reminders off, for suppressed or embedded signers, or when the feature is off', async () => {
    const e = t.e;
    const off = await e.createBundle(bundleRequest());
    await e.updateBundle(off.id, { send_reminders: false });
    const suppressed = await e.createBundle(
      bundleRequest({
        packets: [
          { key: 'a', name: 'A', email: 'a@example.com', suppress_reminder: true },
          { key: 'b', name: 'B', email: 'b@example.com', deliver_via: 'embed' },
        ],
      }),
    );
    e.clock.advance(10 * DAY);
    expect(e.runDue().reminded).toBe(0);
    expect(reminders(e, off.id).length + reminders(e, suppressed.id).length).toBe(0);
    // A Bundle created with reminders on stops getting them when the account's feature is switched off.
    const later = await e.createBundle(bundleRequest());
    e.account.setFeatures(['reminders'], false);
    e.clock.advance(10 * DAY);
    expect(e.runDue().reminded).toBe(0);
    expect(reminders(e, later.id)).toHaveLength(0);
  });

  it('do not burst after a long pause: one reminder, then the schedule goes on', async () => {
    const e = t.e;
    const b = await e.createBundle(bundleRequest({ packets: [{ key: 'a', name: 'A', email: 'a@example.com' }] }));
    await e.updateBundle(b.id, { reminder_offset: 1, reminder_interval: 1 });
    e.clock.advance(10 * DAY + 1000);
    expect(e.runDue().reminded).toBe(1);
    expect(e.runDue().reminded).toBe(0);
    e.clock.advance(DAY);
    expect(e.runDue().reminded).toBe(1);
  });

  it('with in_order, remind only the signer whose turn it is, counted from their own request', async () => {
    const e = t.e;
    const b = await e.createBundle(bundleRequest({ in_order: true }));
    await e.updateBundle(b.id, { reminder_offset: 2, reminder_interval: 0 });
    e.clock.advance(DAY);
    await e.signPacket(b.packets[0]!.id, {}); // Bob's request goes out on day 1
    e.clock.advance(DAY + 1000); // day 2: Bob's first reminder is due on day 3
    expect(e.runDue().reminded).toBe(0);
    e.clock.advance(DAY);
    expect(e.runDue().reminded).toBe(1);
    e.clock.advance(5 * DAY); // interval 0: only one
    expect(e.runDue().reminded).toBe(0);
    expect(reminders(e, b.id).map((m) => m.recipient)).toEqual(['bob@example.com']);
  });
});
