// Count/offset paging for the engine's lists (Bundles have their own planner in bundles/list.ts):
// the count and the rows read together, 404 past the last page. Callers run it in their read
// transaction, so both see the same state.
import { notFound } from '../../domain/errors.js';
import type { PageSpec } from '../../service/listQuery.js';
import type { Page } from '../../service/types.js';
import { type Db, sql } from './db.js';
import { countKnown, countOnce, listOnce, MAX_LIST_KEYS } from './readCache.js';

export interface PageSelect {
  /** `FROM` what (a table, or tables joined). */
  from: string;
  /** The columns; `*` by default. */
  select?: string;
  /** Conditions joined by AND (none: every row), with their parameters in order. */
  where?: string[];
  params?: unknown[];
  /** `ORDER BY` what: a total order, so pages neither repeat nor skip a row. */
  order: string;
  /** The total from elsewhere (a table of counts) when the filters allow, else undefined. */
  count?: () => number | undefined;
  /**
   * The page's keys are found in this table alone (its order index), then the rows of `from` with
   * those keys are read: a deep page does not join every row it skips. The conditions must name
   * only this table's columns, and each of its rows must have its row in `from`.
   */
  keys?: { from: string; key: string };
}

/** The number of pages of `total` rows (at least 1: an empty list has an empty first page). */
export const pageCount = (total: number, perPage: number): number => Math.max(1, Math.ceil(total / perPage));

/** 404 past the last page. */
export function checkPage(total: number, { page, perPage }: PageSpec): void {
  if (page > pageCount(total, perPage)) throw notFound('Page', String(page));
}

/** One page of rows, as the API's Page (1-based; `total_pages` is at least 1). */
export function selectPage<R>(db: Db, { page, perPage }: PageSpec, q: PageSelect): Page<R> {
  const whereSql = q.where?.length ? `WHERE ${q.where.join(' AND ')}` : '';
  const params = q.params ?? [];
  const total = q.count?.() ?? countOnce(db, `SELECT count(*) FROM ${q.keys?.from ?? q.from} ${whereSql}`, params);
  checkPage(total, { page, perPage });
  const slice = `${whereSql} ORDER BY ${q.order} LIMIT ? OFFSET ?`;
  const items = sql(
    db,
    q.keys
      ? `SELECT ${q.select ?? '*'} FROM ${q.from} WHERE ${q.keys.key} IN (SELECT ${q.keys.key} FROM ${q.keys.from} ${slice}) ORDER BY ${q.order}`
      : `SELECT ${q.select ?? '*'} FROM ${q.from} ${slice}`,
  ).all(...params, perPage, (page - 1) * perPage) as R[];
  return { items, page, total_pages: pageCount(total, perPage), per_page: perPage, total };
}

/** The first `max` keys of a set are read in one pass by `setKeysPage` (tests lower it to take the other ways). */
export const fewKeys = { max: 5000 };

/**
 * A set of keys: `members` a SELECT of them (the column `key`), `count` a SELECT of their number,
 * `parts` SELECTs of keys whose union it is, each cheap to read whole (for an FTS5 index, its rowids
 * in its own order rather than through a UNION).
 */
export interface KeySet {
  members: string;
  count: string;
  parts: string[];
  key: string;
  params: Record<string, unknown>;
}

/**
 * The total and a page's keys of a set, read in ascending key order: an FTS5 index reads that way
 * far cheaper than in reverse when its matches are sparse. The first `fewKeys.max` keys come in one
 * pass that also counts them (a set no larger is kept whole: `listOnce`); a larger set is counted
 * (`countOnce`), and a page beyond them is read on its own, from the nearer end (`nearerEnd`), or,
 * deep in a set counted before, from the whole set read once.
 */
export function setKeysPage(
  db: Db,
  set: KeySet,
  { page, perPage }: PageSpec,
  descending: boolean,
): { total: number; keys: number[] } {
  const ascending = (limit: number) =>
    sql(db, `${set.members} ORDER BY ${set.key} LIMIT ${limit}`).pluck().all(set.params) as number[];
  const known = countKnown(db, set.count, set.params);
  // A set of few keys is kept whole (while the database is unchanged), from the pass that found it small.
  let first: number[] | undefined;
  const few =
    known === undefined
      ? listOnce(db, set.members, set.params, () => {
          first = ascending(fewKeys.max + 1);
          return first.length <= fewKeys.max ? Int32Array.from(first) : undefined;
        })
      : undefined;
  const total = few?.length ?? known ?? countOnce(db, set.count, set.params);
  checkPage(total, { page, perPage });
  const from = (page - 1) * perPage;
  // The page's places in ascending order.
  const [lo, hi] = descending
    ? [Math.max(0, total - from - perPage), total - from]
    : [from, Math.min(total, from + perPage)];
  const pageOf = (keys: number[]) => ({ total, keys: descending ? keys.reverse() : keys });
  if (few) return pageOf(Array.from(few.subarray(lo, hi)));
  if (hi <= (first?.length ?? fewKeys.max)) return pageOf((first ?? ascending(hi)).slice(lo, hi));
  const { skip, limit, readDescending, reversed } = nearerEnd(total, { page, perPage }, descending);
  // Deep in a set seen before (its total was known), where a read would skip an eighth of it or more:
  // the set is read whole, once while the database is unchanged, and sliced.
  if (known !== undefined && skip >= total / 8 && total <= MAX_LIST_KEYS) {
    const whole = listOnce(db, set.members, set.params, () =>
      Int32Array.from(set.parts.flatMap((part) => sql(db, part).pluck().all(set.params) as number[])).sort(),
    );
    if (whole) return pageOf(Array.from(whole.subarray(lo, hi)));
  }
  const read = sql(
    db,
    `${set.members} ORDER BY ${set.key} ${readDescending ? 'DESC' : 'ASC'} LIMIT ${limit} OFFSET ${skip}`,
  )
    .pluck()
    .all(set.params) as number[];
  return { total, keys: reversed ? read.reverse() : read };
}

/**
 * How to read a page of a list of known length: `limit` rows after `skip`, in the list's direction
 * from its start or, for a page nearer the end, in the other direction from its end (`reversed`: the
 * rows read are then turned round), so that no read skips more than half the list.
 */
export function nearerEnd(
  total: number,
  { page, perPage }: PageSpec,
  descending: boolean,
): { skip: number; limit: number; readDescending: boolean; reversed: boolean } {
  const offset = (page - 1) * perPage;
  const limit = Math.max(0, Math.min(perPage, total - offset));
  const reversed = total - offset - limit < offset;
  return { skip: reversed ? total - offset - limit : offset, limit, readDescending: descending !== reversed, reversed };
}

/** The page with each item mapped. */
export const mapPage = <R, T>(p: Page<R>, fn: (rows: R[]) => T[]): Page<T> => ({ ...p, items: fn(p.items) });
