// GET /bundles/: the list filters as SQL, the exact total and one page, from one snapshot.
//
// A request becomes a plan (`ListPlan`): which strategy answers it, which index drives the read, how
// the total is had and how the page is reached. The strategies, tried in this order (each function
// below says when it is chosen and why it is fast):
//   none      `nonePage`: filters no Bundle can meet (statuses that share none, a tag set of commas).
//   set       `setPage`: one set alone (a search, a tag, a tag set, a template) in `created` order.
//   statuses  `statusPage`: statuses (perhaps a `created` range) in `created` order.
//   walk      `walkPage`, many matches: the order's index walked, each Bundle tested, stopping at the page.
//   sort      `walkPage`, few matches: found by their own index, then sorted.
//   whole     `walkPage`, a list whose count visits every match anyway (or whose walk would read far
//             more than the list): read whole once, kept while the database is unchanged, and sliced.
// Totals are kept by triggers (per status, tag, template, a tag's per day), counted in an index, or
// counted by visiting every match and kept while the database is unchanged (`store/readCache.ts`).
// `ESIGN_DEBUG=sql` prints each plan on stderr (LocalEngineOptions.explainLists).
import { type BundleFilter, nextDay } from '../../service/listQuery.js';
import type { Bundle, Page } from '../../service/types.js';
import { type Db, foldForSearch, sql } from '../store/db.js';
import { datedAfterCreated, madeInCreatedOrder } from '../store/meta.js';
import { checkPage, nearerEnd, pageCount, setKeysPage } from '../store/paging.js';
import { countKnown, countOnce, listOnce, MAX_LIST_KEYS } from '../store/readCache.js';
import { type BundleRow, loadBundles } from './read.js';
import { planSearch, searchWords } from './search.js';

type Strategy = 'none' | 'set' | 'statuses' | 'walk' | 'sort' | 'whole';

/** How a list request was answered. */
export interface ListPlan {
  strategy: Strategy;
  /** The index that drives the read (the order's, a status's, a set's). */
  drive: string;
  /**
   * How the total was had: `kept` counts kept by triggers (per status, tag, template), `days` summed
   * from a tag's counts per day, `index` counted in an index that holds every filter (a set's own, a
   * status's, a date's), `visited` by visiting every match (kept while the database is unchanged),
   * `none` when no Bundle can match.
   */
  total: 'kept' | 'days' | 'index' | 'visited' | 'none';
  /**
   * How the page was reached: `slice` of a set's index or of a whole list, `offset` from the start,
   * `from-end` backwards from the end (a page in the second half of a list of known length), `days`
   * from a tag's counts per day of the days wholly before it.
   */
  page: 'slice' | 'offset' | 'from-end' | 'days' | 'none';
}

/** The page and the plan that found it. */
export function explainBundles(db: Db, f: BundleFilter): { page: Page<Bundle>; plan: ListPlan } {
  return db.transaction(() => {
    const found = nonePage(f) ?? setPage(db, f) ?? statusPage(db, f) ?? walkPage(db, f);
    const { total, seqs } = found;
    const rows = sql(db, 'SELECT * FROM bundles WHERE seq IN (SELECT value FROM json_each(?))').all(
      JSON.stringify(seqs),
    ) as BundleRow[];
    const bySeq = new Map(rows.map((r) => [r.seq, r]));
    const items = loadBundles(
      db,
      seqs.map((s) => bySeq.get(s)!),
    );
    const page = { items, page: f.page, total_pages: pageCount(total, f.perPage), per_page: f.perPage, total };
    return { page, plan: found.plan };
  })();
}

/** The page; `explain` is told the plan (ESIGN_DEBUG=sql: the engine reports it through its host's sink). */
export function queryBundles(db: Db, f: BundleFilter, explain?: (plan: ListPlan) => void): Page<Bundle> {
  const { page, plan } = explainBundles(db, f);
  explain?.(plan);
  return page;
}

interface Found {
  total: number;
  seqs: number[];
  plan: ListPlan;
}

/**
 * `none`: `status` and `status__in` that share no status, or a `status__in` or `tag__in` of commas
 * alone. No Bundle can match, so nothing is read.
 */
function nonePage(f: BundleFilter): Found | undefined {
  if (!(f.statuses && !f.statuses.length) && !(f.tagsAny && !f.tagsAny.length)) return undefined;
  checkPage(0, f);
  return { total: 0, seqs: [], plan: { strategy: 'none', drive: 'none', total: 'none', page: 'none' } };
}

/**
 * `set`: one set alone (a search, perhaps with statuses, a tag, a tag set or a template) in `created`
 * order, while seq order is `created` order. Fast because the set's own index gives its Bundles in seq
 * order, so the page is a slice of it, without reading a Bundle; the total is kept by triggers (a tag,
 * a template) or counted in that index (a tag set; the search index holds the statuses).
 */
function setPage(db: Db, f: BundleFilter): Found | undefined {
  const sets = [f.search, f.tag, f.tagsAny, f.template].filter((x) => x !== undefined).length;
  if (
    sets !== 1 ||
    (f.statuses && f.search === undefined) ||
    [f.created, f.sent, f.completed].some(hasRange) ||
    f.orderBy !== 'created'
  )
    return undefined;
  if (f.tagsAny && f.tagsAny.length > 50) return undefined;
  if (!madeInCreatedOrder(db, 'bundles')) return undefined;
  const p = new Params();
  let members: string;
  let kept: string | undefined;
  const drive = f.template !== undefined ? 'documents (template_id, bundle_seq)' : 'bundle_tags (tag, bundle_seq)';
  if (f.search !== undefined) {
    const plan = planSearch(db, f.search, p.bind, f.statuses);
    if (plan.kind === 'columns') return undefined;
    const { total, keys } = setKeysPage(
      db,
      { members: plan.matches, count: plan.count, parts: plan.parts, key: 'seq', params: p.values },
      f,
      f.descending,
    );
    return { total, seqs: keys, plan: { strategy: 'set', drive: 'bundle_search', total: 'index', page: 'slice' } };
  } else if (f.tag !== undefined || f.tagsAny?.length === 1) {
    const tag = f.tag ?? f.tagsAny![0];
    members = `SELECT bundle_seq AS seq FROM bundle_tags WHERE tag = ${p.bind(tag)}`;
    kept = tagTotal(tag, p.bind);
  } else if (f.tagsAny) {
    // A merge of each tag's index, in seq order (UNION drops the Bundles with more than one of them).
    members = f.tagsAny
      .map((t) => `SELECT bundle_seq AS seq FROM bundle_tags WHERE tag = ${p.bind(t)}`)
      .join(' UNION ');
  } else {
    members = `SELECT DISTINCT bundle_seq AS seq FROM documents WHERE template_id = ${p.bind(f.template)}`;
    kept = templateTotal(f.template!, p.bind);
  }
  const total = kept
    ? (sql(db, kept).pluck().get(p.values) as number)
    : countOnce(db, `SELECT count(*) FROM (${members} ORDER BY 1)`, p.values);
  checkPage(total, f);
  const { skip, limit, readDescending, reversed } = nearerEnd(total, f, f.descending);
  const seqs = sql(
    db,
    `${members} ORDER BY 1 ${readDescending ? 'DESC' : 'ASC'} LIMIT ${p.bind(limit)} OFFSET ${p.bind(skip)}`,
  )
    .pluck()
    .all(p.values) as number[];
  const plan: ListPlan = {
    strategy: 'set',
    drive,
    total: kept ? 'kept' : 'index',
    page: reversed ? 'from-end' : 'slice',
  };
  return { total, seqs: reversed ? seqs.reverse() : seqs, plan };
}

/**
 * `statuses`: statuses, perhaps with a `created` range, in `created` order. Fast because each status's
 * index (status, created) is in that order already: the page is a merge of them, read from the nearer
 * end, and the total is the kept count per status, or, with a range, counted in those indexes.
 */
function statusPage(db: Db, f: BundleFilter): Found | undefined {
  if (!f.statuses || f.orderBy !== 'created') return undefined;
  if (f.search !== undefined || f.tag || f.tagsAny || f.template || hasRange(f.sent) || hasRange(f.completed))
    return undefined;
  const p = new Params();
  const [after, before] = f.created;
  const range =
    (after ? ` AND created >= ${p.bind(after)}` : '') + (before ? ` AND created < ${p.bind(nextDay(before))}` : '');
  const arms = f.statuses.map((s) => `SELECT seq, created FROM bundles WHERE status = ${p.bind(s)}${range}`);
  const total = range
    ? countOnce(db, `SELECT ${arms.map((a) => `(SELECT count(*) FROM (${a}))`).join(' + ')}`, p.values)
    : statusTotal(db, f.statuses);
  checkPage(total, f);
  const { skip, limit, readDescending, reversed } = nearerEnd(total, f, f.descending);
  const dir = readDescending ? 'DESC' : 'ASC';
  const seqs = sql(
    db,
    `SELECT seq FROM (${arms.join(' UNION ALL ')} ORDER BY created ${dir}, seq ${dir})
    LIMIT ${p.bind(limit)} OFFSET ${p.bind(skip)}`,
  )
    .pluck()
    .all(p.values) as number[];
  const plan: ListPlan = {
    strategy: 'statuses',
    drive: 'bundles (status, created)',
    total: range ? 'index' : 'kept',
    page: reversed ? 'from-end' : 'offset',
  };
  return { total, seqs: reversed ? seqs.reverse() : seqs, plan };
}

/**
 * `walk`, `sort` or `whole`: every other list, its filters as conditions on `bundles`. With many
 * matches the order's index (it covers the filter columns) is walked and each Bundle tested, stopping
 * at the page; with few, the matches are found by their own index and sorted; a list whose count had
 * to visit every match, or whose walk would read far more than the list, is read whole once and sliced.
 */
function walkPage(db: Db, f: BundleFilter): Found {
  const { c, soleCounts, statusesOnly, statusKind, indexOnly, tagDays } = listConditions(db, f);

  const countReading: Reading = c.filtersSet && (c.filtersColumn || f.statuses?.length === 1) ? 'count' : 'drive';
  const count = (extra?: string) =>
    countOnce(db, `SELECT count(*) FROM bundles b ${c.sql(extra, countReading)}`, c.values);
  // The whole list's FROM and WHERE: the text of `count()`'s, so that a list counted as too long to
  // keep is known as such.
  const filtered = `FROM bundles b ${c.sql(undefined, countReading)}`;
  // The index a walk reads: the order's (covering the filter columns), or one status's (status, created).
  const order = statusKind === 'fixed' ? 'bundles (status, created)' : `bundles (${f.orderBy}, seq, ...)`;
  const sole = c.where.length === 1 ? soleCounts.get(c.where[0]) : undefined;
  let total: number;
  let totalBy: ListPlan['total'];
  if (statusesOnly) [total, totalBy] = [statusTotal(db, f.statuses), 'kept'];
  else if (sole) [total, totalBy] = [countOnce(db, sole.text, c.values), sole.total];
  else if (tagDays?.field) [total, totalBy] = [tagRangeTotal(db, { ...tagDays, field: tagDays.field }), 'days'];
  else if (indexOnly) [total, totalBy] = [count(), 'index'];
  else {
    // Counted by visiting every match: the same visit gives the whole list, kept for its next pages.
    const whole = wholeList(db, filtered, c.values, f);
    if (whole) return slice(whole, f, order);
    [total, totalBy] = [count(), 'visited'];
  }
  checkPage(total, f);

  const offset = (f.page - 1) * f.perPage;
  // The list is its dated Bundles in order, then those without the date (none in `created` order, or
  // with a range of the order's date), newest-made last, in either direction; each part is one walk of
  // an index. When their number is known without a walk, a page nearer the end is read from the end.
  const allDated = f.orderBy === 'created' || hasRange(f.orderBy === 'sent' ? f.sent : f.completed);
  // One tag, alone or with a range of the order's date: its counts per day of that date say how many
  // of its Bundles have the date, and where a deep page starts.
  const orderDays: TagDays | undefined =
    tagDays && (!tagDays.field || tagDays.field === f.orderBy)
      ? { tag: tagDays.tag, field: f.orderBy, range: tagDays.range }
      : undefined;
  const datedTotal = allDated ? total : orderDays && tagRangeTotal(db, orderDays);
  const near = datedTotal !== undefined ? nearerEnd(total, f, f.descending) : undefined;
  // Many matches: walk the order index (it covers the filter columns) and test each Bundle, stopping
  // at the page; few: find the matches by their own index and sort them. The walk reads about
  // (offset + page) * all / total index entries, at most all; the other way reads total table rows,
  // each some twenty times dearer. With one status in `created` order the walk is of that status's own index.
  const all = statusTotal(db, f.statuses?.length === 1 && f.orderBy === 'created' ? f.statuses : undefined);
  const walked = total && Math.min(all, ((Math.min(offset, total - offset) + f.perPage) * all) / total);
  const walk: Reading = c.where.length > 0 && walked <= 20 * total ? 'walk' : 'drive';
  // A walk that would read far more than the list has (a deep page of a filter the order's index does
  // not lead with): the list is read whole instead, once while the database is unchanged.
  if (!orderDays && walked > 4 * total && total <= MAX_LIST_KEYS) {
    const whole = wholeList(db, filtered, c.values, f, total);
    if (whole) return slice(whole, f, order);
  }
  const seqs = (extra: string | undefined, order: string, limit: number, skip: number) =>
    limit <= 0
      ? []
      : (sql(
          db,
          `SELECT b.seq FROM bundles b ${c.sql(extra, walk)}
          ORDER BY ${order} LIMIT ${c.bind(limit)} OFFSET ${c.bind(skip)}`,
        )
          .pluck()
          .all(c.values) as number[]);
  const col = `b.${f.orderBy}`;
  let fromDays = false;
  const dated = (at: number, limit: number, descending: boolean) => {
    const d = descending ? 'DESC' : 'ASC';
    const skip = orderDays && daysBefore(db, orderDays, at, descending);
    if (skip) fromDays = true;
    const where = [f.orderBy === 'created' ? '' : `${col} IS NOT NULL`, skip ? `${col} ${skip.from(c.bind)}` : '']
      .filter(Boolean)
      .join(' AND ');
    return seqs(where || undefined, `${col} ${d}, b.seq ${d}`, limit, at - (skip ? skip.skipped : 0));
  };
  const undated = (at: number, limit: number, descending: boolean) =>
    allDated ? [] : seqs(`${col} IS NULL`, `b.seq ${descending ? 'DESC' : 'ASC'}`, limit, at);
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
  const plan: ListPlan = {
    strategy: walk === 'walk' || !c.where.length ? 'walk' : 'sort',
    drive: walk === 'walk' || !c.where.length ? order : "the filters' own indexes",
    total: totalBy,
    page: fromDays ? 'days' : near?.reversed ? 'from-end' : 'offset',
  };
  return { total, seqs: page, plan };
}

// Totals kept by triggers.

/** The Bundles of these statuses (of any, without), kept by triggers (migration 7). */
function statusTotal(db: Db, statuses?: string[]): number {
  const which = statuses ? 'WHERE status IN (SELECT value FROM json_each(?))' : '';
  return sql(db, `SELECT coalesce(sum(n), 0) FROM bundle_counts ${which}`)
    .pluck()
    .get(...(statuses ? [JSON.stringify(statuses)] : [])) as number;
}

/** A SELECT of the number of Bundles with a tag, kept by triggers (migration 11). */
const tagTotal = (tag: string, bind: (v: unknown) => string) =>
  `SELECT coalesce((SELECT n FROM bundle_tag_counts WHERE tag = ${bind(tag)}), 0)`;

/** A SELECT of the number of Bundles with a document from a template, kept by triggers (migration 11). */
const templateTotal = (template: string, bind: (v: unknown) => string) =>
  `SELECT coalesce((SELECT n FROM bundle_template_counts WHERE template_id = ${bind(template)}), 0)`;

/** One tag's Bundles with a date (`field`) in a range (either end open). */
interface TagDays {
  tag: string;
  field: DateField;
  range: DateRange;
}

/**
 * FROM and WHERE of a tag's counts per day of a date in a range (migration 12): the list's date
 * filters are whole days, so a stored date is in a range exactly when its day is.
 */
function tagDaysOf(p: Params, { tag, field, range: [after, before] }: TagDays): string {
  const where = [`tag = ${p.bind(tag)}`, `field = ${p.bind(field)}`];
  if (after) where.push(`day >= ${p.bind(after)}`);
  if (before) where.push(`day < ${p.bind(nextDay(before))}`);
  return `FROM bundle_tag_day_counts WHERE ${where.join(' AND ')}`;
}

/** The number of a tag's Bundles with a date in a range, summed from its counts per day. */
function tagRangeTotal(db: Db, days: TagDays): number {
  const p = new Params();
  return sql(db, `SELECT coalesce(sum(n), 0) ${tagDaysOf(p, days)}`)
    .pluck()
    .get(p.values) as number;
}

/** Pages from this offset on start from the counts per day (`daysBefore`; tests lower it to take that way). */
export const deepPages = { from: 2000 };

/**
 * A deep page of a tag in a date's order: how many of the list's Bundles lie in the days wholly before
 * the page, in the list's direction, and the condition on the date that leaves them out. The page is
 * then read with what offset is left, instead of walking (and looking up the tag of) every Bundle before it.
 */
function daysBefore(
  db: Db,
  days: TagDays,
  offset: number,
  descending: boolean,
): { skipped: number; from: (bind: (v: unknown) => string) => string } | undefined {
  if (offset < deepPages.from) return undefined;
  const p = new Params();
  // The days in the list's direction, until the one the page starts in: a few dozen rows for a page 500.
  const rows = sql(db, `SELECT day, n ${tagDaysOf(p, days)} ORDER BY day ${descending ? 'DESC' : 'ASC'}`).iterate(
    p.values,
  ) as IterableIterator<{ day: string; n: number }>;
  let skipped = 0;
  let last: string | undefined;
  for (const { day, n } of rows) {
    if (skipped + n > offset) break;
    skipped += n;
    last = day;
  }
  if (!last || !skipped) return undefined;
  const bound = last;
  return { skipped, from: (bind) => (descending ? `< ${bind(bound)}` : `>= ${bind(nextDay(bound))}`) };
}

// The parts of the general way (`walkPage`): its conditions, written for the way they are read, and whole lists.

type DateField = 'created' | 'sent' | 'completed_at';
type DateRange = [string | undefined, string | undefined];
const hasRange = ([a, b]: DateRange) => Boolean(a || b);

class Params {
  readonly values: Record<string, unknown> = {};
  bind = (v: unknown): string => {
    const name = `p${Object.keys(this.values).length}`;
    this.values[name] = v;
    return `@${name}`;
  };
}

/**
 * How the general way reads its conditions: `drive` lets any condition's index drive (the matches
 * found by their own index, then sorted); `count` keeps a set's index from driving when a column is
 * also filtered, so the column's covering index is walked and each Bundle tested against the set
 * (read once); `walk` keeps every index but the order's from driving, and tests each Bundle walked
 * against a set by a look-up, so a page 1 does not read a set of a hundred thousand first.
 */
type Reading = 'drive' | 'count' | 'walk';

/**
 * One condition of the general way, written for each reading. `column`: a filter on a column of the
 * order indexes (`+` keeps its own index from driving a walk); `set`: Bundles in the rows of another
 * table, or of the search index (no look-up: its matches are read once); `fixed`: the same whatever
 * the reading (a range of the order's own column, one status in `created` order).
 */
type Condition =
  | { kind: 'column'; text: string }
  | { kind: 'set'; members: string; probe?: string }
  | { kind: 'fixed'; text: string };

function written(c: Condition, reading: Reading): string {
  if (c.kind === 'fixed') return c.text;
  if (c.kind === 'column') return reading === 'walk' ? `+${c.text}` : c.text;
  if (reading === 'walk' && c.probe) return c.probe;
  return `${reading === 'drive' ? '' : '+'}b.seq IN (${c.members})`;
}

class Conditions extends Params {
  readonly where: Condition[] = [];
  add(c: Condition): Condition {
    this.where.push(c);
    return c;
  }
  sql(extra: string | undefined, reading: Reading): string {
    const all = this.where.map((c) => written(c, reading));
    if (extra) all.push(extra);
    return all.length ? `WHERE ${all.join(' AND ')}` : '';
  }
  /** Bundles with a row in `from` where `where` holds: the set's index, or a look-up of each Bundle walked. */
  set(from: string, where: string): Condition {
    return this.add({
      kind: 'set',
      members: `SELECT bundle_seq FROM ${from} WHERE ${where}`,
      probe: `EXISTS (SELECT 1 FROM ${from} WHERE bundle_seq = b.seq AND ${where})`,
    });
  }
  get filtersColumn(): boolean {
    return this.where.some((c) => c.kind === 'column');
  }
  get filtersSet(): boolean {
    return this.where.some((c) => c.kind === 'set');
  }
}

/**
 * The keys of the Bundles `from` (a FROM and WHERE of `bundles b`) whole, in the list's order, kept
 * while the database is unchanged (`listOnce`), so that each page after the first read is a slice;
 * undefined for a list too long to keep (counted then, and known as such until the database changes).
 */
function wholeList(
  db: Db,
  from: string,
  params: Record<string, unknown>,
  f: BundleFilter,
  total?: number,
): Int32Array | undefined {
  if ((countKnown(db, `SELECT count(*) ${from}`, params) ?? 0) > MAX_LIST_KEYS) return undefined;
  const d = f.descending ? 'DESC' : 'ASC';
  // Dated Bundles in order, then those without the date, as the walks give them.
  const col = `b.${f.orderBy}`;
  const nullsLast = f.orderBy === 'created' ? '' : `${col} IS NULL, `;
  const text = `SELECT b.seq ${from} ORDER BY ${nullsLast}${col} ${d}, b.seq ${d}`;
  return listOnce(db, text, params, () => {
    // Of known length, it is read without a LIMIT, which would lead SQLite to walk the order's index
    // rather than find the matches by their own and sort them.
    const keys = sql(db, total === undefined ? `${text} LIMIT ${MAX_LIST_KEYS + 1}` : text)
      .pluck()
      .all(params) as number[];
    return keys.length > MAX_LIST_KEYS ? undefined : Int32Array.from(keys);
  });
}

/** A page of a whole list. */
function slice(keys: Int32Array, f: BundleFilter, drive: string): Found {
  checkPage(keys.length, f);
  const from = (f.page - 1) * f.perPage;
  const plan: ListPlan = { strategy: 'whole', drive, total: 'visited', page: 'slice' };
  return { total: keys.length, seqs: Array.from(keys.subarray(from, from + f.perPage)), plan };
}

/** The filters as conditions on `bundles`, with what may count them without visiting the Bundles. */
function listConditions(db: Db, f: BundleFilter) {
  const c = new Conditions();
  // A condition that is the only one may be counted from its own index, without the Bundles.
  const soleCounts = new Map<Condition, { text: string; total: ListPlan['total'] }>();
  if (f.search !== undefined) {
    const plan = planSearch(db, f.search, c.bind);
    if (plan.kind === 'index') {
      soleCounts.set(c.add({ kind: 'set', members: plan.matches }), { text: plan.count, total: 'index' });
    } else {
      // instr, not LIKE: it folds every letter and accent (by the engine's function) and reads past a NUL.
      for (const word of searchWords(f.search)) {
        const p = c.bind(foldForSearch(word));
        const has = (col: string) => `instr(esign_fold(${col}), ${p}) > 0`;
        c.add({
          kind: 'fixed',
          text: `(${has('b.id')} OR ${has('b.label')} OR ${has('b.custom_key')} OR EXISTS (
          SELECT 1 FROM packets p WHERE p.bundle_seq = b.seq
          AND (${has('p.name')} OR ${has('p.email')} OR ${has('p.phone')})))`,
        });
      }
    }
  }
  const ranges = (
    [
      ['created', f.created],
      ['sent', f.sent],
      ['completed_at', f.completed],
    ] as const
  ).filter(([, r]) => hasRange(r));
  const noSets = f.search === undefined && !f.tag && !f.tagsAny && !f.template;
  const statusesOnly = noSets && !ranges.length;
  const soleTag = f.tag !== undefined && f.search === undefined && !f.tagsAny && !f.template && !f.statuses;
  // One tag, and one date range at most: its counts per day say the total, and where a deep page starts.
  const tagDays: { tag: string; field?: DateField; range: DateRange } | undefined =
    soleTag && ranges.length <= 1
      ? { tag: f.tag!, field: ranges[0]?.[0], range: ranges[0]?.[1] ?? [undefined, undefined] }
      : undefined;
  // One status in `created` order has its own index (status, created); other orders walk theirs.
  const statusKind = f.statuses?.length === 1 && f.orderBy === 'created' ? 'fixed' : 'column';
  if (f.statuses) {
    c.add({
      kind: statusKind,
      text: `b.status IN (SELECT value FROM json_each(${c.bind(JSON.stringify(f.statuses))}))`,
    });
  }
  if (f.tag)
    soleCounts.set(c.set('bundle_tags', `tag = ${c.bind(f.tag)}`), { text: tagTotal(f.tag, c.bind), total: 'kept' });
  if (f.tagsAny) {
    const where = `tag IN (SELECT value FROM json_each(${c.bind(JSON.stringify(f.tagsAny))}))`;
    soleCounts.set(
      c.set('bundle_tags', where),
      f.tagsAny.length === 1
        ? { text: tagTotal(f.tagsAny[0], c.bind), total: 'kept' }
        : { text: `SELECT count(DISTINCT bundle_seq) FROM bundle_tags WHERE ${where}`, total: 'index' },
    );
  }
  const range = (col: string, [after, before]: [string | undefined, string | undefined]) => {
    // A range on the order column is a range of the walk itself.
    const kind = col === f.orderBy ? 'fixed' : 'column';
    if (after) c.add({ kind, text: `b.${col} >= ${c.bind(after)}` });
    if (before) c.add({ kind, text: `b.${col} < ${c.bind(nextDay(before))}` });
  };
  range('created', f.created);
  range('sent', f.sent);
  range('completed_at', f.completed);
  // A Bundle sent or completed before a day was made before it: the walk of the `created` index starts there.
  const datedBefore = [f.sent[1], f.completed[1]].filter((d) => d !== undefined).sort()[0];
  if (datedBefore && f.orderBy === 'created' && datedAfterCreated(db)) {
    c.add({ kind: 'fixed', text: `b.created < ${c.bind(nextDay(datedBefore))}` });
  }
  // Any template document counts, not only the first (bundles.template).
  if (f.template) {
    const members = c.set('documents', `template_id = ${c.bind(f.template)}`);
    soleCounts.set(members, { text: templateTotal(f.template, c.bind), total: 'kept' });
  }
  // Filters that their indexes hold whole (statuses and dates: the order indexes cover them) are
  // counted there, a few million entries a second; a set or a search without its index is counted by
  // visiting each Bundle.
  const indexOnly = !c.filtersSet && f.search === undefined;
  return { c, soleCounts, statusesOnly, statusKind, indexOnly, tagDays };
}
