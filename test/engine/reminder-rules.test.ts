// Automatic reminders keep the spec's own rules, on the engine's clock (issue 11, item 9).
import { describe, expect, it } from 'vitest';
import { inspectBundle } from '../../src/app/inspection.js';
import { bundleRequest } from '../helpers.js';
import { outboxOf, useEngine } from './support.js';

const t = useEngine();
const DAY = 86400e3;
const MIN = 60e3;
/** Created, then the reminder settings by PATCH (so these tests fail on the reminder rules alone). */
async function created(over: Record<string, unknown>, settings: Record<string, unknown>) {
  const b = await t.e.createBundle(bundleRequest(over));
  await t.e.updateBundle(b.id, settings);
  return b;
}
const reminderTimes = (slug: string) =>
  outboxOf(t.e, slug)
    .filter((m) => m.kind === 'reminder')
    .map((m) => m.created);

describe('automatic reminders and the rules they share with manual ones', () => {
  it('(a) keep the once-an-hour rule after a manual reminder: the automatic one waits for the hour to pass', async () => {
    const e = t.e;
    const b = await created(
      { packets: [{ key: 'a', name: 'A', email: 'a@example.com' }] },
      { reminder_offset: 1, reminder_interval: 2 },
    );
    const sent = e.clock.nowMs();
    e.clock.advance(DAY - 31 * MIN); // 08:29 if sent at 09:00
    await e.remindPacket(b.packets[0]!.id);
    e.clock.advance(31 * MIN + 1000); // 09:00: the automatic one is due by the schedule
    expect(e.runDue().reminded).toBe(0);
    e.clock.advance(30 * MIN); // 09:30: an hour after the manual one
    expect(e.runDue().reminded).toBe(1);
    const times = reminderTimes(b.id).map((x) => Date.parse(x) - sent);
    expect(times).toHaveLength(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(60 * MIN);
    // The schedule goes on from its own days: the next one is due on day 3, not an interval after the late one.
    e.clock.advance(2 * DAY - 29 * MIN);
    expect(reminderTimes(b.id)).toHaveLength(2);
    expect(e.runDue().reminded).toBe(1);
  });

  it('(a) and a manual reminder right after an automatic one is refused', async () => {
    const e = t.e;
    const b = await created({ packets: [{ key: 'a', name: 'A', email: 'a@example.com' }] }, { reminder_offset: 1 });
    e.clock.advance(DAY + 1000);
    expect(e.runDue().reminded).toBe(1);
    e.clock.advance(10 * MIN);
    await expect(e.remindPacket(b.packets[0]!.id)).rejects.toThrow(/once per hour/);
  });

  it('(b) send no catch-up reminder when the clock jumps past reminder_expires', async () => {
    const e = t.e;
    const b = await created({}, { reminder_offset: 2, reminder_interval: 2, reminder_expires: 3 });
    e.clock.advance(5 * DAY);
    expect(e.runDue().reminded).toBe(0);
    e.clock.advance(5 * DAY);
    expect(e.runDue().reminded).toBe(0);
    expect(reminderTimes(b.id)).toEqual([]);
    expect((await e.getBundle(b.id)).packets.map((p) => p.status)).toEqual(['se', 'se']);
  });

  it('(b) still send a reminder that fell due before reminder_expires when the engine runs again in time', async () => {
    const e = t.e;
    const b = await created(
      { packets: [{ key: 'a', name: 'A', email: 'a@example.com' }] },
      { reminder_offset: 1, reminder_interval: 5, reminder_expires: 3 },
    );
    e.clock.advance(2 * DAY);
    expect(e.runDue().reminded).toBe(1);
    expect(reminderTimes(b.id)).toHaveLength(1);
  });

  it('(c) go to no packet created for embedded signing and moved to email: only the remind operation', async () => {
    const e = t.e;
    const b = await created(
      {
        packets: [
          { key: 'em', name: 'Em', deliver_via: 'embed', email: 'em@example.com' },
          { key: 'bob', name: 'Bob', email: 'bob@example.com' },
        ],
      },
      { reminder_offset: 1, reminder_interval: 1 },
    );
    const em = b.packets[0]!.id;
    await e.updatePacket(em, { deliver_via: 'email' });
    expect(outboxOf(e, b.id).filter((m) => m.packet_id === em)).toEqual([]);
    // Anything that recomputes the schedule (a PATCH, another signer signing) must not start them either.
    await e.updateBundle(b.id, { reminder_interval: 2 });
    e.clock.advance(DAY + 1000);
    e.runDue();
    await e.signPacket(b.packets[1]!.id, {});
    e.clock.advance(5 * DAY);
    e.runDue();
    expect(outboxOf(e, b.id).filter((m) => m.packet_id === em)).toEqual([]);
    await e.remindPacket(em);
    expect(
      outboxOf(e, b.id)
        .filter((m) => m.packet_id === em)
        .map((m) => [m.kind, m.recipient]),
    ).toEqual([['reminder', 'em@example.com']]);
  });

  it('(d) and why-waiting says so: no automatic reminder shown for the moved signer, one for the other', async () => {
    const e = t.e;
    const b = await created(
      {
        packets: [
          { key: 'em', name: 'Em', deliver_via: 'embed', email: 'em@example.com' },
          { key: 'bob', name: 'Bob', email: 'bob@example.com' },
        ],
      },
      { send_reminders: true, reminder_offset: 1, reminder_interval: 1 },
    );
    await e.updatePacket(b.packets[0]!.id, { deliver_via: 'email' });
    const events = await e.listBundleEvents(b.id);
    expect(events.find((x) => x.kind === 'pu')!.description).toBe(
      'Signer details updated: deliver_via; moved from embedded signing to email',
    );
    const r = await inspectBundle(e, await e.getBundle(b.id));
    const [em, bob] = r.signers;
    expect(em!.reminders).toMatchObject({
      automatic_at: null,
      automatic: 'none: moved from embedded signing, only reminders sent by hand go',
    });
    expect(em!.reminders!.by_hand_at).not.toBeNull();
    const asked = events.find((x) => x.kind === 'ns' && x.packet_id === b.packets[1]!.id)!.timestamp;
    expect(bob!.reminders!.automatic_at).toBe(new Date(Date.parse(asked) + DAY).toISOString());
    // What the engine does agrees: a day on, Bob is reminded and Em is not.
    e.clock.advance(DAY + 1000);
    e.runDue();
    expect(reminderTimes(b.id)).toHaveLength(1);
    expect(
      outboxOf(e, b.id)
        .filter((m) => m.kind === 'reminder')
        .map((m) => m.recipient),
    ).toEqual(['bob@example.com']);
  });
});
