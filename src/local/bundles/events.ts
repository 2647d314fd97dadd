// The Bundle audit event codes of the local engine. The spec shows `bc` and `bl`; the rest are
// esign's documented choice (docs/wire.md, "Bundle events"). Some are also webhook events (webhooks/queue.ts).
import { EVENT_WORDS } from '../../domain/states.js';
import type { BundleEvent } from '../../service/types.js';
import type { EngineContext } from '../store/context.js';
import { type Db, sql } from '../store/db.js';
import { findBundleRow } from './read.js';
import { enqueueForAuditEvent } from '../webhooks/queue.js';

const EVENT_KINDS = EVENT_WORDS;
export type EventKind = keyof typeof EVENT_KINDS;

export function recordEvent(
  db: Db,
  e: { bundleSeq: number; kind: EventKind; at: string; packetId?: string; detail?: string },
): void {
  const description = e.detail ? `${EVENT_KINDS[e.kind]}: ${e.detail}` : EVENT_KINDS[e.kind];
  sql(db, 'INSERT INTO bundle_events (bundle_seq, kind, description, timestamp, packet_id) VALUES (?, ?, ?, ?, ?)').run(
    e.bundleSeq,
    e.kind,
    description,
    e.at,
    e.packetId ?? null,
  );
  enqueueForAuditEvent(db, e);
  eventListeners.get(db)?.();
}

const eventListeners = new WeakMap<Db, () => void>();

/** Tells the engine, synchronously and inside the writing transaction, that a Bundle changed. */
export function onBundleEvent(db: Db, listener: () => void): void {
  eventListeners.set(db, listener);
}

/** A Bundle's audit trail, oldest first. */
export function listEvents(ctx: EngineContext, slug: string): BundleEvent[] {
  const b = findBundleRow(ctx.db, slug);
  const rows = sql(
    ctx.db,
    'SELECT kind, description, timestamp, packet_id FROM bundle_events WHERE bundle_seq = ? ORDER BY id',
  ).all(b.seq) as {
    kind: string;
    description: string;
    timestamp: string;
    packet_id: string | null;
  }[];
  return rows.map((r) =>
    r.packet_id
      ? { ...r, packet_id: r.packet_id }
      : { kind: r.kind, description: r.description, timestamp: r.timestamp },
  );
}
