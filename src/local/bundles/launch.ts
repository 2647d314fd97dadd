// Launching a Bundle and notifying signers: the state change and its messages, in the caller's transaction.
import { sql } from '../store/db.js';
import { type BundleAttrs, type BundleRow, type PacketAttrs, type PacketRow, packetRowsOf } from './read.js';
import type { EngineContext } from '../store/context.js';
import { scheduleReminders } from './due.js';
import { recordEvent } from './events.js';
import { createLink } from './links.js';
import { type MessageKind, recordMessage } from '../messages/outbox.js';

/** A signing link in a message works for 30 days (or until the Bundle ends). */
const MESSAGE_LINK_TTL_MS = 30 * 86400e3;

/** `se` for a Bundle whose documents are ready: packets whose turn it is get their signing request. */
export function launch(ctx: EngineContext, b: BundleRow): void {
  const at = ctx.clock.now();
  sql(ctx.db, `UPDATE bundles SET status = 'se', sent = ? WHERE seq = ?`).run(at, b.seq);
  recordEvent(ctx.db, { bundleSeq: b.seq, kind: 'bl', at });
  const packets = packetRowsOf(ctx.db, b.seq);
  for (const p of packetsWhoseTurnItIs(b, packets)) {
    sql(ctx.db, `UPDATE packets SET status = 'se', notified_at = ? WHERE id = ?`).run(at, p.id);
    notify(ctx, b, p, 'signing_request');
  }
  scheduleReminders(ctx, b.seq);
}

/** Packet states of a signer who still has to act; the others are ended (co, ca, ex, fa, ra). */
const OPEN_PACKET_STATUSES: readonly string[] = ['ne', 're', 'se', 'st'];
export const isOpenPacket = (p: Pick<PacketRow, 'status'>) => OPEN_PACKET_STATUSES.includes(p.status);
/** For SQL: packets a cancel or expiry leaves as they are. */
export const ENDED_PACKETS_SQL = `('co', 'ca', 'ex', 'fa', 'ra')`;

/** Why a packet whose signer can no longer act has ended, for messages. */
export function endedAs(p: Pick<PacketRow, 'status'>): string {
  return ({ co: 'completed', ca: 'declined or been cancelled', ra: 'handed their turn to another signer', ex: 'expired', fa: 'failed' } as Record<string, string>)[p.status] ?? p.status;
}

/** All unfinished signers, or with `in_order` those of the lowest order still unfinished. */
export function packetsWhoseTurnItIs(b: Pick<BundleRow, 'in_order'>, packets: PacketRow[]): PacketRow[] {
  const open = packets.filter(isOpenPacket);
  if (b.in_order !== 1 || !open.length) return open;
  const first = Math.min(...open.map((p) => p.ord));
  return open.filter((p) => p.ord === first);
}

/**
 * Records the message a signer would get by their delivery method, unless suppressed. Embedded
 * signers get nothing: the sender hands them a URL. Returns whether a message was recorded.
 */
export function notify(ctx: EngineContext, b: BundleRow, p: PacketRow, kind: Extract<MessageKind, 'signing_request' | 'reminder'>): boolean {
  const pa = JSON.parse(p.attrs) as PacketAttrs;
  if (p.deliver_via === 'embed' || pa.suppress_all) return false;
  if (kind === 'signing_request' && pa.suppress_signing) return false;
  const ba = JSON.parse(b.attrs) as BundleAttrs;
  const at = ctx.clock.now();
  const title = b.label || 'documents';
  const link = createLink(ctx, 'sign', p.id, MESSAGE_LINK_TTL_MS).url;
  const prefix = kind === 'reminder' ? 'Reminder: ' : '';
  if (p.deliver_via === 'phone') {
    const text = pa.sms_message || ba.sms_message || `${ba.requester_name} asks you to sign "${title}".`;
    recordMessage(ctx.db, {
      created: at, channel: 'sms', kind, recipient: p.phone!, subject: `${prefix}${title}`,
      body: `${prefix}${text} ${link}`, bundle_id: b.id, packet_id: p.id,
    });
  } else {
    const subject = `${prefix}${ba.email_subject || `${ba.requester_name} sent you "${title}" to sign`}`;
    const message = pa.email_message || ba.email_message || `Please review and sign "${title}".`;
    recordMessage(ctx.db, {
      created: at, channel: 'email', kind, recipient: p.email!, subject,
      body: `Hello ${p.name},\n\n${message}\n\nOpen the documents: ${link}\n\n${ba.requester_name} <${ba.requester_email}>`,
      bundle_id: b.id, packet_id: p.id,
    });
  }
  recordEvent(ctx.db, { bundleSeq: b.seq, kind: kind === 'reminder' ? 'pr' : 'ns', at, packetId: p.id, detail: p.deliver_via === 'phone' ? p.phone! : p.email! });
  return true;
}
