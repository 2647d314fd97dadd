import { type Db, sql } from './db.js';

/**
 * The engine's clock: wall time plus an offset kept in the database, so that `esign local clock
 * advance` moves time for every process using the same data directory.
 */
export class Clock {
  constructor(private readonly db: Db) {}
  /** Read every time, so that a running `esign serve` follows `esign local clock advance`. */
  offset(): number {
    const row = sql(this.db, `SELECT value FROM meta WHERE key = 'clock_offset_ms'`).get() as
      | { value: string }
      | undefined;
    return row ? Number(row.value) : 0;
  }
  nowMs(): number {
    return Date.now() + this.offset();
  }
  now(): string {
    return new Date(this.nowMs()).toISOString();
  }
  setOffset(ms: number): void {
    sql(
      this.db,
      `INSERT INTO meta(key, value) VALUES ('clock_offset_ms', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
    ).run(String(ms));
  }
  /** Moves the clock forward in one statement, so concurrent advances add up. */
  advance(ms: number): void {
    sql(
      this.db,
      `INSERT INTO meta(key, value) VALUES ('clock_offset_ms', ?) ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + ?`,
    ).run(String(ms), ms);
  }
}
