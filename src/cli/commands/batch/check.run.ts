// The body of esign batch check (declared in check.ts): the CSV reader, the mapping and the checks load here.
import { type BatchPlan, type CheckSummary, type RowProblem, checkRows } from '../../../app/batch/checkRows.js';
import { type Source, describeProblem } from '../../../app/batch/mapping.js';
import { loadSource } from '../../batch/source.js';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { note, writeJson } from '../../output/print.js';
import type { Run } from '../../verb.js';
import type { check } from './check.js';

export const run: Run<typeof check> = (f, o, csv) => checkCsv(f, csv, async () => (await loadSource(f, o)).source);

/**
 * Checks the CSV; with `plan` (batch send --dry-run), as that batch's send would take it: rows its
 * journal calls sent are counted as sent before, and custom_keys are the send's.
 */
export async function checkCsv(f: Factory, csv: string, load: () => Promise<Source>, plan?: BatchPlan): Promise<void> {
  const problems: RowProblem[] = [];
  const r = await checkRows(
    () => f.service(),
    csv,
    load,
    (p) => {
      if (f.options.json) problems.push(p);
      else f.io.out.write(`${describeProblem(p.row, p)}\n`);
    },
    undefined,
    plan,
  );
  const { rows, invalid, ok } = r;
  if (f.options.json) writeJson(f, { ...r, problems });
  else if (!f.options.quiet) sayChecked(f, r);
  if (!ok)
    throw new CliError(
      !r.header_fits ? 'The CSV header does not fit the source.' : `${invalid} of ${rows} rows are invalid.`,
      EXIT.INVALID,
    );
}

/** What was checked, and what could not be: the server decides that when each Bundle is sent. */
function sayChecked(f: Factory, r: CheckSummary): void {
  if (!r.header_fits) {
    note(f, 'The header does not fit the source: no row was checked.');
    return;
  }
  note(
    f,
    `Checked ${r.rows - r.sent_before} row${r.rows - r.sent_before === 1 ? '' : 's'}: ${r.valid} valid, ${r.invalid} invalid.`,
  );
  if (r.exists)
    note(
      f,
      `${r.exists} valid row${r.exists === 1 ? ' has' : 's have'} a Bundle with their custom_key already: send skips them.`,
    );
  if (r.sent_before)
    note(
      f,
      `${r.sent_before} row${r.sent_before === 1 ? ' was' : 's were'} sent before (the batch's journal): not sent again.`,
    );
  if (r.checked_at_send.length) note(f, `Checked by the server at send: ${r.checked_at_send.join('; ')}.`);
  if (r.after_create.length) note(f, `After each create: ${r.after_create.join('; ')} (a failure fails that Bundle).`);
}
