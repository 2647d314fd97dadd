// Sending a batch, whichever door asks (esign batch send, MCP's send_batch): the batch named by its
// CSV and source (or given a name) and opened on its journal, an earlier run of the same CSV
// continued (identity.ts), the rows left counted for the go-ahead, paced on a rate-limited backend,
// then sent by runBatch. Each door asks for the go-ahead and shows progress its own way.
import { createHash } from 'node:crypto';
import { sha256File } from '../hashFile.js';
import * as pacing from '../rateBudget.js';
import type { Allowance, Pacer } from '../rateBudget.js';
import type { EsignService } from '../../service/service.js';
import { UseCaseError } from '../failure.js';
import type { BatchPlan } from './checkRows.js';
import { readRows } from './csv.js';
import { FileCache } from './fileCache.js';
import { continueEarlier } from './identity.js';
import { Journal, type JournalEntry, journalPath, readJournal } from './journal.js';
import type { Source } from './mapping.js';
import { RowChecker } from './rows.js';
import { type Counts, type RunHooks, type RunOptions, runBatch } from './runner.js';
import { sliced } from './slices.js';

/** Where the rows' Bundles come from, and what names it in a batch's identity. */
export interface BatchSource {
  source: Source;
  /** What the batch id hashes: the spec's content, or the template's id. */
  descriptor: string;
  /** Which source it is: a spec's path (or `spec:` and a door's own name for it), or the template's id. */
  ref: string;
}

const BATCH_ID = /^[A-Za-z0-9_.-]{1,80}$/;

/**
 * The default batch id: a hash of the CSV's bytes and of the source, so the same command is the same
 * batch; and of the name a CSV without a path goes by (`named`), so a named one is not the unnamed.
 */
export function batchIdOf(csvSha256: string, descriptor: string, named?: string): string {
  const name = named === undefined ? '' : `\nnamed:${named}`;
  return createHash('sha256').update(`${csvSha256}\n${descriptor}${name}`).digest('hex').slice(0, 12);
}

/** Invalid row numbers kept from the counting pass; past this many every row is checked again whole. */
const MAX_INVALID_KEPT = 10_000;

export interface OpenBatchOptions {
  /** The journal directory (the CLI's for this backend; esign serve's under its data directory). */
  dir: string;
  /** The CSV file read. */
  csv: string;
  /** What names the CSV in the batch's identity: its absolute path (an edited file continues its batch). */
  csvPath: string;
  /** The name a CSV given as text goes by (MCP's csv_name), in place of a path: part of the batch id. */
  named?: string;
  header: string[];
  from: BatchSource;
  /** A name for the batch; else a hash of the CSV and the source. */
  batchId?: string;
  /** Where Bundles go, as text for the journal. */
  backend: string;
  /** Send every row as a new batch, even where an earlier run of this CSV sent rows since edited. */
  newBatch?: boolean;
  /** A refused edit in the door's words (identity.ts continueEarlier). */
  words?: { choices: string; csv: string };
}

export interface OpenedBatch {
  batchId: string;
  journal: Journal;
  csv: string;
  header: string[];
  source: Source;
  /** Keys of rows an earlier run of this CSV had in flight (looked up before any create). */
  keyFor: (row: number) => string | undefined;
}

/** Whether each row carries its own custom_key (a column, or a spec whose key is a placeholder): rows are then matched by key. */
function ownKeys(source: Source, header: string[]): boolean {
  if (header.includes('custom_key')) return true;
  return source.kind === 'spec' && typeof source.spec.custom_key === 'string' && source.spec.custom_key.includes('{{');
}

/** What names a batch in its journal: its id, and the source's content hashed. */
async function identityOf(o: OpenBatchOptions) {
  if (o.batchId !== undefined && !BATCH_ID.test(o.batchId))
    throw new UseCaseError(`The batch id "${o.batchId}": use letters, digits, "_", "-" and "." (at most 80).`, 'usage');
  return {
    batchId: o.batchId ?? batchIdOf(await sha256File(o.csv), o.from.descriptor, o.named),
    sourceSha: createHash('sha256').update(o.from.descriptor).digest('hex').slice(0, 32),
  };
}

/** The same CSV sent before and edited since: rows sent are carried over into `journal`, never sent twice. */
async function carryOver(
  journal: Pick<Journal, 'rows' | 'record'>,
  o: OpenBatchOptions,
  batchId: string,
  sourceSha: string,
) {
  const keys = await continueEarlier(journal, {
    dir: o.dir,
    csv: o.csv,
    header: o.header,
    batchId,
    csvPath: o.csvPath,
    sourceRef: o.from.ref,
    sourceSha,
    newBatch: o.newBatch,
    ownKeys: ownKeys(o.from.source, o.header),
    explicitId: o.batchId !== undefined,
    words: o.words,
  });
  return (row: number) => keys.get(row);
}

/** The batch's name, its journal (locked: one sender at a time) and what an earlier run of its CSV did. */
export async function openBatch(o: OpenBatchOptions): Promise<OpenedBatch> {
  const { batchId, sourceSha } = await identityOf(o);
  const journal = await Journal.open(o.dir, {
    batch: batchId,
    csv: o.csv,
    source: o.from.descriptor.slice(0, 200),
    backend: o.backend,
    started: new Date().toISOString(),
    csv_path: o.csvPath,
    source_ref: o.from.ref,
    source_sha: sourceSha,
  });
  try {
    const keyFor = await carryOver(journal, o, batchId, sourceSha);
    return { batchId, journal, csv: o.csv, header: o.header, source: o.from.source, keyFor };
  } catch (e) {
    journal.close();
    throw e;
  }
}

/**
 * What a send of the batch would start from, read without writing or locking anything (a dry run's):
 * its id, each row's last entry in its journal with the rows an earlier run of the CSV sent carried
 * over (in memory), and the keys of rows that run had in flight. Refuses as openBatch would.
 */
export async function planBatch(o: Omit<OpenBatchOptions, 'backend'>): Promise<BatchPlan> {
  const { batchId, sourceSha } = await identityOf({ ...o, backend: '' });
  const { rows } = readJournal(journalPath(o.dir, batchId));
  const memory = {
    rows,
    record: (e: Omit<JournalEntry, 'at'>) => {
      if (rows.get(e.row)?.s !== 'sent') rows.set(e.row, { ...e, at: '' });
    },
  };
  const keyFor = await carryOver(memory, { ...o, backend: '' }, batchId, sourceSha);
  return { batchId, rows, keyFor };
}

/** A row the go-ahead names: its number, and its request's body (who gets what). */
interface CountedRow {
  row: number;
  body: Record<string, unknown>;
}

export interface CountedRows {
  total: number;
  /** Rows the journal does not call sent. */
  pending: number;
  /** Signers of the valid pending rows. */
  signers: number;
  allTest: boolean;
  allDraft: boolean;
  invalid: number;
  invalidRows: Set<number>;
  /** The first `keepRows` valid pending rows (for a preview). */
  rows: CountedRow[];
}

/** Rows the journal does not call sent that would be sent (valid ones). */
export const sendable = (c: CountedRows) => c.pending - c.invalid;

/**
 * The counting pass: how many rows are left, to how many signers, whether all are tests or drafts,
 * which are invalid (the same check as batch check), and the first `keepRows` valid ones whole.
 * Works in slices, so a server counting for one caller answers others meanwhile.
 */
export async function countBatch(b: OpenedBatch, keepRows = 0): Promise<CountedRows> {
  const checker = new RowChecker(b.source, {
    batchId: b.batchId,
    readFiles: false,
    files: new FileCache(),
    keyFor: b.keyFor,
  });
  const c: CountedRows = {
    total: 0,
    pending: 0,
    signers: 0,
    allTest: true,
    allDraft: true,
    invalid: 0,
    invalidRows: new Set(),
    rows: [],
  };
  const slice = sliced();
  for await (const r of readRows(b.csv, b.header)) {
    await slice();
    c.total++;
    const prior = b.journal.rows.get(r.row);
    if (prior?.s === 'sent') {
      checker.claim(r.row, prior.key);
      continue;
    }
    c.pending++;
    const built = await checker.check(r);
    const body = built.request?.body;
    if (!body) {
      c.invalid++;
      if (c.invalidRows.size < MAX_INVALID_KEPT) c.invalidRows.add(r.row);
      continue;
    }
    c.signers += built.request!.signers;
    if (body.is_test !== true) c.allTest = false;
    if (body.status !== 'dr') c.allDraft = false;
    if (c.rows.length < keepRows) c.rows.push({ row: r.row, body });
  }
  return c;
}

/** The pace of creates and calls on a rate-limited backend: `rate` (creates/seconds), or the allowance the backend tells. */
export async function pacingFor(
  service: EsignService,
  o: { rate?: string; rateLimited?: boolean },
  pending: number | undefined,
): Promise<{ pacer?: Pacer; calls?: Pacer; allowance?: Allowance }> {
  // Rows not counted (undefined): some may be pending.
  if (!(o.rateLimited ?? service.capabilities.rateLimited) || pending === 0) return {};
  // The call budget is read even with a rate: every row costs a lookup by custom_key.
  const told = o.rate
    ? await pacing.readAllowance(service).catch(() => undefined)
    : await pacing.readAllowance(service);
  const allowance = o.rate ? pacing.parseRate(o.rate) : told!;
  return {
    pacer: pacing.Pacer.forCreates(allowance),
    calls: told ? pacing.Pacer.forCalls(told) : undefined,
    allowance,
  };
}

export type SendOptions = Pick<RunOptions, 'concurrency' | 'pacer' | 'calls' | 'signal' | 'throttle'> & {
  /** The counting pass, when one ran: its valid rows are not checked against the schema again. */
  counted?: CountedRows;
};

/** Sends the batch's rows (runBatch), on its journal. */
export function sendBatch(service: EsignService, b: OpenedBatch, o: SendOptions, hooks: RunHooks): Promise<Counts> {
  const c = o.counted;
  return runBatch(
    service,
    b.source,
    b.journal,
    {
      csv: b.csv,
      header: b.header,
      batchId: b.batchId,
      concurrency: o.concurrency,
      pacer: o.pacer,
      calls: o.calls,
      signal: o.signal,
      total: c?.total,
      // Rows of this file as counted, valid then: checked again whole only if invalid or new.
      schemaPassed: c && ((row) => c.invalid < MAX_INVALID_KEPT && row <= c.total && !c.invalidRows.has(row)),
      keyFor: b.keyFor,
      throttle: o.throttle,
    },
    hooks,
  );
}

export type Failure = { row: number; custom_key: string; error: string };

/** The batch's summary, as the CLI prints it and as JSON. */
export function summaryOf(
  batchId: string,
  total: number,
  counts: Counts,
  started: number,
  journal: string,
  failures: Failure[],
  allowance: Allowance | undefined,
) {
  const seconds = (Date.now() - started) / 1000;
  return {
    batch: batchId,
    rows: total,
    created: counts.created,
    skipped: counts.skipped,
    exists: counts.exists,
    incomplete: counts.incomplete,
    failed: counts.failed,
    interrupted: counts.interrupted,
    not_started: total - counts.done - counts.interrupted,
    seconds: Number(seconds.toFixed(2)),
    rate_per_second: Number((counts.created / Math.max(seconds, 0.001)).toFixed(2)),
    pacing: allowance ? pacing.describeAllowance(allowance) : null,
    journal,
    // Rows finish in any order (several at a time): said in the CSV's.
    failures: failures.sort((a, b) => a.row - b.row),
  };
}
