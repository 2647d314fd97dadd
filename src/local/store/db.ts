import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { refuseForeignDir } from './dataDir.js';
import { MIGRATIONS } from './migrations.js';
import { normalizePhone } from '../../domain/phone.js';

/**
 * Required, as the CommonJS package it is: imported as an ES module, Node first scans its source for
 * the names it exports, about 6 ms of CPU on every command that opens the engine.
 */
const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

export type Db = BetterSqlite3.Database;

const statements = new WeakMap<Db, Map<string, BetterSqlite3.Statement>>();

/** A prepared statement, compiled once per database connection (compiling costs more than running). */
export function sql(db: Db, text: string): BetterSqlite3.Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let stmt = cache.get(text);
  if (!stmt) cache.set(text, (stmt = db.prepare(text)));
  return stmt;
}

/** The SQLite file inside a data directory. */
/** Where the engine's lines for people go (the CLI: its stderr); the engine never writes to a stream itself. */
export type Report = (line: string) => void;

export const databasePath = (dataDir: string) => join(dataDir, 'esign.db');

const BUSY_TIMEOUT_MS = 10_000;
/** SQLite's page cache per connection, in KB (negative cache_size: a size, not a page count). */
const PAGE_CACHE_KB = 64 * 1024;

/**
 * Opens (creating when needed) the engine's database: WAL so readers never block the writer,
 * a busy timeout so concurrent CLI processes queue instead of failing, then pending migrations.
 */
/** A text as a search compares it: lower case, accents dropped ("José" -> "jose"). */
export const foldForSearch = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

export function openDatabase(dataDir: string, report: Report = () => {}): Db {
  refuseForeignDir(dataDir);
  ensurePrivateDir(dataDir, report);
  privateFile(databasePath(dataDir));
  const db = new Database(databasePath(dataDir));
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  if (db.pragma('journal_mode', { simple: true }) !== 'wal') retryBusy(() => db.pragma('journal_mode = WAL'));
  db.pragma('synchronous = NORMAL');
  // A create writes some twenty pages (the Bundle's rows and the ends of its indexes), mostly the same
  // ones as the create before: checkpoints every 16 MB of log instead of SQLite's 4 MB copy each such
  // page to the database a quarter as often, which is about a tenth of a create's cost.
  db.pragma('wal_autocheckpoint = 4000');
  // Measured at 100,000 Bundles, CPU time of list queries right after a write (the database in the OS's
  // cache): a 64 MB page cache instead of SQLite's 2 MB reads 2.5% less; a 256 MB memory map changes
  // nothing measurable, so it stays off (a memory map turns a disk error into a crash). The cache is
  // taken as pages are read: a CLI process that reads little holds little.
  db.pragma(`cache_size = ${-PAGE_CACHE_KB}`);
  db.pragma('foreign_keys = ON');
  registerFunctions(db);
  try {
    migrate(db, report);
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

/**
 * The data directory holds every document, signer and the webhook secret: only its owner may enter
 * it. A directory others can read is tightened, and the user told once (it stays tightened).
 */
export function ensurePrivateDir(dir: string, report: Report = () => {}): void {
  if (!existsSync(dir)) {
    makeDirs(dir);
    return;
  }
  const stat = statSync(dir);
  // A file in the way is left exactly as it is: never chmodded, never written.
  if (!stat.isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: 'ENOTDIR', path: dir });
  const mode = stat.mode & 0o777;
  if (mode & 0o077) {
    chmodSync(dir, 0o700);
    report(`esign: ${dir} was open to other users (mode ${mode.toString(8)}); it is now private (700).`);
  }
}

/**
 * mkdir -p, one level at a time. Node's recursive mkdir loops for ever where a parent exists but
 * refuses children with ENOENT (a path under /proc); here each level fails at once.
 */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) missing.unshift(d);
  for (const d of missing) mkdirSync(d, { mode: 0o700 });
}

/** Creates the file 0600, or tightens it; SQLite gives its -wal and -shm files the database file's mode. */
function privateFile(path: string): void {
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  for (const p of [path, `${path}-wal`, `${path}-shm`])
    if (existsSync(p) && statSync(p).mode & 0o077) chmodSync(p, 0o600);
}

/** The engine's SQL functions: searches use them, and so does migration 20 (a phone's E.164 form). */
export function registerFunctions(db: Db): void {
  // Unicode lower case for short searches, which SQLite's LIKE folds for ASCII letters only.
  db.function('esign_lower', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : s));
  // Lower case without accents, as the search index's trigrams are made (migration 17).
  db.function('esign_fold', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? foldForSearch(s) : s));
  // A phone's E.164 form, as phone matching reads it (migration 20 fills person_channels.phone_key).
  db.function('esign_phone', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? normalizePhone(s) : s));
}

/** Applies migrations past `user_version`, each in its own IMMEDIATE transaction (re-checked inside). */
export function migrate(db: Db, report: Report = () => {}): void {
  const current = () => db.pragma('user_version', { simple: true }) as number;
  // A newer esign's tables are kept by triggers and indexes this one does not know how to write.
  if (current() > MIGRATIONS.length)
    throw new Error(
      `The database ${db.name} was made by a newer esign (version ${current()}; this esign knows up to ${MIGRATIONS.length}): use that esign or a newer one.`,
    );
  if (current() >= MIGRATIONS.length) return;
  registerFunctions(db);
  for (let v = current(); v < MIGRATIONS.length; v = current()) {
    const started = Date.now();
    const bundles = v > 0 ? bundleCount(db) : 0;
    if (bundles >= LARGE_DATABASE) report(`esign: upgrading the database to version ${v + 1} (${bundles} Bundles)...`);
    db.transaction(() => {
      const now = current();
      if (now >= MIGRATIONS.length) return;
      db.exec(MIGRATIONS[now]);
      db.pragma(`user_version = ${now + 1}`);
    }).immediate();
    if (bundles >= LARGE_DATABASE)
      report(`esign: database version ${v + 1} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** From this many Bundles an upgrade says on stderr what it is doing, as it may take seconds. */
const LARGE_DATABASE = 50_000;
const bundleCount = (db: Db) => (db.prepare('SELECT coalesce(max(seq), 0) AS n FROM bundles').get() as { n: number }).n;

/** Switching to WAL takes an exclusive lock that the busy handler does not wait for. */
function retryBusy<T>(fn: () => T): T {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return fn();
    } catch (e) {
      if ((e as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}
