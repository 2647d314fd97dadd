// esign batch check ROWS.csv (and batch send --dry-run): builds and validates every row as a real
// create would, sends nothing, and reports each problem as `row 17, column ada.email: ...`; exit 3.
import type { RowProblem } from '../../../app/batch/checkRows.js';
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
        csv,
        async () => (await loadSource(f, o)).source,
        (p) => {
          if (f.options.json) problems.push(p);
          else f.io.out.write(`${describeProblem(p.row, p)}\n`);
        },
      );
      const { rows, invalid, ok } = r;
      if (f.options.json) writeJson(f, { rows, valid: r.valid, invalid, ok, problems });
      else if (!f.options.quiet)
        note(
          f,
          !r.header_fits
            ? `The header does not fit the source: no row was checked.`
            : `Checked ${rows} row${rows === 1 ? '' : 's'}: ${rows - invalid} valid, ${invalid} invalid.`,
        );
      if (!ok)
        throw new CliError(
          !r.header_fits ? 'The CSV header does not fit the source.' : `${invalid} of ${rows} rows are invalid.`,
          EXIT.INVALID,
        );
    },
  },
);
