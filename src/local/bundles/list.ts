// GET /bundles/: the list filters as SQL, the exact total and one page, from one snapshot.
import { type BundleFilter, nextDay } from '../../service/listQuery.js';
import type { Bundle, Page } from '../../service/types.js';
import { type Db, sql } from '../store/db.js';
import { datedAfterCreated, madeInCreatedOrder, tagPairsKept } from '../store/meta.js';
import { checkPage, nearerEnd, pageCount, setKeysPage } from '../store/paging.js';
import { countKnown, countOnce, listOnce, MAX_LIST_KEYS } from '../store/readCache.js';
import { type BundleRow, loadBundles } from './read.js';
import { planSearch } from './search.js';

export function queryBundles(db: Db, f: BundleFilter): Page<Bundle> {
  return db.transaction(() => {
    const { total, seqs } = nonePage(f) ?? setPage(db, f) ?? statusPage(db, f) ?? walkPage(db, f);
    const rows = sql(db, 'SELECT * FROM bundles WHERE seq IN (SELECT value FROM json_each(?))').all(JSON.stringify(seqs)) as BundleRow[];
    const bySeq = new Map(rows.map((r) => [r.seq, r]));
    return { items: loadBundles(db, seqs.map((s) => bySeq.get(s)!)), page: f.page, total_pages: pageCount(total, f.perPage), per_page: f.perPage, total };
  })();
}

interface Found {
  total: number;
  seqs: number[];
}

/** `status` and `status__in` that share no status, or a `status__in` or `tag__in` of commas alone: no Bundle. */
function nonePage(f: BundleFilter): Found | undefined {
  if (!(f.statuses && !f.statuses.length) && !(f.tagsAny && !f.tagsAny.length)) return undefined;
  checkPage(0, f);
  return { total: 0, seqs: [] };
}

type DateField = 'created' | 'sent' | 'completed_at';
type DayRange = [string | undefined, string | undefined];
const hasRange = ([a, b]: DayRange) => Boolean(a || b);

class Params {
  readonly values: Record<string, unknown> = {};
  bind = (v: unknown): string => {
    const name = `p${Object.keys(this.values).length}`;
    this.values[name] = v;
    return `@${name}`;
  };
}

/**
 * One set alone (a search, perhaps with statuses, a tag, a tag set or a template) in `created` order:
 * the set's own index gives its Bundles in seq order, which is `created` order, so the page is a slice
 * of it, without reading a Bundle; the total is kept by triggers (a tag, a template) or counted in
 * that index (the search index holds the statuses).
 */
function setPage(db: Db, f: BundleFilter): Found | undefined {
  const sets = [f.search, f.tag, f.tagsAny, f.template].filter((x) => x !== undefined).length;
  if (sets !== 1 || (f.statuses && f.search === undefined) || [f.created, f.sent, f.completed].some(hasRange) || f.orderBy !== 'created') return undefined;
  if (f.tagsAny && f.tagsAny.length > 50) return undefined;
  if (!madeInCreatedOrder(db, 'bundles')) return undefined;
  const p = new Params();
  let members: string;
  let kept: string | undefined;
  if (f.search !== undefined) {
    const plan = planSearch(db, f.search, p.bind, f.statuses);
    if (plan.kind === 'columns') return undefined;
    const { total, keys } = setKeysPage(db, { members: plan.matches, count: plan.count, parts: plan.parts, key: 'seq', params: p.values }, f, f.descending);
    return { total, seqs: keys };
  } else if (f.tag !== undefined) {
    members = `SELECT bundle_seq AS seq FROM bundle_tags WHERE tag = ${p.bind(f.tag)}`;
    kept = taggedTotal(db, [f.tag], p.bind);
  } else if (f.tagsAny) {
    // A merge of each tag's index, in seq order (UNION drops the Bundles with more than one of them).
    members = f.tagsAny.map((t) => `SELECT bundle_seq AS seq FROM bundle_tags WHERE tag = ${p.bind(t)}`).join(' UNION ');
    kept = taggedTotal(db, f.tagsAny, p.bind);
  } else {
    members = `SELECT DISTINCT bundle_seq AS seq FROM documents WHERE template_id = ${p.bind(f.template)}`;
    kept = `SELECT coalesce((SELECT n FROM bundle_template_counts WHERE template_id = ${p.bind(f.template)}), 0)`;
  }
  const total = kept ? (sql(db, kept).pluck().get(p.values) as number) : countOnce(db, `SELECT count(*) FROM (${members} ORDER BY 1)`, p.values);
  checkPage(total, f);
  const { skip, limit, readDescending, reversed } = nearerEnd(total, f, f.descending);
  const seqs = sql(db, `${members} ORDER BY 1 ${readDescending ? 'DESC' : 'ASC'} LIMIT ${p.bind(limit)} OFFSET ${p.bind(skip)}`).pluck().all(p.values) as number[];
  return { total, seqs: reversed ? seqs.reverse() : seqs };
}

/** The Bundles of these statuses (of any, without), kept by triggers (migration 7). */
function statusTotal(db: Db, statuses?: string[]): number {
  return sql(db, `SELECT coalesce(sum(n), 0) FROM bundle_counts ${statuses ? 'WHERE status IN (SELECT value FROM json_each(?))' : ''}`)
    .pluck().get(...(statuses ? [JSON.stringify(statuses)] : [])) as number;
}

/**
 * A SELECT of the number of Bundles with any of one or two tags, from the counts per tag and per pair
 * of tags (migration 11); undefined for more tags, or two while the pairs are not kept.
 */
function taggedTotal(db: Db, tags: string[], bind: (v: unknown) => string): string | undefined {
  const [a, b, ...more] = tags;
  if (more.length || (b !== undefined && !tagPairsKept(db))) return undefined;
  const n = (t: string) => `coalesce((SELECT n FROM bundle_tag_counts WHERE tag = ${bind(t)}), 0)`;
  if (b === undefined) return `SELECT ${n(a)}`;
  const [x, y] = [bind(a), bind(b)];
  return `SELECT ${n(a)} + ${n(b)} - coalesce((SELECT n FROM bundle_tag_pairs WHERE tag = min(${x}, ${y}) AND other = max(${x}, ${y})), 0)`;
}

/** Whose counts per day: the Bundles of some statuses (of any, without), or of one tag. */
type DayScope = { statuses?: string[]; tag?: undefined } | { tag: string; statuses?: undefined };

/**
 * The total of Bundles with one date in a range, of a scope, from the counts per day (migrations 11
 * and 12): the range's ends are whole days, so a stored date is in it exactly when its day is.
 */
function rangeTotal(db: Db, scope: DayScope, field: DateField, range: DayRange): number {
  const p = new Params();
  return sql(db, `SELECT coalesce(sum(n), 0) ${daysOf(p, scope, field, range)}`).pluck().get(p.values) as number;
}

/**
 * FROM and WHERE of the counts per day of a scope, for a date in a range; `pairs`: of the counts per
 * pair of that date's day and `created`'s day (migration 14; statuses only).
 */
function daysOf(p: Params, scope: DayScope, field: DateField, [after, before]: DayRange, pairs = false): string {
  const where = [`field = ${p.bind(field)}`];
  if (after) where.push(`day >= ${p.bind(after)}`);
  if (before) where.push(`day < ${p.bind(nextDay(before))}`);
  if (scope.tag !== undefined) return `FROM bundle_tag_day_counts WHERE tag = ${p.bind(scope.tag)} AND ${where.join(' AND ')}`;
  if (scope.statuses) where.push(`status IN (SELECT value FROM json_each(${p.bind(JSON.stringify(scope.statuses))}))`);
  return `FROM ${pairs ? 'bundle_date_pairs' : 'bundle_day_counts'} WHERE ${where.join(' AND ')}`;
}

/**
 * Where a list's counts per day of its order's date come from: the Bundles of a scope with `field` in
 * a range, counted per day of that field (`field` is the order's), or, in `created` order with a range
 * of another date (`byCreated`), per day of `created`.
 */
interface DaySource {
  scope: DayScope;
  field: DateField;
  range: DayRange;
  byCreated?: boolean;
}

/**
 * Statuses, perhaps with a `created` range, in `created` order: each status's index
 * (status, created) is in that order already, so the page is a merge of them and the total the sum
 * of their counts.
 */
function statusPage(db: Db, f: BundleFilter): Found | undefined {
  if (!f.statuses || f.orderBy !== 'created') return undefined;
  if (f.search !== undefined || f.tag || f.tagsAny || f.template || hasRange(f.sent) || hasRange(f.completed)) return undefined;
  const p = new Params();
  const [after, before] = f.created;
  const range = `${after ? ` AND created >= ${p.bind(after)}` : ''}${before ? ` AND created < ${p.bind(nextDay(before))}` : ''}`;
  const total = range ? rangeTotal(db, { statuses: f.statuses }, 'created', f.created) : statusTotal(db, f.statuses);
  checkPage(total, f);
  const { skip, limit, readDescending, reversed } = nearerEnd(total, f, f.descending);
  const dir = readDescending ? 'DESC' : 'ASC';
  const days = daysBefore(db, { scope: { statuses: f.statuses }, field: 'created', range: f.created }, skip, readDescending);
  const arms = f.statuses.map((s) => `SELECT seq, created FROM bundles WHERE status = ${p.bind(s)}${range}${days ? ` AND created ${days.from(p.bind)}` : ''}`);
  const seqs = sql(db, `SELECT seq FROM (${arms.join(' UNION ALL ')} ORDER BY created ${dir}, seq ${dir}) LIMIT ${p.bind(limit)} OFFSET ${p.bind(skip - (days?.skipped ?? 0))}`)
    .pluck().all(p.values) as number[];
  return { total, seqs: reversed ? seqs.reverse() : seqs };
}

/** Pages from this offset on start from the counts per day (`daysBefore`; tests lower it to take that way). */
export const deepPages = { from: 2000 };

/**
 * A deep page of a list that the counts per day describe (statuses or a tag, and a range of the
 * order's own date at most): how many of the list's Bundles lie in the days wholly before the page,
 * in the list's direction, and the condition on the date that leaves them out. The page is then read
 * with what offset is left, instead of walking every Bundle before it.
 */
function daysBefore(db: Db, { scope, field, range, byCreated }: DaySource, offset: number, descending: boolean):
  { skipped: number; from: (bind: (v: unknown) => string) => string } | undefined {
  if (offset < deepPages.from) return undefined;
  const p = new Params();
  const dir = descending ? 'DESC' : 'ASC';
  // The days in the list's direction, until the one the page starts in: a few dozen rows for a page 500.
  const day = byCreated ? 'created_day' : 'day';
  const days = sql(db, `SELECT ${day} AS day, sum(n) AS n ${daysOf(p, scope, field, range, byCreated)} GROUP BY 1 ORDER BY 1 ${dir}`)
    .iterate(p.values) as IterableIterator<{ day: string; n: number }>;
  let skipped = 0;
  let last: string | undefined;
  for (const { day, n } of days) {
    if (skipped + n > offset) break;
    skipped += n;
    last = day;
  }
  if (!last || !skipped) return undefined;
  const bound = last;
  return { skipped, from: (bind) => (descending ? `< ${bind(bound)}` : `>= ${bind(nextDay(bound))}`) };
}

/**
 * Marks in a condition: `{+}` a column, `{in}` a set of Bundles (search, tags, template), whose index
 * may drive the query. A walk of the order index turns both off; a count turns the sets off when a
 * column is also filtered, so that the column's index (covering, with seq) is walked and each Bundle
 * tested against the set, instead of reading each Bundle of the set from the table.
 */
type Walk = 'none' | 'all' | 'sets';

class Conditions extends Params {
  readonly where: string[] = [];
  private readonly probes = new Map<string, string>();
  sql(extra?: string, walk: Walk = 'none'): string {
    const all = (extra ? [...this.where, extra] : this.where).map((w) => (walk === 'all' && this.probes.get(w)) || w);
    const text = all.join(' AND ').replace(/\{\+\}/g, walk === 'all' ? '+' : '').replace(/\{in\}/g, walk === 'none' ? '' : '+');
    return all.length ? `WHERE ${text}` : '';
  }
  /**
   * A set of Bundles given by the rows of a table with their `bundle_seq`: `IN` them where the set's
   * index may drive or a count tests every Bundle of a walk against the whole set (read once); in a
   * walk of the order index that stops at the page, a look-up of each Bundle walked instead, so that
   * a page 1 does not read a set of a hundred thousand first.
   */
  set(from: string, where: string): string {
    const cond = `{in}b.seq IN (SELECT bundle_seq FROM ${from} WHERE ${where})`;
    this.where.push(cond);
    this.probes.set(cond, `EXISTS (SELECT 1 FROM ${from} WHERE bundle_seq = b.seq AND ${where})`);
    return cond;
  }
  get filtersColumn(): boolean {
    return this.where.some((w) => w.includes('{+}'));
  }
  get filtersSet(): boolean {
    return this.where.some((w) => w.includes('{in}'));
  }
}

/**
 * The keys of the Bundles `from` (a FROM and WHERE of `bundles b`) whole, in the list's order, kept
 * while the database is unchanged (`listOnce`), so that each page after the first read is a slice;
 * undefined for a list too long to keep (counted then, and known as such until the database changes).
 */
function wholeList(db: Db, from: string, params: Record<string, unknown>, f: BundleFilter, total?: number): Int32Array | undefined {
  if ((countKnown(db, `SELECT count(*) ${from}`, params) ?? 0) > MAX_LIST_KEYS) return undefined;
  const d = f.descending ? 'DESC' : 'ASC';
  // Dated Bundles in order, then those without the date, as the walks give them.
  const col = `b.${f.orderBy}`;
  const text = `SELECT b.seq ${from} ORDER BY ${f.orderBy === 'created' ? '' : `${col} IS NULL, `}${col} ${d}, b.seq ${d}`;
  return listOnce(db, text, params, () => {
    // Of known length, it is read without a LIMIT, which would lead SQLite to walk the order's index
    // rather than find the matches by their own and sort them.
    const keys = sql(db, total === undefined ? `${text} LIMIT ${MAX_LIST_KEYS + 1}` : text).pluck().all(params) as number[];
    return keys.length > MAX_LIST_KEYS ? undefined : Int32Array.from(keys);
  });
}

/** A page of a whole list. */
function slice(keys: Int32Array, f: BundleFilter): Found {
  checkPage(keys.length, f);
  const from = (f.page - 1) * f.perPage;
  return { total: keys.length, seqs: Array.from(keys.subarray(from, from + f.perPage)) };
}

/** Every other list: the filters as conditions on `bundles`, and a walk of the order's index or a sort of the matches. */
function walkPage(db: Db, f: BundleFilter): Found {
  const c = new Conditions();
  // A condition that is the only one may be counted from its own index, without the Bundles.
  const soleCounts = new Map<string, string>();
  if (f.search !== undefined) {
    const plan = planSearch(db, f.search, c.bind);
    if (plan.kind === 'index') {
      c.where.push(`{in}b.seq IN (${plan.matches})`);
      soleCounts.set(c.where[0], plan.count);
    } else {
      // instr, not LIKE: it folds every letter (by the engine's function) and reads past a NUL.
      const p = c.bind(f.search.toLowerCase());
      const has = (col: string) => `instr(esign_lower(${col}), ${p}) > 0`;
      c.where.push(`(${has('b.id')} OR ${has('b.label')} OR ${has('b.custom_key')} OR EXISTS (
        SELECT 1 FROM packets p WHERE p.bundle_seq = b.seq AND (${has('p.name')} OR ${has('p.email')} OR ${has('p.phone')})))`);
    }
  }
  const ranges = ([['created', f.created], ['sent', f.sent], ['completed_at', f.completed]] as const).filter(([, r]) => hasRange(r));
  const noSets = f.search === undefined && !f.tag && !f.tagsAny && !f.template;
  const soleTag = f.tag !== undefined && f.search === undefined && !f.tagsAny && !f.template && !f.statuses;
  // Statuses or one tag, and one date range at most: the counts per day say the total, and where a deep
  // page starts when the range is of the order's own date.
  const byDays: { scope: DayScope; field?: DateField; range: DayRange } | undefined = (noSets || soleTag) && ranges.length <= 1
    ? { scope: soleTag ? { tag: f.tag! } : { statuses: f.statuses }, field: ranges[0]?.[0], range: ranges[0]?.[1] ?? [undefined, undefined] }
    : undefined;
  const statusesOnly = noSets && !ranges.length;
  // One status in `created` order has its own index (status, created); other orders walk theirs.
  const statusMark = f.statuses?.length === 1 && f.orderBy === 'created' ? '' : '{+}';
  if (f.statuses) c.where.push(`${statusMark}b.status IN (SELECT value FROM json_each(${c.bind(JSON.stringify(f.statuses))}))`);
  if (f.tag) soleCounts.set(c.set('bundle_tags', `tag = ${c.bind(f.tag)}`), taggedTotal(db, [f.tag], c.bind)!);
  if (f.tagsAny) {
    const where = `tag IN (SELECT value FROM json_each(${c.bind(JSON.stringify(f.tagsAny))}))`;
    soleCounts.set(c.set('bundle_tags', where), taggedTotal(db, f.tagsAny, c.bind) ?? `SELECT count(DISTINCT bundle_seq) FROM bundle_tags WHERE ${where}`);
  }
  const range = (col: string, [after, before]: [string | undefined, string | undefined]) => {
    // A range on the order column is a range of the walk itself.
    const mark = col === f.orderBy ? '' : '{+}';
    if (after) c.where.push(`${mark}b.${col} >= ${c.bind(after)}`);
    if (before) c.where.push(`${mark}b.${col} < ${c.bind(nextDay(before))}`);
  };
  range('created', f.created);
  range('sent', f.sent);
  range('completed_at', f.completed);
  // A Bundle sent or completed before a day was made before it: the walk of the `created` index starts there.
  const datedBefore = [f.sent[1], f.completed[1]].filter((d) => d !== undefined).sort()[0];
  if (datedBefore && f.orderBy === 'created' && datedAfterCreated(db)) c.where.push(`b.created < ${c.bind(nextDay(datedBefore))}`);
  // Any template document counts, not only the first (bundles.template).
  if (f.template) {
    const where = `template_id = ${c.bind(f.template)}`;
    soleCounts.set(c.set('documents', where), `SELECT coalesce((SELECT n FROM bundle_template_counts WHERE ${where}), 0)`);
  }

  const countWalk: Walk = c.filtersSet && (c.filtersColumn || f.statuses?.length === 1) ? 'sets' : 'none';
  const count = (extra?: string) => countOnce(db, `SELECT count(*) FROM bundles b ${c.sql(extra, countWalk)}`, c.values);
  // The whole list's FROM and WHERE: the text of `count()`'s, so that a list counted as too long to keep is known as such.
  const filtered = `FROM bundles b ${c.sql(undefined, countWalk)}`;
  let total: number;
  if (statusesOnly) total = statusTotal(db, f.statuses);
  else if (c.where.length === 1 && soleCounts.has(c.where[0])) total = countOnce(db, soleCounts.get(c.where[0])!, c.values);
  else if (byDays?.field) total = rangeTotal(db, byDays.scope, byDays.field, byDays.range);
  else {
    // Counted by visiting every match: the same visit gives the whole list, kept for its next pages.
    const whole = wholeList(db, filtered, c.values, f);
    if (whole) return slice(whole, f);
    total = count();
  }
  checkPage(total, f);

  const offset = (f.page - 1) * f.perPage;
  // The list is its dated Bundles in order, then those without the date (none in `created` order),
  // newest-made last, in either direction; each part is one walk of an index. When their number is
  // known without a walk, a page nearer the end is read backwards from the end.
  const orderRange = byDays && (!byDays.field || byDays.field === f.orderBy) ? byDays.range : undefined;
  const datedTotal = f.orderBy === 'created' ? total : orderRange ? rangeTotal(db, byDays!.scope, f.orderBy, orderRange) : undefined;
  const near = datedTotal !== undefined ? nearerEnd(total, f, f.descending) : undefined;
  // Where a deep page starts: from the counts per day of the order's own date, or of `created` among
  // the Bundles in a range of another date.
  const skipDays: DaySource | undefined = orderRange ? { scope: byDays!.scope, field: f.orderBy, range: orderRange }
    : f.orderBy === 'created' && byDays?.field && byDays.scope.tag === undefined ? { scope: byDays.scope, field: byDays.field, range: byDays.range, byCreated: true }
    : undefined;
  // Many matches: walk the order index (it covers the filter columns) and test each Bundle, stopping
  // at the page; few: find the matches by their own index and sort them. The walk reads about
  // (offset + page) * all / total index entries, at most all; the other way reads total table rows,
  // each some twenty times dearer. With one status in `created` order the walk is of that status's own index.
  const all = statusTotal(db, f.statuses?.length === 1 && f.orderBy === 'created' ? f.statuses : undefined);
  const walked = total && Math.min(all, ((Math.min(offset, total - offset) + f.perPage) * all) / total);
  const walk: Walk = c.where.length > 0 && walked <= 20 * total ? 'all' : 'none';
  // A walk that would read far more than the list has (a deep page of a filter the order's index does
  // not lead with, and no counts per day to start from): the list is read whole instead, once while
  // the database is unchanged.
  if (!skipDays && walked > 4 * total && total <= MAX_LIST_KEYS) {
    const whole = wholeList(db, filtered, c.values, f, total);
    if (whole) return slice(whole, f);
  }
  const seqs = (extra: string | undefined, order: string, limit: number, skip: number) =>
    limit <= 0 ? [] : (sql(db, `SELECT b.seq FROM bundles b ${c.sql(extra, walk)} ORDER BY ${order} LIMIT ${c.bind(limit)} OFFSET ${c.bind(skip)}`).pluck().all(c.values) as number[]);
  const col = `b.${f.orderBy}`;
  const dated = (at: number, limit: number, descending: boolean) => {
    const d = descending ? 'DESC' : 'ASC';
    const skip = skipDays && daysBefore(db, skipDays, at, descending);
    const where = [f.orderBy === 'created' ? '' : `${col} IS NOT NULL`, skip ? `${col} ${skip.from(c.bind)}` : ''].filter(Boolean).join(' AND ');
    return seqs(where || undefined, `${col} ${d}, b.seq ${d}`, limit, at - (skip ? skip.skipped : 0));
  };
  const undated = (at: number, limit: number, descending: boolean) => (f.orderBy === 'created' ? [] : seqs(`${col} IS NULL`, `b.seq ${descending ? 'DESC' : 'ASC'}`, limit, at));
  let page: number[];
  if (!total) page = [];
  else if (near?.reversed) {
    // Backwards, the list is the undated Bundles, then the dated ones, each in the other direction.
    const { skip, limit, readDescending } = near;
    const none = total - datedTotal!;
    const back = undated(skip, Math.min(limit, none - skip), readDescending);
    page = back.concat(dated(Math.max(0, skip - none), limit - back.length, readDescending)).reverse();
  } else {
    page = dated(offset, f.perPage, f.descending);
    if (page.length < f.perPage) {
      const before = page.length ? offset + page.length : (datedTotal ?? count(`${col} IS NOT NULL`));
      page = page.concat(undated(Math.max(0, offset - before), f.perPage - page.length, f.descending));
    }
  }
  return { total, seqs: page };
}
