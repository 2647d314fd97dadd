// Producing a completed Bundle's files in the background: claimed with a lease (several processes
// may share the database), drawn outside any transaction, then recorded in one transaction that
// moves `doc_status` from `pe` to `fi` and sends the documents-ready messages.
import { type BundleAttrs, type BundleRow, bundleAttrs, packetAttrs } from '../bundles/read.js';
import { recordBlob } from '../store/blobs.js';
import { documentRowsOf, packetRowsOf } from '../bundles/read.js';
import { type EngineContext, inTransaction } from '../store/context.js';
import { sql } from '../store/db.js';
import type { EvidenceBundle, EvidenceValue } from './evidence.js';
import { certificateApart, combinedPdfApart, signedPdfApart } from '../documents/sandbox/apart.js';
import { listEvents, recordEvent } from '../bundles/events.js';
import { documentSpec, fieldsOfDocument } from '../bundles/fields.js';
import { isTerminal } from '../../domain/states.js';
import { conflict } from '../../domain/errors.js';
import { FILES_FAILED } from '../../domain/states.js';
import { markFilesFailed } from '../bundles/transitions.js';
import { SandboxFailure } from '../documents/sandbox/pool.js';

import { deliverMessage } from '../messages/testDelivery.js';
import { normalizePhone } from '../../domain/phone.js';

const LEASE_MS = 2 * 60_000;

export type ProducedKind = 'signed_pdf' | 'combined_pdf' | 'coe_pdf' | 'interim_pdf';

function claim(ctx: EngineContext): BundleRow[] {
  return inTransaction(ctx, () => {
    const now = Date.now();
    // One Bundle at a time: its lease covers only work under way. One whose files failed for good is not tried again.
    return sql(
      ctx.db,
      `UPDATE bundles SET evidence_lease = ? WHERE seq IN (SELECT seq FROM bundles WHERE doc_status = 'pe' AND status = 'co' AND (evidence_lease IS NULL OR evidence_lease < ?)
        AND NOT EXISTS (SELECT 1 FROM json_each(bundles.errors) WHERE json_extract(value, '$.code') = '${FILES_FAILED}') LIMIT 1) RETURNING *`,
    ).all(new Date(now + LEASE_MS).toISOString(), new Date(now).toISOString()) as BundleRow[];
  });
}

export async function processPendingEvidence(ctx: EngineContext): Promise<number> {
  let done = 0;
  for (let batch = claim(ctx); batch.length; batch = claim(ctx)) {
    for (const b of batch) {
      try {
        await produce(ctx, b);
      } catch (e) {
        ctx.report(`esign: the files of Bundle ${b.id} could not be produced: ${(e as Error).message}`);
        // Over the processing limits, the same documents fail the same way every time: recorded once,
        // in the Bundle's errors, and not tried again. Anything else is left in `pe` with its lease:
        // another run tries again once the lease is over.
        if (e instanceof SandboxFailure && e.kind === 'limits')
          inTransaction(ctx, () => markFilesFailed(ctx.db, b.seq, e.message, ctx.clock.now()));
      }
    }
    done += batch.length;
  }
  return done;
}

const baseName = (name: string) => name.replace(/\.pdf$/i, '');

/** A file name's part for a person: letters and digits of any script, the rest as single dashes. */
const namePart = (name: string) =>
  name
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);

/** A certificate is named after its signer (`coe-<Bundle>-Ada-Lovelace.pdf`); the signer key tells namesakes apart. */
function certificateName(bundleId: string, p: { name: string; key: string }, all: { name: string }[]): string {
  const who = namePart(p.name);
  const twice = all.filter((o) => namePart(o.name) === who).length > 1;
  return `coe-${bundleId}-${who || p.key}${twice && who ? `-${p.key}` : ''}.pdf`;
}

/** Everything the drawings need, read in one go. */
function gather(ctx: EngineContext, b: BundleRow, at: string) {
  const { db, blobs } = ctx;
  const attrs = bundleAttrs(b);
  const docs = documentRowsOf(db, b.seq)
    .filter((d) => d.sha256)
    .map((d) => ({
      key: d.key,
      name: d.name,
      sha256: d.sha256!,
      pdfPath: blobs.path(d.sha256!),
      fields: fieldsOfDocument(d),
      pages: documentSpec(d).pages ?? 0,
    }));
  const values = sql(
    db,
    'SELECT doc_key, field_key, value, packet_id, filled_by FROM field_values WHERE bundle_seq = ?',
  ).all(b.seq) as EvidenceValue[];
  const bundle: EvidenceBundle = {
    id: b.id,
    label: b.label,
    is_test: b.is_test === 1,
    created: b.created,
    sent: b.sent,
    completed_at: at,
    requester_name: attrs.requester_name,
    requester_email: attrs.requester_email,
    events: listEvents(ctx, b.id),
  };
  // A signer who handed their turn on (ra) signed nothing: no Certificate, no documents-ready message.
  return { attrs, docs, values, bundle, packets: packetRowsOf(db, b.seq).filter((p) => p.status !== 'ra') };
}

/**
 * Interim copies of a Bundle in progress (`PUT files/`): each document with the values so far.
 * `doc_status` becomes `in`; a later signature makes them stale (`di`).
 */
export async function produceInterim(ctx: EngineContext, b: BundleRow): Promise<void> {
  const lastEvent = () =>
    (
      sql(ctx.db, 'SELECT coalesce(max(id), 0) AS id FROM bundle_events WHERE bundle_seq = ?').get(b.seq) as {
        id: number;
      }
    ).id;
  const seen = lastEvent();
  const { docs, values, bundle } = gather(ctx, b, ctx.clock.now());
  const files: { ref: string; name: string; data: Buffer; hash: string }[] = [];
  for (const d of docs) {
    const data = await signedPdfApart(bundle, d, values, true);
    files.push({ ref: d.key, name: `${baseName(d.name)}-interim.pdf`, data, hash: await ctx.blobs.store(data) });
  }
  inTransaction(ctx, () => {
    const now = sql(ctx.db, 'SELECT status FROM bundles WHERE seq = ?').get(b.seq) as { status: string } | undefined;
    if (!now || isTerminal(now.status)) throw conflict('The Bundle ended while its interim files were being made.');
    const at = ctx.clock.now();
    sql(ctx.db, `DELETE FROM produced_files WHERE bundle_seq = ? AND kind = 'interim_pdf'`).run(b.seq);
    recordProduced(
      ctx,
      b.seq,
      files.map((f) => ({ ...f, kind: 'interim_pdf' as const })),
      at,
    );
    // Someone who signed while the copies were drawn is not in them: they are stale at once.
    const signedSince = sql(
      ctx.db,
      `SELECT 1 FROM bundle_events WHERE bundle_seq = ? AND id > ? AND kind = 'ps' LIMIT 1`,
    ).get(b.seq, seen);
    sql(ctx.db, 'UPDATE bundles SET doc_status = ? WHERE seq = ?').run(signedSince ? 'di' : 'in', b.seq);
  });
}

/** Records files already in the store as the Bundle's produced files (in the caller's transaction). */
function recordProduced(
  ctx: EngineContext,
  seq: number,
  files: { kind: ProducedKind; ref: string; name: string; data: Buffer; hash: string }[],
  at: string,
): void {
  const insert = sql(
    ctx.db,
    'INSERT OR REPLACE INTO produced_files (bundle_seq, kind, ref, name, sha256, created) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const f of files) {
    recordBlob(ctx.db, f.hash, f.data.length, 0, at);
    insert.run(seq, f.kind, f.ref, f.name, f.hash, at);
  }
}

async function produce(ctx: EngineContext, b: BundleRow): Promise<void> {
  const { db, blobs } = ctx;
  const { attrs, docs, values, bundle, packets } = gather(ctx, b, b.completed_at!);

  // The client's PDFs are loaded and drawn over in the document sandbox; only stored files come back.
  const files: { kind: ProducedKind; ref: string; name: string; data: Buffer }[] = [];
  const hashes: string[] = [];
  for (const d of docs) {
    const data = await signedPdfApart(bundle, d, values);
    files.push({ kind: 'signed_pdf', ref: d.key, name: `${baseName(d.name)}-signed.pdf`, data });
    hashes.push(await blobs.store(data));
  }
  const combined = await combinedPdfApart(
    bundle,
    hashes.map((h) => blobs.path(h)),
  );
  files.push({ kind: 'combined_pdf', ref: '', name: `${b.id}-combined.pdf`, data: combined });
  hashes.push(await blobs.store(combined));
  const withHashes = docs.map((d, i) => ({ ...d, signedSha256: hashes[i]! }));
  const combinedSha = hashes[hashes.length - 1]!;
  for (const p of packets) {
    const a = packetAttrs(p);
    const data = await certificateApart(
      bundle,
      {
        id: p.id,
        key: p.key,
        name: p.name,
        email: p.email,
        phone: p.phone,
        deliver_via: p.deliver_via,
        order: p.ord,
        auth_sms: a.auth_sms,
        auth_selfie: a.auth_selfie,
        auth_id: a.auth_id,
        last_accessed_at: p.last_accessed_at,
        completed_at: p.completed_at,
      },
      withHashes,
      values,
      combinedSha,
    );
    files.push({ kind: 'coe_pdf', ref: p.id, name: certificateName(b.id, p, packets), data });
    hashes.push(await blobs.store(data));
  }

  inTransaction(ctx, () => {
    const now = sql(db, 'SELECT status, doc_status FROM bundles WHERE seq = ?').get(b.seq) as
      | { status: string; doc_status: string }
      | undefined;
    if (now?.status !== 'co' || now.doc_status !== 'pe') return;
    const at = ctx.clock.now();
    recordProduced(
      ctx,
      b.seq,
      files.map((f, i) => ({ ...f, hash: hashes[i]! })),
      at,
    );
    sql(db, `UPDATE bundles SET doc_status = 'fi', evidence_lease = NULL WHERE seq = ?`).run(b.seq);
    recordEvent(db, { bundleSeq: b.seq, kind: 'fr', at });
    docsReadyMessages(ctx, b, attrs, packets, at);
  });
}

/** Signers (unless suppressed), cc addresses, and the sender with cc_sender hear that the documents are ready. */
function docsReadyMessages(
  ctx: EngineContext,
  b: BundleRow,
  attrs: BundleAttrs,
  packets: ReturnType<typeof packetRowsOf>,
  at: string,
): void {
  const title = b.label || 'documents';
  // A test Bundle's embedded signers may have any address: messages to the unverified are withheld.
  const send = (channel: 'email' | 'sms', recipient: string, packetId: string | null) =>
    deliverMessage(ctx, b, {
      created: at,
      channel,
      kind: 'docs_ready',
      recipient,
      subject: `Completed: "${title}"`,
      body: `Everyone has signed "${title}". The signed documents are available from ${attrs.requester_name} <${attrs.requester_email}>.`,
      bundle_id: b.id,
      packet_id: packetId,
    });
  for (const p of packets) {
    const a = packetAttrs(p);
    if (a.suppress_all || a.suppress_docs_ready) continue;
    if (p.deliver_via === 'phone' && p.phone) send('sms', normalizePhone(p.phone), p.id);
    else if (p.email) send('email', p.email, p.id);
  }
  for (const cc of attrs.cc_emails) send('email', cc, null);
  if (attrs.cc_sender) send('email', attrs.requester_email, null);
}
