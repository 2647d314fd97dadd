// Reading Bundles and Packets out of SQLite and shaping them as API objects.
import type { BundleStatus, DeliverVia, DocStatus, PacketStatus } from '../../domain/enums.js';
import { notFound, type WireError } from '../../domain/errors.js';
import type { Bundle, Packet } from '../../service/types.js';
import { type Db, sql } from '../store/db.js';
import { FIRST_ADMIN_SQL } from '../account/account.js';

/** Bundle members kept as JSON in `bundles.attrs` (no filter or sort ever needs them as columns). */
export type BundleAttrs = Pick<
  Bundle,
  | 'email_subject'
  | 'email_message'
  | 'sms_message'
  | 'requester_name'
  | 'requester_email'
  | 'cc_emails'
  | 'payment'
  | 'tag_values'
  | 'cc_sender'
  | 'send_reminders'
  | 'reminder_offset'
  | 'reminder_interval'
  | 'reminder_expires'
> &
  Partial<Pick<Bundle, 'allow_signer_reassign' | 'allow_chained_signer_reassign'>>;

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

/** Typed decoders of the JSON columns: one place that says what a stored `attrs` or `errors` holds. */
export const bundleAttrs = (b: Pick<BundleRow, 'attrs'>): BundleAttrs => JSON.parse(b.attrs) as BundleAttrs;
export const packetAttrs = (p: Pick<PacketRow, 'attrs'>): PacketAttrs => JSON.parse(p.attrs) as PacketAttrs;
/** The errors a failed Bundle shows (`[]` when none). */
export const bundleErrors = (b: Pick<BundleRow, 'errors'>): WireError[] => JSON.parse(b.errors) as WireError[];

export function findBundleRow(db: Db, slug: string): BundleRow {
  const row = sql(db, 'SELECT * FROM bundles WHERE id = ?').get(slug) as BundleRow | undefined;
  if (!row) throw notFound('Bundle', slug);
  return row;
}

/** The Bundle row a packet, document or new insert refers to by its internal number. */
export const bundleRowBySeq = (db: Db, seq: number): BundleRow =>
  sql(db, 'SELECT * FROM bundles WHERE seq = ?').get(seq) as BundleRow;

export function findPacketRow(db: Db, id: string): PacketRow {
  const row = sql(db, 'SELECT * FROM packets WHERE id = ?').get(id) as PacketRow | undefined;
  if (!row) throw notFound('Packet', id);
  return row;
}

export const packetRowsOf = (db: Db, seq: number): PacketRow[] =>
  sql(db, 'SELECT * FROM packets WHERE bundle_seq = ? ORDER BY idx').all(seq) as PacketRow[];

export const documentRowsOf = (db: Db, seq: number): DocumentRow[] =>
  sql(db, 'SELECT * FROM documents WHERE bundle_seq = ? ORDER BY idx').all(seq) as DocumentRow[];

// toPacket and bundleFromRows make every Bundle of every answer and list page: written as one object
// literal, member by member, because V8 builds an object from several spreads (`{...pick(), x, ...pick()}`)
// some hundred times slower (measured: 150-290 µs a Bundle of two signers, against about 2 µs).
export function toPacket(r: PacketRow): Packet {
  const a = packetAttrs(r);
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
  const packets = sql(db, `SELECT * FROM packets WHERE bundle_seq ${inList} ORDER BY bundle_seq, idx`).all(
    seqs,
  ) as PacketRow[];
  const docs = sql(
    db,
    `SELECT bundle_seq, key, name, template_id FROM documents WHERE bundle_seq ${inList} ORDER BY bundle_seq, idx`,
  ).all(seqs) as Pick<DocumentRow, 'bundle_seq' | 'key' | 'name' | 'template_id'>[];
  const tags = sql(
    db,
    `SELECT bundle_seq, tag FROM bundle_tags WHERE bundle_seq ${inList} ORDER BY bundle_seq, rowid`,
  ).all(seqs) as { bundle_seq: number; tag: string }[];
  const group = <T extends { bundle_seq: number }>(list: T[]) => {
    const m = new Map<number, T[]>();
    for (const x of list) (m.get(x.bundle_seq) ?? m.set(x.bundle_seq, []).get(x.bundle_seq)!).push(x);
    return m;
  };
  const P = group(packets);
  const D = group(docs);
  const T = group(tags);
  const owner = ownerContacts(
    db,
    rows.map((r) => r.owner),
  );
  return rows.map((r) =>
    bundleFromRows(
      r,
      P.get(r.seq) ?? [],
      D.get(r.seq) ?? [],
      (T.get(r.seq) ?? []).map((t) => t.tag),
      owner(r.owner),
    ),
  );
}

export interface OwnerContact {
  owner_name: string;
  owner_email: string;
}

/**
 * Who owns each Bundle (API 2.19 `owner_name`, `owner_email`): the user PATCH `owner` names, else
 * the account's first admin (the owner of a new account), whose Bundles they are. One query.
 */
function ownerContacts(db: Db, ownerIds: (string | null)[]): (id: string | null) => OwnerContact {
  const ids = [...new Set(ownerIds.filter((x): x is string => x !== null))];
  const users = sql(
    db,
    `SELECT id, name, email, is_admin FROM users
    WHERE id IN (SELECT value FROM json_each(?)) OR id = (${FIRST_ADMIN_SQL})`,
  ).all(JSON.stringify(ids)) as { id: string; name: string; email: string; is_admin: number }[];
  const byId = new Map(users.map((u) => [u.id, { owner_name: u.name, owner_email: u.email }]));
  const first = users.find((u) => u.is_admin === 1 && !ids.includes(u.id)) ?? users.find((u) => u.is_admin === 1);
  const fallback = first ? { owner_name: first.name, owner_email: first.email } : { owner_name: '', owner_email: '' };
  return (id) => (id !== null && byId.get(id)) || fallback;
}

/** One Bundle, read from one snapshot of the database. */
export function loadBundle(db: Db, slug: string): Bundle {
  return db.transaction(() => loadBundles(db, [findBundleRow(db, slug)])[0])();
}

/**
 * The Bundles whose custom_key is exactly one of `keys`, by key: one query over bundles_custom_key for
 * them all. A key that older databases hold twice answers with its oldest Bundle, the one a create
 * names when it refuses the key (create.ts checkKeyFree).
 */
export function findBundlesByCustomKeys(db: Db, keys: readonly string[]): Map<string, Bundle> {
  if (!keys.length) return new Map();
  return db.transaction(() => {
    const rows = sql(db, 'SELECT * FROM bundles WHERE custom_key IN (SELECT value FROM json_each(?)) ORDER BY seq').all(
      JSON.stringify(keys),
    ) as BundleRow[];
    const oldest = new Map<string, BundleRow>();
    for (const r of rows) if (r.custom_key !== null && !oldest.has(r.custom_key)) oldest.set(r.custom_key, r);
    const bundles = loadBundles(db, [...oldest.values()]);
    return new Map(bundles.map((b) => [b.custom_key as string, b]));
  })();
}

/** The API object of a Bundle from its rows (a read, or a create's rows as written). */
export function bundleFromRows(
  r: BundleRow,
  packets: PacketRow[],
  docs: Pick<DocumentRow, 'key' | 'name' | 'template_id'>[],
  tags: string[],
  owner: OwnerContact,
): Bundle {
  const a = bundleAttrs(r);
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
    errors: bundleErrors(r),
    packets: packets.map(toPacket),
    documents: docs.map((d) =>
      d.template_id ? { template_id: d.template_id, key: d.key, name: d.name } : { key: d.key, name: d.name },
    ),
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
    owner_name: owner.owner_name,
    owner_email: owner.owner_email,
    // API 2.19: reminders are bounded by reminder_expires here, never by a count.
    max_reminders: null,
    signing_brand: r.signing_brand,
    template: r.template,
  };
}

/**
 * Bundles whose slug starts with `prefix`, in slug order (`id`'s unique index: a range read,
 * however many Bundles). Slugs are ASCII, and U+10FFFF sorts after any character in UTF-8.
 */
export function bundleIdsByPrefix(db: Db, prefix: string, limit: number): { id: string; label: string }[] {
  return sql(db, 'SELECT id, label FROM bundles WHERE id >= ? AND id < ? ORDER BY id LIMIT ?').all(
    prefix,
    `${prefix}\u{10FFFF}`,
    limit,
  ) as { id: string; label: string }[];
}
