// Bundle creation on the local engine: every rule of the spec, then one transaction.
import { sql } from '../store/db.js';
import { basename, extname } from 'node:path';
import { OFFICE_EXTENSIONS } from '../../domain/enums.js';
import { ApiError, FieldErrors } from '../../domain/errors.js';
import type {
  AutoPlacementRequestT,
  BundleRequestT,
  DocumentRequestT,
  FieldRequestT,
  PacketRequestT,
  TemplateRequestT,
} from '../../domain/schemas.js';
import type { CreateCheck } from '../../service/service.js';
import type { AttachedFile, Bundle } from '../../service/types.js';
import { knownPdfPages, recordBlob, sha256 } from '../store/blobs.js';
import {
  type BundleAttrs,
  type BundleRow,
  type PacketAttrs,
  type OwnerContact,
  type PacketRow,
  bundleFromRows,
} from './read.js';
import type { EngineContext } from '../store/context.js';
import { inGroupedTransaction } from '../store/groupCommit.js';
import { triedAndUndone } from '../store/context.js';
import { checkDelivery, checkTestCopies } from '../../domain/reachability.js';
import { recordEvent } from './events.js';
import { slug } from '../store/ids.js';
import { announceLaunch, launchedPackets } from './launch.js';
import { indexQueued, queueForSearch } from './search.js';
import { statusAtCreation } from './transitions.js';
import { applyBundleSettings } from './lifecycle.js';
import type { PreparedSpec } from '../documents/intake/prepare.js';
import { createCheck, deriveFieldsApart, inspectPdfApart, sha256Yielding } from '../documents/sandbox/apart.js';
import { findSoffice } from '../documents/intake/office.js';
import { decodeBase64, isOfficeFile } from '../../domain/documentChecks.js';
import { type RegexCheck, officeUploadGate, regexCheck } from '../../domain/featureGates.js';
import { findPersonContact } from '../persons/persons.js';
import { templateDocument } from '../templates/templates.js';
import { checkTeam } from '../account/rules.js';
import { isEnvelopeTemplateRequest } from '../../domain/createRouting.js';
import { deliverVia } from '../../domain/delivery.js';

/** Where a document's bytes come from once the request is checked. */
type Source =
  /** `stored`: the file store and its `blobs` row already hold these bytes (sent before). */
  | { kind: 'ready'; data: Buffer; hash: string; pages: number; source: 'b64' | 'index'; stored: boolean }
  | { kind: 'url'; url: string }
  /** A Document Template's PDF, already in the file store. */
  | { kind: 'template'; templateId: string; hash: string; pages: number }
  /**
   * Rendered or converted to PDF in the background, like a download. The HTML waits in the file
   * store, not in its row: a row of megabytes is rewritten whole by every change of its state.
   */
  | { kind: 'html'; data: Buffer; hash: string }
  | { kind: 'office'; data: Buffer; hash: string; ext: string };

interface PlannedDocument {
  key: string;
  name: string;
  source: Source;
  spec: PreparedSpec;
}

interface PlannedPacket {
  key: string;
  name: string;
  email: string | null;
  phone: string | null;
  person_id: string | null;
  deliver_via: 'email' | 'phone' | 'embed';
  ord: number;
  attrs: PacketAttrs;
}

const isTemplateDoc = (d: DocumentRequestT | TemplateRequestT): d is TemplateRequestT =>
  'template_id' in d && d.template_id !== undefined;

let schemas: Promise<typeof import('../../domain/schemas.js')> | undefined;

/** Checks and writes a new Bundle; returns it as written (the API object, not read back). */
export async function createBundle(ctx: EngineContext, input: unknown, files: AttachedFile[] = []): Promise<Bundle> {
  const plan = await planBundle(ctx, input, files, true);
  for (const { source: s } of plan.planned)
    if ((s.kind === 'ready' && !s.stored) || s.kind === 'office' || s.kind === 'html')
      await ctx.blobs.store(s.data, s.hash);
  const written = await inGroupedTransaction(ctx, () => writeBundle(ctx, plan));
  if (plan.pending) ctx.kick();
  // The answer is made once the write lock is let go: from the rows as written, not read back.
  return bundleFromRows(
    written.bundle,
    written.packets,
    plan.planned.map((d) => ({
      key: d.key,
      name: d.name,
      template_id: d.source.kind === 'template' ? d.source.templateId : null,
    })),
    [],
    written.owner,
  );
}

/**
 * A create tried whole and undone: every check `createBundle` makes, then its writes in a
 * transaction that is rolled back; nothing is stored and no one is told. A `custom_key` already
 * taken is not a problem here but `existing` (a batch reports that row as sent before).
 */
export async function checkCreateBundle(
  ctx: EngineContext,
  input: unknown,
  files: AttachedFile[] = [],
): Promise<CreateCheck> {
  try {
    const plan = await planBundle(ctx, input, files, false);
    triedAndUndone(ctx, () => writeBundle(ctx, plan, false));
    const existing = plan.req.custom_key ? keyHolder(ctx.db, plan.req.custom_key) : undefined;
    return existing ? { errors: [], existing } : { errors: [] };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { errors: e.errors.length ? e.errors : [{ field: 'non_field_errors', message: e.message }] };
  }
}

/** Every rule of a create, in the order the engine applies them; what to write once all pass. */
async function planBundle(
  ctx: EngineContext,
  input: unknown,
  files: AttachedFile[],
  keyMustBeFree: boolean,
): Promise<PlannedBundle> {
  const S = await (schemas ??= import('../../domain/schemas.js'));
  if (isEnvelopeTemplateRequest(input)) {
    const { expandEnvelopeRequest } = await import('../templates/envelopes.js');
    return planBundle(ctx, await expandEnvelopeRequest(ctx, input), files, keyMustBeFree);
  }
  const req = S.parseOr400(S.BundleRequest, input);
  const errs = new FieldErrors();
  if (req.envelope_template) {
    errs.add('envelope_template', 'Give documents or envelope_template, not both.');
    errs.throwIfAny();
  }
  const account = ctx.account.settings();
  const has = (f: (typeof account.features)[number]) => account.features.includes(f);

  const team =
    req.team !== undefined && checkTeam(ctx.account, req.team, 'team', errs, true) ? ctx.account.team(req.team)! : null;
  if (req.custom_key && keyMustBeFree) checkKeyFree(ctx.db, req.custom_key, errs);

  const packets = planPackets(ctx, req, errs);
  checkTestCopies(req.cc_emails, req.is_test === true, ctx.account, errs);
  const signerKeys = new Set(packets.map((p) => p.key));
  if (req.payment && !signerKeys.has(req.payment.billed_to))
    errs.add('payment.billed_to', `"${req.payment.billed_to}" is not the key of a signer in this Bundle.`);

  const docs = req.documents ?? [];
  const fromTemplates = await checkDocuments(ctx, req, files, signerKeys, has, errs);
  errs.throwIfAny();

  // Bytes in hand are checked now, so a bad upload is a 400 that names its field.
  const planned: PlannedDocument[] = [];
  for (const [i, doc] of docs.entries()) {
    const d = isTemplateDoc(doc) ? fromTemplates.get(i)! : await planDocument(ctx, doc, i, files, errs);
    if (d) planned.push(d);
  }
  errs.throwIfAny();

  const template = planned.find((d) => d.source.kind === 'template')?.source as { templateId: string } | undefined;
  const attrs = bundleAttrs(req, team, account, has);
  // Members of PATCH sent at creation (published clients do): the same rules, gates and errors.
  const cols: { signing_brand?: string | null; expires?: string | null } = {};
  // `expires` as for a draft: a date is the end of that day, a date-time is kept (nothing sent yet whose time to keep).
  applyBundleSettings(
    ctx,
    req,
    { status: 'dr', expires: null, sent: null, is_test: req.is_test ? 1 : 0 },
    attrs,
    cols,
    errs,
  );
  errs.throwIfAny();
  return {
    req,
    id: slug(),
    draft: req.status === 'dr' || req.is_draft === true,
    pending: planned.some((d) => d.source.kind !== 'ready' && d.source.kind !== 'template'),
    templateId: template?.templateId ?? null,
    attrs,
    cols,
    packets,
    planned,
  };
}

type Account = ReturnType<EngineContext['account']['settings']>;
type Has = (f: Account['features'][number]) => boolean;

/** Checks each document of the request; returns the ones made from Document Templates, by index. */
async function checkDocuments(
  ctx: EngineContext,
  req: BundleRequestT,
  files: AttachedFile[],
  signerKeys: Set<string>,
  has: Has,
  errs: FieldErrors,
): Promise<Map<number, PlannedDocument>> {
  const docs = req.documents ?? [];
  const checkRegex = await regexCheck(
    has,
    docs.some(
      (d) =>
        !isTemplateDoc(d) && [...(d.fields ?? []), ...(d.auto_placements ?? [])].some((f) => f.v_regex !== undefined),
    ),
  );
  const docKeys = new Set<string>();
  const fromTemplates = new Map<number, PlannedDocument>();
  docs.forEach((d, i) => {
    const key = d.key ?? `doc-${i + 1}`;
    if (docKeys.has(key)) errs.add(`documents[${i}].key`, `Duplicate document key "${key}".`);
    docKeys.add(key);
    if (isTemplateDoc(d)) {
      const t = templateDocument(ctx, d, i, signerKeys, req.tag_values ?? {}, errs);
      if (t)
        fromTemplates.set(i, {
          key,
          name: t.template.filename,
          source: { kind: 'template', templateId: t.template.id, hash: t.template.sha256, pages: t.template.pages },
          spec: { fields: t.fields, auto_placements: [] },
        });
      return;
    }
    checkDocumentRequest(d, i, files, signerKeys, has, checkRegex, errs);
  });
  return fromTemplates;
}

/** Where a checked document's bytes come from; undefined (with a field error) when the bytes in hand are bad. */
async function planDocument(
  ctx: EngineContext,
  d: DocumentRequestT,
  i: number,
  files: AttachedFile[],
  errs: FieldErrors,
): Promise<PlannedDocument | undefined> {
  const key = d.key ?? `doc-${i + 1}`;
  const spec = {
    ...keyedFields(d),
    converted_pdf_fields_to: d.converted_pdf_fields_to ?? null,
    ...(d.adobe_field_assignments ? { adobe_field_assignments: d.adobe_field_assignments } : {}),
    html_fields_mode: d.html_fields_mode ?? null,
  };
  if (d.file_url !== undefined)
    return { key, name: d.filename ?? nameFromUrl(d.file_url, key), source: { kind: 'url', url: d.file_url }, spec };
  if (d.file_html !== undefined) {
    const data = Buffer.from(d.file_html, 'utf8');
    const source = { kind: 'html' as const, data, hash: await sha256Yielding(data) };
    return { key, name: d.filename ?? `${key}.pdf`, source, spec };
  }
  const ext = d.file_index !== undefined ? extname(files[d.file_index].filename).slice(1).toLowerCase() : '';
  if ((OFFICE_EXTENSIONS as readonly string[]).includes(ext)) {
    const f = files[d.file_index!];
    const name = d.filename ?? fitFilename(`${basename(f.filename, extname(f.filename))}.pdf`);
    return { key, name, source: { kind: 'office', data: f.data, hash: sha256(f.data), ext }, spec };
  }
  const field = d.file_b64 !== undefined ? `documents[${i}].file_b64` : `documents[${i}].file_index`;
  const data = d.file_b64 !== undefined ? decodeBase64(d.file_b64) : files[d.file_index!].data;
  if (!data) {
    errs.add(field, 'Invalid base64: the value is not base64-encoded data.');
    return undefined;
  }
  const hash = await sha256Yielding(data);
  const known = knownPdfPages(ctx.db, hash);
  const info =
    known !== undefined ? { pages: known } : await inspectPdfApart(data, { hash, ...createCheck(ctx.documentTimes) });
  if ('problem' in info) {
    errs.add(field, info.problem);
    return undefined;
  }
  const name = d.filename ?? (d.file_index !== undefined ? fitFilename(files[d.file_index].filename) : `${key}.pdf`);
  const derived = await deriveFieldsApart(data, spec, i, {
    field,
    hash,
    ...createCheck(ctx.documentTimes),
  });
  for (const p of derived.problems) errs.add(p.field, p.message);
  return {
    key,
    name,
    source: {
      kind: 'ready',
      data,
      hash,
      pages: info.pages,
      source: d.file_b64 !== undefined ? 'b64' : 'index',
      stored: known !== undefined,
    },
    spec: derived.spec,
  };
}

/** The Bundle's attributes at creation: the request's, else the team's or the account's defaults. */
function bundleAttrs(
  req: BundleRequestT,
  team: { requester_name?: string | null; requester_email?: string | null } | null,
  account: Account,
  has: Has,
): BundleAttrs {
  return {
    email_subject: req.email_subject ?? '',
    email_message: req.email_message ?? '',
    sms_message: req.sms_message ?? '',
    requester_name: req.requester_name ?? team?.requester_name ?? account.requester_name,
    requester_email: req.requester_email ?? team?.requester_email ?? account.requester_email,
    cc_emails: req.cc_emails ?? [],
    payment: req.payment ? { ...req.payment, payment_method_types: req.payment.payment_method_types ?? [] } : null,
    tag_values: req.tag_values ?? {},
    cc_sender: false,
    send_reminders: has('reminders'),
    reminder_offset: null,
    reminder_interval: null,
    reminder_expires: null,
  };
}

/** A checked Bundle, ready to write. */
interface PlannedBundle {
  req: BundleRequestT;
  id: string;
  draft: boolean;
  pending: boolean;
  templateId: string | null;
  attrs: BundleAttrs;
  cols: { signing_brand?: string | null; expires?: string | null };
  packets: PlannedPacket[];
  planned: PlannedDocument[];
}

/**
 * Writes the Bundle, its packets and documents (inside the transaction); returns the rows as written.
 * `keyMustBeFree` false: a check, whose custom_key may be taken (and whose writes are undone).
 */
function writeBundle(
  ctx: EngineContext,
  plan: PlannedBundle,
  keyMustBeFree = true,
): { bundle: BundleRow; packets: PacketRow[]; owner: OwnerContact } {
  const { req, draft, pending, planned } = plan;
  const at = ctx.clock.now();
  const { db } = ctx;
  // Again inside the (immediate) transaction: another process may have taken the key meanwhile.
  if (req.custom_key && keyMustBeFree) {
    const taken = new FieldErrors();
    checkKeyFree(db, req.custom_key, taken);
    taken.throwIfAny();
  }
  const status = statusAtCreation(draft, pending);
  const b = insertBundleRow(db, plan, status, at);
  // The rows as written, launch included (`launchedPackets`): a launch writes each packet once, and the
  // answer is made from them instead of read back.
  const newPackets = packetRows(plan.packets, b.seq);
  const launched = status === 'se' ? launchedPackets(ctx, b, newPackets, at) : { rows: newPackets, asked: [] };
  const insertPacket = sql(
    db,
    `INSERT INTO packets (id, bundle_seq, idx, key, name, email, phone, person_id, deliver_via, ord, status, notified_at, next_reminder_at, attrs)
     VALUES (@id, @bundle_seq, @idx, @key, @name, @email, @phone, @person_id, @deliver_via, @ord, @status, @notified_at, @next_reminder_at, @attrs)`,
  );
  queueForSearch(db, b.seq);
  for (const p of launched.rows) insertPacket.run(p);
  indexQueued(db);
  insertDocuments(db, b.seq, planned, at);
  recordEvent(db, { bundleSeq: b.seq, kind: 'bc', at });
  if (draft) recordEvent(db, { bundleSeq: b.seq, kind: 'bd', at });
  else if (status === 'se') announceLaunch(ctx, b, launched.asked, at);
  return { bundle: b, packets: launched.rows, owner: ctx.account.defaultOwner() };
}

function insertBundleRow(db: EngineContext['db'], plan: PlannedBundle, status: BundleRow['status'], at: string) {
  const { req, cols } = plan;
  const row: Omit<BundleRow, 'seq'> = {
    id: plan.id,
    status,
    doc_status: 'no',
    label: req.label ?? '',
    custom_key: req.custom_key ?? null,
    is_test: req.is_test ? 1 : 0,
    in_order: req.in_order ? 1 : 0,
    team: req.team ?? null,
    owner: null,
    signing_brand: cols.signing_brand ?? null,
    template: plan.templateId,
    created: at,
    sent: status === 'se' ? at : null,
    completed_at: null,
    expires: cols.expires ?? null,
    attrs: JSON.stringify(plan.attrs),
    errors: '[]',
    evidence_lease: null,
  };
  const seq = Number(
    sql(
      db,
      `INSERT INTO bundles (id, status, doc_status, label, custom_key, is_test, in_order, team, owner, template, created, sent, attrs, expires, signing_brand)
       VALUES (@id, @status, @doc_status, @label, @custom_key, @is_test, @in_order, @team, @owner, @template, @created, @sent, @attrs, @expires, @signing_brand)`,
    ).run(row).lastInsertRowid,
  );
  const written: BundleRow = { seq, ...row };
  return written;
}

const packetRows = (packets: PlannedPacket[], seq: number) =>
  packets.map(
    (p, i): PacketRow => ({
      id: slug(),
      bundle_seq: seq,
      idx: i,
      key: p.key,
      name: p.name,
      email: p.email,
      phone: p.phone,
      person_id: p.person_id,
      deliver_via: p.deliver_via,
      ord: p.ord,
      status: 'ne',
      completed_at: null,
      last_accessed_at: null,
      last_reminded_at: null,
      notified_at: null,
      auto_reminders: 0,
      next_reminder_at: null,
      attrs: JSON.stringify(p.attrs),
    }),
  );

/** One row a document: ready (bytes recorded), or pending until fetched, rendered or converted. */
function insertDocuments(db: EngineContext['db'], seq: number, planned: PlannedDocument[], at: string) {
  const insertDoc = sql(
    db,
    `INSERT INTO documents (bundle_seq, idx, key, name, source, source_url, sha256, state, spec, template_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  planned.forEach((d, i) => {
    const row = (
      source: string,
      url: string | null,
      hash: string | null,
      state: string,
      spec: object,
      t = null as string | null,
    ) => insertDoc.run(seq, i, d.key, d.name, source, url, hash, state, JSON.stringify(spec), t);
    if (d.source.kind === 'ready') {
      if (!d.source.stored) recordBlob(db, d.source.hash, d.source.data.length, d.source.pages, at);
      row(d.source.source, null, d.source.hash, 'ready', { ...d.spec, pages: d.source.pages });
    } else if (d.source.kind === 'template') {
      row('template', null, d.source.hash, 'ready', { ...d.spec, pages: d.source.pages }, d.source.templateId);
    } else if (d.source.kind === 'url') {
      row('url', d.source.url, null, 'pending', d.spec);
    } else if (d.source.kind === 'html') {
      recordBlob(db, d.source.hash, d.source.data.length, 0, at);
      row('html', null, null, 'pending', { ...d.spec, html: { sha256: d.source.hash } });
    } else {
      // The office original is kept (content-addressed) until it is converted.
      recordBlob(db, d.source.hash, d.source.data.length, 0, at);
      row('office', null, null, 'pending', { ...d.spec, office: { sha256: d.source.hash, ext: d.source.ext } });
    }
  });
}

/**
 * `custom_key` is the spec's "optional unique key": a second Bundle of the account with the same key
 * is refused, naming the Bundle that has it. A check over the bundles_custom_key index, not a UNIQUE
 * index: databases made before this rule may already hold duplicates, on which a UNIQUE index could
 * not be built (and a migration that fails or drops Bundles is worse than the old duplicates); the
 * create's immediate transaction serialises writers, so two processes cannot both pass it.
 */
function checkKeyFree(db: EngineContext['db'], key: string, errs: FieldErrors): void {
  const holder = keyHolder(db, key);
  if (holder) errs.add('custom_key', `A Bundle with this custom_key already exists: ${holder}.`);
}

/** The first Bundle with this custom_key. */
function keyHolder(db: EngineContext['db'], key: string): string | undefined {
  const row = sql(db, 'SELECT id FROM bundles WHERE custom_key = ? ORDER BY seq LIMIT 1').get(key) as
    | { id: string }
    | undefined;
  return row?.id;
}

function planPackets(ctx: EngineContext, req: BundleRequestT, errs: FieldErrors): PlannedPacket[] {
  const keys = new Set<string>();
  return req.packets.map((p: PacketRequestT, i) => {
    const at = (f: string) => `packets[${i}].${f}`;
    const key = p.key ?? `signer-${i + 1}`;
    if (keys.has(key)) errs.add(at('key'), `Duplicate signer key "${key}".`);
    keys.add(key);
    let { name, email, phone } = p;
    if (p.person_id !== undefined) {
      const person = findPersonContact(ctx.db, p.person_id);
      if (!person) errs.add(at('person_id'), `Person "${p.person_id}" does not exist.`);
      else {
        name ??= person.name;
        email ??= person.email ?? undefined;
        phone ??= person.phone ?? undefined;
      }
    }
    if (!name) errs.add(at('name'), 'This field is required.');
    const deliver_via = deliverVia({ deliver_via: p.deliver_via, email, phone });
    checkDelivery(
      { deliver_via, email, phone, auth_sms: p.auth_sms, setsRedirect: p.signing_complete_redirect !== undefined },
      req.is_test === true,
      ctx.account,
      errs,
      `packets[${i}].`,
    );
    return {
      key,
      name: name ?? '',
      email: email ?? null,
      phone: phone ?? null,
      person_id: p.person_id ?? null,
      deliver_via,
      ord: p.order ?? i,
      attrs: {
        auth_sms: p.auth_sms ?? false,
        auth_selfie: p.auth_selfie ?? false,
        auth_id: p.auth_id ?? false,
        ...(p.auth_secrets !== undefined ? { auth_secrets: p.auth_secrets } : {}),
        signing_complete_redirect: p.signing_complete_redirect ?? null,
        suppress_all: p.suppress_all ?? false,
        suppress_signing: p.suppress_signing ?? false,
        suppress_reminder: p.suppress_reminder ?? false,
        suppress_docs_ready: p.suppress_docs_ready ?? false,
        ...(p.email_message !== undefined ? { email_message: p.email_message } : {}),
        ...(p.sms_message !== undefined ? { sms_message: p.sms_message } : {}),
        requires_witness: false,
        witness_nominated_by: '',
      },
    };
  });
}

function checkDocumentRequest(
  d: DocumentRequestT,
  i: number,
  files: AttachedFile[],
  signerKeys: Set<string>,
  has: Has,
  checkRegex: RegexCheck,
  errs: FieldErrors,
): void {
  const at = (f: string) => `documents[${i}].${f}`;
  const sources = (['file_url', 'file_b64', 'file_html', 'file_index'] as const).filter((k) => d[k] !== undefined);
  if (sources.length !== 1) {
    errs.add(
      `documents[${i}]`,
      sources.length
        ? `Give exactly one of file_url, file_b64, file_html, file_index (got ${sources.join(', ')}).`
        : 'Give exactly one of file_url, file_b64, file_html, file_index.',
    );
    return;
  }
  if (d.file_index !== undefined) {
    const f = files[d.file_index];
    if (!f) errs.add(at('file_index'), `No attached file at index ${d.file_index} (${files.length} attached).`);
    else if (isOfficeFile(f.filename)) {
      const gate = officeUploadGate(f.filename, has);
      if (gate) errs.add(at('file_index'), gate);
      else if (!findSoffice())
        errs.add(
          at('file_index'),
          `Office documents (${f.filename}) are converted with LibreOffice, which is not installed here (no soffice on PATH; set ESIGN_SOFFICE to its path), or send a PDF.`,
        );
    }
  }
  if (d.converted_pdf_fields_to !== undefined && !signerKeys.has(d.converted_pdf_fields_to))
    errs.add(
      at('converted_pdf_fields_to'),
      `"${d.converted_pdf_fields_to}" is not the key of a signer in this Bundle.`,
    );
  for (const [name, signer] of Object.entries(d.adobe_field_assignments ?? {}))
    if (!signerKeys.has(signer))
      errs.add(at(`adobe_field_assignments.${name}`), `"${signer}" is not the key of a signer in this Bundle.`);
  const fieldKeys = new Set<string>();
  const checkField = (f: (FieldRequestT | AutoPlacementRequestT) & { key: string }, path: string) => {
    if (fieldKeys.has(f.key)) errs.add(`${path}.key`, `Duplicate field key "${f.key}" in this document.`);
    fieldKeys.add(f.key);
    for (const [e, editor] of (f.editors ?? []).entries())
      if (!signerKeys.has(editor))
        errs.add(`${path}.editors[${e}]`, `"${editor}" is not the key of a signer in this Bundle.`);
    if (f.v_regex !== undefined) checkRegex(f.v_regex, `${path}.v_regex`, errs);
  };
  const { fields, auto_placements } = keyedFields(d);
  fields.forEach((f, j) => checkField(f, at(`fields[${j}]`)));
  auto_placements.forEach((f, j) => checkField(f, at(`auto_placements[${j}]`)));
}

/**
 * A document's fields with their keys: given ones kept, others `<kind>-<n>` numbered across
 * placed and auto-placed fields. Stored this way, so data items read the keys back.
 */
function keyedFields(d: DocumentRequestT) {
  const fields = (d.fields ?? []).map((f, j) => ({ ...f, key: f.key ?? `${f.kind}-${j + 1}` }));
  const auto_placements = (d.auto_placements ?? []).map((f, j) => ({
    ...f,
    key: f.key ?? `${f.kind}-${fields.length + j + 1}`,
  }));
  return { fields, auto_placements };
}

function nameFromUrl(url: string, key: string): string {
  return fitFilename(decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || `${key}.pdf`);
}

/** A default document name within the 50-character filename limit, keeping its extension. */
function fitFilename(name: string): string {
  if (name.length <= 50) return name;
  const ext = extname(name).slice(0, 10);
  return name.slice(0, 50 - ext.length) + ext;
}
