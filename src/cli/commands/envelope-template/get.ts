// esign envelope-template get ID
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import type { Action } from '../../run.js';
import { showEnvelopeTemplate } from './show.js';

export interface GetOptions {
  id: string;
}

export function register(et: Command, action: Action): void {
  et.command('get <id>')
    .description('Show an Envelope Template')
    .action(action(async (f, _o: object, id: string) => run(f, { id })));
}

export async function run(f: Factory, o: GetOptions): Promise<void> {
  await showEnvelopeTemplate(f, await (await f.service()).getEnvelopeTemplate(o.id));
}
