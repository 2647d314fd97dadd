// esign person list
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { printList } from '../../output/print.js';
import { type PageFlags, addPageOptions, fetchPages } from '../../paging.js';
import type { Action } from '../../run.js';
import { emails, phones } from './show.js';

export interface ListOptions extends PageFlags {
  search?: string;
  email?: string;
  phone?: string;
}

export function register(person: Command, action: Action): void {
  addPageOptions(
    person
      .command('list')
      .description('List Persons')
      .option('--search <text>', 'name, email or phone contains')
      .option('--email <email>', 'has this email address')
      .option('--phone <phone>', 'has this phone number'),
  ).action(action(run));
}

export async function run(f: Factory, o: ListOptions): Promise<void> {
  const service = await f.service();
  const items = await fetchPages(
    f,
    (q) => service.listPersons({ ...q, search: o.search, email: o.email, phone: o.phone }),
    o,
  );
  await printList(
    f,
    items,
    [
      { header: 'ID', value: (p) => p.id },
      { header: 'NAME', value: (p) => p.name },
      { header: 'EMAILS', value: emails },
      { header: 'PHONES', value: phones },
      { header: 'USER', value: (p) => p.is_user },
    ],
    (p) => p.id,
  );
}
