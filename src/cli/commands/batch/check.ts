// esign batch check ROWS.csv (and batch send --dry-run): builds and validates every row as a real
// create would, sends nothing, and reports each problem as `row 17, column ada.email: ...`; exit 3.
import type { CheckSummary, RowProblem } from '../../../app/batch/checkRows.js';
import type { Factory } from '../../factory.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { note, writeJson } from '../../output/print.js';
import { defineVerb } from '../../verb.js';
import { addSourceOptions } from './shared/flags.js';

export const check = defineVerb(
  'check <rows.csv>',
  'Validate every row as a real send would, sending nothing; exit 3 when any row is invalid',
  {
    flags: (c) => addSourceOptions(c, true),
    examples: [
      'esign batch check rows.csv --spec nda.json',
      'esign batch check offers.csv --template 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c --json',
    ],
    async run(f, o, csv) {
      const [{ checkRows }, { describeProblem }, { loadSource }] = await Promise.all([
        import('../../../app/batch/checkRows.js'),
        import('../../../app/batch/mapping.js'),
        import('../../batch/source.js'),
      ]);
      const problems: RowProblem[] = [];
      const r = await checkRows(
        () => f.service(),
        csv,
        async () => (await loadSource(f, o)).source,
        (p) => {
          if (f.options.json) problems.push(p);
          else f.io.out.write(`${describeProblem(p.row, p)}\n`);
        },
      );
      const { rows, invalid, ok } = r;
      if (f.options.json) writeJson(f, { ...r, problems });
      else if (!f.options.quiet) sayChecked(f, r);
      if (!ok)
        throw new CliError(
          !r.header_fits ? 'The CSV header does not fit the source.' : `${invalid} of ${rows} rows are invalid.`,
          EXIT.INVALID,
        );
    },
  },
);

/** What was checked, and what could not be: the server decides that when each Bundle is sent. */
function sayChecked(f: Factory, r: CheckSummary): void {
  if (!r.header_fits) {
    note(f, 'The header does not fit the source: no row was checked.');
    return;
  }
  note(f, `Checked ${r.rows} row${r.rows === 1 ? '' : 's'}: ${r.valid} valid, ${r.invalid} invalid.`);
  if (r.exists)
    note(
      f,
      `${r.exists} valid row${r.exists === 1 ? ' has' : 's have'} a Bundle with their custom_key already: send skips them.`,
    );
  if (r.checked_at_send.length) note(f, `Checked by the server at send: ${r.checked_at_send.join('; ')}.`);
  if (r.after_create.length) note(f, `After each create: ${r.after_create.join('; ')} (a failure fails that Bundle).`);
}
