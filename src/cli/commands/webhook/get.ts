// esign webhook get ID
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import type { Action } from '../../run.js';
import { showWebhook } from './show.js';

export interface GetOptions {
  id: string;
}

export function register(webhook: Command, action: Action): void {
  webhook
    .command('get <id>')
    .description('Show a webhook and its extra headers')
    .action(action(async (f, _o: object, id: string) => run(f, { id })));
}

export async function run(f: Factory, o: GetOptions): Promise<void> {
  await showWebhook(f, await (await f.service()).getWebhook(o.id));
}
