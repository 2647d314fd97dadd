// esign batch check ROWS.csv (and batch send --dry-run): builds and validates every row as a real
// create would, sends nothing, and reports each problem as `row 17, column ada.email: ...`; exit 3.
import type { Command } from '@commander-js/extra-typings';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { note, writeJson } from '../../output/print.js';
import type { Action } from '../../run.js';
import type { SourceFlags } from '../../batch/source.js';
import type { RowProblem } from '../../batch/checkRows.js';

export type CheckOptions = SourceFlags & { csv: string };

export function register(batch: Command, action: Action): void {
  batch
    .command('check <rows.csv>')
    .description('Validate every row as a real send would, sending nothing; exit 3 when any row is invalid')
    .option('-f, --spec <file>', 'a BundleRequest JSON whose strings may hold {{column}} placeholders')
    .option('--template <id>', 'a Document Template: ROLE.name|email|phone|deliver_via, field.KEY and tag.NAME columns')
    .option(
      '--envelope-template <id>',
      'an Envelope Template: SIGNER.name|email|phone|deliver_via and field.KEY columns',
    )
    .action(action(async (f, o: SourceFlags, csv: string) => run(f, { ...o, csv })));
}

export async function run(f: Factory, o: CheckOptions): Promise<void> {
  const [{ checkRows }, { describeProblem }, { loadSource }] = await Promise.all([
    import('../../batch/checkRows.js'),
    import('../../batch/mapping.js'),
    import('../../batch/source.js'),
  ]);
  const problems: RowProblem[] = [];
  const r = await checkRows(
    o.csv,
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
}
