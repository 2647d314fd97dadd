// The webhook outbox: each state change that is a webhook event writes one row per enabled,
// subscribed webhook into `webhook_events`, in the same transaction as the change itself. The
// dispatcher drains due rows; a process dying after the commit loses nothing.
import { WEBHOOK_EVENT_OF } from '../../service/webhookEvents.js';
import { type Db, sql } from '../store/db.js';
import { uuid } from '../store/ids.js';
import { accountId } from './secret.js';

const queuedListeners = new WeakMap<Db, () => void>();

/** Tells the engine, synchronously, that rows were queued (inside the transaction: deliver only after it ends). */
export function onWebhookQueued(db: Db, listener: () => void): void {
  queuedListeners.set(db, listener);
}

export interface Occurrence {
  eventType: string;
  at: string;
  bundleId: string | null;
  packetId?: string | null;
  /** Events of no Bundle (Document Templates) name their subject here: `{template_id}`. */
  payload?: Record<string, string>;
}

/** Queues an occurrence for every enabled webhook subscribed to its type; returns the new events' pks. */
export function enqueueOccurrence(db: Db, o: Occurrence): string[] {
  const hooks = sql(
    db,
    `SELECT id FROM webhooks WHERE enabled = 1 AND EXISTS (SELECT 1 FROM json_each(event_types) WHERE value = ?)`,
  ).all(o.eventType) as { id: string }[];
  const pks: string[] = [];
  if (!hooks.length) return pks;
  const account = accountId(db);
  const insert = sql(
    db,
    `INSERT INTO webhook_events (pk, webhook_id, event_type, created, payload, bundle_id, packet_id, next_attempt_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const h of hooks) {
    const pk = uuid();
    const payload =
      o.payload ?? (o.packetId ? { bundle_id: o.bundleId, packet_id: o.packetId } : { bundle_id: o.bundleId });
    const body = JSON.stringify({
      event_id: pk,
      event_type: o.eventType,
      event_date: o.at,
      account_id: account,
      payload,
    });
    insert.run(pk, h.id, o.eventType, o.at, body, o.bundleId, o.packetId ?? null, o.at);
    pks.push(pk);
  }
  if (pks.length) {
    queuedListeners.get(db)?.();
  }
  return pks;
}

/** Called for every Bundle audit event: queues it when it is a webhook event. */
export function enqueueForAuditEvent(
  db: Db,
  e: { bundleSeq: number; kind: string; at: string; packetId?: string },
): void {
  const eventType = WEBHOOK_EVENT_OF[e.kind];
  if (!eventType) return;
  // Cheap when nobody listens: one indexed look-up and no Bundle read.
  if (!sql(db, 'SELECT 1 FROM webhooks WHERE enabled = 1 LIMIT 1').get()) return;
  const b = sql(db, 'SELECT id FROM bundles WHERE seq = ?').get(e.bundleSeq) as { id: string } | undefined;
  if (b) enqueueOccurrence(db, { eventType, at: e.at, bundleId: b.id, packetId: e.packetId });
}

/** A Document Template was created, updated or deleted (in the caller's transaction). */
export function enqueueTemplateEvent(
  db: Db,
  change: 'created' | 'updated' | 'deleted',
  templateId: string,
  at: string,
): void {
  if (!sql(db, 'SELECT 1 FROM webhooks WHERE enabled = 1 LIMIT 1').get()) return;
  enqueueOccurrence(db, {
    eventType: `doc_template_${change}`,
    at,
    bundleId: null,
    payload: { template_id: templateId },
  });
}
