// GET /bundles/: the list filters as SQL, the exact total and one page, from one snapshot.
import { notFound } from '../../service/errors.js';
import { type BundleFilter, nextDay } from '../../service/listQuery.js';
import type { Bundle, Page } from '../../service/types.js';
import { type Db, sql } from '../store/db.js';
import { madeInCreatedOrder } from '../store/meta.js';
import { type BundleRow, loadBundles } from './read.js';
import { escapeLike, planSearch } from './search.js';

export function queryBundles(db: Db, f: BundleFilter): Page<Bundle> {
  return db.transaction(() => {
    const { total, seqs } = setPage(db, f) ?? statusPage(db, f) ?? walkPage(db, f);
    const rows = sql(db, 'SELECT * FROM bundles WHERE seq IN (SELECT value FROM json_each(?))').all(JSON.stringify(seqs)) as BundleRow[];
    const bySeq = new Map(rows.map((r) => [r.seq, r]));
    return { items: loadBundles(db, seqs.map((s) => bySeq.get(s)!)), page: f.page, total_pages: totalPages(total, f), per_page: f.perPage, total };
  })();
}

interface Found {
  total: number;
  seqs: number[];
}

const totalPages = (total: number, f: BundleFilter) => Math.max(1, Math.ceil(total / f.perPage));
function checkPage(total: number, f: BundleFilter): void {
  if (f.page > totalPages(total, f)) throw notFound('Page', String(f.page));
}
const hasRange = ([a, b]: [string | undefined, string | undefined]) => Boolean(a || b);

class Params {
  readonly values: Record<string, unknown> = {};
  bind = (v: unknown): string => {
    const name = `p${Object.keys(this.values).length}`;
    this.values[name] = v;
    return `@${name}`;
  };
}

/**
 * One set alone (a search, a tag, a tag set or a template) in `created` order: the set's own index
 * gives its Bundles in seq order, which is `created` order, so the total is a count of that index
 * and the page a slice of it, without reading a Bundle.
 */
function setPage(db: Db, f: BundleFilter): Found | undefined {
  const sets = [f.search, f.tag, f.tagsAny, f.template].filter((x) => x !== undefined).length;
  if (sets !== 1 || f.statuses || [f.created, f.sent, f.completed].some(hasRange) || f.orderBy !== 'created') return undefined;
  if (f.tagsAny && f.tagsAny.length > 50) return undefined;
  if (!madeInCreatedOrder(db, 'bundles')) return undefined;
  const p = new Params();
  let members: string;
  if (f.search !== undefined) {
    const plan = planSearch(db, f.search, p.bind);
    if (plan.kind === 'columns') return undefined;
    members = plan.matches;
  } else if (f.tag !== undefined) members = `SELECT bundle_seq AS seq FROM bundle_tags WHERE tag = ${p.bind(f.tag)}`;
  // A merge of each tag's index, in seq order (UNION drops the Bundles with more than one of them).
  else if (f.tagsAny) members = [...new Set(f.tagsAny)].map((t) => `SELECT bundle_seq AS seq FROM bundle_tags WHERE tag = ${p.bind(t)}`).join(' UNION ');
  else members = `SELECT DISTINCT bundle_seq AS seq FROM documents WHERE template_id = ${p.bind(f.template)}`;
  const dir = f.descending ? 'DESC' : 'ASC';
  const total = sql(db, `SELECT count(*) FROM (${members} ORDER BY 1)`).pluck().get(p.values) as number;
  checkPage(total, f);
  const seqs = sql(db, `${members} ORDER BY 1 ${dir} LIMIT ${p.bind(f.perPage)} OFFSET ${p.bind((f.page - 1) * f.perPage)}`).pluck().all(p.values) as number[];
  return { total, seqs };
}

/**
 * Statuses, perhaps with a `created` range, in `created` order: each status's index
 * (status, created) is in that order already, so the page is a merge of them and the total the sum
 * of their counts.
 */
function statusPage(db: Db, f: BundleFilter): Found | undefined {
  if (!f.statuses || f.orderBy !== 'created') return undefined;
  if (f.search !== undefined || f.tag || f.tagsAny || f.template || hasRange(f.sent) || hasRange(f.completed)) return undefined;
  if (!f.statuses.length) {
    // `status` and `status__in` that share no status.
    checkPage(0, f);
    return { total: 0, seqs: [] };
  }
  const p = new Params();
  const [after, before] = f.created;
  const range = `${after ? ` AND created >= ${p.bind(after)}` : ''}${before ? ` AND created < ${p.bind(nextDay(before))}` : ''}`;
  const arms = [...new Set(f.statuses)].map((s) => `SELECT seq, created FROM bundles WHERE status = ${p.bind(s)}${range}`);
  const total = range
    ? (sql(db, `SELECT ${arms.map((a) => `(SELECT count(*) FROM (${a}))`).join(' + ')}`).pluck().get(p.values) as number)
    : (sql(db, `SELECT coalesce(sum(n), 0) FROM bundle_counts WHERE status IN (SELECT value FROM json_each(${p.bind(JSON.stringify(f.statuses))}))`).pluck().get(p.values) as number);
  checkPage(total, f);
  const dir = f.descending ? 'DESC' : 'ASC';
  const seqs = sql(db, `SELECT seq FROM (${arms.join(' UNION ALL ')} ORDER BY created ${dir}, seq ${dir}) LIMIT ${p.bind(f.perPage)} OFFSET ${p.bind((f.page - 1) * f.perPage)}`)
    .pluck().all(p.values) as number[];
  return { total, seqs };
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
  sql(extra?: string, walk: Walk = 'none'): string {
    const all = extra ? [...this.where, extra] : this.where;
    const text = all.join(' AND ').replace(/\{\+\}/g, walk === 'all' ? '+' : '').replace(/\{in\}/g, walk === 'none' ? '' : '+');
    return all.length ? `WHERE ${text}` : '';
  }
  get filtersColumn(): boolean {
    return this.where.some((w) => w.includes('{+}'));
  }
  get filtersSet(): boolean {
    return this.where.some((w) => w.includes('{in}'));
  }
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
      soleCounts.set(c.where[0], `SELECT count(*) FROM (${plan.matches})`);
    } else {
      const p = c.bind(`%${escapeLike(f.search)}%`);
      const like = (col: string) => `${col} LIKE ${p} ESCAPE '\\'`;
      c.where.push(`(${like('b.id')} OR ${like('b.label')} OR ${like('b.custom_key')} OR EXISTS (
        SELECT 1 FROM packets p WHERE p.bundle_seq = b.seq AND (${like('p.name')} OR ${like('p.email')} OR ${like('p.phone')})))`);
    }
  }
  const statusesOnly = f.search === undefined && !f.tag && !f.tagsAny && !f.template && ![f.created, f.sent, f.completed].some(hasRange);
  // One status in `created` order has its own index (status, created); other orders walk theirs.
  const statusMark = f.statuses?.length === 1 && f.orderBy === 'created' ? '' : '{+}';
  if (f.statuses) c.where.push(`${statusMark}b.status IN (SELECT value FROM json_each(${c.bind(JSON.stringify(f.statuses))}))`);
  const tagged = (where: string, count: string) => {
    c.where.push(`{in}b.seq IN (SELECT bundle_seq FROM bundle_tags WHERE ${where})`);
    soleCounts.set(c.where[c.where.length - 1], `SELECT ${count} FROM bundle_tags WHERE ${where}`);
  };
  if (f.tag) tagged(`tag = ${c.bind(f.tag)}`, 'count(*)');
  if (f.tagsAny) tagged(`tag IN (SELECT value FROM json_each(${c.bind(JSON.stringify(f.tagsAny))}))`, 'count(DISTINCT bundle_seq)');
  const range = (col: string, [after, before]: [string | undefined, string | undefined]) => {
    // A range on the order column is a range of the walk itself.
    const mark = col === f.orderBy ? '' : '{+}';
    if (after) c.where.push(`${mark}b.${col} >= ${c.bind(after)}`);
    if (before) c.where.push(`${mark}b.${col} < ${c.bind(nextDay(before))}`);
  };
  range('created', f.created);
  range('sent', f.sent);
  range('completed_at', f.completed);
  // Any template document counts, not only the first (bundles.template).
  if (f.template) c.where.push(`{in}b.seq IN (SELECT bundle_seq FROM documents WHERE template_id = ${c.bind(f.template)})`);

  const countWalk: Walk = c.filtersSet && (c.filtersColumn || f.statuses?.length === 1) ? 'sets' : 'none';
  const count = (extra?: string) => sql(db, `SELECT count(*) FROM bundles b ${c.sql(extra, countWalk)}`).pluck().get(c.values) as number;
  let total: number;
  if (statusesOnly) {
    // Kept by triggers (migration 7): no walk over the rows.
    const statuses = f.statuses ? `WHERE status IN (SELECT value FROM json_each(${c.bind(JSON.stringify(f.statuses))}))` : '';
    total = sql(db, `SELECT coalesce(sum(n), 0) FROM bundle_counts ${statuses}`).pluck().get(c.values) as number;
  } else if (c.where.length === 1 && soleCounts.has(c.where[0])) {
    total = sql(db, soleCounts.get(c.where[0])!).pluck().get(c.values) as number;
  } else total = count();
  checkPage(total, f);

  const dir = f.descending ? 'DESC' : 'ASC';
  const offset = (f.page - 1) * f.perPage;
  // Many matches: walk the order index (it covers the filter columns) and test each Bundle, stopping
  // at the page; few: find the matches by their own index and sort them. The walk reads about
  // (offset + page) * all / total index entries, at most all; the other way reads total table rows,
  // each some twenty times dearer. With one status in `created` order the walk is of that status's own index.
  const one = f.statuses?.length === 1 && f.orderBy === 'created' ? f.statuses : undefined;
  const all = sql(db, `SELECT coalesce(sum(n), 0) FROM bundle_counts ${one ? `WHERE status = ${c.bind(one[0])}` : ''}`).pluck().get(c.values) as number;
  const walked = total && Math.min(all, ((offset + f.perPage) * all) / total);
  const walk: Walk = c.where.length > 0 && walked <= 20 * total ? 'all' : 'none';
  const seqs = (extra: string | undefined, order: string, limit: number, skip: number) =>
    sql(db, `SELECT b.seq FROM bundles b ${c.sql(extra, walk)} ORDER BY ${order} LIMIT ${c.bind(limit)} OFFSET ${c.bind(skip)}`)
      .pluck().all(c.values) as number[];
  let page: number[];
  if (!total) page = [];
  else if (f.orderBy === 'created') page = seqs(undefined, `b.created ${dir}, b.seq ${dir}`, f.perPage, offset);
  else {
    // Bundles without the date come last in either direction, newest-made last; split in two so
    // that each part is one walk of an index.
    const col = `b.${f.orderBy}`;
    page = seqs(`${col} IS NOT NULL`, `${col} ${dir}, b.seq ${dir}`, f.perPage, offset);
    if (page.length < f.perPage) {
      const dated = page.length ? offset + page.length : count(`${col} IS NOT NULL`);
      page = page.concat(seqs(`${col} IS NULL`, `b.seq ${dir}`, f.perPage - page.length, Math.max(0, offset - dated)));
    }
  }
  return { total, seqs: page };
}
