// Every write of a Bundle's status, with the audit event it makes: the one place the engine moves a
// Bundle from one state to another (service/states.ts says what the states mean). Callers check that
// the move is allowed and run these in their transaction.
import type { WireError } from '../../service/errors.js';
import { type Db, sql } from '../store/db.js';
import { recordEvent } from './events.js';
import type { BundleRow } from './read.js';
import { ENDED_PACKETS_SQL } from './turns.js';

/**
 * The status a new Bundle is written with: `dr` a draft, `pe` while its documents are being made,
 * else `se` with `sent` set, written so at once (one write of the row and its indexes, not two);
 * `launch` then records the send and sends the signing requests.
 */
export const statusAtCreation = (draft: boolean, pending: boolean): 'dr' | 'pe' | 'se' => (draft ? 'dr' : pending ? 'pe' : 'se');

/** `se`: the Bundle goes out to its signers (the caller sends the signing requests). */
export function markSent(db: Db, b: Pick<BundleRow, 'seq' | 'status'>, at: string): void {
  if (b.status !== 'se') sql(db, `UPDATE bundles SET status = 'se', sent = ? WHERE seq = ?`).run(at, b.seq);
  recordEvent(db, { bundleSeq: b.seq, kind: 'bl', at });
}

/** `se` -> `st` on a signer's first view (the caller records the view). */
export function markStarted(db: Db, b: Pick<BundleRow, 'seq' | 'status'>): void {
  if (b.status === 'se') sql(db, `UPDATE bundles SET status = 'st' WHERE seq = ?`).run(b.seq);
}

/** `de`: a signer declined (the caller records the signer's event). */
export function markDeclined(db: Db, seq: number): void {
  sql(db, `UPDATE bundles SET status = 'de' WHERE seq = ?`).run(seq);
}

/** `co`: every signer is done; the evidence is to be made (`doc_status` pending). */
export function markComplete(db: Db, seq: number, at: string): void {
  sql(db, `UPDATE bundles SET status = 'co', completed_at = ?, doc_status = 'pe' WHERE seq = ?`).run(at, seq);
  recordEvent(db, { bundleSeq: seq, kind: 'bk', at });
}

/** `ca` (cancelled) or `ex` (expired): the Bundle and every signer who still had to act end with it. */
export function markEnded(db: Db, seq: number, to: 'ca' | 'ex', at: string): void {
  sql(db, `UPDATE bundles SET status = ? WHERE seq = ?`).run(to, seq);
  sql(db, `UPDATE packets SET status = ?, next_reminder_at = NULL WHERE bundle_seq = ? AND status NOT IN ${ENDED_PACKETS_SQL}`).run(to, seq);
  recordEvent(db, { bundleSeq: seq, kind: to === 'ca' ? 'bx' : 'be', at });
}

/** `fa`: the Bundle could not be made ready; `errors` are what GET shows, `detail` goes in the event. */
export function markFailed(db: Db, seq: number, errors: WireError[], at: string, detail: string): void {
  sql(db, `UPDATE bundles SET status = 'fa', errors = ? WHERE seq = ?`).run(JSON.stringify(errors), seq);
  recordEvent(db, { bundleSeq: seq, kind: 'bf', at, detail });
}
