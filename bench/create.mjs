// Engine create throughput in-process: one small PDF, two signers, each create a full launch
// (validation, PDF check, blob store, one transaction with events and outbox messages).
// In the same run, the limit: plain better-sqlite3 inserting the rows those creates wrote (same tables,
// indexes and pragmas, one transaction per create, no triggers, no checks, no PDF), and the ratio.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { LocalEngine } from '../dist/engine.js';
import { fmt } from './lib.mjs';
import { request } from './seed.mjs';

const N = Number(process.env.BENCH_CREATES ?? 5_000);
const dir = mkdtempSync(join(tmpdir(), 'esign-bench-create-'));
const engine = new LocalEngine({ dataDir: dir });
try {
  for (let i = 0; i < 200; i++) await engine.createBundle(request(i)); // warm-up
  const baselinePath = join(dir, 'baseline.db');
  engine.db.prepare('VACUUM INTO ?').run(baselinePath);
  const tables = plainTables(engine.db);
  const before = new Map(tables.map((t) => [t, maxRowid(engine.db, t)]));
  const t0 = process.hrtime.bigint();
  for (let i = 200; i < 200 + N; i++) await engine.createBundle(request(i));
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  const written = (t) => engine.db.prepare(`SELECT * FROM "${t}" WHERE rowid > ? ORDER BY rowid`).all(before.get(t));
  const rows = tables.map((t) => ({ table: t, rows: written(t) }));
  const raw = replay(baselinePath, rows, N);
  const perCreate = rows.reduce((n, t) => n + t.rows.length, 0) / N;
  console.log(`engine createBundle: ${N} in ${fmt(s, 2)} s = ${fmt(N / s, 0)} creates/s (target >= 2500)`);
  console.log(
    `  raw better-sqlite3, the same ${fmt(perCreate, 1)} rows a create writes, one transaction each: ` +
      `${fmt(N / raw, 0)} creates/s; engine / raw time = ${fmt(s / raw, 2)} (target <= 4)`,
  );
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}

/** Tables a create writes itself: not SQLite's, not a search index's, not one kept by a trigger. */
function plainTables(db) {
  const schema = db.prepare(`SELECT type, name, sql FROM sqlite_schema`).all();
  const virtual = schema.filter((r) => r.type === 'table' && /^CREATE VIRTUAL/i.test(r.sql ?? '')).map((r) => r.name);
  const kept = new Set();
  for (const r of schema.filter((r) => r.type === 'trigger'))
    for (const m of r.sql.matchAll(/(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)/gi))
      kept.add(m[1]);
  return schema
    .filter((r) => r.type === 'table' && !r.name.startsWith('sqlite_') && !kept.has(r.name))
    .filter((r) => !/WITHOUT ROWID/i.test(r.sql))
    .filter((r) => !virtual.some((v) => r.name === v || r.name.startsWith(`${v}_`)))
    .map((r) => r.name);
}

function maxRowid(db, table) {
  return db.prepare(`SELECT coalesce(max(rowid), 0) FROM "${table}"`).pluck().get();
}

/**
 * Inserts each create's share of the rows (in rowid order, create k gets rows k*n/N.. of a table)
 * into a copy of the database as it was before the timed creates, without its triggers. Seconds.
 */
function replay(path, tables, n) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 4000');
  db.pragma('foreign_keys = ON');
  const triggers = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'trigger'`).pluck().all();
  for (const name of triggers) db.exec(`DROP TRIGGER "${name}"`);
  const plans = tables
    .filter((t) => t.rows.length)
    .map(({ table, rows }) => {
      const cols = Object.keys(rows[0]);
      const names = cols.map((c) => `"${c}"`).join(', ');
      const insert = db.prepare(`INSERT INTO "${table}" (${names}) VALUES (${cols.map(() => '?').join(', ')})`);
      return { rows: rows.map((r) => cols.map((c) => r[c])), insert };
    });
  const create = db.transaction((k) => {
    for (const p of plans) {
      const from = Math.floor((k * p.rows.length) / n);
      const to = Math.floor(((k + 1) * p.rows.length) / n);
      for (let j = from; j < to; j++) p.insert.run(p.rows[j]);
    }
  });
  const t0 = process.hrtime.bigint();
  for (let k = 0; k < n; k++) create.immediate(k);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  db.close();
  return s;
}
