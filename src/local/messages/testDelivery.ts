// A test Bundle reaches verified addresses of account users only (spec: test mode). Creation refuses
// email and SMS delivery to anyone else, but an embedded signer of a test Bundle may have any address:
// the messages that would still go to them (documents ready, say) are withheld here, and the Bundle's
// timeline says so (event `mw`), so that support sees why nothing arrived.
import { recordEvent } from '../bundles/events.js';
import type { BundleRow } from '../bundles/read.js';
import type { EngineContext } from '../store/context.js';
import { type OutboxMessage, recordMessage } from './outbox.js';

/** Whether a message of this test Bundle may go to `recipient` on `channel`. */
function reachable(ctx: EngineContext, channel: OutboxMessage['channel'], recipient: string): boolean {
  return channel === 'email' && ctx.account.isVerifiedAddress(recipient);
}

/**
 * Records the message, unless the Bundle is a test Bundle and the recipient is not a verified
 * address of an account user: then event `mw` names who and why. Returns whether it was recorded.
 */
export function deliverMessage(
  ctx: EngineContext,
  b: Pick<BundleRow, 'seq' | 'is_test'>,
  m: Omit<OutboxMessage, 'id'>,
): boolean {
  if (b.is_test === 1 && !reachable(ctx, m.channel, m.recipient)) {
    recordEvent(ctx.db, {
      bundleSeq: b.seq,
      kind: 'mw',
      at: m.created,
      packetId: m.packet_id ?? undefined,
      detail: `${m.kind} to ${m.recipient}: a test Bundle reaches verified addresses of account users only`,
    });
    return false;
  }
  recordMessage(ctx.db, m);
  return true;
}
