// Checking a batch without sending: every row built as a real send builds it, then validated by the
// one validation of a create (src/app/createCheck.ts): on the embedded engine its own create, tried
// and undone; on a remote backend every rule the client can know, the rest named. Used by `esign
// batch check`, `batch send --dry-run` and the MCP server's send_batch dry run.
import type { EsignService } from '../../service/service.js';
import { CreateChecker } from '../createCheck.js';
import { readHeader, readRows } from './csv.js';
import { FileCache } from './fileCache.js';
import { planColumns, type Problem, type Source } from './mapping.js';
import { RowChecker } from './rows.js';
import { sliced } from './slices.js';

export interface RowProblem extends Problem {
  /** The data row (from 1); none for a problem of the header. */
  row?: number;
}

export interface CheckSummary {
  rows: number;
  valid: number;
  invalid: number;
  /** Valid rows whose custom_key a Bundle already has: send reports them as sent before, and sends nothing. */
  exists: number;
  ok: boolean;
  /** False when the header does not fit the source: then no row was checked. */
  header_fits: boolean;
  /** The rules this backend could not check beforehand: the server decides them when each Bundle is sent. */
  checked_at_send: string[];
  /** What happens to the rows' documents after each create (a failure then fails that Bundle). */
  after_create: string[];
}

/**
 * Checks the CSV at `csv` against the source (loaded once the header is read: a CSV that cannot be
 * read is reported first, before the backend is asked for); each problem goes to `report` as it is
 * found, and `onRows` hears how many rows are checked so far (after each slice of work).
 */
export async function checkRows(
  service: () => Promise<EsignService>,
  csv: string,
  load: () => Promise<Source>,
  report: (p: RowProblem) => void,
  onRows?: (rows: number) => void,
): Promise<CheckSummary> {
  const header = await readHeader(csv);
  const source = await load();
  const plan = planColumns(source, header);
  for (const p of plan.problems) report(p);
  let rows = 0;
  let invalid = 0;
  let exists = 0;
  const backend = await service();
  const creates = new CreateChecker(backend);
  if (!plan.problems.length) {
    // The same rows as batch send's (rows.ts), duplicate custom_keys included, files read as it reads them.
    const checker = new RowChecker(source, {
      batchId: 'check',
      readFiles: true,
      files: new FileCache(),
      templates: backend,
    });
    // In slices: a server checking for one caller answers others meanwhile.
    const slice = sliced(() => onRows?.(rows));
    for await (const r of readRows(csv, header)) {
      await slice();
      rows++;
      const built = await checker.check(r);
      let problems: Problem[] = built.problems;
      if (built.request) {
        const c = await creates.check(built.request);
        problems = c.problems.map((p) => {
          const column = built.columnOf(p.field);
          return column ? { column, message: p.message } : { field: p.field, message: p.message };
        });
        if (!problems.length && c.existing) exists++;
      }
      if (problems.length) invalid++;
      for (const p of problems) report({ row: r.row, ...p });
    }
  }
  const header_fits = !plan.problems.length;
  return {
    rows,
    valid: rows - invalid,
    invalid,
    exists,
    ok: header_fits && !invalid,
    header_fits,
    checked_at_send: creates.atSend(),
    after_create: creates.afterCreate(),
  };
}
