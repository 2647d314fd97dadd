// esign template list: Document Templates, optionally by metadata.
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { keyValueItems, printList } from '../../output/print.js';
import { type PageFlags, addPageOptions, fetchPages } from '../../paging.js';
import { type Action, collect, keyValues } from '../../run.js';

export interface ListOptions extends PageFlags {
  metadata?: string[];
}

export function register(template: Command, action: Action): void {
  addPageOptions(
    template
      .command('list')
      .description('List Document Templates')
      .option(
        '--metadata <key=value>',
        'only templates whose metadata has this value (repeatable; all must match)',
        collect,
      ),
  ).action(action(run));
}

export async function run(f: Factory, o: ListOptions): Promise<void> {
  const service = await f.service();
  const metadata = o.metadata?.length ? Object.fromEntries(keyValues(o.metadata, '--metadata')) : undefined;
  const items = await fetchPages(f, (q) => service.listTemplates({ ...q, metadata }), o);
  await printList(
    f,
    items,
    [
      { header: 'ID', value: (t) => t.id },
      { header: 'NAME', value: (t) => t.name },
      { header: 'ROLES', value: (t) => t.roles.map((r) => r.key) },
      { header: 'SHARED', value: (t) => t.is_shared },
      { header: 'METADATA', value: (t) => keyValueItems(t.metadata) },
    ],
    (t) => t.id,
  );
}
