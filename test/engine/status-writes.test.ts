// One place writes a status: every UPDATE of a Bundle's or a packet's `status` in the engine is in
// src/local/bundles/transitions.ts (migrations, which rewrite old rows, aside). And no write to a table
// whose counts and search rows triggers keep uses REPLACE, whose implicit delete fires no trigger.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', 'src', 'local');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );

/** `UPDATE bundles|packets SET ... status = ...` before the WHERE; doc_status is another column. */
const STATUS_WRITE = /UPDATE\s+(bundles|packets)\s+SET\b(?:(?!\bWHERE\b)[^`;])*?(?<![a-z_])status\s*=/gi;

describe('status writes', () => {
  it('are all in bundles/transitions.ts', () => {
    const writers = new Map<string, number>();
    for (const f of files(root)) {
      const rel = relative(root, f).split('\\').join('/');
      if (rel === 'store/migrations.ts') continue;
      const n = [...readFileSync(f, 'utf8').matchAll(STATUS_WRITE)].length;
      if (n) writers.set(rel, n);
    }
    expect([...writers.keys()]).toEqual(['bundles/transitions.ts']);
    // Bundle: sent, complete, ended (ca/ex, with its packets), failed, started and declined; packet: asked, viewed, signed, declined, reassigned.
    expect(writers.get('bundles/transitions.ts')).toBeGreaterThanOrEqual(11);
  });

  it('the pattern sees a write and passes a doc_status write', () => {
    const count = (s: string) => [...s.matchAll(STATUS_WRITE)].length;
    expect(count("sql(db, `UPDATE packets SET status = 'co', completed_at = ? WHERE id = ?`)")).toBe(1);
    expect(count("sql(db, `UPDATE packets SET last_accessed_at = ?, status = CASE WHEN 1 THEN 'st' END`)")).toBe(1);
    expect(count("sql(db, `UPDATE bundles SET doc_status = 'di' WHERE seq = ?`)")).toBe(0);
    expect(
      count(
        "sql(db, `UPDATE bundles SET evidence_lease = ? WHERE seq IN (SELECT seq FROM bundles WHERE status = 'co')`)",
      ),
    ).toBe(0);
  });
});

/** `INSERT OR REPLACE INTO t` or `REPLACE INTO t` for a table that triggers count or index. */
const REPLACING =
  /\b(?:INSERT\s+OR\s+REPLACE|REPLACE)\s+INTO\s+(bundles|packets|documents|bundle_tags|webhook_events|webhook_deliveries|persons|person_channels)\b/gi;

describe('writes of tables kept in step by triggers', () => {
  it('never REPLACE a row (its delete would not reach the counts and search rows)', () => {
    const found: string[] = [];
    for (const f of files(root))
      for (const m of readFileSync(f, 'utf8').matchAll(REPLACING)) found.push(`${relative(root, f)}: ${m[0]}`);
    expect(found).toEqual([]);
    expect('INSERT OR REPLACE INTO bundle_tags (bundle_seq, tag)'.match(REPLACING)).toHaveLength(1);
    expect('INSERT OR REPLACE INTO produced_files (bundle_seq)'.match(REPLACING)).toBeNull();
  });
});
