// Per-row results: --results FILE, CSV (by extension .csv) or JSON Lines, in the CSV's row order.
// Rows finish in any order (several at a time); each result waits until the rows before it are
// written, so at most the rows in flight meanwhile are held.
import { createWriteStream, type WriteStream } from 'node:fs';
import { csvRecords } from '../csvOut.js';
import type { RowResult } from './runner.js';

const COLUMNS: (keyof RowResult)[] = ['row', 'custom_key', 'bundle_id', 'status', 'error'];

export class ResultsFile {
  private readonly stream: WriteStream;
  private readonly csv: boolean;
  private readonly waiting = new Map<number, RowResult>();
  private next = 1;
  constructor(path: string) {
    this.csv = /\.csv$/i.test(path);
    this.stream = createWriteStream(path, { mode: 0o600 });
    if (this.csv) this.stream.write(csvRecords([COLUMNS]));
  }

  write(r: RowResult): void {
    this.waiting.set(r.row, r);
    for (let w = this.waiting.get(this.next); w; w = this.waiting.get(this.next)) {
      this.put(w);
      this.waiting.delete(this.next++);
    }
  }

  private put(r: RowResult): void {
    this.stream.write(this.csv ? csvRecords([COLUMNS.map((c) => r[c])]) : `${JSON.stringify(r)}\n`);
  }

  /** Writes what is still held (rows after one never started: an interrupted batch), in order, and ends the file. */
  close(): Promise<void> {
    for (const row of [...this.waiting.keys()].sort((a, b) => a - b)) this.put(this.waiting.get(row)!);
    this.waiting.clear();
    return new Promise((resolve, reject) => this.stream.end((e?: Error | null) => (e ? reject(e) : resolve())));
  }
}
