// The journal of a batch: one JSON line per event of a row, appended with a synchronous write as it
// happens (a `begin` before the create is sent, then `sent`, `failed` or `unknown`), so a process
// killed at any point leaves a file that says which rows are done, which were in flight (to be
// looked up by custom_key before sending again) and which never started. Files 0600, dirs 0700.
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, unlinkSync, writeFileSync, writeSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { CliError, EXIT } from '../exitCodes.js';
import type { Factory } from '../factory.js';

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
  at: string;
}

export interface BatchMeta {
  batch: string;
  csv: string;
  source: string;
  backend: string;
  started: string;
  total?: number;
}

/** Where journals live: the engine's data directory, or per remote profile a directory under it. */
export async function journalDir(f: Factory): Promise<string> {
  const s = await f.settings();
  const base = await f.dataDir();
  if (!s.baseUrl) return join(base, 'batches');
  const who = s.profile ?? createHash('sha256').update(s.baseUrl).digest('hex').slice(0, 12);
  return join(base, 'remote', who.replace(/[^A-Za-z0-9_.-]/g, '_'), 'batches');
}

const pidAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

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
  private constructor(readonly path: string, private readonly lockPath: string, rows: Map<number, JournalEntry>) {
    this.rows = rows;
    this.fd = openSync(path, 'a', 0o600);
  }

  /** Opens (or starts) the journal of a batch, and takes its lock: one process sends a batch at a time. */
  static open(dir: string, meta: BatchMeta): Journal {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, `${meta.batch}.jsonl`);
    const lockPath = join(dir, `${meta.batch}.lock`);
    try {
      writeFileSync(lockPath, String(process.pid), { flag: 'wx', mode: 0o600 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(readFileSync(lockPath, 'utf8'));
      if (pid && pid !== process.pid && pidAlive(pid))
        throw new CliError(`Batch ${meta.batch} is being sent by process ${pid}; wait for it, or stop it first.`, EXIT.CONFLICT);
      // The holder is gone (killed): the lock is stale.
      writeFileSync(lockPath, String(process.pid), { mode: 0o600 });
    }
    const { meta: old, rows } = readJournal(path);
    const j = new Journal(path, lockPath, rows);
    if (!old) j.append(meta);
    return j;
  }

  private append(v: unknown): void {
    writeSync(this.fd, `${JSON.stringify(v)}\n`);
  }

  record(e: Omit<JournalEntry, 'at'>): void {
    const entry = { ...e, at: new Date().toISOString() };
    this.append(entry);
    const prev = this.rows.get(e.row);
    if (prev?.s !== 'sent') this.rows.set(e.row, entry);
  }

  close(): void {
    closeSync(this.fd);
    try {
      if (existsSync(this.lockPath) && Number(readFileSync(this.lockPath, 'utf8')) === process.pid) unlinkSync(this.lockPath);
    } catch {
      // Another process took a stale lock over; it is theirs now.
    }
  }
}

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
