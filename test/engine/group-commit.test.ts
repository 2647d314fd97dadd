// Writes in flight together share one commit; each is still its own: one that fails rolls back
// alone, and every caller is answered after the commit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/local/store/db.js';
import type { EngineContext } from '../../src/local/store/context.js';
import { inGroupedTransaction } from '../../src/local/store/groupCommit.js';
import { bundleRequest, tempDir } from '../helpers.js';
import { useEngine } from './support.js';

/** Frames in the write-ahead log (checkpoints off): what the commits wrote. */
function walFrames(dataDir: string): number {
  const wal = readFileSync(join(dataDir, 'esign.db-wal'));
  return wal.length <= 32 ? 0 : (wal.length - 32) / (24 + wal.readUInt32BE(8));
}

describe('creates in flight together', () => {
  const ctx = useEngine();
  const fresh = () => {
    ctx.e.db.pragma('wal_autocheckpoint = 0');
    ctx.e.db.pragma('wal_checkpoint(TRUNCATE)');
  };

  it('share one commit: eight concurrent creates write far fewer log pages than eight commits', async () => {
    for (let i = 0; i < 20; i++) await ctx.e.createBundle(bundleRequest({ label: `warm ${i}` }));
    fresh();
    await ctx.e.createBundle(bundleRequest({ label: 'alone' }));
    const one = walFrames(ctx.e.dataDir);
    fresh();
    const made = await Promise.all(
      Array.from({ length: 8 }, (_, i) => ctx.e.createBundle(bundleRequest({ label: `together ${i}` }))),
    );
    const eight = walFrames(ctx.e.dataDir);
    expect(one).toBeGreaterThan(10);
    // Separate commits rewrite every page each touches (8 x one); a shared commit writes each page once.
    expect(eight).toBeLessThan(4 * one);
    for (const b of made) expect(await ctx.e.getBundle(b.id)).toEqual(b);
  });

  it('are each checked on their own: a bad one fails alone', async () => {
    const [good, bad, good2] = await Promise.allSettled([
      ctx.e.createBundle(bundleRequest({ label: 'first' })),
      ctx.e.createBundle(bundleRequest({ packets: [] })),
      ctx.e.createBundle(bundleRequest({ label: 'third' })),
    ]);
    expect(good.status).toBe('fulfilled');
    expect(bad.status).toBe('rejected');
    expect(good2.status).toBe('fulfilled');
    expect((await ctx.e.listBundles({})).total).toBe(2);
  });
});

describe('inGroupedTransaction', () => {
  const dirs: (() => void)[] = [];
  afterEach(() => dirs.splice(0).forEach((c) => c()));
  const open = () => {
    const { dir, cleanup } = tempDir();
    const db = openDatabase(dir);
    dirs.push(() => {
      db.close();
      cleanup();
    });
    return { db } as unknown as EngineContext;
  };
  const keys = (c: EngineContext) =>
    c.db.prepare(`SELECT key FROM meta WHERE key LIKE 'g-%' ORDER BY key`).pluck().all();

  it('rolls back only the write that throws, and answers each caller after the commit', async () => {
    const c = open();
    const put = (k: string) => c.db.prepare(`INSERT INTO meta (key, value) VALUES (?, '1')`).run(k);
    const inside: boolean[] = [];
    const results = await Promise.allSettled([
      inGroupedTransaction(c, () => {
        put('g-a');
        inside.push(c.db.inTransaction);
        return 'a';
      }),
      inGroupedTransaction(c, () => {
        put('g-b');
        throw new Error('no');
      }),
      inGroupedTransaction(c, () => {
        put('g-c');
        inside.push(c.db.inTransaction);
        return 'c';
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(results[0]).toMatchObject({ value: 'a' });
    expect(results[1]).toMatchObject({ reason: new Error('no') });
    expect(keys(c)).toEqual(['g-a', 'g-c']);
    // 'a' ran twice: with the others and no savepoints (rolled back when 'b' threw), then in a savepoint.
    expect(inside).toEqual([true, true, true]);
    expect(c.db.inTransaction).toBe(false);
  });

  it('writes nothing of a group whose transaction cannot start, and tells every caller', async () => {
    const c = open();
    c.db.pragma('busy_timeout = 20');
    const other = new Database(c.db.name);
    other.exec('BEGIN IMMEDIATE'); // another process holds the write lock past the busy timeout
    const results = await Promise.allSettled(
      [1, 2].map((i) => inGroupedTransaction(c, () => c.db.prepare(`INSERT INTO meta VALUES ('g-${i}', '')`).run())),
    );
    other.exec('ROLLBACK');
    other.close();
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(results[0]).toMatchObject({ reason: { code: 'SQLITE_BUSY' } });
    expect(keys(c)).toEqual([]);
  });
});
