// Parsing of list query strings (zod-free so that list commands start fast).
import { BUNDLE_ORDERINGS, BUNDLE_STATUSES, DEFAULT_PER_PAGE, MAX_PER_PAGE, MESSAGE_KINDS } from '../domain/enums.js';
import { ApiError, FieldErrors } from '../domain/errors.js';
import type { BundleListQuery, OutboxQuery } from './types.js';

export interface PageSpec {
  page: number;
  perPage: number;
}

/** `page` from 1, `per_page` default 50, capped at 100 (as the hosted service's clients expect). */
export function parsePage(q: { page?: unknown; per_page?: unknown }): PageSpec {
  const page = q.page === undefined || q.page === '' ? 1 : Number(q.page);
  if (!Number.isInteger(page) || page < 1) throw new ApiError(404, 'not_found', 'Invalid page.');
  let perPage = q.per_page === undefined || q.per_page === '' ? DEFAULT_PER_PAGE : Number(q.per_page);
  if (!Number.isInteger(perPage) || perPage < 1)
    throw new ApiError(400, 'invalid', 'per_page: Must be a positive integer.', [
      { field: 'per_page', message: 'Must be a positive integer.' },
    ]);
  perPage = Math.min(perPage, MAX_PER_PAGE);
  return { page, perPage };
}

export interface BundleFilter extends PageSpec {
  search?: string;
  statuses?: string[];
  tag?: string;
  tagsAny?: string[];
  orderBy: 'created' | 'sent' | 'completed_at';
  descending: boolean;
  created: [string | undefined, string | undefined];
  sent: [string | undefined, string | undefined];
  completed: [string | undefined, string | undefined];
  template?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day: Date.parse rolls 2024-02-30 over to 1 March, so the day must survive a round trip. */
export const isDay = (v: string) =>
  DAY.test(v) && !Number.isNaN(Date.parse(v)) && new Date(Date.parse(v)).toISOString().slice(0, 10) === v;
/**
 * The day after a YYYY-MM-DD day: `before` a day means before the start of the next. Dates are
 * compared as text, so the day after 9999-12-31 is a text after every time of that day.
 */
export const nextDay = (day: string) =>
  day === '9999-12-31' ? `${day}~` : new Date(Date.parse(`${day}T00:00:00Z`) + 86400e3).toISOString().slice(0, 10);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A comma-separated list, without empty or repeated items. */
const list = (v: string) => [
  ...new Set(
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];

/** Accepts `status__in`/`tag__in` (spec) and `status_in`/`tag_in` (one client's spelling). */
export function parseBundleListQuery(query: BundleListQuery): BundleFilter {
  const raw = query as Record<string, unknown>;
  const errs = new FieldErrors();
  const { page, perPage } = parsePage(raw);
  const s = (k: string) => {
    const v = raw[k];
    return v === undefined || v === null || v === '' ? undefined : String(v);
  };
  const statuses: string[] = [];
  const status = s('status');
  if (status) statuses.push(status);
  const statusIn = s('status__in') ?? s('status_in');
  const statusList = statusIn ? list(statusIn) : [];
  for (const st of [...statuses, ...statusList])
    if (!(BUNDLE_STATUSES as readonly string[]).includes(st))
      errs.add(
        status === st ? 'status' : 'status__in',
        `"${st}" is not a valid status. Valid: ${BUNDLE_STATUSES.join(', ')}.`,
      );
  const ordering = s('ordering') ?? '-created';
  const orderBy = ordering.replace(/^-/, '');
  if (!(BUNDLE_ORDERINGS as readonly string[]).includes(orderBy))
    errs.add(
      'ordering',
      `"${ordering}" is not a valid ordering. Valid: ${BUNDLE_ORDERINGS.flatMap((o) => [o, `-${o}`]).join(', ')}.`,
    );
  const date = (k: string) => {
    const v = s(k);
    if (v !== undefined && !isDay(v)) errs.add(k, 'Enter a valid date (YYYY-MM-DD).');
    return v;
  };
  const template = s('template');
  if (template && !UUID.test(template)) errs.add('template', 'Must be a valid UUID.');
  const filter: BundleFilter = {
    page,
    perPage,
    search: s('search'),
    tag: s('tag'),
    tagsAny: (() => {
      const v = s('tag__in') ?? s('tag_in');
      return v ? list(v) : undefined;
    })(),
    orderBy: orderBy as BundleFilter['orderBy'],
    descending: ordering.startsWith('-'),
    created: [date('created_after'), date('created_before')],
    sent: [date('sent_after'), date('sent_before')],
    completed: [date('completed_after'), date('completed_before')],
    template,
  };
  // `status` and `status__in` are ANDed like every filter: both given means the status must be in both.
  if (status && statusIn) filter.statuses = statusList.includes(status) ? [status] : [];
  else if (status) filter.statuses = [status];
  else if (statusIn) filter.statuses = statusList;
  errs.throwIfAny();
  return filter;
}

/** The most messages one outbox read returns (and its default). */
const MAX_OUTBOX_LIMIT = 1000;

/** The outbox's filters from a query (strings on the wire): `kind` one of the kinds, `limit` 1..1000. */
export function parseOutboxQuery(query: OutboxQuery): OutboxQuery {
  const raw = query as Record<string, unknown>;
  const errs = new FieldErrors();
  const s = (k: string) => (raw[k] === undefined || raw[k] === null || raw[k] === '' ? undefined : String(raw[k]));
  const kind = s('kind');
  if (kind !== undefined && !(MESSAGE_KINDS as readonly string[]).includes(kind))
    errs.add('kind', `"${kind}" is not a valid kind. Valid: ${MESSAGE_KINDS.join(', ')}.`);
  const limitText = s('limit');
  const limit = limitText === undefined ? MAX_OUTBOX_LIMIT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_OUTBOX_LIMIT)
    errs.add('limit', `Must be a whole number from 1 to ${MAX_OUTBOX_LIMIT}.`);
  errs.throwIfAny();
  return { bundle: s('bundle'), packet: s('packet'), to: s('to'), kind, limit };
}
