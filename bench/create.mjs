// Engine create throughput in-process: one small PDF, two signers, each create a full launch
// (validation, PDF check, blob store, one transaction with events and outbox messages). Two runs:
// one create at a time (each its own commit), then BENCH_IN_FLIGHT creates in flight together, as
// `batch send --concurrency 8` or a busy `esign serve` has them (they share commits: store/groupCommit).
// Beside each, the limit: plain better-sqlite3 inserting the rows those creates wrote (same tables,
// indexes and pragmas, no triggers, no checks, no PDF), committed the same way, and the ratio.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { LocalEngine } from '../dist/engine.js';
import { fmt, size } from './lib.mjs';
import { request } from './seed.mjs';

const N = size('BENCH_CREATES', 5_000, 10);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 8);
/** Engine and raw take turns, N / ROUNDS creates each, so that a busy moment of the machine hits both. */
const ROUNDS = 5;
const dir = mkdtempSync(join(tmpdir(), 'esign-bench-create-'));
const engine = new LocalEngine({ dataDir: dir });
let next = 0;
try {
  for (const warm = size('BENCH_WARMUP', 200, 2); next < warm; next++) await engine.createBundle(request(next));
  for (const inFlight of [1, IN_FLIGHT]) {
    const { seconds, raw, ratios, perCreate, cpu } = await timed(inFlight);
    const how = inFlight === 1 ? 'one at a time' : `${inFlight} in flight`;
    console.log(
      `engine createBundle, ${how}: ${N} in ${fmt(seconds, 2)} s = ${fmt(N / seconds, 0)} creates/s ` +
        `(${fmt(cpu.engine, 0)} µs CPU each)`,
    );
    console.log(
      `  raw better-sqlite3, the same ${fmt(perCreate, 1)} rows a create writes, ${inFlight} create(s) a ` +
        `transaction: ${fmt(N / raw, 0)} creates/s (${fmt(cpu.raw, 0)} µs CPU each); engine / raw time = ` +
        `${fmt(seconds / raw, 2)} (rounds: ${ratios.map((r) => fmt(r, 2)).join(' ')}; CPU ${fmt(cpu.engine / cpu.raw, 2)})`,
    );
  }
  console.log(`targets: >= 2500 creates/s with ${IN_FLIGHT} in flight, engine / raw time <= 4`);
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}

/** N creates, `inFlight` at a time, each round followed by the raw replay of the rows it wrote, committed alike. */
async function timed(inFlight) {
  const baselinePath = join(dir, `baseline-${inFlight}.db`);
  engine.db.prepare('VACUUM INTO ?').run(baselinePath);
  const tables = plainTables(engine.db);
  const rawDb = openRaw(baselinePath);
  const sum = { seconds: 0, raw: 0, rows: 0, cpuEngine: 0, cpuRaw: 0 };
  const ratios = [];
  for (let r = 0; r < ROUNDS; r++) {
    const n = Math.floor((N * (r + 1)) / ROUNDS) - Math.floor((N * r) / ROUNDS);
    const before = new Map(tables.map((t) => [t, maxRowid(engine.db, t)]));
    const end = next + n;
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const worker = async () => {
      while (next < end) await engine.createBundle(request(next++));
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    sum.cpuEngine += cpuOf(process.cpuUsage(c0));
    const written = (t) => engine.db.prepare(`SELECT * FROM "${t}" WHERE rowid > ? ORDER BY rowid`).all(before.get(t));
    const rows = tables.map((t) => ({ table: t, rows: written(t) }));
    const c1 = process.cpuUsage();
    const raw = replay(rawDb, rows, n, inFlight);
    sum.cpuRaw += cpuOf(process.cpuUsage(c1));
    sum.seconds += seconds;
    sum.raw += raw;
    sum.rows += rows.reduce((k, t) => k + t.rows.length, 0);
    ratios.push(seconds / raw);
  }
  rawDb.close();
  const cpu = { engine: sum.cpuEngine / N, raw: sum.cpuRaw / N };
  return { seconds: sum.seconds, raw: sum.raw, ratios, perCreate: sum.rows / N, cpu };
}

/** µs of CPU, user and system. */
function cpuOf(u) {
  return u.user + u.system;
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

/** A copy of the database as it was before the timed creates, without its triggers, same pragmas. */
function openRaw(path) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 4000');
  db.pragma('foreign_keys = ON');
  const triggers = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'trigger'`).pluck().all();
  for (const name of triggers) db.exec(`DROP TRIGGER "${name}"`);
  return db;
}

/**
 * Inserts each create's share of the rows (in rowid order, create k gets rows k*n/N.. of a table),
 * `perCommit` creates a transaction. Seconds.
 */
function replay(db, tables, n, perCommit) {
  const plans = tables
    .filter((t) => t.rows.length)
    .map(({ table, rows }) => {
      const cols = Object.keys(rows[0]);
      const names = cols.map((c) => `"${c}"`).join(', ');
      const insert = db.prepare(`INSERT INTO "${table}" (${names}) VALUES (${cols.map(() => '?').join(', ')})`);
      return { rows: rows.map((r) => cols.map((c) => r[c])), insert };
    });
  const creates = db.transaction((from, to) => {
    for (let k = from; k < to; k++)
      for (const p of plans) {
        const first = Math.floor((k * p.rows.length) / n);
        const last = Math.floor(((k + 1) * p.rows.length) / n);
        for (let j = first; j < last; j++) p.insert.run(p.rows[j]);
      }
  });
  const t0 = process.hrtime.bigint();
  for (let k = 0; k < n; k += perCommit) creates.immediate(k, Math.min(n, k + perCommit));
  return Number(process.hrtime.bigint() - t0) / 1e9;
}
