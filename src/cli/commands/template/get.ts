// esign template get ID
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import type { Action } from '../../run.js';
import { showTemplate } from './show.js';

export interface GetOptions {
  id: string;
}

export function register(template: Command, action: Action): void {
  template
    .command('get <id>')
    .description('Show a Document Template')
    .action(action(async (f, _o: object, id: string) => run(f, { id })));
}

export async function run(f: Factory, o: GetOptions): Promise<void> {
  await showTemplate(f, await (await f.service()).getTemplate(o.id));
}
