// The body of esign batch send (declared in send.ts): one Bundle per row, journaled, resumable,
// paced by the server.
import { resolve } from 'node:path';
import { readHeader } from '../../../app/batch/csv.js';
import { duplicateRows, fingerprints, rowNumbers } from '../../../app/batch/identity.js';
import type { Journal } from '../../../app/batch/journal.js';
import * as mapping from '../../../app/batch/mapping.js';
import { ResultsFile } from '../../../app/batch/results.js';
import { type Counts, countRows as countCsvRows } from '../../../app/batch/runner.js';
import {
  type CountedRows,
  type Failure,
  countBatch,
  openBatch,
  pacingFor,
  planBatch,
  sendBatch,
  sendable,
  summaryOf,
} from '../../../app/batch/send.js';
import type { Pacer } from '../../../app/rateBudget.js';
import { safeLine } from '../../../app/sanitize.js';
import type { Progress } from '../../batch/progress.js';
import * as src from '../../batch/source.js';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { note, printObject } from '../../output/print.js';
import { confirm, intArg } from '../../run.js';
import type { Run } from '../../verb.js';
import { checkCsv } from './check.run.js';
import type { send } from './send.js';

export const run: Run<typeof send> = async (f, o, csv) => {
  if (o.dryRun) return dryRun(f, o, csv);
  const concurrency = o.concurrency !== undefined ? intArg(o.concurrency, '--concurrency', 1) : 4;
  const header = await readHeader(csv);
  const from = await src.loadSource(f, o);
  refuseUnfitHeader(f, mapping, mapping.planColumns(from.source, header));
  const service = await f.service();
  const batch = await openBatch({
    dir: await f.journalDir(),
    csv,
    csvPath: resolve(csv),
    header,
    from,
    batchId: o.batchId,
    backend: await f.backendLabel(),
    newBatch: o.newBatch,
  });
  const { batchId, journal } = batch;
  let results: ResultsFile | undefined;
  try {
    if (!f.options.json && !f.options.quiet) warnDuplicates(f, duplicateRows(await fingerprints(csv, header)));
    const showBar = f.io.err.isTTY && !f.options.json && !f.options.quiet;
    // A streamed pass first, when something asks: how many rows are left, to how many signers, and
    // whether all are tests (the question, the live gate, the bar). Otherwise (--yes, nothing to gate)
    // the rows are read, built and checked once, as they are sent.
    let counted: CountedRows | undefined;
    const count = async () => {
      counted ??= await countBatch(batch);
      return counted;
    };
    await confirmSend(f, o, count, showBar);
    const c = counted as CountedRows | undefined;

    const { pacer, calls, allowance } = await pacingFor(service, o, c?.pending);
    if (o.results) results = openResults(o.results);
    const bar = c && showBar ? await f.io.progress(c.total, () => journalCounts(journal)) : undefined;
    // With the bar, a 429's wait and the backend's retry notes are said in its note slot, not above it.
    const undivert = bar
      ? f.divertRetryNotes((line) => {
          if (!/HTTP 429/.test(line)) bar.note(line.replace(/^esign: /, ''), 5_000);
        })
      : undefined;
    // A second Ctrl-C ends the process at once: the results file still gets what it held, and the rows in flight.
    const onExit = () => results?.abandon(inFlight(journal));
    process.once('exit', onExit);
    const failures: Failure[] = [];
    const created: string[] = [];
    const abort = new AbortController();
    const onSigint = () => abort.abort();
    process.once('SIGINT', onSigint);
    const started = Date.now();
    let counts: Counts;
    try {
      counts = await sendBatch(
        service,
        batch,
        { concurrency, pacer, calls, signal: abort.signal, counted: c, throttle: (l) => f.onThrottle(l) },
        handlersFor(f, { results, created, failures, showBar, bar, pacer }),
      );
    } finally {
      process.removeListener('SIGINT', onSigint);
      undivert?.();
      bar?.stop();
    }
    // Interrupted before reading every row of an uncounted CSV: the rest are counted, as not started.
    const total = c || !abort.signal.aborted ? counts.total : (await countCsvRows(csv, header)).rows;
    process.removeListener('exit', onExit);
    results?.close(abort.signal.aborted ? total : undefined);
    results = undefined;
    const summary = summaryOf(batchId, total, counts, started, journal.path, failures, allowance);
    await printSummary(f, summary, counts, failures);
    if (abort.signal.aborted) throw new CliError(interruptedSummary(summary, counts), EXIT.INTERRUPTED);
    if (counts.failed || counts.incomplete)
      throw new CliError(
        `${counts.failed + counts.incomplete} of ${total} rows failed. Fix them and run the same command again: rows already sent are skipped.`,
        EXIT.PARTIAL,
      );
  } finally {
    results?.close();
    journal.close();
  }
};

/** The one line an interrupted run ends with: rows done (and how), interrupted, not started, and how to resume. */
function interruptedSummary(summary: Summary, counts: Counts): string {
  const how = [
    `${counts.created} created`,
    counts.skipped + counts.exists ? `${counts.skipped + counts.exists} skipped` : '',
    counts.failed + counts.incomplete ? `${counts.failed + counts.incomplete} failed` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return (
    `Interrupted: ${counts.done} of ${summary.rows} rows done (${how}), ${counts.interrupted} interrupted ` +
    `before their create was sent, ${summary.not_started} not started. Run the same command again to resume.`
  );
}

/** --results FILE, opened now: a path that cannot be written is a usage error naming it. */
function openResults(path: string): ResultsFile {
  try {
    return new ResultsFile(path);
  } catch (e) {
    throw new CliError(`--results ${path}: cannot be written (${(e as Error).message}).`, EXIT.USAGE);
  }
}

/** Rows the journal holds as begun and not ended: their create may be in flight. */
function inFlight(journal: Journal): { row: number; key: string }[] {
  return [...journal.rows.entries()]
    .filter(([, e]) => e.s !== 'sent' && e.s !== 'failed')
    .map(([row, e]) => ({ row, key: e.key }));
}

/** Identical rows are each sent (a CSV may mean them): said before anything is sent, in case it does not. */
export function warnDuplicates(f: Factory, dups: { row: number; first: number }[]): void {
  if (!dups.length) return;
  const rows = rowNumbers(dups.map((d) => `${d.row} (as row ${d.first})`));
  note(
    f,
    `Warning: ${rows} repeat${dups.length === 1 ? 's' : ''} an earlier row value for value: each is sent as a Bundle of its own.`,
  );
}

/** What the journal holds of the batch's rows now (said if the process ends before the batch). */
function journalCounts(journal: Journal) {
  const j = { sent: 0, failed: 0, inFlight: 0 };
  for (const e of journal.rows.values()) {
    if (e.s === 'sent') j.sent++;
    else if (e.s === 'failed') j.failed++;
    else j.inFlight++;
  }
  return j;
}

interface Summary {
  batch: string;
  rows: number;
  interrupted: number;
  not_started: number;
  rate_per_second: number;
  journal: string;
}

/** The summary (unless -q) and the first failures, on stderr. */
async function printSummary(
  f: Factory,
  summary: Summary,
  counts: Counts,
  failures: { row: number; custom_key: string; error: string }[],
) {
  if (!f.options.quiet) {
    await printObject(f, summary, [
      ['batch', summary.batch],
      ['rows', summary.rows],
      ['created', counts.created],
      ['skipped', `${counts.skipped} (already sent)`],
      ['exists', `${counts.exists} (custom_key already on the backend: not sent)`],
      ...(counts.incomplete
        ? [['incomplete', `${counts.incomplete} (created, tags not added)`] as [string, unknown]]
        : []),
      ['failed', counts.failed],
      ...(summary.interrupted
        ? [['interrupted', `${summary.interrupted} (stopped before their create was sent)`] as [string, unknown]]
        : []),
      ...(summary.not_started ? [['not started', summary.not_started] as [string, unknown]] : []),
      ['rate', `${summary.rate_per_second} Bundles/s`],
      ['journal', summary.journal],
    ]);
  }
  if (!f.options.json)
    for (const x of failures.slice(0, 50))
      note(f, `row ${x.row}${x.custom_key ? ` (${x.custom_key})` : ''}: ${x.error}`);
  if (failures.length > 50) note(f, `... and ${failures.length - 50} more (esign batch status ${summary.batch}).`);
}

type Mapping = typeof mapping;

/** A header that does not fit the source: each problem said, and nothing sent. */
function refuseUnfitHeader(f: Factory, mapping: Mapping, plan: ReturnType<Mapping['planColumns']>) {
  if (!plan.problems.length) return;
  for (const p of plan.problems) f.io.err.write(`esign: ${mapping.describeProblem(undefined, p)}\n`);
  throw new CliError('The CSV header does not fit the source: nothing was sent (see esign batch check).', EXIT.INVALID);
}

/**
 * Live use is allowed (or the rows are tests or drafts), then the person confirms what is about to go.
 * The rows are counted only if the gate, the question or the bar needs them.
 */
async function confirmSend(
  f: Factory,
  o: { live?: boolean; yes?: boolean },
  count: () => Promise<CountedRows>,
  showBar: boolean,
) {
  await f.requireLive(
    async () => {
      const c = await count();
      return !sendable(c) || c.allDraft || c.allTest;
    },
    o.live,
    'create',
  );
  if (o.yes && !showBar) return;
  // The rows that will be sent: invalid ones (the same check as batch check) are said, not counted.
  const c = await count();
  const { total, pending, invalid, signers, allDraft } = c;
  const sending = sendable(c);
  const besides = [
    total > pending ? `${total - pending} already sent` : '',
    invalid ? `${invalid} invalid, not sent: see esign batch check` : '',
  ]
    .filter(Boolean)
    .join('; ');
  if (sending)
    await confirm(
      f,
      `${allDraft ? 'Save' : 'Send'} ${sending} Bundle${sending === 1 ? '' : 's'}${allDraft ? ' as drafts' : ''} to ${signers} signer${signers === 1 ? '' : 's'}${besides ? ` (${besides})` : ''}?`,
      o.yes,
    );
}

type Handlers = Parameters<typeof sendBatch>[3];

/** What each row's result and each pause show: the results file, -q ids, failures kept, the bar. */
function handlersFor(
  f: Factory,
  s: {
    results: ResultsFile | undefined;
    created: string[];
    failures: Failure[];
    showBar: boolean;
    bar: Progress | undefined;
    pacer: Pacer | undefined;
  },
): Handlers {
  const { results, created, failures, showBar, bar, pacer } = s;
  return {
    onResult(r, c) {
      results?.write(r);
      if (r.status === 'created' || r.status === 'incomplete') {
        created.push(r.bundle_id);
        if (f.options.quiet && !f.options.json) f.io.out.write(`${safeLine(r.bundle_id)}\n`);
      }
      if (r.status === 'failed' || r.status === 'incomplete')
        failures.push({ row: r.row, custom_key: r.custom_key, error: r.error });
      else if (r.status === 'exists' && !showBar && !f.options.quiet && !f.options.json)
        note(f, `row ${r.row} (${r.custom_key}): exists as Bundle ${r.bundle_id}, not sent again`);
      const next =
        pacer && pacer.nextSlotAt() > Date.now() + 1000
          ? `next slot in ${Math.ceil((pacer.nextSlotAt() - Date.now()) / 1000)} s`
          : undefined;
      bar?.update(c, next);
    },
    onPause(until) {
      bar?.note(
        () => `429: resuming in ${Math.max(0, Math.ceil((until - Date.now()) / 1000))}s`,
        Math.max(0, until - Date.now()) + 1_000,
      );
      if (!showBar && !f.options.quiet && !f.options.json)
        note(f, `Rate limited: the next create goes at ${new Date(until).toISOString()}.`);
    },
  };
}

/** The check of every row, as this batch's send would take them: its journal, an earlier run of the CSV, its custom_keys. */
async function dryRun(f: Factory, o: Parameters<Run<typeof send>>[1], csv: string): Promise<void> {
  const header = await readHeader(csv);
  const from = await src.loadSource(f, o);
  const plan = await planBatch({
    dir: await f.journalDir(),
    csv,
    csvPath: resolve(csv),
    header,
    from,
    batchId: o.batchId,
    newBatch: o.newBatch,
  });
  return checkCsv(f, csv, async () => from.source, plan);
}
