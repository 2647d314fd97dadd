import type { AccountStore } from '../account/account.js';
import type { BlobStore } from './blobs.js';
import type { Clock } from './clock.js';
import type { Db, Report } from './db.js';
import { whileWriting } from './readCache.js';

/** What the engine's modules share: the database, the clock, the account and the file store. */
export interface EngineContext {
  db: Db;
  clock: Clock;
  account: AccountStore;
  blobs: BlobStore;
  /** Base URL of signing and file links: where `esign serve` answers. */
  publicUrl(): string;
  /** Asks the engine to process pending documents in the background. */
  kick(): void;
  /** `file_url` downloads must not reach private addresses (esign serve, unless the account allows them). */
  refusePrivateUrls(): boolean;
  /** A line for the person running the host (background failures, slow upgrades): where, the host chooses. */
  report: Report;
}

/**
 * One IMMEDIATE transaction per operation: the write lock is taken up front, so no upgrade deadlock.
 * The read caches keep nothing read inside it (it may roll back).
 */
export function inTransaction<T>(ctx: EngineContext, fn: () => T): T {
  return whileWriting(ctx.db, () => ctx.db.transaction(fn).immediate());
}
