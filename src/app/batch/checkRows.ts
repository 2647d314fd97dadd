// Checking a batch without sending: every row built and validated as a real create would be. Used
// by `esign batch check` and the MCP server's check_batch tool.
import { readHeader, readRows } from './csv.js';
import { planColumns, type Problem, type Source } from './mapping.js';
import { RowChecker } from './rows.js';

export interface RowProblem extends Problem {
  /** The data row (from 1); none for a problem of the header. */
  row?: number;
}

export interface CheckSummary {
  rows: number;
  valid: number;
  invalid: number;
  ok: boolean;
  /** False when the header does not fit the source: then no row was checked. */
  header_fits: boolean;
}

/**
 * Checks the CSV at `csv` against the source (loaded once the header is read: a CSV that cannot be
 * read is reported first); each problem goes to `report` as it is found.
 */
export async function checkRows(
  csv: string,
  load: () => Promise<Source>,
  report: (p: RowProblem) => void,
): Promise<CheckSummary> {
  const header = await readHeader(csv);
  const source = await load();
  const plan = planColumns(source, header);
  for (const p of plan.problems) report(p);
  let rows = 0;
  let invalid = 0;
  if (!plan.problems.length) {
    // The same row validation as batch send's (rows.ts): duplicate custom_keys included.
    const checker = new RowChecker(source, { batchId: 'check', readFiles: false });
    for await (const r of readRows(csv, header)) {
      rows++;
      const built = await checker.check(r);
      if (built.problems.length) invalid++;
      for (const p of built.problems) report({ row: r.row, ...p });
    }
  }
  const header_fits = !plan.problems.length;
  return { rows, valid: rows - invalid, invalid, ok: header_fits && !invalid, header_fits };
}
