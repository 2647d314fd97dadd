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
  /** A test occurrence (esign webhook trigger): sent to enabled webhooks only, never kept as missed. */
  test?: boolean;
}

/** The body a webhook receives for an event (docs/wire.md): its id, type, date, the account and the payload. */
function eventBody(pk: string, eventType: string, at: string, account: string, payload: unknown): string {
  return JSON.stringify({ event_id: pk, event_type: eventType, event_date: at, account_id: account, payload });
}

export interface QueuedEvent {
  eventType: string;
  /** When it happened: the event's `created` and `event_date`. */
  at: string;
  bundleId: string | null;
  packetId: string | null;
  payload: unknown;
  /** When its first attempt is due. */
  due: string;
}

/** Queues an event for `webhookId` (its first attempt due now, by the engine's clock); returns its pk. */
export function insertEvent(db: Db, webhookId: string, e: QueuedEvent, account = accountId(db)): string {
  const pk = uuid();
  sql(
    db,
    `INSERT INTO webhook_events (pk, webhook_id, event_type, created, payload, bundle_id, packet_id, next_attempt_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    pk,
    webhookId,
    e.eventType,
    e.at,
    eventBody(pk, e.eventType, e.at, account, e.payload),
    e.bundleId,
    e.packetId,
    e.due,
  );
  return pk;
}

/**
 * The missed events a webhook keeps: a webhook disabled for months on a busy account would otherwise
 * grow its record without end. The oldest go first, counted (webhooks.missed_dropped).
 */
export const MISSED_KEPT = 10_000;

/** Keeps an occurrence a disabled webhook missed, to be sent once it is enabled again (missed.ts). */
function recordMissed(db: Db, webhookId: string, e: Omit<QueuedEvent, 'due'>): void {
  sql(
    db,
    'INSERT INTO webhook_missed (webhook_id, event_type, created, payload, bundle_id, packet_id) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(webhookId, e.eventType, e.at, JSON.stringify(e.payload), e.bundleId, e.packetId);
  // The newest MISSED_KEPT are kept: the first one past them (in the webhook's index) and all older go.
  const over = sql(db, 'SELECT seq FROM webhook_missed WHERE webhook_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?')
    .pluck()
    .get(webhookId, MISSED_KEPT) as number | undefined;
  if (over === undefined) return;
  const dropped = sql(db, 'DELETE FROM webhook_missed WHERE webhook_id = ? AND seq <= ?').run(webhookId, over).changes;
  sql(db, 'UPDATE webhooks SET missed_dropped = missed_dropped + ? WHERE id = ?').run(dropped, webhookId);
}

/** Webhooks that hear of an occurrence: the enabled ones are sent it, the disabled ones keep it as missed. */
const LISTENING = 'enabled = 1 OR disabled_at IS NOT NULL';

/**
 * Queues an occurrence for every enabled webhook subscribed to its type, and records it as missed
 * for every subscribed webhook that was enabled once and is disabled now; returns the new events' pks.
 */
export function enqueueOccurrence(db: Db, o: Occurrence): string[] {
  const hooks = sql(
    db,
    `SELECT id, enabled FROM webhooks WHERE (${LISTENING})
    AND EXISTS (SELECT 1 FROM json_each(event_types) WHERE value = ?)`,
  ).all(o.eventType) as { id: string; enabled: number }[];
  const pks: string[] = [];
  const payload =
    o.payload ?? (o.packetId ? { bundle_id: o.bundleId, packet_id: o.packetId } : { bundle_id: o.bundleId });
  const e = {
    eventType: o.eventType,
    at: o.at,
    bundleId: o.bundleId,
    packetId: o.packetId ?? null,
    payload,
    due: o.at,
  };
  const account = hooks.some((h) => h.enabled) ? accountId(db) : '';
  for (const h of hooks) {
    if (h.enabled) pks.push(insertEvent(db, h.id, e, account));
    else if (!o.test) recordMissed(db, h.id, e);
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
  // Cheap when nobody listens: one look-up in the (small) webhooks table and no Bundle read.
  if (!sql(db, `SELECT 1 FROM webhooks WHERE ${LISTENING} LIMIT 1`).get()) return;
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
  if (!sql(db, `SELECT 1 FROM webhooks WHERE ${LISTENING} LIMIT 1`).get()) return;
  enqueueOccurrence(db, {
    eventType: `doc_template_${change}`,
    at,
    bundleId: null,
    payload: { template_id: templateId },
  });
}
