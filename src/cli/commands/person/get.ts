// esign person get ID
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import type { Action } from '../../run.js';
import { showPerson } from './show.js';

export interface GetOptions {
  id: string;
}

export function register(person: Command, action: Action): void {
  person
    .command('get <id>')
    .description('Show a Person')
    .action(action(async (f, _o: object, id: string) => run(f, { id })));
}

export async function run(f: Factory, o: GetOptions): Promise<void> {
  await showPerson(f, await (await f.service()).getPerson(o.id));
}
