// Sends the rows of a batch: streamed from the CSV, a few creates at a time, each journaled before
// and after, paced on a remote server. No row is sent twice: rows the journal calls sent are
// skipped without a call; every other row is looked up by custom_key first (a Bundle made by an
// earlier run, of any batch, or by anyone) and reported `exists` instead of being sent again.
import { ApiError } from '../../domain/errors.js';
import type { EsignService } from '../../service/service.js';
import type { Bundle } from '../../service/types.js';
import { readRows } from './csv.js';
import { FileCache } from './fileCache.js';
import { rowFingerprint } from './identity.js';
import type { Journal } from './journal.js';
import { type RowRequest, type Source, describeProblem } from './mapping.js';
import type { Pacer } from '../rateBudget.js';
import { RowChecker } from './rows.js';
import { sliced } from './slices.js';

/**
 * created: sent now. incomplete: created now, but its tags were not added. skipped: sent by an earlier
 * run of this batch (its journal). found: an interrupted create of this batch had made it. exists: a
 * Bundle with the row's custom_key was already on the backend. failed: not created. interrupted:
 * begun, but Ctrl-C came before its create was sent (nothing made), or (results.ts, on a hard exit)
 * its create was in flight. not_started: never begun (the results file of an interrupted run).
 */
type Outcome = 'created' | 'incomplete' | 'skipped' | 'found' | 'exists' | 'failed' | 'interrupted' | 'not_started';

export interface RowResult {
  row: number;
  custom_key: string;
  bundle_id: string;
  status: Outcome;
  error: string;
}

export interface Counts {
  total: number;
  done: number;
  created: number;
  /** Already sent by an earlier run of this batch (the journal says so, or a custom_key lookup found it). */
  skipped: number;
  /** A Bundle with the row's custom_key was already on the backend: not sent. */
  exists: number;
  /** Created, but its tags were not added. */
  incomplete: number;
  failed: number;
  /** Begun, but stopped by Ctrl-C before its create was sent: not in `done`. */
  interrupted: number;
}

/** A row's wait for its pace ended by Ctrl-C: it stops before sending anything. */
class RowInterrupted extends Error {}

export interface RunHooks {
  onResult(r: RowResult, counts: Counts): void;
  /** A 429 paused sending until this time (ms since the epoch). */
  onPause?(untilMs: number): void;
}

export interface RunOptions {
  csv: string;
  header: string[];
  batchId: string;
  concurrency: number;
  /** Bundle creations on a remote server. */
  pacer?: Pacer;
  /** Every call on a remote server (lookups by custom_key, creates, tags). */
  calls?: Pacer;
  /** Stop taking new rows (Ctrl-C); rows in flight finish and are journaled. */
  signal?: AbortSignal;
  /** Rows the counting pass built and found valid (their schema check is not repeated). */
  schemaPassed?: (row: number) => boolean;
  /** Keys of rows an earlier run of this CSV had in flight (identity.ts). */
  keyFor?: (row: number) => string | undefined;
  /** Rows counted beforehand, for progress; else `Counts.total` grows as rows are read. */
  total?: number;
  /** Subscribes to the backend's waits on a 429 (Factory.onThrottle): every row pauses with the one waiting. */
  throttle?: (listener: (untilMs: number) => void) => () => void;
}

/** Rows whose custom_keys are looked up together, on a backend that finds many in one read. */
const LOOKUP_CHUNK = 100;

/** A server's field errors named by the row's columns where they came from one. */
function errorText(e: unknown, req?: RowRequest): string {
  if (!(e instanceof ApiError) || !e.errors.length) return (e as Error)?.message ?? String(e);
  return e.errors
    .map((x) => {
      const column = req?.columnOf(x.field);
      return `${column ? `column ${column}` : x.field}: ${x.message}`;
    })
    .join('; ');
}

/** What sending one row needs from the run: the backend, the journal, the options, and the run's own steps. */
interface RowContext {
  service: EsignService;
  journal: Journal;
  o: RunOptions;
  /** Counts a row's result and reports it. */
  finish: (r: RowResult) => void;
  /** Waits for a call's slot in the pace. */
  call: () => Promise<void>;
  /** Waits for a call's slot, unless Ctrl-C comes first: then throws RowInterrupted (nothing was sent). */
  callUnlessStopped: () => Promise<void>;
  lookup: (key: string) => Promise<Bundle | undefined>;
}

/** How one row goes: found by its custom_key (exists, or made by an interrupted run), else created and tagged. */
function rowHandler({ service, journal, o, finish, call, callUnlessStopped, lookup }: RowContext) {
  const create = async (req: RowRequest): Promise<Bundle> => {
    return req.endpoint === 'envelope'
      ? service.createBundleFromEnvelopeTemplate(req.body)
      : service.createBundle(req.body, req.files);
  };

  /** The row's Bundle exists by now: its tags are added as `bundle create` adds them; a failure is said, never retried by a create. */
  const created = async (
    row: number,
    req: RowRequest,
    b: Bundle,
    status: 'created' | 'found' = 'created',
  ): Promise<void> => {
    if (!req.tags.length) return finish({ row, custom_key: req.key, bundle_id: b.id, status, error: '' });
    try {
      await call();
      // Adding is a union: safe again for a Bundle an interrupted run made (and maybe tagged).
      await service.addBundleTags(b.id, req.tags);
      return finish({ row, custom_key: req.key, bundle_id: b.id, status, error: '' });
    } catch (e) {
      const add = `esign bundle tags add ${b.id} ${req.tags.map((t) => (/^[\w.,:@%+=/-]+$/.test(t) ? t : JSON.stringify(t))).join(' ')}`;
      const error = `created, but its tags were not added (${add}): ${errorText(e)}`;
      return finish({ row, custom_key: req.key, bundle_id: b.id, status: 'incomplete', error });
    }
  };

  /** A Bundle with the row's key is already on the backend: reported, journaled as sent, never sent again. */
  const exists = (row: number, req: RowRequest, b: Bundle) => {
    journal.record({ row, key: req.key, s: 'sent', id: b.id, status: b.status, found: true, exists: true, fp: req.fp });
    finish({ row, custom_key: req.key, bundle_id: b.id, status: 'exists', error: '' });
  };

  /**
   * One create under the backend's retry policy (remote/retryPolicy.ts: a 429 waited out, an unknown
   * outcome looked up by custom_key before the create is sent again), journaled before and after.
   */
  const send = async (row: number, req: RowRequest): Promise<void> => {
    // Ctrl-C while a row waits for its turn: it stops there, before anything is sent or journaled.
    if (o.pacer && !(await o.pacer.slot(o.signal))) throw new RowInterrupted();
    await callUnlessStopped();
    journal.record({ row, key: req.key, s: 'begin', fp: req.fp });
    try {
      const b = await create(req);
      journal.record({ row, key: req.key, s: 'sent', id: b.id, status: b.status, fp: req.fp });
      return await created(row, req, b);
    } catch (e) {
      const status = e instanceof ApiError ? e.status : undefined;
      if (status === 400 && (e as ApiError).errors.some((x) => x.field === 'custom_key')) {
        // Taken since the lookup (another process, say): the backend names the Bundle that has it.
        const other = await lookup(req.key).catch(() => undefined);
        if (other) return exists(row, req, other);
      }
      if (status !== undefined && status < 500) {
        journal.record({ row, key: req.key, s: 'failed', error: errorText(e, req), fp: req.fp });
        return finish({ row, custom_key: req.key, bundle_id: '', status: 'failed', error: errorText(e, req) });
      }
      // Still unknown after the policy's lookups and retries: the next run looks the key up first.
      journal.record({ row, key: req.key, s: 'unknown', error: errorText(e), fp: req.fp });
      const error = `${errorText(e)}; not found by custom_key, so the next run looks again before sending it`;
      return finish({ row, custom_key: req.key, bundle_id: '', status: 'failed', error });
    }
  };

  /** `known`: the chunk's lookup answered for this row (null: no such Bundle); undefined: look it up now. */
  return async (row: number, req: RowRequest, known?: Bundle | null): Promise<void> => {
    const prior = journal.rows.get(row);
    const found = known === undefined ? await lookup(req.key) : (known ?? undefined);
    if (found) {
      // Interrupted mid-create, this batch made it; otherwise it was there before this row.
      if (prior && prior.key === req.key && (prior.s === 'begin' || prior.s === 'unknown')) {
        journal.record({ row, key: req.key, s: 'sent', id: found.id, status: found.status, found: true, fp: req.fp });
        return await created(row, req, found, 'found');
      }
      return exists(row, req, found);
    }
    await send(row, req);
  };
}

export async function runBatch(
  service: EsignService,
  source: Source,
  journal: Journal,
  o: RunOptions,
  hooks: RunHooks,
): Promise<Counts> {
  const counts: Counts = {
    total: o.total ?? 0,
    done: 0,
    created: 0,
    skipped: 0,
    exists: 0,
    incomplete: 0,
    failed: 0,
    interrupted: 0,
  };
  const finish = (r: RowResult) => {
    if (r.status === 'interrupted') counts.interrupted++;
    else counts.done++;
    if (r.status === 'created') counts.created++;
    else if (r.status === 'incomplete') counts.incomplete++;
    else if (r.status === 'failed') counts.failed++;
    else if (r.status === 'exists') counts.exists++;
    else if (r.status !== 'interrupted') counts.skipped++;
    hooks.onResult(r, counts);
  };
  // A 429 is waited out by the backend's retry policy; meanwhile no other row starts a call.
  const unsubscribe = o.throttle?.((until) => {
    o.pacer?.pause(until);
    o.calls?.pause(until);
    hooks.onPause?.(until);
  });
  const call = async () => {
    await o.calls?.slot();
  };
  const callUnlessStopped = async () => {
    if (o.signal?.aborted || (o.calls && !(await o.calls.slot(o.signal)))) throw new RowInterrupted();
  };
  // One call's slot for the look-up (a remote search of more than 100 near keys reads more pages).
  const lookup = (key: string) => callUnlessStopped().then(() => service.findBundleByCustomKey(key));

  const handle = rowHandler({ service, journal, o, finish, call, callUnlessStopped, lookup });

  // Rows go in order through chunks: a backend that finds many custom_keys in one read is asked once
  // per chunk; any other looks each row's key up in its own turn (the chunk is one row).
  const findMany = service.findBundlesByCustomKeys?.bind(service);
  const chunkSize = findMany ? LOOKUP_CHUNK : 1;
  type Entry = { row: number; req: RowRequest } | { row: number; now: () => void };
  const inflight = new Set<Promise<void>>();
  const dispatch = async (row: number, req: RowRequest, known?: Bundle | null) => {
    const p = handle(row, req, known).catch((e) => {
      if (e instanceof RowInterrupted)
        return finish({
          row,
          custom_key: req.key,
          bundle_id: '',
          status: 'interrupted',
          error: 'stopped by Ctrl-C before its create was sent',
        });
      finish({ row, custom_key: req.key, bundle_id: '', status: 'failed', error: errorText(e) });
    });
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
    if (inflight.size >= o.concurrency) await Promise.race(inflight);
  };
  const flush = async (chunk: Entry[]) => {
    const keys = chunk.flatMap((e) => ('req' in e ? [e.req.key] : []));
    // A failed chunk read is not a failed row: each row then looks its key up itself.
    const found = findMany && keys.length ? await findMany(keys).catch(() => undefined) : undefined;
    for (const e of chunk) {
      // After Ctrl-C the rows read already that need no call (sent before, invalid) are still said.
      if (!('req' in e)) e.now();
      else if (o.signal?.aborted) continue;
      else await dispatch(e.row, e.req, found ? (found.get(e.req.key) ?? null) : undefined);
    }
  };

  try {
    const files = new FileCache();
    const checker = new RowChecker(source, {
      batchId: o.batchId,
      readFiles: true,
      files,
      // The engine checks each create against the same schemas, naming the same fields (mapped back
      // to columns by errorText): checked here too, every row would be checked twice.
      schemaPassed: service.capabilities.checksInProcess ? () => true : o.schemaPassed,
      keyFor: o.keyFor,
      templates: service,
    });
    let chunk: Entry[] = [];
    // In slices: a server sending one caller's batch answers others meanwhile.
    const slice = sliced();
    for await (const csvRow of readRows(o.csv, o.header)) {
      await slice();
      if (o.signal?.aborted) break;
      const row = csvRow.row;
      if (o.total === undefined) counts.total++;
      const prior = journal.rows.get(row);
      if (prior?.s === 'sent') {
        checker.claim(row, prior.key);
        const now = () =>
          finish({ row, custom_key: prior.key, bundle_id: prior.id ?? '', status: 'skipped', error: '' });
        chunk.push({ row, now });
      } else {
        const built = await checker.check(csvRow);
        const fp = rowFingerprint(csvRow, o.header);
        if (built.request) chunk.push({ row, req: { ...built.request, fp } });
        else {
          const error = built.problems.map((p) => describeProblem('none', p)).join('; ');
          const key = built.key ?? '';
          journal.record({ row, key, s: 'failed', error, fp });
          chunk.push({ row, now: () => finish({ row, custom_key: key, bundle_id: '', status: 'failed', error }) });
        }
      }
      if (chunk.length >= chunkSize) {
        await flush(chunk);
        chunk = [];
      }
    }
    await flush(chunk);
    await Promise.all(inflight);
  } finally {
    unsubscribe?.();
  }
  return counts;
}

/** Counts the data rows of a CSV (streamed), for progress and the confirmation. */
export async function countRows(csv: string, header: string[]): Promise<{ rows: number; signers?: number }> {
  let rows = 0;
  for await (const _ of readRows(csv, header)) rows++;
  return { rows };
}
