// Packet operations: get, patch, remind, embedded signing URL, Certificate of Evidence.
import { type Db, sql } from '../store/db.js';
import { FieldErrors, badRequest, conflict } from '../../domain/errors.js';
import type { CoeFile, EmbedUrl } from '../../service/types.js';
import { type PacketRow, findPacketRow, packetRowsOf, bundleRowBySeq, packetAttrs } from './read.js';
import { type EngineContext, inTransaction } from '../store/context.js';
import { checkDelivery } from '../../domain/reachability.js';
import { recordEvent } from './events.js';
import { createLink, fileLink } from './links.js';
import { endedAs, isAskedInLiveBundle, isOpenPacket, packetsWhoseTurnItIs } from './turns.js';
import { isEnded, isInProgress } from '../../domain/states.js';
import { notify } from '../messages/notify.js';
import { describeStatus } from './lifecycle.js';
import { updatePersonFromPacket } from '../persons/persons.js';
import { REMINDER_INTERVAL_MS, scheduleReminders } from './due.js';
import { MOVED_OFF_EMBED } from '../../domain/reminderRules.js';

const EMBED_URL_TTL_MS = 60 * 60 * 1000;

const bundleOf = (ctx: EngineContext, p: PacketRow) => bundleRowBySeq(ctx.db, p.bundle_seq);

const finished = (p: PacketRow) => !isOpenPacket(p);

export async function updatePacket(ctx: EngineContext, id: string, input: unknown): Promise<void> {
  const S = await import('../../domain/schemas.js');
  const patch = S.parseOr400(S.PacketPatchRequest, input);
  inTransaction(ctx, () => {
    const p = findPacketRow(ctx.db, id);
    const b = bundleOf(ctx, p);
    if (isEnded(b.status))
      throw badRequest(`The Bundle is ${describeStatus(b.status)}; its signers can no longer be changed.`);
    if (finished(p)) throw badRequest(`The signer has already ${endedAs(p)}; the packet can no longer be changed.`);
    const errs = new FieldErrors();
    const attrs = packetAttrs(p);
    const email = patch.email ?? p.email;
    const phone = patch.phone ?? p.phone;
    const deliverVia = patch.deliver_via ?? p.deliver_via;
    checkDelivery(
      {
        deliver_via: deliverVia,
        email,
        phone,
        auth_sms: patch.auth_sms ?? attrs.auth_sms,
        setsRedirect: patch.signing_complete_redirect !== undefined,
      },
      b.is_test === 1,
      ctx.account,
      errs,
    );
    errs.throwIfAny();

    for (const k of [
      'auth_sms',
      'auth_selfie',
      'auth_id',
      'signing_complete_redirect',
      'suppress_all',
      'suppress_signing',
      'suppress_reminder',
      'suppress_docs_ready',
    ] as const)
      if (patch[k] !== undefined) (attrs as unknown as Record<string, unknown>)[k] = patch[k];
    if (p.deliver_via === 'embed' && deliverVia !== 'embed') attrs.no_auto_reminders = true;
    sql(ctx.db, 'UPDATE packets SET name = ?, email = ?, phone = ?, deliver_via = ?, attrs = ? WHERE id = ?').run(
      patch.name ?? p.name,
      email,
      phone,
      deliverVia,
      JSON.stringify(attrs),
      p.id,
    );
    if (p.person_id)
      updatePersonFromPacket(ctx.db, p.person_id, { name: patch.name, email: patch.email, phone: patch.phone });
    const moved = p.deliver_via === 'embed' && deliverVia !== 'embed';
    recordEvent(ctx.db, {
      bundleSeq: b.seq,
      kind: 'pu',
      at: ctx.clock.now(),
      packetId: p.id,
      detail: `${Object.keys(patch).join(', ')}${moved ? `; ${MOVED_OFF_EMBED} to ${deliverVia}` : ''}`,
    });

    // A signer already asked at one address is asked again at the new one. A packet moved off
    // embedded delivery gets nothing automatically: the sender calls remind (spec).
    const addressChanged =
      (deliverVia === 'email' && email !== p.email) ||
      (deliverVia === 'phone' && phone !== p.phone) ||
      deliverVia !== p.deliver_via;
    if (addressChanged && p.deliver_via !== 'embed' && isAskedInLiveBundle(b, p))
      notify(ctx, b, findPacketRow(ctx.db, p.id), 'signing_request');
    scheduleReminders(ctx, b.seq);
  });
}

export function remindPacket(ctx: EngineContext, id: string): void {
  inTransaction(ctx, () => {
    const p = findPacketRow(ctx.db, id);
    const b = bundleOf(ctx, p);
    if (finished(p)) throw conflict(`The signer has already ${endedAs(p)}; there is nothing to remind them of.`);
    if (!isInProgress(b.status))
      throw conflict(`The Bundle is ${describeStatus(b.status)}; reminders go only to sent or started Bundles.`);
    if (!packetsWhoseTurnItIs(b, packetRowsOf(ctx.db, b.seq)).some((x) => x.id === p.id))
      throw conflict("It is not this signer's turn yet (the Bundle is signed in order).");
    if (p.deliver_via === 'embed')
      throw badRequest(
        'The packet is delivered by embedded signing and has no address to remind; change deliver_via to email or phone first.',
      );
    if (packetAttrs(p).suppress_all) throw badRequest('All messages to this signer are suppressed (suppress_all).');
    const now = ctx.clock.nowMs();
    // A reminder stamped after now was sent on a clock moved forward and since reset: it blocks nothing.
    const since = p.last_reminded_at ? now - Date.parse(p.last_reminded_at) : Infinity;
    if (since >= 0 && since < REMINDER_INTERVAL_MS) {
      const next = new Date(now - since + REMINDER_INTERVAL_MS).toISOString();
      throw badRequest(
        `A reminder can be sent once per hour; the last one went at ${p.last_reminded_at}, the next can go after ${next}.`,
      );
    }
    notify(ctx, b, p, 'reminder');
    sql(ctx.db, 'UPDATE packets SET last_reminded_at = ? WHERE id = ?').run(ctx.clock.now(), p.id);
    // An automatic reminder due within the hour moves past it.
    scheduleReminders(ctx, b.seq);
  });
}

export function createEmbedUrl(ctx: EngineContext, id: string): EmbedUrl {
  return inTransaction(ctx, () => {
    const p = findPacketRow(ctx.db, id);
    const b = bundleOf(ctx, p);
    if (p.deliver_via !== 'embed')
      throw badRequest(
        `The packet is delivered by ${p.deliver_via}; embedded signing URLs are only for packets with deliver_via "embed".`,
      );
    // A pending Bundle's documents are still processed (spec: the create answers before they are):
    // the signing page says so and opens them when they are ready.
    if (!isInProgress(b.status) && b.status !== 'pe')
      throw conflict(
        `The Bundle is ${describeStatus(b.status)}; an embedded signing URL needs a pending, sent or started Bundle.`,
      );
    if (finished(p)) throw conflict(`The signer has already ${endedAs(p)}.`);
    if (!packetsWhoseTurnItIs(b, packetRowsOf(ctx.db, b.seq)).some((x) => x.id === p.id))
      throw conflict("It is not this signer's turn yet (the Bundle is signed in order).");
    // Single use: the signing page marks the link used when it is first opened.
    const { url, expires } = createLink(ctx, 'embed', p.id, EMBED_URL_TTL_MS);
    recordEvent(ctx.db, { bundleSeq: b.seq, kind: 'eu', at: ctx.clock.now(), packetId: p.id });
    return { url, expires };
  });
}

export function getPacketCoe(ctx: EngineContext, id: string): CoeFile {
  return inTransaction(ctx, () => {
    const p = findPacketRow(ctx.db, id);
    const b = bundleOf(ctx, p);
    if (b.status !== 'co' || p.status !== 'co')
      throw conflict(
        `The Certificate of Evidence is available once the Bundle is complete; it is ${describeStatus(b.status)}.`,
      );
    const f = sql(
      ctx.db,
      `SELECT name, sha256 FROM produced_files WHERE bundle_seq = ? AND kind = 'coe_pdf' AND ref = ?`,
    ).get(b.seq, p.id) as { name: string; sha256: string } | undefined;
    if (!f) throw conflict('The Certificate of Evidence is still being produced; try again in a moment.');
    const { url, expires } = fileLink(ctx, f.sha256, f.name);
    return { file_url: url, expires, sha256: f.sha256 };
  });
}

/** The slug of the Bundle a packet belongs to (404 for an unknown packet). */
export function bundleSlugOfPacket(db: Db, packetId: string): string {
  return bundleRowBySeq(db, findPacketRow(db, packetId).bundle_seq).id;
}
