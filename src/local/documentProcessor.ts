// Background processing of documents that arrive by URL: download, check, store, then launch or fail.
import { sql } from './db.js';
import type { WireError } from '../service/errors.js';
import { type DocumentRow, bundleRowBySeq } from './bundleStore.js';
import { type EngineContext, inTransaction } from './context.js';
import { recordEvent } from './events.js';
import { launch } from './launch.js';
import { inspectPdf } from './pdf.js';
import { downloadDocument } from './urlFetch.js';

/** How long a process may hold a document before another process may take it over. */
const LEASE_MS = 2 * 60_000;

/**
 * Claims pending documents whose lease is free (several processes may share one database).
 * Leases are wall-clock time: moving the engine's clock must not free or pin another process's work.
 */
function claim(ctx: EngineContext): DocumentRow[] {
  return inTransaction(ctx, () => {
    const now = Date.now();
    return sql(ctx.db, 
        `UPDATE documents SET lease_until = ? WHERE state = 'pending' AND (lease_until IS NULL OR lease_until < ?) RETURNING *`,
      )
      .all(new Date(now + LEASE_MS).toISOString(), new Date(now).toISOString()) as DocumentRow[];
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

/** Downloads, checks and stores one document; any failure, even of the store itself, fails the document. */
async function processOne(ctx: EngineContext, d: DocumentRow): Promise<void> {
  try {
    const data = await downloadDocument(d.source_url!, { publicOnly: ctx.refusePrivateUrls() });
    const info = await inspectPdf(data);
    if ('problem' in info) throw new Error(info.problem);
    accept(ctx, d, data, info.pages);
  } catch (e) {
    try {
      fail(ctx, d, (e as Error).message);
    } catch {
      // The database is unavailable too: the lease expires and another run takes the document again.
    }
  }
}

function accept(ctx: EngineContext, d: DocumentRow, data: Buffer, pages: number): void {
  const hash = ctx.blobs.put(data);
  inTransaction(ctx, () => {
    const at = ctx.clock.now();
    sql(ctx.db, 'INSERT OR IGNORE INTO blobs (sha256, size, pages, created) VALUES (?, ?, ?, ?)').run(hash, data.length, pages, at);
    const spec = { ...JSON.parse(d.spec), pages };
    const r = sql(ctx.db, `UPDATE documents SET state = 'ready', sha256 = ?, lease_until = NULL, spec = ? WHERE bundle_seq = ? AND idx = ? AND state = 'pending'`)
      .run(hash, JSON.stringify(spec), d.bundle_seq, d.idx);
    if (!r.changes) return;
    recordEvent(ctx.db, { bundleSeq: d.bundle_seq, kind: 'dp', at, detail: d.key });
    const b = bundleRowBySeq(ctx.db, d.bundle_seq);
    const open = sql(ctx.db, `SELECT count(*) AS n FROM documents WHERE bundle_seq = ? AND state != 'ready'`).get(b.seq) as { n: number };
    if (b.status === 'pe' && open.n === 0) launch(ctx, b);
  });
}

function fail(ctx: EngineContext, d: DocumentRow, reason: string): void {
  inTransaction(ctx, () => {
    const r = sql(ctx.db, `UPDATE documents SET state = 'failed', lease_until = NULL WHERE bundle_seq = ? AND idx = ? AND state = 'pending'`)
      .run(d.bundle_seq, d.idx);
    if (!r.changes) return;
    const b = bundleRowBySeq(ctx.db, d.bundle_seq);
    // A Bundle cancelled (or otherwise ended) while its document was downloading has nothing to report;
    // a pending, draft or already failed one records every failed document.
    if (b.status !== 'pe' && b.status !== 'dr' && b.status !== 'fa') return;
    const field = `documents[${d.idx}].file_url`;
    const message = `Document "${d.key}" could not be processed: ${reason}`;
    const error: WireError = { code: 'invalid', message, errors: [{ field, messsage: reason, message: reason }] };
    const errors = [...(JSON.parse(b.errors) as WireError[]), error];
    sql(ctx.db, `UPDATE bundles SET status = 'fa', errors = ? WHERE seq = ?`).run(JSON.stringify(errors), b.seq);
    recordEvent(ctx.db, { bundleSeq: b.seq, kind: 'bf', at: ctx.clock.now(), detail: message });
  });
}
