// Every write of a Bundle's or a signer's (packet's) status, with the audit event it makes: the one
// place the engine moves either from one state to another (domain/states.ts says what the states
// mean). Callers check that the move is allowed and run these in their transaction.
import type { WireError } from '../../domain/errors.js';
import { FILES_FAILED } from '../../domain/states.js';
import { type Db, sql } from '../store/db.js';
import { recordEvent } from './events.js';
import type { BundleRow, PacketRow } from './read.js';
import { ENDED_PACKETS_SQL } from './turns.js';

/**
 * The status a new Bundle is written with: `dr` a draft, `pe` while its documents are being made,
 * else `se` with `sent` set, written so at once (one write of the row and its indexes, not two);
 * `launch` then records the send and sends the signing requests.
 */
export const statusAtCreation = (draft: boolean, pending: boolean): 'dr' | 'pe' | 'se' =>
  draft ? 'dr' : pending ? 'pe' : 'se';

/** `se`: the Bundle goes out to its signers (the caller sends the signing requests). */
export function markSent(db: Db, b: Pick<BundleRow, 'seq' | 'status'>, at: string): void {
  if (b.status !== 'se') sql(db, `UPDATE bundles SET status = 'se', sent = ? WHERE seq = ?`).run(at, b.seq);
  recordEvent(db, { bundleSeq: b.seq, kind: 'bl', at });
}

/** `co`: every signer is done; the evidence is to be made (`doc_status` pending). */
export function markComplete(db: Db, seq: number, at: string): void {
  sql(db, `UPDATE bundles SET status = 'co', completed_at = ?, doc_status = 'pe' WHERE seq = ?`).run(at, seq);
  recordEvent(db, { bundleSeq: seq, kind: 'bk', at });
}

/** `ca` (cancelled) or `ex` (expired): the Bundle and every signer who still had to act end with it. */
export function markEnded(db: Db, seq: number, to: 'ca' | 'ex', at: string): void {
  sql(db, `UPDATE bundles SET status = ? WHERE seq = ?`).run(to, seq);
  sql(
    db,
    `UPDATE packets SET status = ?, next_reminder_at = NULL WHERE bundle_seq = ? AND status NOT IN ${ENDED_PACKETS_SQL}`,
  ).run(to, seq);
  recordEvent(db, { bundleSeq: seq, kind: to === 'ca' ? 'bx' : 'be', at });
}

/** `fa`: the Bundle could not be made ready; `errors` are what GET shows, `detail` goes in the event. */
export function markFailed(db: Db, seq: number, errors: WireError[], at: string, detail: string): void {
  sql(db, `UPDATE bundles SET status = 'fa', errors = ? WHERE seq = ?`).run(JSON.stringify(errors), seq);
  recordEvent(db, { bundleSeq: seq, kind: 'bf', at, detail });
}

/**
 * A completed Bundle whose signed files cannot be made (its documents exceed the processing limits):
 * said in its `errors`, as the API says a processing error, once, and by event `ff` (a bundle_error
 * webhook event); it stays complete, its files never come.
 */
export function markFilesFailed(db: Db, seq: number, why: string, at: string): void {
  const b = sql(db, 'SELECT errors FROM bundles WHERE seq = ?').get(seq) as { errors: string } | undefined;
  if (!b) return;
  const errors = (JSON.parse(b.errors) as WireError[]).filter((e) => e.code !== FILES_FAILED);
  errors.push({
    code: FILES_FAILED,
    message: `The signed PDFs and Certificates of Evidence could not be made: ${why.replace(/\.?$/, '.')} They are not tried again.`,
    errors: [],
  });
  sql(db, 'UPDATE bundles SET errors = ?, evidence_lease = NULL WHERE seq = ?').run(JSON.stringify(errors), seq);
  recordEvent(db, { bundleSeq: seq, kind: 'ff', at, detail: why });
}

// Signers (packets). The Bundle a signer's act moves (started, declined) moves here too.

/** A signer is asked to sign (`se`): at launch, or when an earlier signer's turn ends. The caller sends the request. */
export function markPacketAsked(db: Db, packetId: string, at: string): void {
  sql(db, `UPDATE packets SET status = 'se', notified_at = ? WHERE id = ?`).run(at, packetId);
}

/** A signer opens the documents: the packet (`ne`/`se`) and the Bundle (`se`) become started (`st`); event `pv`. */
export function markPacketViewed(db: Db, b: Pick<BundleRow, 'seq' | 'status'>, packetId: string, at: string): void {
  sql(
    db,
    `UPDATE packets SET last_accessed_at = ?, status = CASE WHEN status IN ('ne', 'se') THEN 'st' ELSE status END WHERE id = ?`,
  ).run(at, packetId);
  if (b.status === 'se') sql(db, `UPDATE bundles SET status = 'st' WHERE seq = ?`).run(b.seq);
  recordEvent(db, { bundleSeq: b.seq, kind: 'pv', at, packetId });
}

/** A signer finished (`co`); event `ps`. Whether the Bundle completes is the caller's question (`markComplete`). */
export function markPacketSigned(db: Db, seq: number, packetId: string, at: string): void {
  sql(db, `UPDATE packets SET status = 'co', completed_at = ? WHERE id = ?`).run(at, packetId);
  recordEvent(db, { bundleSeq: seq, kind: 'ps', at, packetId });
}

/**
 * A signer declined: their packet ends `ca` (the wire's packet states have no "declined", docs/cli.md)
 * and the Bundle `de`; event `pd` with the reason.
 */
export function markPacketDeclined(
  db: Db,
  seq: number,
  packetId: string,
  at: string,
  reason: string | undefined,
): void {
  sql(db, `UPDATE packets SET status = 'ca', completed_at = ?, next_reminder_at = NULL WHERE id = ?`).run(at, packetId);
  sql(db, `UPDATE bundles SET status = 'de' WHERE seq = ?`).run(seq);
  recordEvent(db, { bundleSeq: seq, kind: 'pd', at, packetId, detail: reason });
}

/** A signer handed their turn to another person (`ra`); the caller adds the new packet, then records `pa`. */
export function markPacketReassigned(db: Db, p: Pick<PacketRow, 'id'>, at: string): void {
  sql(db, `UPDATE packets SET status = 'ra', completed_at = ?, next_reminder_at = NULL WHERE id = ?`).run(at, p.id);
}
