// The Bundle audit event codes of the local engine. The spec shows `bc` and `bl`; the rest are
// esign's documented choice (README, "Bundle events"). Some are also webhook events (webhooks/outbox.ts).
import { type Db, sql } from './db.js';
import { enqueueForAuditEvent } from './webhooks/outbox.js';

export const EVENT_KINDS = {
  bc: 'Bundle created',
  bd: 'Bundle saved as a draft',
  dp: 'Document processed',
  bl: 'Bundle launched: sent to signers',
  bu: 'Bundle updated',
  ta: 'Tags added',
  tr: 'Tags removed',
  bx: 'Bundle cancelled',
  bf: 'Bundle failed',
  be: 'Bundle expired',
  bk: 'Bundle completed',
  fr: 'Signed documents and Certificates of Evidence ready',
  ns: 'Signing request sent',
  pr: 'Reminder sent',
  pu: 'Signer details updated',
  eu: 'Embedded signing URL created',
  pv: 'Signer viewed the documents',
  ps: 'Signer completed',
  pd: 'Signer declined',
  pa: 'Signer reassigned',
} as const;
export type EventKind = keyof typeof EVENT_KINDS;

export function recordEvent(
  db: Db,
  e: { bundleSeq: number; kind: EventKind; at: string; packetId?: string; detail?: string },
): void {
  const description = e.detail ? `${EVENT_KINDS[e.kind]}: ${e.detail}` : EVENT_KINDS[e.kind];
  sql(db, 'INSERT INTO bundle_events (bundle_seq, kind, description, timestamp, packet_id) VALUES (?, ?, ?, ?, ?)').run(
    e.bundleSeq, e.kind, description, e.at, e.packetId ?? null,
  );
  enqueueForAuditEvent(db, e);
}
