// Checking a batch without sending: every row built and validated as a real create would be. Used
// by `esign batch check` and the MCP server's check_batch tool.
import { readHeader, readRows } from './csv.js';
import { buildRow, planColumns, type Problem, type Source } from './mapping.js';

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
export async function checkRows(csv: string, load: () => Promise<Source>, report: (p: RowProblem) => void): Promise<CheckSummary> {
  const header = await readHeader(csv);
  const source = await load();
  const plan = planColumns(source, header);
  for (const p of plan.problems) report(p);
  let rows = 0;
  let invalid = 0;
  if (!plan.problems.length) {
    // custom_key values given in the CSV must be unique: a repeated key would find the other row's Bundle.
    const keys = new Map<string, number>();
    for await (const r of readRows(csv, header)) {
      rows++;
      const built = await buildRow(source, r, { batchId: 'check', readFiles: false });
      const ps = [...built.problems];
      const given = r.values.custom_key?.trim();
      if (given) {
        const first = keys.get(given);
        if (first !== undefined) ps.push({ column: 'custom_key', message: `"${given}" is also the key of row ${first}: each row needs its own` });
        else keys.set(given, r.row);
      }
      if (ps.length) invalid++;
      for (const p of ps) report({ row: r.row, ...p });
    }
  }
  const header_fits = !plan.problems.length;
  return { rows, valid: rows - invalid, invalid, ok: header_fits && !invalid, header_fits };
}
