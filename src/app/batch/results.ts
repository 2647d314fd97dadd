// Per-row results: --results FILE, CSV (by extension .csv) or JSON Lines, in the CSV's row order.
// Rows finish in any order (several at a time); each result waits until the rows before it are
// written, so at most the rows in flight meanwhile are held. Lines are written as they come, without
// a buffer of the stream's: a process that ends at once (a second Ctrl-C) loses none it had said.
// An interrupted run lists every row: what was done, `interrupted`, and `not_started` for the rest.
import { closeSync, openSync, writeSync } from 'node:fs';
import { csvRecords } from '../csvOut.js';
import type { RowResult } from './runner.js';

const COLUMNS: (keyof RowResult)[] = ['row', 'custom_key', 'bundle_id', 'status', 'error'];

/** Lines gathered before one write, when many are written at once (the not-started rows). */
const CHUNK = 64 * 1024;

export class ResultsFile {
  private fd: number | undefined;
  private readonly csv: boolean;
  private readonly waiting = new Map<number, RowResult>();
  private next = 1;
  constructor(path: string) {
    this.csv = /\.csv$/i.test(path);
    this.fd = openSync(path, 'w', 0o600);
    if (this.csv) this.writeOut(csvRecords([COLUMNS]));
  }

  write(r: RowResult): void {
    this.waiting.set(r.row, r);
    let text = '';
    for (let w = this.waiting.get(this.next); w; w = this.waiting.get(this.next)) {
      text += this.line(w);
      this.waiting.delete(this.next++);
    }
    if (text) this.writeOut(text);
  }

  private line(r: RowResult): string {
    return this.csv ? csvRecords([COLUMNS.map((c) => r[c])]) : `${JSON.stringify(r)}\n`;
  }

  private writeOut(text: string): void {
    if (this.fd !== undefined) writeSync(this.fd, text);
  }

  /**
   * Writes what is still held, in order, and ends the file. `rows` (an interrupted run): every row
   * up to it that has no result is written as not_started.
   */
  close(rows?: number): void {
    const last = Math.max(rows ?? 0, ...this.waiting.keys());
    let text = '';
    for (let row = this.next; row <= last; row++) {
      const held = this.waiting.get(row);
      if (held) text += this.line(held);
      else if (rows !== undefined) text += this.line(notStarted(row));
      if (text.length >= CHUNK) {
        this.writeOut(text);
        text = '';
      }
    }
    this.writeOut(text);
    this.waiting.clear();
    this.end();
  }

  /**
   * The process is ending at once (a second Ctrl-C): the results held, and `inFlight` rows (their
   * create sent, its outcome unknown: the next run looks their custom_key up first) as interrupted.
   * Synchronous: it runs in the process's exit.
   */
  abandon(inFlight: { row: number; key: string }[]): void {
    if (this.fd === undefined) return;
    for (const f of inFlight)
      if (f.row >= this.next && !this.waiting.has(f.row))
        this.waiting.set(f.row, {
          row: f.row,
          custom_key: f.key,
          bundle_id: '',
          status: 'interrupted',
          error: 'its create was in flight when the process ended: the next run looks its custom_key up before sending',
        });
    const rows = [...this.waiting.keys()].sort((a, b) => a - b);
    this.writeOut(rows.map((r) => this.line(this.waiting.get(r)!)).join(''));
    this.waiting.clear();
    this.end();
  }

  private end(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

const notStarted = (row: number): RowResult => ({
  row,
  custom_key: '',
  bundle_id: '',
  status: 'not_started',
  error: '',
});
