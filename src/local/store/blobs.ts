import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Db, sql } from './db.js';

export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** The database row of a stored file (once per content; `pages` is 0 for what is not a PDF). */
export function recordBlob(db: Db, hash: string, size: number, pages: number, at: string): void {
  sql(db, 'INSERT OR IGNORE INTO blobs (sha256, size, pages, created) VALUES (?, ?, ?, ?)').run(hash, size, pages, at);
}

/**
 * The page count of a stored PDF with these exact bytes (every PDF the store records passed
 * `inspectPdf` or was made here), so the same document sent again is not parsed again.
 */
export function knownPdfPages(db: Db, hash: string): number | undefined {
  // A `blobs` row is never changed nor deleted, so what one connection has seen stays true.
  let seen = knownPages.get(db);
  const kept = seen?.get(hash);
  if (kept !== undefined) return kept;
  const pages = sql(db, 'SELECT pages FROM blobs WHERE sha256 = ? AND pages > 0').pluck().get(hash) as
    | number
    | undefined;
  // Inside a transaction the row may yet be rolled back.
  if (pages === undefined || db.inTransaction) return pages;
  if (!seen || seen.size >= 1024) knownPages.set(db, (seen = new Map()));
  seen.set(hash, pages);
  return pages;
}

const knownPages = new WeakMap<Db, Map<string, number>>();

/**
 * Content-addressed file store: each distinct file is written once, under blobs/ab/abcdef...,
 * through a temporary file and a rename so that a crash never leaves half a file under its hash.
 * Files are the owner's alone (0600), as is the data directory.
 */
export class BlobStore {
  constructor(private readonly root: string) {}

  path(hash: string): string {
    return join(this.root, hash.slice(0, 2), hash);
  }

  put(data: Buffer, hash = sha256(data)): string {
    const target = this.path(hash);
    if (existsSync(target)) return hash;
    mkdirSync(join(this.root, hash.slice(0, 2)), { recursive: true, mode: 0o700 });
    const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, target);
    return hash;
  }

  /** As `put`, written off the event loop: for a client's document, up to tens of megabytes. */
  async store(data: Buffer, hash = sha256(data)): Promise<string> {
    const target = this.path(hash);
    if (existsSync(target)) return hash;
    await mkdir(join(this.root, hash.slice(0, 2)), { recursive: true, mode: 0o700 });
    const tmp = `${target}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(tmp, data, { mode: 0o600 });
    await rename(tmp, target);
    return hash;
  }

  get(hash: string): Buffer {
    return readFileSync(this.path(hash));
  }

  /** As `get`, read off the event loop. */
  read(hash: string): Promise<Buffer> {
    return readFile(this.path(hash));
  }
}
