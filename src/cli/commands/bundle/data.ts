// esign bundle data SLUG: the field values of a Bundle.
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { printList } from '../../output/print.js';
import type { Action } from '../../run.js';

export interface DataOptions {
  slug: string;
}

export function register(bundle: Command, action: Action): void {
  bundle
    .command('data <slug>')
    .description('Field values of the Bundle')
    .action(action(async (f, _o: object, slug: string) => run(f, { slug })));
}

export async function run(f: Factory, o: DataOptions): Promise<void> {
  const items = await (await f.service()).getBundleData(o.slug);
  await printList(
    f,
    items,
    [
      { header: 'DOC', value: (d) => d.doc_key },
      { header: 'FIELD', value: (d) => d.field_key },
      { header: 'KIND', value: (d) => d.kind },
      { header: 'LABEL', value: (d) => d.label },
      { header: 'VALUE', value: (d) => d.value },
      { header: 'FILLED_BY', value: (d) => d.filled_by },
    ],
    (d) => d.field_key,
  );
}
