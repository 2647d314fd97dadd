// The journal of a batch: one JSON line per event of a row, appended with a synchronous write as it
// happens (a `begin` before the create is sent, then `sent`, `failed` or `unknown`), so a process
// killed at any point leaves a file that says which rows are done, which were in flight (to be
// looked up by custom_key before sending again) and which never started. Files 0600, dirs 0700.
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { BatchLock } from './lock.js';

export type RowState = 'begin' | 'sent' | 'failed' | 'unknown';

export interface JournalEntry {
  row: number;
  key: string;
  s: RowState;
  /** The Bundle's id, once sent. */
  id?: string;
  status?: string;
  error?: string;
  /** Found by custom_key after an interrupted run, not created by this entry's run. */
  found?: boolean;
  /** A Bundle with the row's custom_key was on the backend before this batch: not sent by it. */
  exists?: boolean;
  /** Sent by this earlier batch (the same CSV before an edit): carried over, not sent again. */
  from?: string;
  /** The row's values, hashed (identity.ts): what an edit of the CSV changes and a move keeps. */
  fp?: string;
  at: string;
}

export interface BatchMeta {
  batch: string;
  csv: string;
  source: string;
  backend: string;
  started: string;
  total?: number;
  /** The CSV's absolute path and the source's (a spec's absolute path, or the template's id): a batch's identity. */
  csv_path?: string;
  source_ref?: string;
  /** The source's content, hashed: a spec given inline (MCP) is the same source as a spec file of that content. */
  source_sha?: string;
  /** The batch this one continues (its CSV was edited since): rows it sent are carried over. */
  continues?: string;
}

/** Reads a journal: its header and each row's last entry. A torn last line (a kill mid-write) is ignored. */
export function readJournal(path: string): { meta?: BatchMeta; rows: Map<number, JournalEntry> } {
  const rows = new Map<number, JournalEntry>();
  let meta: BatchMeta | undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { rows };
    throw e;
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof v.batch === 'string') meta ??= v as unknown as BatchMeta;
    else if (typeof v.row === 'number') {
      const e = v as unknown as JournalEntry;
      const prev = rows.get(e.row);
      // A row once sent stays sent: nothing later in the file may turn it back.
      if (prev?.s !== 'sent') rows.set(e.row, e);
    }
  }
  return { meta, rows };
}

export class Journal {
  private fd: number;
  readonly rows: Map<number, JournalEntry>;
  private constructor(
    readonly path: string,
    private readonly lock: BatchLock,
    rows: Map<number, JournalEntry>,
  ) {
    this.rows = rows;
    this.fd = openSync(path, 'a', 0o600);
  }

  /**
   * Opens (or starts) the journal of a batch once it holds the batch's lock (one process sends a
   * batch at a time: a second one gets CONFLICT), and reads it only then, so it sees every row the
   * last holder wrote.
   */
  static async open(dir: string, meta: BatchMeta): Promise<Journal> {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = journalPath(dir, meta.batch);
    const lock = await BatchLock.claim(dir, meta.batch);
    try {
      const { meta: old, rows } = readJournal(path);
      const j = new Journal(path, lock, rows);
      if (!old) j.append(meta);
      return j;
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  private append(v: unknown): void {
    writeSync(this.fd, `${JSON.stringify(v)}\n`);
  }

  /**
   * Appends a row's entry with a synchronous write, before the create is sent (`begin`) and before
   * the row is reported (`sent`): from then on every other process reads it, a resumer after a
   * kill -9 included. Not fsync'ed (it cost a third of a local batch's speed here): after a power
   * loss the last entries may be gone, and the rows they named are looked up by custom_key again.
   */
  record(e: Omit<JournalEntry, 'at'>): void {
    const entry = { ...e, at: new Date().toISOString() };
    this.append(entry);
    const prev = this.rows.get(e.row);
    if (prev?.s !== 'sent') this.rows.set(e.row, entry);
  }

  close(): void {
    closeSync(this.fd);
    this.lock.release();
  }
}

/** Where the journal of batch `batch` is kept in `dir`. */
export const journalPath = (dir: string, batch: string) => join(dir, `${batch}.jsonl`);

/** The batches of a directory, newest first. */
export function listJournals(dir: string): { batch: string; path: string }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith('.jsonl')).map((n) => ({ batch: n.slice(0, -6), path: join(dir, n) }));
}
