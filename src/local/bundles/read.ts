// Reading Bundles and Packets out of SQLite and shaping them as API objects.
import type { BundleStatus, DeliverVia, DocStatus, PacketStatus } from '../../service/enums.js';
import { notFound } from '../../service/errors.js';
import type { BundleFilter } from '../../service/listQuery.js';
import type { Bundle, Packet, Page } from '../../service/types.js';
import { type Db, sql } from '../store/db.js';

/** Bundle members kept as JSON in `bundles.attrs` (no filter or sort ever needs them as columns). */
export type BundleAttrs = Pick<
  Bundle,
  | 'email_subject' | 'email_message' | 'sms_message' | 'requester_name' | 'requester_email' | 'cc_emails'
  | 'payment' | 'tag_values' | 'cc_sender' | 'send_reminders' | 'reminder_offset' | 'reminder_interval' | 'reminder_expires'
> & Partial<Pick<Bundle, 'allow_signer_reassign' | 'allow_chained_signer_reassign'>>;

export interface BundleRow {
  seq: number;
  id: string;
  status: BundleStatus;
  doc_status: DocStatus;
  label: string;
  custom_key: string | null;
  is_test: number;
  in_order: number;
  team: string | null;
  owner: string | null;
  signing_brand: string | null;
  template: string | null;
  created: string;
  sent: string | null;
  completed_at: string | null;
  expires: string | null;
  attrs: string;
  errors: string;
  evidence_lease: string | null;
}

export interface PacketAttrs {
  auth_sms: boolean;
  auth_selfie: boolean;
  auth_id: boolean;
  auth_secrets?: unknown;
  signing_complete_redirect: string | null;
  suppress_all: boolean;
  suppress_signing: boolean;
  suppress_reminder: boolean;
  suppress_docs_ready: boolean;
  email_message?: string;
  sms_message?: string;
  requires_witness: boolean;
  witness_nominated_by: 'sgn' | 'snd' | '';
  /** The packet whose signer handed this one their turn (reassignment). */
  reassigned_from?: string;
  /** Created for embedded signing and moved to email or phone: no automatic reminders (spec). */
  no_auto_reminders?: boolean;
}

export interface PacketRow {
  id: string;
  bundle_seq: number;
  idx: number;
  key: string;
  name: string;
  email: string | null;
  phone: string | null;
  person_id: string | null;
  deliver_via: DeliverVia;
  ord: number;
  status: PacketStatus;
  completed_at: string | null;
  last_accessed_at: string | null;
  last_reminded_at: string | null;
  /** When the signer's signing request went out: reminders count from here. */
  notified_at: string | null;
  auto_reminders: number;
  next_reminder_at: string | null;
  attrs: string;
}

export interface DocumentRow {
  bundle_seq: number;
  idx: number;
  key: string;
  name: string;
  source: 'b64' | 'url' | 'index' | 'html' | 'office' | 'template';
  source_url: string | null;
  template_id: string | null;
  sha256: string | null;
  state: 'pending' | 'ready' | 'failed';
  lease_until: string | null;
  spec: string;
}

export function findBundleRow(db: Db, slug: string): BundleRow {
  const row = sql(db, 'SELECT * FROM bundles WHERE id = ?').get(slug) as BundleRow | undefined;
  if (!row) throw notFound('Bundle', slug);
  return row;
}

/** The Bundle row a packet, document or new insert refers to by its internal number. */
export const bundleRowBySeq = (db: Db, seq: number): BundleRow => sql(db, 'SELECT * FROM bundles WHERE seq = ?').get(seq) as BundleRow;

export function findPacketRow(db: Db, id: string): PacketRow {
  const row = sql(db, 'SELECT * FROM packets WHERE id = ?').get(id) as PacketRow | undefined;
  if (!row) throw notFound('Packet', id);
  return row;
}

export const packetRowsOf = (db: Db, seq: number): PacketRow[] =>
  sql(db, 'SELECT * FROM packets WHERE bundle_seq = ? ORDER BY idx').all(seq) as PacketRow[];

export const documentRowsOf = (db: Db, seq: number): DocumentRow[] =>
  sql(db, 'SELECT * FROM documents WHERE bundle_seq = ? ORDER BY idx').all(seq) as DocumentRow[];

export function toPacket(r: PacketRow): Packet {
  const a = JSON.parse(r.attrs) as PacketAttrs;
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    person_id: r.person_id,
    deliver_via: r.deliver_via,
    order: r.ord,
    status: r.status,
    auth_sms: a.auth_sms,
    auth_selfie: a.auth_selfie,
    auth_id: a.auth_id,
    signing_complete_redirect: a.signing_complete_redirect,
    suppress_all: a.suppress_all,
    suppress_signing: a.suppress_signing,
    suppress_reminder: a.suppress_reminder,
    suppress_docs_ready: a.suppress_docs_ready,
    completed_at: r.completed_at,
    last_accessed_at: r.last_accessed_at,
    requires_witness: a.requires_witness,
    witness_nominated_by: a.witness_nominated_by,
  };
}

/** Loads whole Bundles for the given row ids, in that order, with four queries whatever their number. */
export function loadBundles(db: Db, rows: BundleRow[]): Bundle[] {
  if (!rows.length) return [];
  const seqs = JSON.stringify(rows.map((r) => r.seq));
  const inList = 'IN (SELECT value FROM json_each(?))';
  const packets = sql(db, `SELECT * FROM packets WHERE bundle_seq ${inList} ORDER BY bundle_seq, idx`).all(seqs) as PacketRow[];
  const docs = sql(db, `SELECT bundle_seq, key, name, template_id FROM documents WHERE bundle_seq ${inList} ORDER BY bundle_seq, idx`)
    .all(seqs) as Pick<DocumentRow, 'bundle_seq' | 'key' | 'name' | 'template_id'>[];
  const tags = sql(db, `SELECT bundle_seq, tag FROM bundle_tags WHERE bundle_seq ${inList} ORDER BY bundle_seq, rowid`)
    .all(seqs) as { bundle_seq: number; tag: string }[];
  const group = <T extends { bundle_seq: number }>(list: T[]) => {
    const m = new Map<number, T[]>();
    for (const x of list) (m.get(x.bundle_seq) ?? m.set(x.bundle_seq, []).get(x.bundle_seq)!).push(x);
    return m;
  };
  const P = group(packets);
  const D = group(docs);
  const T = group(tags);
  return rows.map((r) => toBundle(r, P.get(r.seq) ?? [], D.get(r.seq) ?? [], (T.get(r.seq) ?? []).map((t) => t.tag)));
}

/** One Bundle, read from one snapshot of the database. */
export function loadBundle(db: Db, slug: string): Bundle {
  return db.transaction(() => loadBundles(db, [findBundleRow(db, slug)])[0])();
}

function toBundle(
  r: BundleRow,
  packets: PacketRow[],
  docs: Pick<DocumentRow, 'key' | 'name' | 'template_id'>[],
  tags: string[],
): Bundle {
  const a = JSON.parse(r.attrs) as BundleAttrs;
  return {
    id: r.id,
    created: r.created,
    status: r.status,
    label: r.label,
    in_order: r.in_order === 1,
    email_subject: a.email_subject,
    email_message: a.email_message,
    sms_message: a.sms_message,
    requester_name: a.requester_name,
    requester_email: a.requester_email,
    cc_emails: a.cc_emails,
    custom_key: r.custom_key,
    team: r.team,
    is_test: r.is_test === 1,
    payment: a.payment,
    tag_values: a.tag_values,
    docs_ready: r.doc_status === 'fi' || r.doc_status === 'in',
    doc_status: r.doc_status,
    errors: JSON.parse(r.errors),
    packets: packets.map(toPacket),
    documents: docs.map((d) => (d.template_id ? { template_id: d.template_id, key: d.key, name: d.name } : { key: d.key, name: d.name })),
    tags,
    sent: r.sent,
    completed_at: r.completed_at,
    expires: r.expires,
    cc_sender: a.cc_sender,
    send_reminders: a.send_reminders,
    reminder_offset: a.reminder_offset,
    reminder_interval: a.reminder_interval,
    reminder_expires: a.reminder_expires,
    allow_signer_reassign: a.allow_signer_reassign ?? false,
    allow_chained_signer_reassign: a.allow_chained_signer_reassign ?? false,
    owner: r.owner,
    signing_brand: r.signing_brand,
    template: r.template,
  };
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86400e3).toISOString().slice(0, 10);

/** Runs a list filter: the page of rows and the total count, from one snapshot of the database. */
export function queryBundles(db: Db, f: BundleFilter): Page<Bundle> {
  return db.transaction(() => queryBundlesIn(db, f))();
}

/** Joins the searchable members in a row of `bundle_search` (migration 7); a search containing it cannot use that index. */
const FIELD_SEPARATOR = '\u001f';
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Marks in a condition: `{+}` a column, `{in}` a set of Bundles (search, tags, template), whose index
 * may drive the query. A walk of the order index turns both off; a count turns the sets off when a
 * column is also filtered, so that the column's index (covering, with seq) is walked and each Bundle
 * tested against the set, instead of reading each Bundle of the set from the table.
 */
type Walk = 'none' | 'all' | 'sets';

class Conditions {
  readonly where: string[] = [];
  readonly params: Record<string, unknown> = {};
  bind(v: unknown): string {
    const name = `p${Object.keys(this.params).length}`;
    this.params[name] = v;
    return `@${name}`;
  }
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

/** Two-character searches read the index's terms when they start with it in at most this many rows. */
const SHORT_SEARCH_MAX_ROWS = 20_000;
const SHORT_SEARCH_MAX_TERMS = 200;

/**
 * `search` is a case-insensitive substring of the slug, label, custom_key, or a signer's name, email
 * or phone. Three characters or more are looked up in the trigram index (a phrase of trigrams at
 * consecutive offsets is exactly a substring). Every character of a field starts a trigram (each
 * field ends with the separator), so two ASCII characters are exactly the trigrams that start with
 * them: when those are few, any of them is looked up. Other short searches scan the index's text,
 * which is far smaller than the tables; text containing the field separator scans the columns.
 */
function searchCondition(db: Db, c: Conditions, search: string): { sql: string; ftsOnly?: string } {
  if (search.includes(FIELD_SEPARATOR)) {
    const p = c.bind(`%${escapeLike(search)}%`);
    const like = (col: string) => `${col} LIKE ${p} ESCAPE '\\'`;
    return {
      sql: `(${like('b.id')} OR ${like('b.label')} OR ${like('b.custom_key')} OR EXISTS (
      SELECT 1 FROM packets p WHERE p.bundle_seq = b.seq AND (${like('p.name')} OR ${like('p.email')} OR ${like('p.phone')})))`,
    };
  }
  const inIndex = (where: string) => ({ sql: `{in}b.seq IN (SELECT rowid >> 20 FROM bundle_search WHERE ${where})`, ftsOnly: where });
  const phrase = (s: string) => `"${s.replace(/"/g, '""')}"`;
  if ([...search].length >= 3) return inIndex(`bundle_search MATCH ${c.bind(phrase(search))}`);
  // eslint-disable-next-line no-control-regex
  const ascii = /^[\x00-\x7f]*$/.test(search);
  if (ascii && search.length === 2) {
    const from = search.toLowerCase();
    const to = from[0] + String.fromCharCode(from.charCodeAt(1) + 1);
    const terms = sql(db, 'SELECT term, doc FROM bundle_search_terms WHERE term >= ? AND term < ?').all(from, to) as { term: string; doc: number }[];
    if (!terms.length) return { sql: '0' };
    if (terms.length <= SHORT_SEARCH_MAX_TERMS && terms.reduce((n, t) => n + t.doc, 0) <= SHORT_SEARCH_MAX_ROWS)
      return inIndex(`bundle_search MATCH ${c.bind(terms.map((t) => phrase(t.term)).join(' OR '))}`);
  }
  // SQLite's LIKE folds ASCII letters only; other letters are folded by the engine's own function.
  return inIndex(
    ascii ? `text LIKE ${c.bind(`%${escapeLike(search)}%`)} ESCAPE '\\'` : `instr(esign_lower(text), ${c.bind(search.toLowerCase())}) > 0`,
  );
}

function queryBundlesIn(db: Db, f: BundleFilter): Page<Bundle> {
  const c = new Conditions();
  // A condition that is the only one may be counted from its own index, without the Bundles.
  const soleCounts = new Map<string, string>();
  const search = f.search ? searchCondition(db, c, f.search) : undefined;
  if (search) c.where.push(search.sql);
  // Rows come in rowid order, so a Bundle's rows are adjacent and DISTINCT is cheap.
  if (search?.ftsOnly) soleCounts.set(search.sql, `SELECT count(DISTINCT rowid >> 20) AS n FROM bundle_search WHERE ${search.ftsOnly}`);
  const statusesOnly = !search && !f.tag && !f.tagsAny && !f.template && [f.created, f.sent, f.completed].every(([a, b]) => !a && !b);
  // One status and its own index give the order already (bundles_status, bundles_status_sent, ...).
  const statusMark = f.statuses?.length === 1 ? '' : '{+}';
  if (f.statuses) c.where.push(`${statusMark}b.status IN (SELECT value FROM json_each(${c.bind(JSON.stringify(f.statuses))}))`);
  const tagged = (where: string, count: string) => {
    c.where.push(`{in}b.seq IN (SELECT bundle_seq FROM bundle_tags WHERE ${where})`);
    soleCounts.set(c.where[c.where.length - 1], `SELECT ${count} AS n FROM bundle_tags WHERE ${where}`);
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

  const countWalk: Walk = c.filtersSet && (c.filtersColumn || (f.statuses?.length === 1)) ? 'sets' : 'none';
  const count = (extra?: string) => (sql(db, `SELECT count(*) AS n FROM bundles b ${c.sql(extra, countWalk)}`).get(c.params) as { n: number }).n;
  let total: number;
  if (statusesOnly) {
    // Kept by triggers (migration 7): no walk over the rows.
    const statuses = f.statuses ? `WHERE status IN (SELECT value FROM json_each(${c.bind(JSON.stringify(f.statuses))}))` : '';
    total = (sql(db, `SELECT coalesce(sum(n), 0) AS n FROM bundle_counts ${statuses}`).get(c.params) as { n: number }).n;
  } else if (c.where.length === 1 && soleCounts.has(c.where[0])) {
    total = (sql(db, soleCounts.get(c.where[0])!).get(c.params) as { n: number }).n;
  } else total = count();
  const totalPages = Math.max(1, Math.ceil(total / f.perPage));
  if (f.page > totalPages) throw notFound('Page', String(f.page));

  const dir = f.descending ? 'DESC' : 'ASC';
  const offset = (f.page - 1) * f.perPage;
  // Many matches: walk the order index (it covers the filter columns) and test each Bundle, stopping
  // at the page; few: find the matches by their own index and sort them. The walk reads about
  // (offset + page) * all / total index entries, at most all; the other way reads total table rows,
  // each some twenty times dearer.
  // With one status the walk is of that status's own index.
  const one = f.statuses?.length === 1 ? f.statuses : undefined;
  const all = (sql(db, `SELECT coalesce(sum(n), 0) AS n FROM bundle_counts ${one ? `WHERE status = ${c.bind(one[0])}` : ''}`).get(c.params) as { n: number }).n;
  const walked = total && Math.min(all, ((offset + f.perPage) * all) / total);
  const walk: Walk = c.where.length > 0 && walked <= 20 * total ? 'all' : 'none';
  const seqs = (extra: string | undefined, order: string, limit: number, skip: number) =>
    sql(db, `SELECT b.seq FROM bundles b ${c.sql(extra, walk)} ORDER BY ${order} LIMIT ${c.bind(limit)} OFFSET ${c.bind(skip)}`)
      .pluck().all(c.params) as number[];
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
  const rows = sql(db, 'SELECT * FROM bundles WHERE seq IN (SELECT value FROM json_each(?))').all(JSON.stringify(page)) as BundleRow[];
  const bySeq = new Map(rows.map((r) => [r.seq, r]));
  return { items: loadBundles(db, page.map((s) => bySeq.get(s)!)), page: f.page, total_pages: totalPages, per_page: f.perPage, total };
}
