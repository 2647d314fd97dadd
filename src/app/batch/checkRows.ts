// Checking a batch without sending: every row built as a real send builds it, then validated by the
// one validation of a create (src/app/createCheck.ts): on the embedded engine its own create, tried
// and undone; on a remote backend every rule the client can know, the rest named. Used by `esign
// batch check`, `batch send --dry-run` and the MCP server's send_batch dry run.
import type { EsignService } from '../../service/service.js';
import { CreateChecker } from '../createCheck.js';
import { readHeader, readRows } from './csv.js';
import { FileCache } from './fileCache.js';
import { planColumns, type Problem, type Source } from './mapping.js';
import type { JournalEntry } from './journal.js';
import { RowChecker } from './rows.js';
import { sliced } from './slices.js';

export interface RowProblem extends Problem {
  /** The data row (from 1); none for a problem of the header. */
  row?: number;
}

/**
 * What a send of the batch would start from (send.ts planBatch): its id (the rows' custom_keys derive
 * from it), each row's journal entry, the keys of rows an earlier run had in flight.
 */
export interface BatchPlan {
  batchId: string;
  rows: Map<number, JournalEntry>;
  keyFor: (row: number) => string | undefined;
}

export interface CheckSummary {
  rows: number;
  /** Rows the batch's journal calls sent (with a plan): not checked, not sent again. */
  sent_before: number;
  /** Rows checked and valid. */
  valid: number;
  invalid: number;
  /** Valid rows whose custom_key a Bundle already has: send reports them as existing, and sends nothing. */
  exists: number;
  /** Valid rows a send would create a Bundle for. */
  would_create: number;
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
  batch?: BatchPlan,
): Promise<CheckSummary> {
  const header = await readHeader(csv);
  const source = await load();
  const columns = planColumns(source, header);
  for (const p of columns.problems) report(p);
  let rows = 0;
  let invalid = 0;
  let exists = 0;
  let sentBefore = 0;
  const backend = await service();
  // With a plan, a custom_key a Bundle has is looked up on every backend, as the send looks it up.
  const creates = new CreateChecker(backend, { lookUpKeys: batch !== undefined });
  if (!columns.problems.length) {
    // The same rows as batch send's (rows.ts), duplicate custom_keys included, files read as it reads them.
    const checker = new RowChecker(source, {
      batchId: batch?.batchId ?? 'check',
      readFiles: true,
      files: new FileCache(),
      keyFor: batch?.keyFor,
      templates: backend,
    });
    // In slices: a server checking for one caller answers others meanwhile.
    const slice = sliced(() => onRows?.(rows));
    for await (const r of readRows(csv, header)) {
      await slice();
      rows++;
      const prior = batch?.rows.get(r.row);
      if (prior?.s === 'sent') {
        checker.claim(r.row, prior.key);
        sentBefore++;
        continue;
      }
      const built = await checker.check(r);
      let problems: Problem[] = built.problems;
      if (built.request) {
        const c = await creates.check(built.request);
        problems = c.problems.map((p) => {
          const column = built.columnOf(p.field);
          return column ? { column, message: p.message } : { field: p.field, message: p.message };
        });
        // A Bundle this batch's own interrupted create made counts as sent before (the send's `found`).
        if (!problems.length && c.existing) {
          if (prior && prior.key === built.key && prior.s !== 'failed') sentBefore++;
          else exists++;
        }
      }
      if (problems.length) invalid++;
      for (const p of problems) report({ row: r.row, ...p });
    }
  }
  const header_fits = !columns.problems.length;
  return {
    rows,
    sent_before: sentBefore,
    valid: rows - sentBefore - invalid,
    invalid,
    exists,
    would_create: header_fits ? rows - sentBefore - invalid - exists : 0,
    ok: header_fits && !invalid,
    header_fits,
    checked_at_send: creates.atSend(),
    after_create: creates.afterCreate(),
  };
}
