// Signer activity on the local engine, where no real person signs: view, sign (with values and
// attachments) and decline, with the service's rules: signing order, editors, required fields and
// value validation. Completion of the last signer completes the Bundle and queues its evidence.
import { extname } from 'node:path';
import { ApiError, FieldErrors, conflict } from '../../domain/errors.js';
import { MAX_ATTACHMENT_BYTES } from '../../service/hosting.js';
import type { SignerAttachment, SignInput } from '../../service/service.js';
import { isInProgress } from '../../domain/states.js';
import {
  type BundleAttrs,
  type BundleRow,
  type DocumentRow,
  type PacketAttrs,
  type PacketRow,
  bundleRowBySeq,
  documentRowsOf,
  findPacketRow,
  packetRowsOf,
  bundleAttrs,
  packetAttrs,
} from '../bundles/read.js';
import { type EngineContext, inTransaction } from '../store/context.js';
import { sql } from '../store/db.js';
import { recordBlob } from '../store/blobs.js';
import { checkDelivery } from '../../domain/reachability.js';
import { slug } from '../store/ids.js';
import { scheduleReminders } from '../bundles/due.js';
import { recordEvent } from '../bundles/events.js';
import {
  AUTO_FILLED,
  type StoredField,
  canEdit,
  checkValue,
  fieldsOfDocument,
  isFilled,
  initials,
  storedFieldValues,
} from '../bundles/fields.js';
import { endedAs, isOpenPacket, packetsWhoseTurnItIs } from '../bundles/turns.js';
import { notify } from '../messages/notify.js';
import { describeStatus } from '../bundles/lifecycle.js';
import { deliverMessage } from '../messages/testDelivery.js';
import { bytesMatchExtension } from '../documents/fileTypes.js';
import {
  markComplete,
  markPacketAsked,
  markPacketDeclined,
  markPacketReassigned,
  markPacketSigned,
  markPacketViewed,
} from '../bundles/transitions.js';

export type { SignerAttachment, SignInput } from '../../service/service.js';

const forbidden = (message: string) => new ApiError(403, 'permission_denied', message);

/** The packet and its Bundle, when the signer may act now; otherwise a 409 that says why. */
function actingPacket(ctx: EngineContext, id: string): { p: PacketRow; b: BundleRow } {
  const p = findPacketRow(ctx.db, id);
  const b = bundleRowBySeq(ctx.db, p.bundle_seq);
  if (!isInProgress(b.status))
    throw conflict(`The Bundle is ${describeStatus(b.status)}; signers act only on sent or started Bundles.`);
  if (!isOpenPacket(p)) throw conflict(`The signer has already ${endedAs(p)}.`);
  if (!packetsWhoseTurnItIs(b, packetRowsOf(ctx.db, b.seq)).some((x) => x.id === p.id))
    throw conflict(
      "It is not this signer's turn yet: the Bundle is signed in order and an earlier signer has not finished.",
    );
  return { p, b };
}

export function viewPacket(ctx: EngineContext, id: string): void {
  inTransaction(ctx, () => {
    const { p, b } = actingPacket(ctx, id);
    markPacketViewed(ctx.db, b, p.id, ctx.clock.now());
  });
}

export function declinePacket(ctx: EngineContext, id: string, reason = ''): void {
  inTransaction(ctx, () => {
    const { p, b } = actingPacket(ctx, id);
    const at = ctx.clock.now();
    if (p.status !== 'st') markPacketViewed(ctx.db, b, p.id, at);
    markPacketDeclined(ctx.db, b.seq, p.id, at, reason.trim() || undefined);
    const ba = bundleAttrs(b);
    deliverMessage(ctx, b, {
      created: at,
      channel: 'email',
      kind: 'declined',
      recipient: ba.requester_email,
      subject: `${p.name} declined "${b.label || 'documents'}"`,
      body: `${p.name} declined to sign "${b.label || 'documents'}".${reason.trim() ? `\n\nReason: ${reason.trim()}` : ''}`,
      bundle_id: b.id,
      packet_id: p.id,
    });
  });
}

/**
 * Reassignment: the signer whose turn it is hands it to another person, when the Bundle allows it
 * (a person who got the turn this way hands it on only with allow_chained_signer_reassign). The
 * old packet ends `ra`; a new packet with the same key, order and fields asks the new signer.
 * Returns the new packet's id.
 */
/** Why this signer may not hand their turn on, or undefined when they may. */
export function reassignRefusal(ba: BundleAttrs, pa: PacketAttrs): string | undefined {
  if (!ba.allow_signer_reassign)
    return 'The sender does not allow signers of this Bundle to reassign (allow_signer_reassign).';
  if (pa.reassigned_from && !ba.allow_chained_signer_reassign)
    return 'This signing was already reassigned once; the sender does not allow reassigning it again (allow_chained_signer_reassign).';
  return undefined;
}

export async function reassignPacket(ctx: EngineContext, id: string, input: unknown): Promise<string> {
  const S = await import('../../domain/schemas.js');
  const req = S.parseOr400(S.ReassignRequest, input);
  return inTransaction(ctx, () => {
    const { p, b } = actingPacket(ctx, id);
    const ba = bundleAttrs(b);
    const pa = packetAttrs(p);
    const refusal = reassignRefusal(ba, pa);
    if (refusal) throw forbidden(refusal);
    const errs = new FieldErrors();
    const deliver_via = req.deliver_via ?? (req.email ? 'email' : req.phone ? 'phone' : 'email');
    checkDelivery(
      { deliver_via, email: req.email, phone: req.phone, auth_sms: pa.auth_sms, setsRedirect: false },
      b.is_test === 1,
      ctx.account,
      errs,
    );
    const sameAddress =
      deliver_via === 'email'
        ? req.email && req.email.toLowerCase() === p.email?.toLowerCase()
        : req.phone && req.phone === p.phone;
    if (sameAddress) errs.add(deliver_via, "This is the current signer's address: reassign to another person.");
    errs.throwIfAny();

    const at = ctx.clock.now();
    const newId = slug();
    const idx =
      (sql(ctx.db, 'SELECT max(idx) AS n FROM packets WHERE bundle_seq = ?').get(b.seq) as { n: number }).n + 1;
    const attrs: PacketAttrs = { ...pa, reassigned_from: p.id };
    delete attrs.no_auto_reminders;
    markPacketReassigned(ctx.db, p, at);
    sql(
      ctx.db,
      `INSERT INTO packets (id, bundle_seq, idx, key, name, email, phone, person_id, deliver_via, ord, status, notified_at, attrs)
      VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, 'se', ?, ?)`,
    ).run(
      newId,
      b.seq,
      idx,
      p.key,
      req.name.trim(),
      req.email ?? null,
      req.phone ?? null,
      deliver_via,
      p.ord,
      at,
      JSON.stringify(attrs),
    );
    const to = `${req.name.trim()} <${deliver_via === 'phone' ? req.phone : req.email}>`;
    recordEvent(ctx.db, {
      bundleSeq: b.seq,
      kind: 'pa',
      at,
      packetId: p.id,
      detail: `to ${to}${req.reason?.trim() ? ` (${req.reason.trim()})` : ''}`,
    });
    notify(ctx, b, findPacketRow(ctx.db, newId), 'signing_request');
    deliverMessage(ctx, b, {
      created: at,
      channel: 'email',
      kind: 'reassigned',
      recipient: ba.requester_email,
      subject: `${p.name} reassigned "${b.label || 'documents'}"`,
      body: `${p.name} handed their signing of "${b.label || 'documents'}" to ${to}.${req.reason?.trim() ? `\n\nReason: ${req.reason.trim()}` : ''}`,
      bundle_id: b.id,
      packet_id: p.id,
    });
    scheduleReminders(ctx, b.seq);
    return newId;
  });
}

interface Target {
  doc: DocumentRow;
  field: StoredField;
}

/** Resolves `key` or `docKey/key` among the Bundle's fields, or says why it cannot. */
function resolveField(all: Target[], ref: string): Target | string {
  const slash = ref.indexOf('/');
  const found =
    slash > 0
      ? all.filter((t) => t.doc.key === ref.slice(0, slash) && t.field.key === ref.slice(slash + 1))
      : all.filter((t) => t.field.key === ref);
  if (!found.length) return `No field "${ref}" in this Bundle.`;
  if (found.length > 1)
    return `Field "${ref}" is in several documents: write it as ${found.map((t) => `${t.doc.key}/${ref}`).join(' or ')}.`;
  return found[0]!;
}

/**
 * Signs for a packet: checks every value and attachment (all problems at once, as a 400 naming
 * each), stores them, completes the packet, hands the turn on, and completes the Bundle after the
 * last signer. Signature, initials, signer name and timestamp fill themselves when not given.
 */
export async function signPacket(
  ctx: EngineContext,
  id: string,
  input: SignInput,
): Promise<{ completedBundle: boolean }> {
  const needsRegex = documentRowsOf(ctx.db, findPacketRow(ctx.db, id).bundle_seq).some((d) =>
    fieldsOfDocument(d).some((f) => f.v_regex !== undefined),
  );
  const re2 = needsRegex ? (await import('re2js')).RE2JS : undefined;
  const regex = (pattern: string, value: string) => re2!.compile(pattern).matches(value);
  return inTransaction(ctx, () => {
    const { p, b } = actingPacket(ctx, id);
    const at = ctx.clock.now();
    const errs = new FieldErrors();
    const docs = documentRowsOf(ctx.db, b.seq);
    const all: Target[] = docs.flatMap((doc) => fieldsOfDocument(doc).map((field) => ({ doc, field })));
    const values = checkValues(all, input.values ?? {}, p, regex, errs);
    const attachments = checkAttachments(all, input.attachments ?? {}, p, errs);
    const signing: Signing = { b, p, at, all, values, attachments };
    fillAndRequire(ctx, signing, errs);
    errs.throwIfAny();
    storeSigned(ctx, signing);
    return finishPacket(ctx, b, p, at);
  });
}

type Values = Map<string, { t: Target; value: string }>;
type Attachments = Map<string, { t: Target; files: SignerAttachment[] }>;

/** One signing attempt, checked: the packet, its Bundle, every field and what the signer gave. */
interface Signing {
  b: BundleRow;
  p: PacketRow;
  at: string;
  all: Target[];
  values: Values;
  attachments: Attachments;
}

/** Each entry given with the field its name resolves to; a name that resolves to none is an error at `what.name`. */
function* namedFields<V>(all: Target[], given: Record<string, V>, what: 'values' | 'attachments', errs: FieldErrors) {
  for (const [ref, v] of Object.entries(given)) {
    const t = resolveField(all, ref);
    if (typeof t === 'string') errs.add(`${what}.${ref}`, t);
    else yield [ref, t, v] as const;
  }
}

/** The values given, checked against their fields (an error each for what is not the signer's to fill). */
function checkValues(
  all: Target[],
  given: NonNullable<SignInput['values']>,
  p: PacketRow,
  regex: (pattern: string, value: string) => boolean,
  errs: FieldErrors,
): Values {
  const values: Values = new Map();
  for (const [ref, t, raw] of namedFields(all, given, 'values', errs)) {
    if (!canEdit(t.field, p.key)) {
      errs.add(`values.${ref}`, `Field "${ref}" is for ${t.field.editors!.join(', ')}, not for signer "${p.key}".`);
      continue;
    }
    if (t.field.kind === 'att') {
      errs.add(`values.${ref}`, `Field "${ref}" takes attachments, not a value.`);
      continue;
    }
    if (t.field.kind === 'tms') {
      errs.add(`values.${ref}`, `Field "${ref}" is the signing timestamp; it fills itself.`);
      continue;
    }
    try {
      values.set(`${t.doc.key}/${t.field.key}`, { t, value: checkValue(t.field, String(raw), regex) });
    } catch (e) {
      errs.add(`values.${ref}`, (e as Error).message);
    }
  }
  return values;
}

/** The attachments given, checked: the field's, within the size, of an allowed type, and what they claim to be. */
function checkAttachments(
  all: Target[],
  given: NonNullable<SignInput['attachments']>,
  p: PacketRow,
  errs: FieldErrors,
): Attachments {
  const attachments: Attachments = new Map();
  for (const [ref, t, files] of namedFields(all, given, 'attachments', errs)) {
    if (t.field.kind !== 'att' || !canEdit(t.field, p.key)) {
      errs.add(
        `attachments.${ref}`,
        t.field.kind !== 'att'
          ? `Field "${ref}" is not an attachment field.`
          : `Field "${ref}" is for ${t.field.editors!.join(', ')}, not for signer "${p.key}".`,
      );
      continue;
    }
    const allowed = t.field.v_attachment_types;
    files.forEach((f, i) => {
      const ext = extname(f.name).slice(1).toLowerCase();
      if (f.data.length > MAX_ATTACHMENT_BYTES)
        errs.add(`attachments.${ref}[${i}]`, `"${f.name}" is larger than ${MAX_ATTACHMENT_BYTES / 1048576} MB.`);
      else if (allowed?.length && !allowed.includes(ext))
        errs.add(`attachments.${ref}[${i}]`, `"${f.name}" is not one of the allowed types: ${allowed.join(', ')}.`);
      else if (!f.data.length) errs.add(`attachments.${ref}[${i}]`, `"${f.name}" is empty.`);
      else if (!bytesMatchExtension(ext, f.data))
        errs.add(`attachments.${ref}[${i}]`, `"${f.name}" is not a .${ext} file: its contents are of another type.`);
    });
    attachments.set(`${t.doc.key}/${t.field.key}`, { t, files });
  }

  return attachments;
}

/** The signer's own fields: fill the automatic ones, then every required one must have a value. */
function fillAndRequire(ctx: EngineContext, s: Signing, errs: FieldErrors) {
  const { b, p, at, all, values, attachments } = s;
  const existing = storedFieldValues(ctx.db, b.seq);
  // How a field is named in errors: by its key when no other document uses it.
  const refOf = (t: Target) =>
    all.filter((x) => x.field.key === t.field.key).length > 1 ? `${t.doc.key}/${t.field.key}` : t.field.key;
  const attachedCount = (key: string) =>
    (attachments.get(key)?.files.length ?? 0) +
    (
      sql(
        ctx.db,
        "SELECT count(*) AS n FROM field_attachments WHERE bundle_seq = ? AND doc_key || '/' || field_key = ?",
      ).get(b.seq, key) as { n: number }
    ).n;
  for (const t of all) {
    if (!canEdit(t.field, p.key)) continue;
    const key = `${t.doc.key}/${t.field.key}`;
    if (!values.has(key) && AUTO_FILLED.has(t.field.kind) && !existing.has(key)) {
      const auto =
        t.field.kind === 'sig' || t.field.kind === 'snm' ? p.name : t.field.kind === 'ini' ? initials(p.name) : at;
      values.set(key, { t, value: auto });
    }
    if (!t.field.required) continue;
    const filled =
      t.field.kind === 'att'
        ? attachedCount(key) > 0
        : isFilled(
            t.field,
            values.get(key)?.value ??
              existing.get(key) ??
              (t.field.initial_value === undefined ? undefined : String(t.field.initial_value)),
          );
    if (!filled)
      errs.add(
        `${t.field.kind === 'att' ? 'attachments' : 'values'}.${refOf(t)}`,
        `Required field "${t.field.label || t.field.key}" of document "${t.doc.key}" needs ${t.field.kind === 'att' ? 'an attachment' : t.field.kind === 'chk' ? 'to be ticked' : 'a value'}.`,
      );
  }
}

/** Stores the values, then the attachments: they reach the file store only once everything is valid. */
function storeSigned(ctx: EngineContext, { b, p, at, values, attachments }: Signing) {
  const upsert = sql(
    ctx.db,
    `INSERT INTO field_values (bundle_seq, doc_key, field_key, value, filled_by, packet_id) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (bundle_seq, doc_key, field_key) DO UPDATE SET value = excluded.value, filled_by = excluded.filled_by, packet_id = excluded.packet_id`,
  );
  for (const { t, value } of values.values()) upsert.run(b.seq, t.doc.key, t.field.key, value, p.name, p.id);
  const insertAttachment = sql(
    ctx.db,
    `INSERT INTO field_attachments (bundle_seq, doc_key, field_key, num, name, ext, size, sha256)
    VALUES (?, ?, ?, (SELECT coalesce(max(num), 0) + 1 FROM field_attachments WHERE bundle_seq = ? AND doc_key = ? AND field_key = ?), ?, ?, ?, ?)`,
  );
  for (const { t, files } of attachments.values())
    for (const f of files) {
      const hash = ctx.blobs.put(f.data);
      recordBlob(ctx.db, hash, f.data.length, 0, at);
      insertAttachment.run(
        b.seq,
        t.doc.key,
        t.field.key,
        b.seq,
        t.doc.key,
        t.field.key,
        f.name,
        extname(f.name).slice(1).toLowerCase(),
        f.data.length,
        hash,
      );
      upsert.run(b.seq, t.doc.key, t.field.key, f.name, p.name, p.id);
    }
}

/** Completes the packet, then the Bundle after the last signer, or hands the turn on. */
function finishPacket(ctx: EngineContext, b: BundleRow, p: PacketRow, at: string): { completedBundle: boolean } {
  if (p.status !== 'st') markPacketViewed(ctx.db, b, p.id, at);
  // Interim copies made before this signature no longer show every value.
  sql(ctx.db, `UPDATE bundles SET doc_status = 'di' WHERE seq = ? AND doc_status = 'in'`).run(b.seq);
  markPacketSigned(ctx.db, b.seq, p.id, at);

  const packets = packetRowsOf(ctx.db, b.seq);
  if (packets.every((x) => x.status === 'co' || x.status === 'ra')) {
    markComplete(ctx.db, b.seq, at);
    return { completedBundle: true };
  }
  // In order: the next signers get their request now.
  for (const next of packetsWhoseTurnItIs(b, packets))
    if (next.status === 'ne') {
      markPacketAsked(ctx.db, next.id, at);
      notify(ctx, b, next, 'signing_request');
    }
  scheduleReminders(ctx, b.seq);
  return { completedBundle: false };
}
