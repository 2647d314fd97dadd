// Launching a Bundle: the state change and its signing requests, in the caller's transaction.
import { type BundleRow, type PacketRow, packetRowsOf } from './read.js';
import type { EngineContext } from '../store/context.js';
import { nextReminderAt, scheduleReminders } from './due.js';
import { notify } from '../messages/notify.js';
import { packetsWhoseTurnItIs } from './turns.js';
import { markPacketAsked, markSent } from './transitions.js';

/** `se` for a Bundle whose documents are ready (or made so): packets whose turn it is get their signing request. */
export function launch(ctx: EngineContext, b: BundleRow): void {
  const at = ctx.clock.now();
  markSent(ctx.db, b, at);
  const packets = packetRowsOf(ctx.db, b.seq);
  for (const p of packetsWhoseTurnItIs(b, packets)) {
    markPacketAsked(ctx.db, p.id, at);
    notify(ctx, b, p, 'signing_request');
  }
  scheduleReminders(ctx, b.seq);
}

/**
 * The packets of a Bundle created `se`, as `launch` would leave them, before they are written: those
 * whose turn it is (`asked`) asked at `at`, each with its next reminder. One write per packet, not three.
 */
export function launchedPackets(
  ctx: EngineContext,
  b: BundleRow,
  packets: PacketRow[],
  at: string,
): { rows: PacketRow[]; asked: PacketRow[] } {
  const turn = new Set(packetsWhoseTurnItIs(b, packets));
  const rows = packets.map((p) => {
    const q: PacketRow = turn.has(p) ? { ...p, status: 'se', notified_at: at } : p;
    return { ...q, next_reminder_at: nextReminderAt(ctx, b, q) };
  });
  return { rows, asked: rows.filter((_, i) => turn.has(packets[i])) };
}

/** The rest of `launch` once a new Bundle's rows are written (`launchedPackets`): its event, the signing requests. */
export function announceLaunch(ctx: EngineContext, b: BundleRow, asked: PacketRow[], at: string): void {
  markSent(ctx.db, b, at);
  for (const p of asked) notify(ctx, b, p, 'signing_request');
}
