// esign batch csv-template: the header row (and one example row) a source needs.
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import type { Action } from '../../run.js';
import type { SourceFlags } from '../../batch/source.js';

export function register(batch: Command, action: Action): void {
  batch
    .command('csv-template')
    .description('Print the CSV header (and an example row) that --spec, --template or --envelope-template needs')
    .option('-f, --spec <file>', 'a BundleRequest JSON whose strings may hold {{column}} placeholders')
    .option('--template <id>', 'a Document Template')
    .option('--envelope-template <id>', 'an Envelope Template')
    .option('--no-example', 'the header row only')
    .action(action(async (f, o: SourceFlags & { example: boolean }) => run(f, o)));
}

export async function run(f: Factory, o: SourceFlags & { example?: boolean }): Promise<void> {
  const [{ loadSource }, { templateColumns }, { csvRecords }] = await Promise.all([
    import('../../batch/source.js'),
    import('../../batch/mapping.js'),
    import('../../csvOut.js'),
  ]);
  const { header, example } = templateColumns((await loadSource(f, o)).source);
  f.io.out.write(csvRecords(o.example === false ? [header] : [header, example]));
}
