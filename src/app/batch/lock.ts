// The lock that lets one process send a batch at a time. It is an exclusive SQLite transaction held
// open on `<batch>.lock.db` for as long as the batch runs: SQLite takes it with the operating
// system's file lock, which is claimed atomically (two claimants cannot both get it) and released by
// the OS when its process ends, kill -9 included. So there is no stale lock to detect or take over,
// and no pid to trust (a recycled pid, an empty or torn file cannot let a second sender in).
// `<batch>.lock` beside it only names the holder's pid for the message a second claimant sees.
// The .lock.db file is never deleted: a claimant that opened it just before would lock a file no one
// else can see.
//
// Taking SQLite's exclusive lock goes through its shared one: two claimants at the same instant can
// each see the other's shared lock and both be refused, and a reader of the file can refuse a
// claimant too. So a refusal is an answer only once it has lasted: a claimant tries again, at
// random short intervals, for PATIENCE_MS, and only a lock still held then is someone sending (one of
// any number of claimants always gets through; the others wait, then name the holder).
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { UseCaseError } from '../failure.js';

/** How long a claimant tries again before a held lock is taken as someone sending. */
const PATIENCE_MS = 3_000;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class BatchLock {
  private constructor(
    private db: Database.Database | undefined,
    private readonly holderPath: string,
  ) {}

  /** Claims the batch's lock, or throws CONFLICT naming the process that holds it (after PATIENCE_MS of trying). */
  static async claim(dir: string, batch: string, patienceMs = PATIENCE_MS): Promise<BatchLock> {
    const path = join(dir, `${batch}.lock.db`);
    closeSync(openSync(path, 'a', 0o600));
    const holderPath = join(dir, `${batch}.lock`);
    const until = Date.now() + patienceMs;
    for (;;) {
      // timeout 0: SQLite's own waiting would keep the shared lock that may be what blocks the other claimant.
      const db = new Database(path, { timeout: 0 });
      try {
        db.exec('BEGIN EXCLUSIVE');
        writeFileSync(holderPath, String(process.pid), { mode: 0o600 });
        return new BatchLock(db, holderPath);
      } catch (e) {
        db.close();
        if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
      }
      if (Date.now() >= until) {
        const holder = readHolder(holderPath);
        const who = holder ? `process ${holder}` : 'another process';
        throw new UseCaseError(`Batch ${batch} is being sent by ${who}; wait for it, or stop it first.`, 'conflict');
      }
      await pause(10 + Math.random() * 90);
    }
  }

  release(): void {
    if (!this.db) return;
    if (readHolder(this.holderPath) === process.pid) rmSync(this.holderPath, { force: true });
    this.db.exec('ROLLBACK');
    this.db.close();
    this.db = undefined;
  }
}

function readHolder(path: string): number | undefined {
  try {
    return Number(readFileSync(path, 'utf8')) || undefined;
  } catch {
    return undefined;
  }
}
