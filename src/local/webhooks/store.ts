// Webhooks, their extra headers, and the records of events and delivery attempts.
// Writes validate with the shared schemas (loaded on first write) and run in one IMMEDIATE
// transaction; reads never load zod.
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../domain/enums.js';
import { FieldErrors, badRequest, notFound } from '../../domain/errors.js';
import { type PageSpec, isDay, nextDay, parsePage } from '../../service/listQuery.js';
import type { Page, Webhook, WebhookDelivery, WebhookDeliveryListQuery } from '../../service/types.js';
import type { WebhookDeliveryRecord, WebhookEvent, WebhookEventListQuery } from '../../service/types.js';
import type { WebhookExtraHeader, WebhookHeaderListQuery, WebhookListQuery } from '../../service/types.js';
import { refusedHost } from '../net/addressPolicy.js';
import { inTransaction, type EngineContext } from '../store/context.js';
import { type Db, sql } from '../store/db.js';
import { uuid } from '../store/ids.js';
import { mapPage, type PageSelect, selectPage } from '../store/paging.js';

interface WebhookRow {
  id: string;
  name: string;
  url: string;
  enabled: number;
  json: number;
  event_types: string;
  disabled_at: string | null;
  disabled_after: number | null;
}
interface HeaderRow {
  id: string;
  webhook_id: string;
  name: string;
  value: string;
  ord: number;
}
interface EventRow {
  seq: number;
  pk: string;
  webhook_id: string;
  event_type: string;
  created: string;
  payload: string;
  status: number;
  success: number;
  next_attempt_at: string | null;
}
interface DeliveryRow {
  seq: number;
  pk: string;
  event_seq: number;
  timestamp: string;
  status: number;
  success: number;
  message: string;
}

const schemas = () => import('../../domain/schemas.js');

// ---------------------------------------------------------------------------------------------
// List queries: validated filters become SQL clauses with their parameters.

interface Where {
  clauses: string[];
  params: unknown[];
}

class ListQuery {
  readonly errs = new FieldErrors();
  readonly where: Where = { clauses: [], params: [] };
  readonly page: PageSpec;
  constructor(private readonly raw: Record<string, unknown>) {
    this.page = parsePage(raw);
  }

  add(clause: string, ...params: unknown[]): void {
    this.where.clauses.push(clause);
    this.where.params.push(...params);
  }

  private given(k: string): unknown {
    const v = this.raw[k];
    return v === undefined || v === null || v === '' ? undefined : v;
  }

  bool(k: string): boolean | undefined {
    const v = this.given(k);
    if (v === undefined || typeof v === 'boolean') return v;
    const s = String(v).toLowerCase();
    if (s === 'true' || s === '1') return true;
    if (s === 'false' || s === '0') return false;
    this.errs.add(k, 'Must be true or false.');
    return undefined;
  }

  int(k: string): number | undefined {
    const v = this.given(k);
    if (v === undefined) return undefined;
    const n = typeof v === 'number' ? v : /^\s*-?\d+\s*$/.test(String(v)) ? Number(v) : Number.NaN;
    if (Number.isSafeInteger(n)) return n;
    this.errs.add(k, 'Must be an integer.');
    return undefined;
  }

  uuid(k: string): string | undefined {
    const v = this.given(k);
    if (v === undefined) return undefined;
    if (typeof v === 'string' && UUID.test(v)) return v.toLowerCase();
    this.errs.add(k, 'Must be a valid UUID.');
    return undefined;
  }

  eventType(k: string): WebhookEventType | undefined {
    const v = this.given(k);
    if (v === undefined) return undefined;
    if ((WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(v)) return v as WebhookEventType;
    this.errs.add(k, `"${String(v)}" is not a valid event type. Valid: ${WEBHOOK_EVENT_TYPES.join(', ')}.`);
    return undefined;
  }

  /** `after_date` / `before_date`, both inclusive, on the date of the timestamp column `col`; returns the days. */
  dateRange(col: string): [string | undefined, string | undefined] {
    const day = (k: string) => {
      const v = this.given(k);
      if (v === undefined) return undefined;
      if (typeof v === 'string' && isDay(v)) return v;
      this.errs.add(k, 'Enter a valid date (YYYY-MM-DD).');
      return undefined;
    };
    const after = day('after_date');
    const before = day('before_date');
    if (after) this.add(`${col} >= ?`, after);
    if (before) this.add(`${col} < ?`, nextDay(before));
    return [after, before];
  }

  done(): void {
    this.errs.throwIfAny();
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where a list reads its rows from, which columns, and in what order. */
interface Listing {
  from: string;
  select: string;
  order: string;
}

/** One page of `SELECT {select} FROM {from}` under the query's filters; 404 past the last page. */
function pageOf<R, T>(
  db: Db,
  q: ListQuery,
  { from, select, order }: Listing,
  map: (rows: R[]) => T[],
  plan: Pick<PageSelect, 'count' | 'keys'> = {},
): Page<T> {
  q.done();
  // One read transaction: the count and the rows see the same state.
  return db
    .transaction(() =>
      mapPage(
        selectPage<R>(db, q.page, { from, select, where: q.where.clauses, params: q.where.params, order, ...plan }),
        map,
      ),
    )
    .deferred();
}

/** The total from a table of counts by one column (migration 10), when that column is the only filter. */
function countedBy(
  db: Db,
  q: ListQuery,
  table: string,
  col: string,
  value: number | undefined,
): () => number | undefined {
  return () => {
    if (q.where.clauses.length > (value === undefined ? 0 : 1)) return undefined;
    return value === undefined
      ? (sql(db, `SELECT coalesce(sum(n), 0) FROM ${table}`).pluck().get() as number)
      : ((sql(db, `SELECT n FROM ${table} WHERE ${col} = ?`).pluck().get(value) as number | undefined) ?? 0);
  };
}

// ---------------------------------------------------------------------------------------------
// Webhooks

const toHeader = (h: HeaderRow): WebhookExtraHeader => ({
  id: h.id,
  webhook: h.webhook_id,
  name: h.name,
  value: h.value,
  order: h.ord,
});

/** The order a delivery sends them in: by `order`, then creation. */
function headersOf(db: Db, webhookId: string): WebhookExtraHeader[] {
  return (
    sql(db, 'SELECT * FROM webhook_headers WHERE webhook_id = ? ORDER BY ord, seq').all(webhookId) as HeaderRow[]
  ).map(toHeader);
}

const toWebhook = (db: Db, w: WebhookRow): Webhook => ({
  id: w.id,
  name: w.name,
  url: w.url,
  enabled: w.enabled === 1,
  json: w.json === 1,
  event_types: JSON.parse(w.event_types) as WebhookEventType[],
  extra_headers: headersOf(db, w.id),
  ...(w.enabled === 0 && w.disabled_at
    ? { disabled_at: w.disabled_at, disabled_after_failures: w.disabled_after ?? null }
    : {}),
});

/** A row of `table` by its id: or undefined, or a 404 naming `what`. */
function byId<R>(table: string, what: string) {
  const find = (db: Db, id: string) => sql(db, `SELECT * FROM ${table} WHERE id = ?`).get(id) as R | undefined;
  const require = (db: Db, id: string): R => {
    const row = find(db, id);
    if (!row) throw notFound(what, id);
    return row;
  };
  return [find, require] as const;
}

const [webhookRow, requireWebhook] = byId<WebhookRow>('webhooks', 'Webhook');

export function listWebhooks(ctx: EngineContext, query: WebhookListQuery): Page<Webhook> {
  const q = new ListQuery(query as Record<string, unknown>);
  const enabled = q.bool('enabled');
  const type = q.eventType('event_type');
  if (enabled !== undefined) q.add('enabled = ?', enabled ? 1 : 0);
  if (type) q.add('EXISTS (SELECT 1 FROM json_each(event_types) WHERE value = ?)', type);
  const listing = { from: 'webhooks', select: '*', order: 'created DESC, seq DESC' };
  return pageOf(ctx.db, q, listing, (rows: WebhookRow[]) => rows.map((w) => toWebhook(ctx.db, w)));
}

export function getWebhook(ctx: EngineContext, id: string): Webhook {
  return toWebhook(ctx.db, requireWebhook(ctx.db, id));
}

/**
 * Where esign serve applies the outbound-address policy, a webhook URL it would refuse to deliver
 * to is refused when it is set, naming `url` and how to allow it; deliveries still check each time.
 */
async function checkDeliverable(ctx: EngineContext, url: string | undefined): Promise<void> {
  if (url === undefined) return;
  const host = await refusedHost(url, ctx.outboundPolicy());
  if (host === undefined) return;
  const message =
    `${host} is a private, loopback or link-local address, which esign serve does not deliver to ` +
    '(esign serve --allow-private-urls, or esign local account set --allow-private-urls, allows it).';
  throw badRequest(`url: ${message}`, [{ field: 'url', message }]);
}

export async function createWebhook(ctx: EngineContext, body: unknown): Promise<Webhook> {
  const S = await schemas();
  const req = S.parseOr400(S.WebhookRequest, body);
  await checkDeliverable(ctx, req.url);
  const id = uuid();
  return inTransaction(ctx, () => {
    const at = ctx.clock.now();
    sql(
      ctx.db,
      'INSERT INTO webhooks (id, name, url, enabled, json, event_types, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(
      id,
      req.name,
      req.url,
      req.enabled === false ? 0 : 1,
      req.json === false ? 0 : 1,
      JSON.stringify(req.event_types),
      at,
    );
    const insertHeader = sql(
      ctx.db,
      'INSERT INTO webhook_headers (id, webhook_id, name, value, ord, created) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const h of req.extra_headers ?? []) insertHeader.run(uuid(), id, h.name, h.value, h.order ?? 1, at);
    return getWebhook(ctx, id);
  });
}

interface WebhookChange {
  name?: string;
  url?: string;
  enabled?: boolean;
  json?: boolean;
  event_types?: string[];
  extra_headers?: { name: string; value: string; order?: number }[];
}

/**
 * On PUT and PATCH, `extra_headers` may come back as read (a client that GETs, changes and PUTs),
 * but changes go through /webhooks/headers/: a different list is refused, never dropped.
 */
function checkSameHeaders(db: Db, id: string, given: WebhookChange['extra_headers']): void {
  if (given === undefined) return;
  const key = (h: { name: string; value: string; order?: number }) =>
    `${h.name.toLowerCase()}\u0000${h.value}\u0000${h.order ?? 1}`;
  const current = headersOf(db, id).map(key).sort();
  const wanted = given.map(key).sort();
  if (current.length !== wanted.length || current.some((k, i) => k !== wanted[i]))
    throw badRequest('extra_headers: Extra headers of an existing webhook are changed through /webhooks/headers/.', [
      {
        field: 'extra_headers',
        message:
          'Extra headers of an existing webhook are changed through /webhooks/headers/ (create, update, delete).',
      },
    ]);
}

/**
 * Applies the members present in `c`. `event_types` given are exactly the subscriptions afterwards.
 * Re-enabling a webhook starts its count of failures in a row afresh and forgets when it was disabled.
 */
function changeWebhook(ctx: EngineContext, id: string, c: WebhookChange): Webhook {
  return inTransaction(ctx, () => {
    const w = requireWebhook(ctx.db, id);
    checkSameHeaders(ctx.db, id, c.extra_headers);
    const enabled = c.enabled ?? w.enabled === 1;
    const reEnabled = enabled && w.enabled === 0;
    // Disabled by a person: since now, after no failures (null).
    const disabledNow = !enabled && w.enabled === 1;
    sql(
      ctx.db,
      `UPDATE webhooks SET name = ?, url = ?, enabled = ?, json = ?, event_types = ?,
      failed_in_a_row = CASE WHEN ? THEN 0 ELSE failed_in_a_row END,
      disabled_at = CASE WHEN ? THEN NULL WHEN ? THEN ? ELSE disabled_at END,
      disabled_after = CASE WHEN ? OR ? THEN NULL ELSE disabled_after END WHERE id = ?`,
    ).run(
      c.name ?? w.name,
      c.url ?? w.url,
      enabled ? 1 : 0,
      (c.json ?? w.json === 1) ? 1 : 0,
      c.event_types ? JSON.stringify(c.event_types) : w.event_types,
      reEnabled ? 1 : 0,
      reEnabled ? 1 : 0,
      disabledNow ? 1 : 0,
      ctx.clock.now(),
      reEnabled ? 1 : 0,
      disabledNow ? 1 : 0,
      id,
    );
    return getWebhook(ctx, id);
  });
}

/**
 * PUT: `name`, `url` and `event_types` are required as on create. `enabled` and `json` left out
 * keep their values (a full update of a Django REST serializer does the same for members with defaults).
 */
export const replaceWebhook = (ctx: EngineContext, id: string, body: unknown): Promise<Webhook> =>
  checkedChange(ctx, id, body, 'WebhookRequest');

export const updateWebhook = (ctx: EngineContext, id: string, body: unknown): Promise<Webhook> =>
  checkedChange(ctx, id, body, 'WebhookPatchRequest');

/** A PUT or a PATCH of a webhook that exists, checked by its schema, to a URL that may be delivered to. */
async function checkedChange(
  ctx: EngineContext,
  id: string,
  body: unknown,
  schema: 'WebhookRequest' | 'WebhookPatchRequest',
) {
  requireWebhook(ctx.db, id);
  const S = await schemas();
  const change = S.parseOr400(S[schema], body);
  await checkDeliverable(ctx, change.url);
  return changeWebhook(ctx, id, change);
}

/** Its extra headers, events and delivery attempts go with it (ON DELETE CASCADE). */
export function deleteWebhook(ctx: EngineContext, id: string): void {
  inTransaction(ctx, () => {
    if (sql(ctx.db, 'DELETE FROM webhooks WHERE id = ?').run(id).changes === 0) throw notFound('Webhook', id);
  });
}

// ---------------------------------------------------------------------------------------------
// Extra headers

const [, requireHeader] = byId<HeaderRow>('webhook_headers', 'Webhook extra header');

/** A header names an existing webhook: a 400 on `webhook` otherwise (it is a member of the body). */
function requireWebhookMember(db: Db, id: string): void {
  if (!webhookRow(db, id))
    throw badRequest(`webhook: Webhook "${id}" does not exist.`, [
      { field: 'webhook', message: `Webhook "${id}" does not exist.` },
    ]);
}

export function listWebhookHeaders(ctx: EngineContext, query: WebhookHeaderListQuery): Page<WebhookExtraHeader> {
  const q = new ListQuery(query as Record<string, unknown>);
  const webhook = q.uuid('webhook');
  const type = q.eventType('event_type');
  if (webhook) q.add('h.webhook_id = ?', webhook);
  if (type) q.add('EXISTS (SELECT 1 FROM json_each(w.event_types) WHERE value = ?)', type);
  // Newest webhook first; within a webhook, the order its deliveries send them in.
  const from = 'webhook_headers h JOIN webhooks w ON w.id = h.webhook_id';
  return pageOf(ctx.db, q, { from, select: 'h.*', order: 'w.seq DESC, h.ord, h.seq' }, (rows: HeaderRow[]) =>
    rows.map(toHeader),
  );
}

export function getWebhookHeader(ctx: EngineContext, id: string): WebhookExtraHeader {
  return toHeader(requireHeader(ctx.db, id));
}

export async function createWebhookHeader(ctx: EngineContext, body: unknown): Promise<WebhookExtraHeader> {
  const S = await schemas();
  const req = S.parseOr400(S.WebhookHeaderRequest, body);
  const id = uuid();
  const webhook = req.webhook.toLowerCase();
  return inTransaction(ctx, () => {
    requireWebhookMember(ctx.db, webhook);
    sql(
      ctx.db,
      'INSERT INTO webhook_headers (id, webhook_id, name, value, ord, created) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(id, webhook, req.name, req.value, req.order ?? 1, ctx.clock.now());
    return getWebhookHeader(ctx, id);
  });
}

interface HeaderChange {
  webhook?: string;
  name?: string;
  value?: string;
  order?: number;
}

function changeHeader(ctx: EngineContext, id: string, c: HeaderChange): WebhookExtraHeader {
  return inTransaction(ctx, () => {
    const h = requireHeader(ctx.db, id);
    const webhook = c.webhook?.toLowerCase();
    if (webhook !== undefined) requireWebhookMember(ctx.db, webhook);
    sql(ctx.db, 'UPDATE webhook_headers SET webhook_id = ?, name = ?, value = ?, ord = ? WHERE id = ?').run(
      webhook ?? h.webhook_id,
      c.name ?? h.name,
      c.value ?? h.value,
      c.order ?? h.ord,
      id,
    );
    return getWebhookHeader(ctx, id);
  });
}

/** PUT: `webhook`, `name` and `value` are required as on create; `order` left out keeps its value. */
export async function replaceWebhookHeader(ctx: EngineContext, id: string, body: unknown): Promise<WebhookExtraHeader> {
  requireHeader(ctx.db, id);
  const S = await schemas();
  return changeHeader(ctx, id, S.parseOr400(S.WebhookHeaderRequest, body));
}

export async function updateWebhookHeader(ctx: EngineContext, id: string, body: unknown): Promise<WebhookExtraHeader> {
  requireHeader(ctx.db, id);
  const S = await schemas();
  return changeHeader(ctx, id, S.parseOr400(S.WebhookHeaderPatchRequest, body));
}

export function deleteWebhookHeader(ctx: EngineContext, id: string): void {
  inTransaction(ctx, () => {
    if (sql(ctx.db, 'DELETE FROM webhook_headers WHERE id = ?').run(id).changes === 0)
      throw notFound('Webhook extra header', id);
  });
}

// ---------------------------------------------------------------------------------------------
// Events and their delivery attempts

const toDelivery = (d: DeliveryRow): WebhookDelivery => ({
  pk: d.pk,
  timestamp: d.timestamp,
  status: d.status,
  message: d.message,
});

/** The attempts of each event, oldest first, in one query. */
function deliveriesOf(db: Db, eventSeqs: number[]): Map<number, WebhookDelivery[]> {
  const out = new Map<number, WebhookDelivery[]>(eventSeqs.map((s) => [s, []]));
  if (!eventSeqs.length) return out;
  const rows = sql(
    db,
    'SELECT * FROM webhook_deliveries WHERE event_seq IN (SELECT value FROM json_each(?)) ORDER BY timestamp, seq',
  ).all(JSON.stringify(eventSeqs)) as DeliveryRow[];
  for (const d of rows) out.get(d.event_seq)!.push(toDelivery(d));
  return out;
}

function toWebhookEvents(db: Db, rows: EventRow[]): WebhookEvent[] {
  const deliveries = deliveriesOf(
    db,
    rows.map((e) => e.seq),
  );
  return rows.map((e) => ({
    pk: e.pk,
    webhook: e.webhook_id,
    event_type: e.event_type,
    created: e.created,
    status: e.status,
    success: e.success === 1,
    payload: e.payload,
    deliveries: deliveries.get(e.seq)!,
    next_attempt_at: e.success === 1 ? null : (e.next_attempt_at ?? null),
  }));
}

/**
 * The filters events and their delivery attempts share, on the event's columns (`e`: its table's prefix):
 * webhook, Bundle, the event itself (deliveries only) and event type. `status` is parsed here and applied
 * by the caller, as it is the event's status in one list and the attempt's in the other.
 */
function eventFilters(q: ListQuery, query: { bundle?: unknown }, e: '' | 'e.') {
  const webhook = q.uuid('webhook');
  const event = e ? q.uuid('webhook_event') : undefined;
  const type = q.eventType('event_type');
  const status = q.int('status');
  if (webhook) q.add(`${e}webhook_id = ?`, webhook);
  if (query.bundle) q.add(`${e}bundle_id = ?`, String(query.bundle));
  if (event) q.add(`${e}pk = ?`, event);
  if (type) q.add(`${e}event_type = ?`, type);
  return { webhook, type, status };
}

export function listWebhookEvents(ctx: EngineContext, query: WebhookEventListQuery): Page<WebhookEvent> {
  const q = new ListQuery(query as Record<string, unknown>);
  const { webhook, type, status } = eventFilters(q, query, '');
  const success = q.bool('success');
  if (status !== undefined) q.add('status = ?', status);
  if (success !== undefined) q.add('success = ?', success ? 1 : 0);
  const [after, before] = q.dateRange('created');
  // A webhook, success and a date range, alone or together, are counted from the counts per day.
  const byDays = !query.bundle && !type && status === undefined && (after || before || webhook);
  const count = byDays
    ? () => {
        const where = [
          webhook && 'webhook_id = @webhook',
          success !== undefined && 'success = @success',
          after && 'day >= @after',
          before && 'day < @end',
        ].filter(Boolean);
        return sql(ctx.db, `SELECT coalesce(sum(n), 0) FROM webhook_event_day_counts WHERE ${where.join(' AND ')}`)
          .pluck()
          .get({ webhook, success: success ? 1 : 0, after, end: before && nextDay(before) }) as number;
      }
    : countedBy(ctx.db, q, 'webhook_event_counts', 'success', success === undefined ? undefined : success ? 1 : 0);
  const listing = { from: 'webhook_events', select: '*', order: 'created DESC, seq DESC' };
  return pageOf(ctx.db, q, listing, (rows: EventRow[]) => toWebhookEvents(ctx.db, rows), { count });
}

/** One event with its attempts; the dispatcher returns these after a trigger or a resend. */
export function getWebhookEvent(ctx: EngineContext, pk: string): WebhookEvent {
  const row = sql(ctx.db, 'SELECT * FROM webhook_events WHERE pk = ?').get(pk) as EventRow | undefined;
  if (!row) throw notFound('Webhook event', pk);
  return toWebhookEvents(ctx.db, [row])[0];
}

type DeliveryJoinRow = DeliveryRow & { event_pk: string; webhook_id: string; event_type: string; payload: string };

const DELIVERY_FROM = 'webhook_deliveries d JOIN webhook_events e ON e.seq = d.event_seq';
const DELIVERY_SELECT = 'd.*, e.pk AS event_pk, e.webhook_id, e.event_type, e.payload';

/** One attempt in the shape of a WebhookEvent: its own pk, time, status and success, and its event's payload. */
const toDeliveryRecord = (d: DeliveryJoinRow): WebhookDeliveryRecord => ({
  pk: d.pk,
  webhook: d.webhook_id,
  webhook_event: d.event_pk,
  event_type: d.event_type,
  created: d.timestamp,
  status: d.status,
  success: d.success === 1,
  payload: d.payload,
  deliveries: [toDelivery(d)],
});

export function listWebhookDeliveries(
  ctx: EngineContext,
  query: WebhookDeliveryListQuery,
): Page<WebhookDeliveryRecord> {
  const q = new ListQuery(query as Record<string, unknown>);
  const { status } = eventFilters(q, query, 'e.');
  // Filters of the attempts alone: the page is found in the attempts' own indexes (every attempt has its event).
  const ofAttempts = q.where.clauses.length === 0;
  if (status !== undefined) q.add('d.status = ?', status);
  q.dateRange('d.timestamp');
  const listing = { from: DELIVERY_FROM, select: DELIVERY_SELECT, order: 'd.timestamp DESC, d.seq DESC' };
  return pageOf(
    ctx.db,
    q,
    listing,
    (rows: DeliveryJoinRow[]) => rows.map(toDeliveryRecord),
    ofAttempts
      ? {
          count: countedBy(ctx.db, q, 'webhook_delivery_counts', 'status', status),
          keys: { from: 'webhook_deliveries d', key: 'd.seq' },
        }
      : {},
  );
}

export function getWebhookDelivery(ctx: EngineContext, pk: string): WebhookDeliveryRecord {
  const row = sql(ctx.db, `SELECT ${DELIVERY_SELECT} FROM ${DELIVERY_FROM} WHERE d.pk = ?`).get(pk) as
    | DeliveryJoinRow
    | undefined;
  if (!row) throw notFound('Webhook delivery', pk);
  return toDeliveryRecord(row);
}
