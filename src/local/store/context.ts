import type { AccountStore } from '../account/account.js';
import type { BlobStore } from './blobs.js';
import type { Clock } from './clock.js';
import type { Db, Report } from './db.js';
import type { OutboundPolicy } from '../net/addressPolicy.js';
import type { Transaction } from 'better-sqlite3';
import { whileWriting } from './readCache.js';

/** What the engine's modules share: the database, the clock, the account and the file store. */
export interface EngineContext {
  db: Db;
  clock: Clock;
  account: AccountStore;
  blobs: BlobStore;
  /** Base URL of signing and file links: where `esign serve` answers. */
  publicUrl(): string;
  /**
   * Run before a write transaction takes the lock: finds the running `esign serve` that links name,
   * since asking it while holding the lock could not be answered (it waits for that lock).
   */
  beforeWriteLock?(): void;
  /** Asks the engine to process pending documents in the background. */
  kick(): void;
  /**
   * What `file_url` downloads and webhook deliveries may reach: public addresses only on esign serve
   * (unless the account allows private ones), loopback too when it listens on loopback only.
   */
  outboundPolicy(): OutboundPolicy;
  /**
   * A delivery record keeps the start of the receiver's reply: on the engine of the machine's own
   * user (no `guardUrls` given), and on a server whose deliveries reach public addresses only. A
   * server that lets API key holders reach private addresses keeps the status alone, so that a
   * webhook never reads an internal service for them.
   */
  keepWebhookReplies(): boolean;
  /** A line for the person running the host (background failures, slow upgrades): where, the host chooses. */
  report: Report;
  /** How long background document work may take, and how long it waits when the machine is busy. */
  documentTimes: DocumentTimes;
}

/** The times of document work: an engine's defaults, which a host (or a test) may change. */
export interface DocumentTimes {
  /** An HTML document's render, from its start; past it, the renderer is killed. */
  htmlDeadlineMs: number;
  /** The pause before a document starved of CPU is tried again, grown by the number of tries. */
  busyPauseMs: number;
  /** The checks a create makes before it answers (a PDF opened, its fields placed), from their queueing. */
  createCheckMs: number;
  /**
   * How long in all, from their queueing, those checks may wait for a process and for the CPU before
   * the create is busy (503): createCheckMs where a client waits on a wire; longer for a command.
   */
  createCheckWaitMs: number;
}

/**
 * One IMMEDIATE transaction per operation: the write lock is taken up front, so no upgrade deadlock.
 * The read caches keep nothing read inside it (it may roll back).
 */
export function inTransaction<T>(ctx: EngineContext, fn: () => T): T {
  if (!ctx.db.inTransaction) ctx.beforeWriteLock?.();
  return whileWriting(ctx.db, () => transactionOf(ctx.db).immediate(fn) as T);
}

const UNDO = Symbol('undo');

/**
 * Runs `fn` in a write transaction that is always rolled back: what an operation would write,
 * tried against the database as it is now (its constraints and triggers) and undone.
 */
export function triedAndUndone<T>(ctx: EngineContext, fn: () => T): T {
  let value: T | undefined;
  try {
    inTransaction(ctx, () => {
      value = fn();
      throw UNDO;
    });
  } catch (e) {
    if (e !== UNDO) throw e;
  }
  return value as T;
}

/** Runs its argument in a transaction (a savepoint when nested): made once per connection. */
export function transactionOf(db: Db): Transaction<(fn: () => unknown) => unknown> {
  let t = runners.get(db);
  if (!t) runners.set(db, (t = db.transaction((fn: () => unknown) => fn())));
  return t;
}

const runners = new WeakMap<Db, Transaction<(fn: () => unknown) => unknown>>();
