// Background processing of documents not in hand at creation (by URL, HTML, office files):
// obtain a PDF, check it, place its fields, store it, then launch or fail.
import { sql } from '../store/db.js';
import type { WireError } from '../../domain/errors.js';
import { type DocumentRow, bundleRowBySeq, bundleErrors } from '../bundles/read.js';
import { type EngineContext, inTransaction } from '../store/context.js';
import { recordEvent } from '../bundles/events.js';
import { launch } from '../bundles/launch.js';
import { recordBlob } from '../store/blobs.js';
import { downloadDocument } from './urlFetch.js';
import type { PreparedSpec } from './intake/prepare.js';
import { deriveFieldsApart, inspectPdfApart, renderHtmlApart, sandboxBusy, sha256Yielding } from './sandbox/apart.js';
import { markFailed } from '../bundles/transitions.js';
import { documentSpec } from '../bundles/fields.js';

/** How long a process may hold a document before another process may take it over. */
const LEASE_MS = 2 * 60_000;
/** At most this many documents at once: each may start a browser or an office suite. */
const BATCH = 4;

/**
 * Claims pending documents whose lease is free (several processes may share one database).
 * Leases are wall-clock time: moving the engine's clock must not free or pin another process's work.
 */
function claim(ctx: EngineContext): DocumentRow[] {
  return inTransaction(ctx, () => {
    const now = Date.now();
    return sql(
      ctx.db,
      `UPDATE documents SET lease_until = ? WHERE rowid IN (SELECT rowid FROM documents WHERE state = 'pending' AND (lease_until IS NULL OR lease_until < ?) LIMIT ${BATCH}) RETURNING *`,
    ).all(new Date(now + LEASE_MS).toISOString(), new Date(now).toISOString()) as DocumentRow[];
  });
}

/** Processes every claimable pending document; resolves when they are all ready or failed. */
export async function processPendingDocuments(ctx: EngineContext): Promise<number> {
  let done = 0;
  for (let batch = claim(ctx); batch.length; batch = claim(ctx)) {
    await Promise.allSettled(batch.map((d) => processOne(ctx, d)));
    done += batch.length;
  }
  return done;
}

/** A failure that names the request field at fault (auto-placements, converted fields). */
class DocumentProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The document as a PDF: downloaded, rendered from HTML, or converted from an office file. */
async function obtainPdf(
  ctx: EngineContext,
  d: DocumentRow,
  spec: PreparedSpec,
): Promise<{ pdf: Buffer; spec: PreparedSpec }> {
  if (d.source === 'url') return { pdf: await downloadDocument(d.source_url!, ctx.outboundPolicy()), spec };
  if (d.source === 'html') {
    // The HTML is in the file store (rows written before it was kept there hold it inline).
    const { html, ...rest } = spec as PreparedSpec & { html: { sha256: string } | string };
    const fieldsMode = spec.html_fields_mode === 'none' ? 'none' : 'native';
    // Parsed (parse5) and laid out apart, capped, whichever renderer draws it.
    const rendered = await renderHtmlApart(
      typeof html === 'string' ? { html } : { path: ctx.blobs.path(html.sha256) },
      fieldsMode,
      { deadlineMs: ctx.documentTimes.htmlDeadlineMs },
    );
    const taken = new Set([...(rest.fields ?? []), ...(rest.auto_placements ?? [])].map((f) => f.key));
    const found = rendered.fields.filter((f) => !taken.has(f.key));
    return {
      pdf: rendered.pdf,
      spec: { ...rest, fields: [...(rest.fields ?? []), ...found], renderer: rendered.renderer },
    };
  }
  const { convertOfficeToPdf } = await import('./intake/office.js');
  const { office } = spec as PreparedSpec & { office: { sha256: string; ext: string } };
  return { pdf: await convertOfficeToPdf(await ctx.blobs.read(office.sha256), office.ext), spec };
}

/**
 * A document the sandbox had no CPU for until a job's deadline (a loaded machine, not the
 * document's doing) is tried again, this many times in all, a pause apart that grows
 * (documentTimes.busyPauseMs), before it fails.
 */
const BUSY_TRIES = 3;
const STARVED = `it was not done in ${BUSY_TRIES} tries: each time, other work left it too little CPU to finish before its deadline.`;

/** Obtains, checks and stores one document; any failure, even of the store itself, fails the document. */
async function processOne(ctx: EngineContext, d: DocumentRow): Promise<void> {
  // Obtained once: a later try after a busy check does not download or render the document again.
  let obtained: { pdf: Buffer; spec: PreparedSpec } | undefined;
  for (let tries = 1; ; tries++) {
    try {
      obtained ??= await obtainPdf(ctx, d, documentSpec<PreparedSpec>(d));
      await checkAndStore(ctx, d, obtained);
      return;
    } catch (e) {
      try {
        if (sandboxBusy(e) && tries < BUSY_TRIES) {
          await new Promise((r) => setTimeout(r, ctx.documentTimes.busyPauseMs * tries));
          if (holdLease(ctx, d)) continue;
          return; // no longer pending (cancelled meanwhile): nothing to do
        }
        const why = sandboxBusy(e) ? STARVED : (e as Error).message;
        fail(ctx, d, why, e instanceof DocumentProblem ? e.field : undefined);
      } catch {
        // The database is unavailable too: the lease expires and another run takes the document again.
      }
      return;
    }
  }
}

async function checkAndStore(
  ctx: EngineContext,
  d: DocumentRow,
  { pdf, spec }: { pdf: Buffer; spec: PreparedSpec },
): Promise<void> {
  const info = await inspectPdfApart(pdf, { background: true });
  if ('problem' in info) throw new Error(info.problem);
  const field = `documents[${d.idx}].${SOURCE_FIELDS[d.source] ?? 'file_url'}`;
  const derived = await deriveFieldsApart(pdf, spec, d.idx, { field, background: true });
  const problem = derived.problems[0];
  if (problem) throw new DocumentProblem(problem.field, derived.problems.map((p) => p.message).join(' '));
  accept(ctx, d, await ctx.blobs.store(pdf, await sha256Yielding(pdf)), pdf.length, info.pages, derived.spec);
}

/** Renews this process's lease on a document still pending, for another try; false when it is not. */
function holdLease(ctx: EngineContext, d: DocumentRow): boolean {
  return (
    sql(ctx.db, `UPDATE documents SET lease_until = ? WHERE bundle_seq = ? AND idx = ? AND state = 'pending'`).run(
      new Date(Date.now() + LEASE_MS).toISOString(),
      d.bundle_seq,
      d.idx,
    ).changes > 0
  );
}

const SOURCE_FIELDS: Record<string, string> = { url: 'file_url', html: 'file_html', office: 'file_index' };

/** Records a document stored under `hash` as ready (and launches its Bundle when it was the last). */
function accept(ctx: EngineContext, d: DocumentRow, hash: string, size: number, pages: number, derived: PreparedSpec) {
  inTransaction(ctx, () => {
    const at = ctx.clock.now();
    recordBlob(ctx.db, hash, size, pages, at);
    const spec = { ...derived, pages };
    const r = sql(
      ctx.db,
      `UPDATE documents SET state = 'ready', sha256 = ?, lease_until = NULL, spec = ? WHERE bundle_seq = ? AND idx = ? AND state = 'pending'`,
    ).run(hash, JSON.stringify(spec), d.bundle_seq, d.idx);
    if (!r.changes) return;
    recordEvent(ctx.db, { bundleSeq: d.bundle_seq, kind: 'dp', at, detail: d.key });
    const b = bundleRowBySeq(ctx.db, d.bundle_seq);
    const open = sql(ctx.db, `SELECT count(*) AS n FROM documents WHERE bundle_seq = ? AND state != 'ready'`).get(
      b.seq,
    ) as { n: number };
    if (b.status === 'pe' && open.n === 0) launch(ctx, b);
  });
}

function fail(ctx: EngineContext, d: DocumentRow, reason: string, at?: string): void {
  inTransaction(ctx, () => {
    const r = sql(
      ctx.db,
      `UPDATE documents SET state = 'failed', lease_until = NULL WHERE bundle_seq = ? AND idx = ? AND state = 'pending'`,
    ).run(d.bundle_seq, d.idx);
    if (!r.changes) return;
    const b = bundleRowBySeq(ctx.db, d.bundle_seq);
    // A Bundle cancelled (or otherwise ended) while its document was downloading has nothing to report;
    // a pending, draft or already failed one records every failed document.
    if (b.status !== 'pe' && b.status !== 'dr' && b.status !== 'fa') return;
    const field = at ?? `documents[${d.idx}].${SOURCE_FIELDS[d.source] ?? 'file_url'}`;
    const message = `Document "${d.key}" could not be processed: ${reason}`;
    const error: WireError = { code: 'invalid', message, errors: [{ field, messsage: reason, message: reason }] };
    const errors = [...bundleErrors(b), error];
    markFailed(ctx.db, b.seq, errors, ctx.clock.now(), message);
  });
}
