// What the signing page needs from the engine, without HTTP: opening a signing link (single use
// for embedded URLs), the short-lived session the page uses for its follow-up requests, and the
// page's view of the signer's documents and fields.
import { reassignRefusal } from './signing.js';
import { ApiError } from '../../domain/errors.js';
import { isInProgress } from '../../domain/states.js';
import type { SigningField, SigningView } from '../../service/hosting.js';
import {
  type PacketRow,
  bundleRowBySeq,
  documentRowsOf,
  findPacketRow,
  bundleAttrs,
  bundleErrors,
  packetAttrs,
} from '../bundles/read.js';
import { type EngineContext, inTransaction } from '../store/context.js';
import { sql } from '../store/db.js';
import { canEdit, documentSpec, fieldsOfDocument, initials, storedFieldValues } from '../bundles/fields.js';
import { createLink, findLink, linkExpired, markLinkUsed } from '../bundles/links.js';
import { viewPacket } from './signing.js';

export const SESSION_TTL_MS = 60 * 60 * 1000;

const gone = (message: string) => new ApiError(410, 'gone', message);
const unknownLink = () =>
  new ApiError(404, 'not_found', 'This signing link is not valid. Check that you copied the whole address.');

function suggested(kind: string, p: PacketRow): string {
  if (kind === 'sig') return p.name;
  if (kind === 'ini') return initials(p.name);
  return '';
}

function buildView(ctx: EngineContext, packetId: string, session: { token: string; expires: string }): SigningView {
  const p = findPacketRow(ctx.db, packetId);
  const b = bundleRowBySeq(ctx.db, p.bundle_seq);
  const ba = bundleAttrs(b);
  const pa = packetAttrs(p);
  const docs = documentRowsOf(ctx.db, b.seq);
  const all = docs.flatMap((d) => fieldsOfDocument(d).map((f) => ({ d, f })));
  const stored = storedFieldValues(ctx.db, b.seq);
  const attached = sql(
    ctx.db,
    'SELECT doc_key, field_key, name FROM field_attachments WHERE bundle_seq = ? ORDER BY num',
  ).all(b.seq) as { doc_key: string; field_key: string; name: string }[];
  const fields = all
    .filter(({ f }) => canEdit(f, p.key))
    .map(({ d, f }): SigningField => {
      const id = `${d.key}/${f.key}`;
      const shared = all.filter((x) => x.f.key === f.key).length > 1;
      return {
        ref: shared ? id : f.key,
        docKey: d.key,
        key: f.key,
        kind: f.kind,
        label: f.label || f.key,
        required: f.required === true,
        page: f.page,
        x: f.x,
        y: f.y,
        w: f.w,
        h: f.h,
        value: stored.get(id) ?? (f.initial_value === undefined ? suggested(f.kind, p) : String(f.initial_value)),
        attached: attached.filter((a) => a.doc_key === d.key && a.field_key === f.key).map((a) => a.name),
        v_pattern: f.v_pattern,
        v_min: f.v_min,
        v_max: f.v_max,
        v_regex: f.v_regex,
        v_regex_msg: f.v_regex_msg,
        v_attachment_types: f.v_attachment_types,
      };
    });
  return {
    packetId: p.id,
    signer: { key: p.key, name: p.name, status: p.status },
    bundle: {
      id: b.id,
      label: b.label,
      status: b.status,
      errors: bundleErrors(b).flatMap((e) =>
        e.errors?.length ? e.errors.map((f) => `${f.field}: ${f.message ?? f.messsage}`) : [e.message],
      ),
    },
    requester: { name: ba.requester_name ?? '', email: ba.requester_email ?? '' },
    documents: docs.map((d) => ({ key: d.key, name: d.name, pages: documentSpec(d).pages ?? null })),
    fields,
    session,
    canReassign: reassignRefusal(ba, pa) === undefined,
    // The packet's redirect overrides the signing brand's (spec).
    redirect:
      pa.signing_complete_redirect ??
      (b.signing_brand ? ctx.account.brand(b.signing_brand)?.redirect_url : null) ??
      null,
  };
}

/**
 * Opens a signing link: checks it (an embedded URL only once), records the signer's view (which
 * refuses with a 409 when the signer may not act now) and starts a session for the page. One
 * transaction, so a refused view does not use up an embedded URL.
 */
export function openSigningLink(ctx: EngineContext, token: string): SigningView {
  return inTransaction(ctx, () => {
    const link = findLink(ctx, token);
    if (!link || (link.kind !== 'sign' && link.kind !== 'embed')) throw unknownLink();
    if (link.kind === 'embed' && link.used_at)
      throw gone('This signing link has already been used. Ask the sender for a new one.');
    if (linkExpired(ctx, link)) throw gone('This signing link has expired. Ask the sender for a new one.');
    if (link.kind === 'embed' && !markLinkUsed(ctx, token))
      throw gone('This signing link has already been used. Ask the sender for a new one.');
    // A pending Bundle's signer waits on the page while its documents are processed; the view is
    // recorded when the page first shows them (sessionView).
    if (bundleRowBySeq(ctx.db, findPacketRow(ctx.db, link.target).bundle_seq).status !== 'pe')
      viewPacket(ctx, link.target);
    const { token: session, expires } = createLink(ctx, 'session', link.target, SESSION_TTL_MS);
    return buildView(ctx, link.target, { token: session, expires });
  });
}

/** The packet id behind a live session token, or a 404 (unknown) or 410 (expired). */
export function resolveSession(ctx: EngineContext, token: string): string {
  const link = findLink(ctx, token);
  if (link?.kind !== 'session')
    throw new ApiError(404, 'not_found', 'This signing session is not valid. Open the signing link again.');
  if (linkExpired(ctx, link)) throw gone('This signing session has expired. Open the signing link again.');
  return link.target;
}

/** The page's view again (after a refused signature, or a reload), without recording a view. */
export function sessionView(ctx: EngineContext, token: string): SigningView {
  const packetId = resolveSession(ctx, token);
  const p = findPacketRow(ctx.db, packetId);
  // Opened while the documents were processed: now that they are, the signer has viewed them.
  if (p.status === 'se' && isInProgress(bundleRowBySeq(ctx.db, p.bundle_seq).status)) viewPacket(ctx, packetId);
  return buildView(ctx, packetId, { token, expires: findLink(ctx, token)!.expires });
}

/** The stored original of one of the session's documents: its blob hash and file name. */
export function sessionDocument(ctx: EngineContext, token: string, docKey: string): { sha256: string; name: string } {
  const p = findPacketRow(ctx.db, resolveSession(ctx, token));
  const d = documentRowsOf(ctx.db, p.bundle_seq).find((x) => x.key === docKey);
  if (!d) throw new ApiError(404, 'not_found', `No document "${docKey}" in this Bundle.`);
  if (!d.sha256 || d.state !== 'ready')
    throw new ApiError(409, 'conflict', `Document "${docKey}" is not ready yet; try again in a moment.`);
  return { sha256: d.sha256, name: d.name };
}
