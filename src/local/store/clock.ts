import { type Db, sql } from './db.js';
import { Steady } from './steady.js';

/**
 * The engine's clock: wall time plus an offset kept in the database, so that `esign local clock
 * advance` moves time for every process using the same data directory.
 */
export class Clock {
  private readonly steady: Steady<number>;
  constructor(private readonly db: Db) {
    this.steady = new Steady(db, () => {
      const row = sql(db, `SELECT value FROM meta WHERE key = 'clock_offset_ms'`).get() as
        | { value: string }
        | undefined;
      return row ? Number(row.value) : 0;
    });
  }
  /**
   * Read every time outside a write, so that a running `esign serve` follows `esign local clock
   * advance`; once per write transaction inside one (store/steady.ts).
   */
  offset(): number {
    return this.steady.get();
  }
  nowMs(): number {
    return Date.now() + this.offset();
  }
  now(): string {
    return new Date(this.nowMs()).toISOString();
  }
  setOffset(ms: number): void {
    this.steady.forget();
    sql(
      this.db,
      `INSERT INTO meta(key, value) VALUES ('clock_offset_ms', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
    ).run(String(ms));
  }
  /** Moves the clock forward in one statement, so concurrent advances add up. */
  advance(ms: number): void {
    this.steady.forget();
    sql(
      this.db,
      `INSERT INTO meta(key, value) VALUES ('clock_offset_ms', ?) ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + ?`,
    ).run(String(ms), ms);
  }
}
