// A batch knows itself. Its journal names the CSV and the source it was sent from (paths) and each
// row's fingerprint (its values), so the same command run on an edited CSV finds the earlier
// journal of that CSV: rows whose values were sent are carried over (never sent again, wherever
// they moved), new rows are sent, and a row that was sent with other values, which nothing
// matches any more, is refused until the operator chooses (--new-batch, or a custom_key column).
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { UseCaseError } from '../failure.js';
import { type CsvRow, readRows } from './csv.js';
import { type BatchMeta, type Journal, type JournalEntry, listJournals, readJournal } from './journal.js';

/** A row's values in header order, hashed: what an edit changes and a move keeps. */
export function rowFingerprint(row: CsvRow, header: readonly string[]): string {
  return createHash('sha256')
    .update(JSON.stringify(header.map((h) => row.values[h] ?? '')))
    .digest('base64url')
    .slice(0, 16);
}

/** The first line of a journal (its meta), read without reading the rows of a large file. */
function metaOf(path: string): BatchMeta | undefined {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const line = buf.subarray(0, n).toString('utf8').split('\n')[0];
    const v = JSON.parse(line) as Partial<BatchMeta>;
    return typeof v.batch === 'string' ? (v as BatchMeta) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

interface EarlierBatch {
  meta: BatchMeta;
  path: string;
  rows: Map<number, JournalEntry>;
}

/**
 * The latest other journal of this CSV (by path) and source (by name, or by content: a spec file and
 * the same spec given inline are one source): the batch an edited CSV continues.
 */
function findEarlierBatch(
  dir: string,
  csvPath: string,
  sourceRef: string,
  except: string,
  sourceSha?: string,
): EarlierBatch | undefined {
  let latest: { meta: BatchMeta; path: string } | undefined;
  for (const j of listJournals(dir)) {
    if (j.batch === except) continue;
    const meta = metaOf(j.path);
    // A journal of an older esign names its CSV as given and not its source: matched by the CSV alone.
    if (!meta || (meta.csv_path ?? resolve(meta.csv)) !== csvPath) continue;
    const sameContent = sourceSha !== undefined && meta.source_sha === sourceSha;
    if (meta.source_ref !== undefined && meta.source_ref !== sourceRef && !sameContent) continue;
    if (!latest || meta.started > latest.meta.started) latest = { meta, path: j.path };
  }
  if (!latest) return undefined;
  return { ...latest, rows: readJournal(latest.path).rows };
}

/** A row whose create may have happened: sent, or in flight when a run ended. */
const mayHaveMade = (e: JournalEntry) => e.s === 'sent' || e.s === 'begin' || e.s === 'unknown';

export interface RowMatches {
  /** Rows whose values an earlier run sent: journaled as sent by it, never sent again. */
  carried: Map<number, JournalEntry>;
  /** Rows whose values were in flight in an earlier run: looked up by that run's key before any create. */
  keys: Map<number, string>;
  /** Rows sent (or in flight) with values no row of this CSV holds any more: edited, or deleted. */
  gone: JournalEntry[];
  /** Rows of this CSV whose values no earlier run sent: sent by this one. */
  unsent: number[];
  /** Of those, the rows whose values no earlier run started either (not a failed row tried again): new, or edited. */
  unknown: number[];
  /** The earlier journal keeps no row values (an older esign): no row can be matched. */
  unmatchable: boolean;
}

/**
 * Matches this CSV's rows (`fingerprints[i]` is row i+1's) to what an earlier run of it did, by
 * content and position together: each row to a sent row of the same values, one to one, wherever it
 * now stands; identical rows pair in the order they stand (the first now with the first sent).
 * What neither side matches says what the edit was: rows only gone were deleted, rows only unknown
 * were inserted; both at once cannot be told apart from an edit (a row moved and changed looks like
 * one deleted and one inserted), so `changed` says the run must not send. A row never started leaves
 * no values in the journal: it counts as unknown.
 */
export function matchRows(earlier: Map<number, JournalEntry>, fingerprints: readonly string[]): RowMatches {
  const inOrder = [...earlier.values()].sort((a, b) => a.row - b.row);
  const made = inOrder.filter(mayHaveMade);
  const out: RowMatches = {
    carried: new Map(),
    keys: new Map(),
    gone: [],
    unsent: [],
    unknown: [],
    unmatchable: false,
  };
  if (made.some((e) => !e.fp)) return { ...out, unmatchable: true };
  const byFp = new Map<string, JournalEntry[]>();
  for (const e of made) byFp.set(e.fp!, [...(byFp.get(e.fp!) ?? []), e]);
  const failed = new Map<string, number>();
  for (const e of inOrder) if (!mayHaveMade(e) && e.fp) failed.set(e.fp, (failed.get(e.fp) ?? 0) + 1);
  fingerprints.forEach((fp, i) => {
    const row = i + 1;
    const same = byFp.get(fp)?.shift();
    if (same?.s === 'sent') out.carried.set(row, same);
    else if (same) out.keys.set(row, same.key);
    else {
      out.unsent.push(row);
      const tried = failed.get(fp) ?? 0;
      if (tried) failed.set(fp, tried - 1);
      else out.unknown.push(row);
    }
  });
  out.gone = [...byFp.values()].flat().sort((a, b) => a.row - b.row);
  return out;
}

/** Whether a rerun may send: not when a sent row's values are gone while rows hold values never sent. */
export const changed = (m: RowMatches): boolean => m.gone.length > 0 && m.unknown.length > 0;

/** Rows holding identical values (every row after the first of each set), by the row they repeat. */
export function duplicateRows(fingerprints: readonly string[]): { row: number; first: number }[] {
  const first = new Map<string, number>();
  const out: { row: number; first: number }[] = [];
  fingerprints.forEach((fp, i) => {
    const seen = first.get(fp);
    if (seen === undefined) first.set(fp, i + 1);
    else out.push({ row: i + 1, first: seen });
  });
  return out;
}

/** Each row's fingerprint, in order (one streamed pass over the CSV). */
export async function fingerprints(csv: string, header: string[]): Promise<string[]> {
  const out: string[] = [];
  for await (const r of readRows(csv, header)) out.push(rowFingerprint(r, header));
  return out;
}

/** "row 3", "rows 3, 5 and 7", "rows 1, 2, ... and 40 more": at most ten named. */
export function rowNumbers(rows: readonly (number | string)[]): string {
  const shown = rows.slice(0, 10).map(String);
  const more = rows.length - shown.length;
  const list =
    more > 0
      ? `${shown.join(', ')} and ${more} more`
      : shown.length > 1
        ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`
        : shown.join('');
  return `row${rows.length === 1 ? '' : 's'} ${list}`;
}

const sentList = (rows: JournalEntry[]) => rowNumbers(rows.map((e) => `${e.row}${e.id ? ` (Bundle ${e.id})` : ''}`));

/** The refusal of a rerun whose edit cannot be told from new rows: what was sent, what would be. */
function editRefused(csv: string, from: string, gone: JournalEntry[], unsent: number[], choices: string) {
  const one = (n: number, a: string, b: string) => (n === 1 ? a : b);
  return new UseCaseError(
    `${csv} has changed since ${from} sent from it: ${sentList(gone)} as sent ${one(gone.length, 'holds', 'hold')} values no row has now, and ${rowNumbers(unsent)} ${one(unsent.length, 'holds', 'hold')} values never sent: an edited row cannot be told from a new one, so neither is sent. Nothing was sent. To send them, ${choices}.`,
    'usage',
  );
}

/**
 * Before a batch sends: what an earlier run of this CSV did, so no row is sent twice for an edit.
 * A new journal (`journal` holds no row) of a batch named by its content (no --batch-id) continues
 * the latest other batch of the same CSV and source: rows it sent are journaled here as sent by it
 * (carried over), rows it had in flight keep its keys (returned: looked up before any create). A
 * --batch-id names its batch: a new one starts afresh, one already in use is matched line by line. Rows that were sent with values no row has any more are refused, naming
 * the choices; nothing is matched with `newBatch`, or when the rows carry their own custom_keys.
 */
export async function continueEarlier(
  journal: Pick<Journal, 'rows' | 'record'>,
  o: {
    dir: string;
    csv: string;
    header: string[];
    batchId: string;
    csvPath: string;
    sourceRef: string;
    sourceSha?: string;
    newBatch?: boolean;
    ownKeys: boolean;
    explicitId: boolean;
    /** A refusal in the door's words: the choices it names, and what names the CSV (else its path, and the journal's). */
    words?: { choices: string; csv: string };
  },
): Promise<Map<number, string>> {
  if (o.newBatch || o.ownKeys) return new Map();
  // A door whose caller is not on this machine names no path of it (the CSV kept, the journal).
  const csv = o.words?.csv ?? o.csv;
  const choices =
    o.words?.choices ??
    (o.explicitId
      ? 'give this CSV another --batch-id, or a custom_key column (rows are then matched by key)'
      : 'run the same command with --new-batch (every row of this CSV is then sent as a new batch), or give the CSV a custom_key column (rows are then matched by key)');
  if (journal.rows.size) {
    if (!o.explicitId) return new Map();
    // The batch resumes by row number: every row sent (or in flight) must still stand where it did.
    const fps = await fingerprints(o.csv, o.header);
    const moved = [...journal.rows.values()].filter((e) => e.fp && mayHaveMade(e) && fps[e.row - 1] !== e.fp);
    if (moved.length)
      throw new UseCaseError(
        `${csv} has changed since batch ${o.batchId} sent from it: ${sentList(moved.sort((a, b) => a.row - b.row))} no longer ${moved.length === 1 ? 'holds' : 'hold'} the values sent (a --batch-id batch resumes row by row). Nothing was sent. To send them, ${choices}.`,
        'usage',
      );
    return new Map();
  }
  // A --batch-id no journal has yet names a new batch: the operator's own choice, as --new-batch.
  if (o.explicitId) return new Map();
  const earlier = findEarlierBatch(o.dir, o.csvPath, o.sourceRef, o.batchId, o.sourceSha);
  if (!earlier || ![...earlier.rows.values()].some(mayHaveMade)) return new Map();
  const m = matchRows(earlier.rows, await fingerprints(o.csv, o.header));
  const from = o.words ? `batch ${earlier.meta.batch}` : `batch ${earlier.meta.batch} (journal ${earlier.path})`;
  if (m.unmatchable)
    throw new UseCaseError(
      `${csv} was sent from before by ${from}, by an esign that kept no row values, and has changed since: its rows cannot be matched to what was sent. Nothing was sent. To send it, ${choices}.`,
      'usage',
    );
  if (changed(m)) throw editRefused(csv, from, m.gone, m.unknown, choices);
  for (const [row, e] of m.carried)
    journal.record({ row, key: e.key, s: 'sent', id: e.id, status: e.status, from: earlier.meta.batch, fp: e.fp });
  return m.keys;
}
