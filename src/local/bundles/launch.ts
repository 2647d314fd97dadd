// Launching a Bundle: the state change and its signing requests, in the caller's transaction.
import { type BundleRow, packetRowsOf } from './read.js';
import type { EngineContext } from '../store/context.js';
import { scheduleReminders } from './due.js';
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
