// Bounds what the CSV parser may hold before it holds it: bytes per cell and per row, and cells per
// row. csv-parse buffers a whole cell (an unterminated quote: the rest of the file) and a whole row
// (empty cells cost it nothing to count, so a line of commas grows without bound); this stream sits
// in front of it and stops the read at the first bound broken, naming the row. It follows RFC 4180
// quoting only as far as it needs to: a quote toggles quoting ("" toggles twice), and outside quotes
// a comma ends a cell and a newline a row; the parsing itself stays csv-parse's.
import { Transform, type TransformCallback } from 'node:stream';

export const CSV_LIMITS = { cellBytes: 64 * 1024, rowBytes: 1024 * 1024, fields: 1000 };

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/** A bound broken: the message names the row (row 0 is the header; data rows count from 1). */
export class CsvTooLarge extends Error {}

export class CsvGuard extends Transform {
  private quoted = false;
  private cell = 0;
  private row = 0;
  private fields = 1;
  /** Rows ended so far (lines with nothing on them are not rows, as csv-parse skips them). */
  private rows = 0;
  private line = 1;
  private rowLine = 1;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const broken = this.scan(chunk);
    if (broken) done(broken);
    else done(null, chunk);
  }

  /** Follows the chunk; the first bound it breaks, if any. */
  private scan(chunk: Buffer): CsvTooLarge | undefined {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (c === LF) this.line++;
      if (c === QUOTE) this.quoted = !this.quoted;
      else if (!this.quoted && c === LF) {
        if (this.row) this.rows++;
        this.cell = this.row = 0;
        this.fields = 1;
        this.rowLine = this.line;
        continue;
      } else if (!this.quoted && c === COMMA) {
        this.cell = 0;
        if (++this.fields > CSV_LIMITS.fields)
          return this.tooLarge(`more than ${CSV_LIMITS.fields.toLocaleString('en')} fields`);
      }
      if (c !== CR || this.quoted) this.row++;
      if (++this.cell > CSV_LIMITS.cellBytes) {
        const hint = this.quoted ? ' (an unterminated quote?)' : '';
        return this.tooLarge(
          `cell ${this.fields} is longer than ${CSV_LIMITS.cellBytes.toLocaleString('en')} bytes${hint}`,
        );
      }
      if (this.row > CSV_LIMITS.rowBytes)
        return this.tooLarge(`longer than ${CSV_LIMITS.rowBytes.toLocaleString('en')} bytes`);
    }
    return undefined;
  }

  private tooLarge(what: string): CsvTooLarge {
    return new CsvTooLarge(
      `${this.rows ? `row ${this.rows}` : 'the header row'} (from line ${this.rowLine}): ${what}.`,
    );
  }
}
