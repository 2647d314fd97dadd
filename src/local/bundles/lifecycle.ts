// Bundle operations after creation: send, validate, cancel, patch, tags, events, files and data.
import { sql } from '../store/db.js';
import { BUNDLE_INCLUDES, type BundleStatus } from '../../domain/enums.js';
import { isDeletable, isTerminal, isUpdatable } from '../../domain/states.js';
import { ApiError, FieldErrors, badRequest, conflict } from '../../domain/errors.js';
import type { Bundle, BundleDataItem, FileObject, ValidateResult } from '../../service/types.js';
import {
  type BundleAttrs,
  type BundleRow,
  type DocumentRow,
  documentRowsOf,
  findBundleRow,
  loadBundle,
  loadBundles,
  bundleAttrs,
  bundleErrors,
} from './read.js';
import { type EngineContext, inTransaction } from '../store/context.js';
import type { BundleSettingsT } from '../../domain/schemas.js';
import { REMINDER_MEMBERS, remindersGate } from '../../domain/featureGates.js';
import { checkTestCopies, checkTestSender } from '../../domain/reachability.js';
import { scheduleReminders } from './due.js';
import { listEvents, recordEvent } from './events.js';
import { fileLink } from './links.js';
import { launch } from './launch.js';
import { FILES_FAILED } from '../../domain/states.js';
import { markEnded } from './transitions.js';
import { checkTeam } from '../account/rules.js';
import { documentSpec } from './fields.js';

const STATUS_NAMES: Record<BundleStatus, string> = {
  ne: 'new',
  dr: 'a draft',
  pr: 'provisioning',
  pe: 'pending',
  se: 'sent',
  st: 'started',
  co: 'complete',
  ca: 'cancelled',
  ex: 'expired',
  fa: 'failed',
  de: 'declined',
};
export const describeStatus = (s: BundleStatus) => `${STATUS_NAMES[s]} (${s})`;

/** Whether a draft or pending Bundle can go out now, and if not, why. */
function readiness(ctx: EngineContext, b: BundleRow): ValidateResult {
  const docs = documentRowsOf(ctx.db, b.seq);
  const n_docs = docs.length;
  const refused = (msg: string) => ({ can_send: false, msg, n_docs });
  if (b.status !== 'dr' && b.status !== 'pe')
    return refused(`The Bundle is ${describeStatus(b.status)}; only drafts and pending Bundles can be sent.`);
  if (!n_docs) return refused('The Bundle has no documents.');
  const keysIn = (state: string) => docs.filter((d) => d.state === state).map((d) => d.key);
  const failed = keysIn('failed');
  if (failed.length) return refused(`Document(s) ${failed.join(', ')} could not be processed.`);
  const pending = keysIn('pending');
  if (pending.length) return refused(`Document(s) ${pending.join(', ')} are still being processed.`);
  return { can_send: true, msg: 'The Bundle is ready to send.', n_docs };
}

export function validateBundle(ctx: EngineContext, slug: string): ValidateResult {
  return readiness(ctx, findBundleRow(ctx.db, slug));
}

export function sendBundle(ctx: EngineContext, slug: string): void {
  inTransaction(ctx, () => {
    const b = findBundleRow(ctx.db, slug);
    const r = readiness(ctx, b);
    if (!r.can_send) throw badRequest(`The Bundle cannot be sent: ${r.msg}`);
    launch(ctx, b);
  });
}

export function cancelBundle(ctx: EngineContext, slug: string): void {
  inTransaction(ctx, () => {
    const b = findBundleRow(ctx.db, slug);
    if (isTerminal(b.status)) throw conflict(`The Bundle is ${describeStatus(b.status)} and cannot be cancelled.`);
    markEnded(ctx.db, b.seq, 'ca', ctx.clock.now());
  });
}

export function expireBundle(ctx: EngineContext, slug: string): void {
  inTransaction(ctx, () => {
    const b = findBundleRow(ctx.db, slug);
    if (isTerminal(b.status)) throw conflict(`The Bundle is ${describeStatus(b.status)} and cannot expire.`);
    markEnded(ctx.db, b.seq, 'ex', ctx.clock.now());
  });
}

export function deleteBundle(ctx: EngineContext, slug: string): void {
  inTransaction(ctx, () => {
    const b = findBundleRow(ctx.db, slug);
    if (!isDeletable(b.status))
      throw conflict(`Only drafts can be deleted; the Bundle is ${describeStatus(b.status)}. Cancel it instead.`);
    sql(ctx.db, 'DELETE FROM bundles WHERE seq = ?').run(b.seq);
  });
}

export async function updateBundle(ctx: EngineContext, slug: string, input: unknown): Promise<void> {
  const S = await import('../../domain/schemas.js');
  const patch = S.parseOr400(S.BundlePatchRequest, input);
  inTransaction(ctx, () => {
    const b = findBundleRow(ctx.db, slug);
    if (!isUpdatable(b.status))
      throw badRequest(`The Bundle is ${describeStatus(b.status)}; only drafts and sent Bundles can be updated.`);
    const errs = new FieldErrors();
    const attrs = bundleAttrs(b);
    const cols: SettingColumns = {};

    if (patch.team !== undefined && checkTeam(ctx.account, patch.team, 'team', errs, true)) cols.team = patch.team;
    if (patch.owner !== undefined) {
      // The local caller is the account's administrator, so the admin-only restriction always passes here.
      if (patch.owner !== null && !ctx.account.user(patch.owner))
        errs.add('owner', `User "${patch.owner}" is not a user of this account.`);
      else cols.owner = patch.owner;
    }
    if (patch.cc_emails !== undefined) {
      checkTestCopies(patch.cc_emails, b.is_test === 1, ctx.account, errs);
      attrs.cc_emails = patch.cc_emails;
    }
    applyBundleSettings(ctx, patch, b, attrs, cols, errs);
    errs.throwIfAny();

    const sets = Object.keys(cols).map((k) => `${k} = @${k}`);
    sql(ctx.db, `UPDATE bundles SET ${[...sets, 'attrs = @attrs'].join(', ')} WHERE seq = @seq`).run({
      ...cols,
      attrs: JSON.stringify(attrs),
      seq: b.seq,
    });
    if (Object.keys(patch).length)
      recordEvent(ctx.db, { bundleSeq: b.seq, kind: 'bu', at: ctx.clock.now(), detail: Object.keys(patch).join(', ') });
    scheduleReminders(ctx, b.seq);
  });
}

type SettingColumns = Partial<Pick<BundleRow, 'team' | 'owner' | 'signing_brand' | 'expires'>>;

/**
 * The members a Bundle PATCH and a Bundle creation share (expires, reminders, cc_sender, signing
 * brand, reassignment): one set of rules, feature gates and errors for both. Writes into `attrs`
 * and `cols`; problems go to `errs`.
 */
export function applyBundleSettings(
  ctx: EngineContext,
  s: BundleSettingsT,
  b: Pick<BundleRow, 'status' | 'expires' | 'sent' | 'is_test'>,
  attrs: BundleAttrs,
  cols: SettingColumns,
  errs: FieldErrors,
): void {
  for (const k of REMINDER_MEMBERS)
    if (s[k] !== undefined) {
      const gate = remindersGate(k, (f) => ctx.account.has(f));
      if (gate) errs.add(k, gate);
      else (attrs as unknown as Record<string, unknown>)[k] = s[k];
    }
  if (s.signing_brand !== undefined) {
    if (s.signing_brand !== null && !ctx.account.brand(s.signing_brand))
      errs.add('signing_brand', `Signing brand "${s.signing_brand}" does not belong to this account.`);
    else cols.signing_brand = s.signing_brand;
  }
  if (s.expires !== undefined) {
    const next = resolveExpires(s.expires, b);
    if (Date.parse(next) <= ctx.clock.nowMs()) errs.add('expires', 'Must be in the future.');
    else cols.expires = next;
  }
  if (s.cc_sender !== undefined) {
    if (s.cc_sender) checkTestSender(attrs.requester_email, b.is_test === 1, ctx.account, errs);
    attrs.cc_sender = s.cc_sender;
  }
  if (s.allow_signer_reassign !== undefined) attrs.allow_signer_reassign = s.allow_signer_reassign;
  if (s.allow_chained_signer_reassign !== undefined)
    attrs.allow_chained_signer_reassign = s.allow_chained_signer_reassign;
}

/**
 * A date-only value means the end of that day (UTC) for drafts. For a Sent Bundle only the date
 * changes: the time of day of the current expiry (or of sending, when none is set) is kept.
 */
function resolveExpires(value: string, b: Pick<BundleRow, 'status' | 'expires' | 'sent'>): string {
  const isDay = /^\d{4}-\d{2}-\d{2}$/.test(value);
  if (b.status === 'se') {
    const day = isDay ? value : new Date(value).toISOString().slice(0, 10);
    const keep = b.expires ?? b.sent ?? `${day}T23:59:59.000Z`;
    return `${day}${new Date(keep).toISOString().slice(10)}`;
  }
  return isDay ? `${value}T23:59:59.000Z` : new Date(value).toISOString();
}

export async function changeTags(ctx: EngineContext, slug: string, input: unknown, add: boolean): Promise<void> {
  const S = await import('../../domain/schemas.js');
  const { tags } = S.parseOr400(S.TagsRequest, input);
  inTransaction(ctx, () => {
    const b = findBundleRow(ctx.db, slug);
    const stmt = add
      ? sql(ctx.db, 'INSERT OR IGNORE INTO bundle_tags (bundle_seq, tag) VALUES (?, ?)')
      : sql(ctx.db, 'DELETE FROM bundle_tags WHERE bundle_seq = ? AND tag = ?');
    const changed = tags.filter((t) => stmt.run(b.seq, t).changes > 0);
    if (changed.length)
      recordEvent(ctx.db, {
        bundleSeq: b.seq,
        kind: add ? 'ta' : 'tr',
        at: ctx.clock.now(),
        detail: changed.join(', '),
      });
  });
}

const IMAGE_TYPES = new Set(['jpg', 'jpeg', 'png', 'gif', 'svg']);

/** Files are ready once the Bundle is complete with final documents, earlier as interim copies, or with early file access. */
function filesAvailable(ctx: EngineContext, b: BundleRow): boolean {
  return (
    (b.status === 'co' && b.doc_status === 'fi') ||
    b.doc_status === 'in' ||
    b.doc_status === 'di' ||
    ctx.account.has('early_files')
  );
}

function dataAvailable(ctx: EngineContext, b: BundleRow): boolean {
  return b.status === 'co' || ctx.account.has('early_data');
}

/**
 * Expiring links (served by `esign serve` under /files/): the signed PDFs, the combined PDF and
 * the Certificates of Evidence once produced; before that (early file access), the documents as sent.
 */
function fileObjects(ctx: EngineContext, b: BundleRow): FileObject[] {
  const sizeOf = sql(ctx.db, 'SELECT size FROM blobs WHERE sha256 = ?').pluck();
  const link = (sha: string, name: string) => {
    const { url, expires } = fileLink(ctx, sha, name);
    const size = sizeOf.get(sha) as number | undefined;
    return { file_url: url, expires, ...(size !== undefined ? { size } : {}) };
  };
  if (b.doc_status === 'fi' || b.doc_status === 'in' || b.doc_status === 'di') {
    const kinds = b.doc_status === 'fi' ? `('signed_pdf', 'combined_pdf', 'coe_pdf')` : `('interim_pdf')`;
    const produced = sql(
      ctx.db,
      `SELECT kind, ref, name, sha256 FROM produced_files WHERE bundle_seq = ? AND kind IN ${kinds}
      ORDER BY CASE kind WHEN 'signed_pdf' THEN 0 WHEN 'combined_pdf' THEN 1 ELSE 2 END, rowid`,
    ).all(b.seq) as {
      kind: 'signed_pdf' | 'combined_pdf' | 'coe_pdf' | 'interim_pdf';
      ref: string;
      name: string;
      sha256: string;
    }[];
    return produced.map((f) => ({
      ...link(f.sha256, f.name),
      kind: f.kind,
      name: f.name,
      sha256: f.sha256,
      ...(f.kind === 'signed_pdf' || f.kind === 'interim_pdf'
        ? { doc_key: f.ref }
        : f.kind === 'coe_pdf'
          ? { packet_id: f.ref }
          : {}),
    }));
  }
  return documentRowsOf(ctx.db, b.seq)
    .filter((d): d is DocumentRow & { sha256: string } => d.state === 'ready' && d.sha256 !== null)
    .map((d) => ({
      ...link(d.sha256, d.name),
      kind: 'document' as const,
      name: d.name,
      doc_key: d.key,
      sha256: d.sha256,
    }));
}

/** What `make` reads of a Bundle, in one transaction, once `available` says so: a 409 with `notYet` before. */
function whenAvailable<T>(
  ctx: EngineContext,
  slug: string,
  available: (ctx: EngineContext, b: BundleRow) => boolean,
  make: (ctx: EngineContext, b: BundleRow) => T,
  notYet: string | ((b: BundleRow) => string),
): T {
  return inTransaction(ctx, () => {
    const b = findBundleRow(ctx.db, slug);
    if (!available(ctx, b)) throw conflict(typeof notYet === 'string' ? notYet : notYet(b));
    return make(ctx, b);
  });
}

const LATER = 'available once the Bundle is complete (or earlier with the early';
export const getFiles = (ctx: EngineContext, slug: string): FileObject[] =>
  whenAvailable(
    ctx,
    slug,
    filesAvailable,
    fileObjects,
    // Files that failed for good say why, not "not ready".
    (b) =>
      bundleErrors(b).find((e) => e.code === FILES_FAILED)?.message ??
      `Files are not ready: they are ${LATER} file access feature).`,
  );

function dataItems(ctx: EngineContext, b: BundleRow): BundleDataItem[] {
  const values = new Map(
    (
      sql(ctx.db, 'SELECT doc_key, field_key, value, filled_by, packet_id FROM field_values WHERE bundle_seq = ?').all(
        b.seq,
      ) as {
        doc_key: string;
        field_key: string;
        value: string;
        filled_by: string;
        packet_id: string | null;
      }[]
    ).map((v) => [`${v.doc_key}\u0000${v.field_key}`, v]),
  );
  const attachments = new Map<string, { name: string; size: number; num: number; ext: string; sha256: string }[]>();
  for (const a of sql(ctx.db, 'SELECT * FROM field_attachments WHERE bundle_seq = ? ORDER BY num').all(b.seq) as {
    doc_key: string;
    field_key: string;
    name: string;
    size: number;
    num: number;
    ext: string;
    sha256: string;
  }[]) {
    const k = `${a.doc_key}\u0000${a.field_key}`;
    attachments.set(k, [...(attachments.get(k) ?? []), a]);
  }
  const items: BundleDataItem[] = [];
  for (const d of documentRowsOf(ctx.db, b.seq)) {
    const spec = documentSpec(d) as { fields?: Record<string, unknown>[]; auto_placements?: Record<string, unknown>[] };
    const fields = [...(spec.fields ?? []), ...(spec.auto_placements ?? [])];
    for (const f of fields) {
      const key = String(f.key);
      const v = values.get(`${d.key}\u0000${key}`);
      const initial = f.initial_value === undefined ? undefined : String(f.initial_value);
      items.push({
        doc_key: d.key,
        field_key: key,
        label: String(f.label ?? ''),
        kind: String(f.kind),
        value: v?.value ?? initial ?? '',
        filled_by: v?.filled_by ?? (initial !== undefined ? 'sender' : ''),
        packet_id: v?.packet_id ?? null,
        attachments: (attachments.get(`${d.key}\u0000${key}`) ?? []).map((a) => ({
          url: fileLink(ctx, a.sha256, a.name).url,
          name: a.name,
          size: a.size,
          num: a.num,
          ext: a.ext,
          is_image: IMAGE_TYPES.has(a.ext),
        })),
      });
    }
  }
  return items;
}

export const getData = (ctx: EngineContext, slug: string): BundleDataItem[] =>
  whenAvailable(ctx, slug, dataAvailable, dataItems, `Data is not ready: it is ${LATER} data access feature).`);

/** `GET /bundles/{slug}/?include=data,events,files`: unavailable members are null. */
export function getBundleWithIncludes(ctx: EngineContext, slug: string, include?: string): Bundle {
  const wanted = parseInclude(include);
  if (!wanted.length) return loadBundle(ctx.db, slug);
  const read = () => {
    const b = findBundleRow(ctx.db, slug);
    const bundle = loadBundles(ctx.db, [b])[0];
    if (wanted.includes('data')) bundle.data = dataAvailable(ctx, b) ? dataItems(ctx, b) : null;
    if (wanted.includes('events')) bundle.events = listEvents(ctx, slug);
    if (wanted.includes('files')) bundle.files = filesAvailable(ctx, b) ? fileObjects(ctx, b) : null;
    return bundle;
  };
  // One snapshot; the write lock only when file links (files, data attachments) are created.
  return wanted.includes('files') || wanted.includes('data') ? inTransaction(ctx, read) : ctx.db.transaction(read)();
}

function parseInclude(include: string | undefined): string[] {
  if (include === undefined || include === '') return [];
  const parts = include.split(',').map((s) => s.trim());
  const bad = parts.filter((p) => !(BUNDLE_INCLUDES as readonly string[]).includes(p));
  if (bad.length)
    throw new ApiError(
      400,
      'invalid',
      `Invalid include value(s): ${bad.map((b) => JSON.stringify(b)).join(', ')}. Supported values: ${BUNDLE_INCLUDES.join(', ')}.`,
      [],
      'error',
    );
  return parts;
}

export async function generateInterimFiles(ctx: EngineContext, slug: string): Promise<void> {
  const b = findBundleRow(ctx.db, slug);
  if (!ctx.account.has('interim_files'))
    throw new ApiError(
      403,
      'permission_denied',
      'Generating interim files requires the interim files account feature.',
    );
  if (isTerminal(b.status))
    throw conflict(`The Bundle is ${describeStatus(b.status)}; interim files are only for Bundles in progress.`);
  if (b.status === 'dr' || b.status === 'pe' || b.status === 'fa')
    throw conflict(`The Bundle is ${describeStatus(b.status)}; interim files are made once it is sent.`);
  const { produceInterim } = await import('../evidence/job.js');
  await produceInterim(ctx, b);
}
