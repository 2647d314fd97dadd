// esign webhook delete ID (asks first, or --yes).
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { printDeleted } from '../../output/print.js';
import { type Action, confirm } from '../../run.js';

export interface DeleteOptions {
  id: string;
  yes?: boolean;
}

export function register(webhook: Command, action: Action): void {
  webhook
    .command('delete <id>')
    .description('Delete a webhook (its events and headers go with it)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action(async (f, o: Omit<DeleteOptions, 'id'>, id: string) => run(f, { ...o, id })));
}

export async function run(f: Factory, o: DeleteOptions): Promise<void> {
  await confirm(f, `Delete webhook ${o.id}?`, o.yes);
  await (await f.service()).deleteWebhook(o.id);
  printDeleted(f, 'webhook', o.id);
}
