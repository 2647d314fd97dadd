// esign batch check ROWS.csv (and batch send --dry-run): builds and validates every row as a real
// create would, sends nothing, and reports each problem as `row 17, column ada.email: ...`; exit 3.
import type { Command } from 'commander';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { note, writeJson } from '../../output.js';
import type { Action } from '../../run.js';
import type { SourceFlags } from '../../batch/source.js';

export type CheckOptions = SourceFlags & { csv: string };

export function register(batch: Command, action: Action): void {
  batch
    .command('check <rows.csv>')
    .description('Validate every row as a real send would, sending nothing; exit 3 when any row is invalid')
    .option('-f, --spec <file>', 'a BundleRequest JSON whose strings may hold {{column}} placeholders')
    .option('--template <id>', 'a Document Template: ROLE.name|email|phone|deliver_via, field.KEY and tag.NAME columns')
    .option('--envelope-template <id>', 'an Envelope Template: SIGNER.name|email|phone|deliver_via and field.KEY columns')
    .action(action(async (f, o: SourceFlags, csv: string) => run(f, { ...o, csv })));
}

export async function run(f: Factory, o: CheckOptions): Promise<void> {
  const [{ readHeader, readRows }, { planColumns, buildRow, describeProblem }, { loadSource }] = await Promise.all([
    import('../../batch/csv.js'), import('../../batch/mapping.js'), import('../../batch/source.js'),
  ]);
  const header = await readHeader(o.csv);
  const { source } = await loadSource(f, o);
  const problems: { row?: number; column?: string; field?: string; message: string }[] = [];
  const report = (row: number | undefined, p: { column?: string; field?: string; message: string }) => {
    if (f.options.json) problems.push({ row, ...p });
    else f.io.out.write(`${describeProblem(row, p)}\n`);
  };
  const plan = planColumns(source, header);
  for (const p of plan.problems) report(undefined, p);
  let rows = 0;
  let invalid = 0;
  if (!plan.problems.length) {
    // custom_key values given in the CSV must be unique: a repeated key would find the other row's Bundle.
    const keys = new Map<string, number>();
    for await (const r of readRows(o.csv, header)) {
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
      for (const p of ps) report(r.row, p);
    }
  }
  const ok = !plan.problems.length && !invalid;
  if (f.options.json) writeJson(f, { rows, valid: rows - invalid, invalid, ok, problems });
  else if (!f.options.quiet) note(f, plan.problems.length ? `The header does not fit the source: no row was checked.` : `Checked ${rows} row${rows === 1 ? '' : 's'}: ${rows - invalid} valid, ${invalid} invalid.`);
  if (!ok) throw new CliError(plan.problems.length ? 'The CSV header does not fit the source.' : `${invalid} of ${rows} rows are invalid.`, EXIT.INVALID);
}
