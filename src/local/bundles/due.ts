// What time brings, by the engine's clock: expiry of unfinished Bundles and automatic reminders.
// Every process applies what is due when it opens the engine (two indexed look-ups when nothing
// is), and `esign serve` checks periodically.
import { type BundleRow, type PacketRow, bundleAttrs, packetAttrs } from './read.js';
import { bundleRowBySeq, findPacketRow, packetRowsOf } from './read.js';
import { type EngineContext, inTransaction } from '../store/context.js';
import { sql } from '../store/db.js';
import { notify } from '../messages/notify.js';
import { isAskedInLiveBundle, packetsWhoseTurnItIs } from './turns.js';
import { IN_PROGRESS, sqlSet } from '../../domain/states.js';
import { markEnded } from './transitions.js';
import { nextAllowedMs, remindersStopMs, scheduledReminderMs } from '../../domain/reminderRules.js';

export { REMINDER_GAP_MS as REMINDER_INTERVAL_MS } from '../../domain/reminderRules.js';
const EXPIRING = sqlSet(['dr', 'pe', ...IN_PROGRESS]);
// Found by their expiry index: by status the planner would walk every sent Bundle at each start.

const sentMs = (b: BundleRow) => (b.sent ? Date.parse(b.sent) : null);

/**
 * When the packet's next automatic reminder is due, or null: `reminder_offset` days after its
 * signing request, then every `reminder_interval` days (0: only one), never after
 * `reminder_expires` days from sending, and never within the hour after the last reminder
 * (manual or automatic: the once-an-hour rule is the packet's, not the operation's).
 */
export function nextReminderAt(ctx: EngineContext, b: BundleRow, p: PacketRow): string | null {
  const a = bundleAttrs(b);
  const pa = packetAttrs(p);
  if (
    !a.send_reminders ||
    !ctx.account.has('reminders') ||
    pa.suppress_all ||
    pa.suppress_reminder ||
    p.deliver_via === 'embed'
  )
    return null;
  // Created for embedded signing, then moved to email or phone: only the sender reminds (spec).
  if (pa.no_auto_reminders) return null;
  if (!isAskedInLiveBundle(b, p)) return null;
  const base = Date.parse(p.notified_at ?? b.sent ?? '');
  if (Number.isNaN(base)) return null;
  const scheduled = scheduledReminderMs(a, base, p.auto_reminders);
  if (scheduled === null) return null;
  // A reminder stamped after now (a clock moved forward, then reset) does not push the next one out.
  const last = p.last_reminded_at ? Date.parse(p.last_reminded_at) : NaN;
  const due = last <= ctx.clock.nowMs() ? Math.max(scheduled, nextAllowedMs(last)) : scheduled;
  const stop = remindersStopMs(a, sentMs(b));
  if (stop !== null && due > stop) return null;
  return new Date(due).toISOString();
}

/** Recomputes the next reminder of every packet of a Bundle (after a launch, a turn, a PATCH). */
export function scheduleReminders(ctx: EngineContext, seq: number): void {
  const b = bundleRowBySeq(ctx.db, seq);
  const set = sql(ctx.db, 'UPDATE packets SET next_reminder_at = ? WHERE id = ?');
  for (const p of packetRowsOf(ctx.db, seq)) set.run(nextReminderAt(ctx, b, p), p.id);
}

/** Expires what is past `expires` and sends the reminders that are due. Returns what it did. */
export function applyDue(ctx: EngineContext): { expired: number; reminded: number } {
  const now = ctx.clock.now();
  const anyExpired = sql(
    ctx.db,
    `SELECT 1 FROM bundles INDEXED BY bundles_expires WHERE expires IS NOT NULL AND expires <= ? AND status IN ${EXPIRING} LIMIT 1`,
  ).get(now);
  const anyReminder = sql(
    ctx.db,
    'SELECT 1 FROM packets WHERE next_reminder_at IS NOT NULL AND next_reminder_at <= ? LIMIT 1',
  ).get(now);
  if (!anyExpired && !anyReminder) return { expired: 0, reminded: 0 };
  return inTransaction(ctx, () => {
    const at = ctx.clock.now();
    const expiring = sql(
      ctx.db,
      `SELECT seq FROM bundles INDEXED BY bundles_expires WHERE expires IS NOT NULL AND expires <= ? AND status IN ${EXPIRING}`,
    ).all(at) as { seq: number }[];
    for (const { seq } of expiring) {
      markEnded(ctx.db, seq, 'ex', at);
    }
    let reminded = 0;
    const due = sql(ctx.db, 'SELECT id FROM packets WHERE next_reminder_at IS NOT NULL AND next_reminder_at <= ?').all(
      at,
    ) as { id: string }[];
    for (const { id } of due) {
      const p = findPacketRow(ctx.db, id);
      const b = bundleRowBySeq(ctx.db, p.bundle_seq);
      const stillDue = nextReminderAt(ctx, b, p);
      if (stillDue && stillDue > at) {
        // Moved later (a manual reminder within the hour): it goes then, not now and not never.
        sql(ctx.db, 'UPDATE packets SET next_reminder_at = ? WHERE id = ?').run(stillDue, p.id);
        continue;
      }
      // A clock that jumped past reminder_expires sends no catch-up reminder: reminders have stopped.
      const stop = remindersStopMs(bundleAttrs(b), sentMs(b));
      const stopped = stop !== null && Date.parse(at) > stop;
      const itsTurn = packetsWhoseTurnItIs(b, packetRowsOf(ctx.db, b.seq)).some((x) => x.id === p.id);
      let lastReminded = p.last_reminded_at;
      if (stillDue && !stopped && itsTurn && notify(ctx, b, p, 'reminder')) {
        reminded++;
        lastReminded = at;
        sql(ctx.db, 'UPDATE packets SET last_reminded_at = ? WHERE id = ?').run(at, p.id);
      }
      // Reminders missed while the engine was not running are not sent in a burst: the count moves past them.
      const after = (count: number) =>
        nextReminderAt(ctx, b, { ...p, auto_reminders: count, last_reminded_at: lastReminded });
      let count = p.auto_reminders + 1;
      while (true) {
        const next = after(count);
        if (!next || next > at) break;
        count++;
      }
      sql(ctx.db, 'UPDATE packets SET auto_reminders = ?, next_reminder_at = ? WHERE id = ?').run(
        count,
        after(count),
        p.id,
      );
    }
    return { expired: expiring.length, reminded };
  });
}
