// Count/offset paging for the engine's lists (Bundles have their own walk in bundles/read.ts):
// the count and the rows read together, 404 past the last page. Callers run it in their read
// transaction, so both see the same state.
import { notFound } from '../../service/errors.js';
import type { PageSpec } from '../../service/listQuery.js';
import type { Page } from '../../service/types.js';
import { type Db, sql } from './db.js';

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

/** One page of rows, as the API's Page (1-based; `total_pages` is at least 1). */
export function selectPage<R>(db: Db, { page, perPage }: PageSpec, q: PageSelect): Page<R> {
  const whereSql = q.where?.length ? `WHERE ${q.where.join(' AND ')}` : '';
  const params = q.params ?? [];
  const total = q.count?.() ?? (sql(db, `SELECT count(*) AS n FROM ${q.keys?.from ?? q.from} ${whereSql}`).get(...params) as { n: number }).n;
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  if (page > totalPages) throw notFound('Page', String(page));
  const slice = `${whereSql} ORDER BY ${q.order} LIMIT ? OFFSET ?`;
  const items = sql(db, q.keys
    ? `SELECT ${q.select ?? '*'} FROM ${q.from} WHERE ${q.keys.key} IN (SELECT ${q.keys.key} FROM ${q.keys.from} ${slice}) ORDER BY ${q.order}`
    : `SELECT ${q.select ?? '*'} FROM ${q.from} ${slice}`)
    .all(...params, perPage, (page - 1) * perPage) as R[];
  return { items, page, total_pages: totalPages, per_page: perPage, total };
}

/** The page with each item mapped. */
export const mapPage = <R, T>(p: Page<R>, fn: (rows: R[]) => T[]): Page<T> => ({ ...p, items: fn(p.items) });
