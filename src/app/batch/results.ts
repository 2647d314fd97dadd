// Per-row results as they happen: --results FILE, CSV (by extension .csv) or JSON Lines.
import { createWriteStream, type WriteStream } from 'node:fs';
import { csvRecords } from '../csvOut.js';
import type { RowResult } from './runner.js';

const COLUMNS: (keyof RowResult)[] = ['row', 'custom_key', 'bundle_id', 'status', 'error'];

export class ResultsFile {
  private readonly stream: WriteStream;
  private readonly csv: boolean;
  constructor(path: string) {
    this.csv = /\.csv$/i.test(path);
    this.stream = createWriteStream(path, { mode: 0o600 });
    if (this.csv) this.stream.write(csvRecords([COLUMNS]));
  }

  write(r: RowResult): void {
    this.stream.write(this.csv ? csvRecords([COLUMNS.map((c) => r[c])]) : `${JSON.stringify(r)}\n`);
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => this.stream.end((e?: Error | null) => (e ? reject(e) : resolve())));
  }
}
