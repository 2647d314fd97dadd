// send_batch: `esign batch send` for an agent, with the same use case (app/batch/send.ts) on the same
// journal: one Bundle per CSV row, a call again resumes, no row is ever sent twice. One go-ahead for
// the whole batch, whose preview names every row's signers, channels and addresses; a dry run is
// `esign batch check` (batchCheck.ts). Over HTTP the CSV comes as text and is kept beside the
// journals (named by its hash), each create counts against the key's create limit and is paced to
// it; the work stops taking rows at its own time bound.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { readHeader } from '../../app/batch/csv.js';
import { planColumns, describeProblem } from '../../app/batch/mapping.js';
import type { RowResult } from '../../app/batch/runner.js';
import {
  type BatchSource,
  type CountedRows,
  type OpenedBatch,
  batchIdOf,
  countBatch,
  openBatch,
  pacingFor,
  planBatch,
  sendBatch,
  sendable,
} from '../../app/batch/send.js';
import { UseCaseError } from '../../app/failure.js';
import { sha256File } from '../../app/hashFile.js';
import type { EsignService } from '../../service/service.js';
import { CONFIRM_DESCRIPTION } from '../goAhead.js';
import { count, ours, say } from '../prose.js';
import { requireLive } from '../safety.js';
import { sendEffect } from '../sendPreview.js';
import { type BatchPlace, type Effect, type Json, Refusal, type ToolContext } from '../tool.js';
import { CheckMembers, checkBatch } from './batchCheck.js';
import { type BatchArgs, batchShape, loadBatchSource, requireBatchShape } from './batchInput.js';
import { job } from './kit.js';

const SEND_BATCH_LIMITS = { seconds: 600, bundles: 200, failures: 50, previewRows: 100, previewChars: 12_000 };

interface SendArgs extends BatchArgs {
  csv_name?: string;
  new_batch?: boolean;
  dry_run?: boolean;
  timeout_seconds: number;
  confirm?: boolean;
}

/** A refused edit of a CSV in this tool's words: the CSV as the caller named it, and the choices. */
const wordsFor = (a: SendArgs) => ({
  csv: a.csv_path ?? (a.csv_name === undefined ? 'The CSV text' : `The CSV text named by csv_name`),
  choices:
    'if it is another list, call again with new_batch: true (every row is sent); if it is this list edited, give it a custom_key column (rows are then matched by key)',
});

/** What names a CSV text sent without csv_name: one name for them all, so an edited text continues its batch. */
const UNNAMED_TEXT = 'mcp-csv:';

/**
 * The CSV as a file and what names it in the batch's identity: the path given, or the text by its
 * csv_name (every text without one goes by one name: its rows are matched to what the last such
 * text sent, as an edited file's are). A text to send is kept by its hash beside the journals; a
 * dry run's, and any where no journals are kept, in a directory of its own removed by `done`.
 */
async function csvFile(
  a: SendArgs,
  place: BatchPlace | undefined,
): Promise<{ csv: string; csvPath: string; named?: string; done: () => Promise<void> }> {
  if (a.csv_path !== undefined) return { csv: a.csv_path, csvPath: resolve(a.csv_path), done: async () => {} };
  const named = a.csv_name;
  const csvPath = named === undefined ? UNNAMED_TEXT : `mcp-csv:${named}`;
  if (!place || a.dry_run) {
    const dir = await mkdtemp(join(tmpdir(), 'esign-mcp-'));
    const csv = join(dir, 'rows.csv');
    await writeFile(csv, a.csv!, { mode: 0o600 });
    return { csv, csvPath, named, done: () => rm(dir, { recursive: true, force: true }) };
  }
  const kept = join(place.dir, 'mcp-csv');
  await mkdir(kept, { recursive: true, mode: 0o700 });
  const csv = join(kept, `${createHash('sha256').update(a.csv!).digest('hex')}.csv`);
  await writeFile(csv, a.csv!, { mode: 0o600 });
  return { csv, csvPath, named, done: async () => {} };
}

/** The service as a batch over HTTP uses it: every create first counts against the key's create limit. */
function countingCreates(service: EsignService, beforeCreate: () => void): EsignService {
  return new Proxy(service, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (typeof v !== 'function') return v;
      if (prop === 'createBundle' || prop === 'createBundleFromEnvelopeTemplate')
        return (...args: unknown[]) => {
          beforeCreate();
          return (v as (...x: unknown[]) => unknown).apply(target, args);
        };
      return v.bind(target);
    },
  });
}

/** The go-ahead's effect: how many Bundles to whom, and each row's signers and documents (as many as fit). */
function batchEffect(b: OpenedBatch, c: CountedRows): Effect {
  const rows: Json[] = [];
  let chars = 0;
  for (const r of c.rows) {
    const t = sendEffect(r.body).target!;
    const row = { row: r.row, label: t.label, signers: t.signers, documents: t.documents };
    chars += JSON.stringify(row).length;
    if (chars > SEND_BATCH_LIMITS.previewChars) break;
    rows.push(row);
  }
  const sending = sendable(c);
  const besides = [
    c.total > c.pending ? `${c.total - c.pending} rows already sent are skipped` : '',
    c.invalid ? `${c.invalid} invalid rows are not sent (a dry_run names their problems)` : '',
  ].filter(Boolean);
  const subjects = new Set(c.rows.map((r) => r.body.email_subject));
  return {
    action: say`send batch ${b.batchId}: ${count(sending, 'new Bundle')} to ${count(c.signers, 'signer')}${ours(c.allTest ? ' (test Bundles, not binding)' : '')}, each signer a link to sign${ours(besides.length ? `; ${besides.join('; ')}` : '')}`,
    target: {
      batch: b.batchId,
      rows_in_csv: c.total,
      sending,
      signers: c.signers,
      already_sent: c.total - c.pending,
      invalid: c.invalid,
      test: c.allTest,
      ...(subjects.size === 1 ? { subject: [...subjects][0] ?? null } : {}),
      rows,
      rows_not_shown: sending - rows.length,
    },
    reachesPeople: true,
  };
}

const Count = z.int();

export const sendBatchTool = (fileAccess: boolean) =>
  job({
    name: 'send_batch',
    title: 'Send a batch from a CSV',
    description:
      "One Bundle per CSV row, on esign batch send's journal: called again with the CSV, edited too (same " +
      `${fileAccess ? 'csv_path or ' : ''}csv_name, or unnamed csv), it resumes; no row is sent twice. Rows from exactly one of spec ` +
      '(a Bundle request whose strings hold {{column}}), template, envelope_template. One go-ahead for all ' +
      '(confirm: true); without it, who would get what. dry_run: what a send would do; nothing sent or kept. ' +
      'Stops at timeout_seconds: call again.',
    uses: [
      'createBundle',
      'createBundleFromEnvelopeTemplate',
      'addBundleTags',
      'listBundles',
      'getTemplate',
      'getEnvelopeTemplate',
    ],
    // The batch's tags go on each Bundle right after its create: sending adds Bundles, changes none.
    onWhatItMakes: ['addBundleTags'],
    long: true,
    input: z.strictObject({
      ...batchShape(fileAccess),
      csv_name: z.string().min(1).max(200).optional(),
      new_batch: z.boolean().optional().describe('send every row anew'),
      dry_run: z.boolean().optional(),
      timeout_seconds: z.int().min(1).max(SEND_BATCH_LIMITS.seconds).default(120),
      confirm: z.boolean().optional().describe(CONFIRM_DESCRIPTION),
    }),
    output: z.object({
      batch: z.string(),
      outcome: z.enum(['checked', 'done', 'some_failed', 'stopped']),
      rows: Count,
      exists: Count,
      ...CheckMembers,
      created: Count.optional(),
      skipped: Count.optional(),
      incomplete: Count.optional(),
      failed: Count.optional(),
      not_started: Count.optional(),
      bundles: z.array(z.object({ row: Count, id: z.string() })).optional(),
      bundles_not_shown: Count.optional(),
      failures: z.array(z.object({ row: Count, custom_key: z.string(), error: z.string() })).optional(),
      failures_not_shown: Count.optional(),
    }),
    async run(given, ctx: ToolContext) {
      const a = given as SendArgs;
      requireBatchShape(a, ctx);
      if (!ctx.batches && !a.dry_run)
        throw new Refusal(say`This server keeps no batch journal: send_batch only checks here (dry_run: true).`, {
          error: { code: 'refused', refused: 'batches' },
        });
      const file = await csvFile(a, ctx.batches);
      try {
        const header = await readHeader(file.csv);
        const from = await loadBatchSource(a, ctx);
        if (a.dry_run) {
          // What a send would start from (the journal, an earlier run of this CSV), read and not written.
          const plan = ctx.batches
            ? await planBatch({
                dir: ctx.batches.dir,
                ...file,
                header,
                from,
                newBatch: a.new_batch,
                words: wordsFor(a),
              })
            : undefined;
          const batch = plan?.batchId ?? batchIdOf(await sha256File(file.csv), from.descriptor, file.named);
          return await checkBatch(ctx, file.csv, from, batch, plan);
        }
        return await send(a, ctx, ctx.batches!, { ...file, header, from });
      } catch (e) {
        // The CSV's own failures (unreadable, a bad header, an edit that cannot be matched) are the caller's.
        if (e instanceof UseCaseError)
          throw new Refusal(say`Nothing was sent: the reason is in the data.`, {
            error: { code: e.kind, message: e.message },
          });
        throw e;
      } finally {
        await file.done();
      }
    },
  });

interface Rows {
  csv: string;
  csvPath: string;
  named?: string;
  header: string[];
  from: BatchSource;
}

async function send(a: SendArgs, ctx: ToolContext, place: BatchPlace, { csv, csvPath, named, header, from }: Rows) {
  const plan = planColumns(from.source, header);
  if (plan.problems.length)
    throw new UseCaseError(
      `The CSV header does not fit: ${plan.problems.map((p) => describeProblem(undefined, p)).join('; ')}`,
      'invalid',
    );
  const b = await openBatch({
    dir: place.dir,
    csv,
    csvPath,
    named,
    header,
    from,
    backend: place.backend,
    newBatch: a.new_batch,
    words: wordsFor(a),
  });
  try {
    const counted = await countBatch(b, SEND_BATCH_LIMITS.previewRows);
    const sending = sendable(counted);
    await requireLive(ctx, !sending || counted.allDraft || counted.allTest, say`send batch ${b.batchId}`);
    // Drafts reach nobody, and a batch whose rows are all sent sends nothing: no go-ahead to ask.
    if (sending && !counted.allDraft) await ctx.goAhead(a as unknown as Json, batchEffect(b, counted));

    const service = ctx.beforeCreate ? countingCreates(ctx.service, ctx.beforeCreate) : ctx.service;
    const { pacer, calls } = await pacingFor(
      service,
      { rateLimited: ctx.service.capabilities.rateLimited || ctx.beforeCreate !== undefined },
      counted.pending,
    );
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), a.timeout_seconds * 1000);
    const onAbort = () => stop.abort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const made: { row: number; id: string }[] = [];
    const failures: RowResult[] = [];
    let throttled = false;
    ctx.status(say`sending: 0 of ${count(counted.total, 'row')}`, a.timeout_seconds);
    let counts: Awaited<ReturnType<typeof sendBatch>>;
    try {
      counts = await sendBatch(
        service,
        b,
        { concurrency: 4, pacer, calls, signal: stop.signal, counted },
        {
          onResult(r, c) {
            if (r.status === 'created' || r.status === 'incomplete') made.push({ row: r.row, id: r.bundle_id });
            if (r.status === 'failed' || r.status === 'incomplete') failures.push(r);
            // The key's create limit is spent: the rest wait for the next call, not fail one by one.
            if (r.status === 'failed' && /throttled/i.test(r.error)) {
              throttled = true;
              stop.abort();
            }
            ctx.status(
              say`sending: ${c.done} of ${count(c.total, 'row')} done, ${c.created} created, ${c.failed} failed`,
              a.timeout_seconds,
            );
          },
        },
      );
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
    }
    const stopped = throttled ? 'throttled' : stop.signal.aborted ? 'time' : undefined;
    return answer(b.batchId, counted.total, counts, made, failures, stopped);
  } finally {
    b.journal.close();
  }
}

function answer(
  batch: string,
  total: number,
  counts: Awaited<ReturnType<typeof sendBatch>>,
  made: { row: number; id: string }[],
  failures: RowResult[],
  stopped: 'throttled' | 'time' | undefined,
) {
  const notStarted = total - counts.done;
  const outcome =
    stopped === 'throttled' || (stopped && notStarted > 0)
      ? 'stopped'
      : counts.failed || counts.incomplete
        ? 'some_failed'
        : 'done';
  const byRow = (x: { row: number }, y: { row: number }) => x.row - y.row;
  const shownBundles = made.sort(byRow).slice(0, SEND_BATCH_LIMITS.bundles);
  const shownFailures = failures.sort(byRow).slice(0, SEND_BATCH_LIMITS.failures);
  const tally = say`${counts.created} created, ${counts.skipped} sent before, ${counts.exists} already existing, ${counts.failed + counts.incomplete} failed`;
  const words = {
    done: say`Batch ${batch}: all ${count(total, 'row')} done (${ours(tally)}).`,
    some_failed: say`Batch ${batch}: ${count(total, 'row')} (${ours(tally)}). Fix the failed rows (in the data) and call again with the CSV: rows sent are not sent again.`,
    stopped: say`Batch ${batch} stopped ${ours(stopped === 'throttled' ? "at the key's create limit" : 'at timeout_seconds')} with ${count(notStarted, 'row')} not started (${ours(tally)}). Call again with the same CSV${ours(stopped === 'throttled' ? ' once the limit renews' : '')} to go on: rows sent are not sent again.`,
  };
  return {
    say: words[outcome],
    data: {
      batch,
      outcome,
      rows: total,
      created: counts.created,
      skipped: counts.skipped,
      exists: counts.exists,
      incomplete: counts.incomplete,
      failed: counts.failed,
      not_started: notStarted,
      bundles: shownBundles,
      bundles_not_shown: made.length - shownBundles.length,
      failures: shownFailures.map((f) => ({ row: f.row, custom_key: f.custom_key, error: f.error })),
      failures_not_shown: failures.length - shownFailures.length,
    },
  };
}
