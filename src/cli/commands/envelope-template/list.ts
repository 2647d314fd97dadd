// esign envelope-template list
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { printList } from '../../output/print.js';
import { type PageFlags, addPageOptions, fetchPages } from '../../paging.js';
import type { Action } from '../../run.js';
import { byOrder } from './show.js';

export type ListOptions = PageFlags;

export function register(et: Command, action: Action): void {
  addPageOptions(et.command('list').description('List enabled Envelope Templates, newest first')).action(action(run));
}

export async function run(f: Factory, o: ListOptions): Promise<void> {
  const service = await f.service();
  const items = await fetchPages(f, (q) => service.listEnvelopeTemplates(q), o);
  await printList(
    f,
    items,
    [
      { header: 'ID', value: (t) => t.id },
      { header: 'NAME', value: (t) => t.name },
      { header: 'SIGNERS', value: (t) => byOrder(t.signers).map((s) => s.key) },
      { header: 'DOCUMENTS', value: (t) => byOrder(t.documents).map((d) => d.name) },
      { header: 'CREATED', value: (t) => t.created },
    ],
    (t) => t.id,
  );
}
