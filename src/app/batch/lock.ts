// The lock that lets one process send a batch at a time. It is an exclusive SQLite transaction held
// open on `<batch>.lock.db` for as long as the batch runs: SQLite takes it with the operating
// system's file lock, which is claimed atomically (two claimants cannot both get it) and released by
// the OS when its process ends, kill -9 included. So there is no stale lock to detect or take over,
// and no pid to trust (a recycled pid, an empty or torn file cannot let a second sender in).
// `<batch>.lock` beside it only names the holder's pid for the message a second claimant sees.
// The .lock.db file is never deleted: a claimant that opened it just before would lock a file no one
// else can see.
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { UseCaseError } from '../failure.js';

export class BatchLock {
  private constructor(
    private db: Database.Database | undefined,
    private readonly holderPath: string,
  ) {}

  /** Claims the batch's lock, or throws CONFLICT naming the process that holds it. */
  static claim(dir: string, batch: string): BatchLock {
    const path = join(dir, `${batch}.lock.db`);
    closeSync(openSync(path, 'a', 0o600));
    // timeout 0: a held lock is an answer now, not a wait.
    const db = new Database(path, { timeout: 0 });
    try {
      db.exec('BEGIN EXCLUSIVE');
    } catch (e) {
      db.close();
      if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
      const holder = readHolder(join(dir, `${batch}.lock`));
      const who = holder ? `process ${holder}` : 'another process';
      throw new UseCaseError(`Batch ${batch} is being sent by ${who}; wait for it, or stop it first.`, 'conflict');
    }
    const holderPath = join(dir, `${batch}.lock`);
    writeFileSync(holderPath, String(process.pid), { mode: 0o600 });
    return new BatchLock(db, holderPath);
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
