// The rows of a batch: an RFC 4180 CSV (quotes, embedded commas and newlines, a UTF-8 BOM, CRLF)
// read as a stream by csv-parse, so a file of any length is never held in memory, and neither is a
// row: a cell, a row and a row's field count are bounded by CsvGuard in front of the parser (an
// unterminated quote stops at the cell limit, not at the end of the file), naming the row.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { parse } from 'csv-parse';
import { restoreCell } from '../csvOut.js';
import { UseCaseError } from '../failure.js';
import { CsvGuard, CsvTooLarge } from './csvGuard.js';

export interface CsvRow {
  /** Data row number, from 1 (the header row is not counted). */
  row: number;
  values: Record<string, string>;
  /** A row whose field count differs from the header's: reported, never guessed at. */
  problem?: string;
}

async function checkReadable(path: string): Promise<void> {
  try {
    const s = await stat(path);
    if (!s.isFile()) throw new UseCaseError(`${path}: not a file.`, 'usage');
  } catch (e) {
    if (e instanceof UseCaseError) throw e;
    throw new UseCaseError(
      `${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
      'usage',
    );
  }
}

function parser(path: string) {
  const guard = new CsvGuard();
  const p = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, trim: false });
  // A bound broken ends the parse with the guard's error (pipe() alone would leave it waiting).
  guard.on('error', (e) => p.destroy(e));
  return createReadStream(path).pipe(guard).pipe(p);
}

/** The header row: column names, trimmed; duplicates and empty names are errors. */
export async function readHeader(path: string): Promise<string[]> {
  await checkReadable(path);
  const p = parser(path);
  try {
    for await (const rec of p) {
      const header = (rec as string[]).map((h) => restoreCell(h).trim());
      const seen = new Set<string>();
      header.forEach((h, i) => {
        if (!h) throw new UseCaseError(`${path}: column ${i + 1} of the header row has no name.`, 'invalid');
        if (seen.has(h)) throw new UseCaseError(`${path}: column "${h}" appears twice in the header row.`, 'invalid');
        seen.add(h);
      });
      return header;
    }
  } catch (e) {
    throw csvError(path, e);
  } finally {
    p.destroy();
  }
  throw new UseCaseError(`${path}: the file is empty (expected a header row).`, 'invalid');
}

function csvError(path: string, e: unknown): Error {
  if (e instanceof UseCaseError) return e;
  const err = e as Error & { code?: string; lines?: number };
  if (e instanceof CsvTooLarge) return new UseCaseError(`${path}: ${err.message}`, 'invalid');
  return new UseCaseError(
    `${path}: not valid CSV${err.lines ? ` near line ${err.lines}` : ''}: ${err.message}`,
    'invalid',
  );
}

/** The data rows, one at a time, after the header. */
export async function* readRows(path: string, header: string[]): AsyncGenerator<CsvRow> {
  const p = parser(path);
  let n = -1;
  try {
    for await (const rec of p) {
      if (++n === 0) continue;
      const cells = rec as string[];
      const values: Record<string, string> = {};
      header.forEach((h, i) => (values[h] = restoreCell(cells[i] ?? '')));
      yield cells.length === header.length
        ? { row: n, values }
        : {
            row: n,
            values,
            problem: `${cells.length} field${cells.length === 1 ? '' : 's'}, but the header has ${header.length}`,
          };
    }
  } catch (e) {
    throw csvError(path, e);
  } finally {
    p.destroy();
  }
}
