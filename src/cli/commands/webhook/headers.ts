// esign webhook headers list|add|update|remove: extra headers sent with a webhook's deliveries.
import type { Command } from '@commander-js/extra-typings';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { printDeleted, printList } from '../../output/print.js';
import { type PageFlags, addPageOptions, fetchPages } from '../../paging.js';
import { type Action, confirm, intArg } from '../../run.js';
import { showHeader } from './show.js';

export interface ListOptions extends PageFlags {
  webhook?: string;
}
export interface AddOptions {
  webhookId: string;
  name: string;
  value: string;
  order?: string;
}
export interface UpdateOptions {
  id: string;
  name?: string;
  value?: string;
  order?: string;
}
export interface RemoveOptions {
  id: string;
  yes?: boolean;
}

export function register(webhook: Command, action: Action): void {
  const headers = webhook.command('headers').description("Extra headers sent with a webhook's deliveries");
  addPageOptions(
    headers.command('list').description('List extra headers').option('--webhook <id>', 'of this webhook'),
  ).action(action(runList));
  headers
    .command('add <webhookId> <name> <value>')
    .description("Add a header to a webhook's deliveries")
    .option('--order <n>', "position among the webhook's headers (default 1)")
    .action(
      action(async (f, o: { order?: string }, webhookId: string, name: string, value: string) =>
        runAdd(f, { ...o, webhookId, name, value }),
      ),
    );
  headers
    .command('update <headerId>')
    .description('Change an extra header')
    .option('--name <name>')
    .option('--value <value>')
    .option('--order <n>')
    .action(action(async (f, o: Omit<UpdateOptions, 'id'>, id: string) => runUpdate(f, { ...o, id })));
  headers
    .command('remove <headerId>')
    .description('Remove an extra header')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action(async (f, o: Omit<RemoveOptions, 'id'>, id: string) => runRemove(f, { ...o, id })));
}

export async function runList(f: Factory, o: ListOptions): Promise<void> {
  const service = await f.service();
  const items = await fetchPages(f, (q) => service.listWebhookHeaders({ ...q, webhook: o.webhook }), o);
  await printList(
    f,
    items,
    [
      { header: 'ID', value: (h) => h.id },
      { header: 'WEBHOOK', value: (h) => h.webhook },
      { header: 'ORDER', value: (h) => h.order },
      { header: 'NAME', value: (h) => h.name },
      { header: 'VALUE', value: (h) => h.value },
    ],
    (h) => h.id,
  );
}

export async function runAdd(f: Factory, o: AddOptions): Promise<void> {
  const body: Record<string, unknown> = { webhook: o.webhookId, name: o.name, value: o.value };
  if (o.order !== undefined) body.order = intArg(o.order, '--order');
  await showHeader(f, await (await f.service()).createWebhookHeader(body));
}

export async function runUpdate(f: Factory, o: UpdateOptions): Promise<void> {
  const body: Record<string, unknown> = {};
  if (o.name !== undefined) body.name = o.name;
  if (o.value !== undefined) body.value = o.value;
  if (o.order !== undefined) body.order = intArg(o.order, '--order');
  if (!Object.keys(body).length) throw new CliError('Nothing to change: give --name, --value or --order.', EXIT.USAGE);
  await showHeader(f, await (await f.service()).updateWebhookHeader(o.id, body));
}

export async function runRemove(f: Factory, o: RemoveOptions): Promise<void> {
  await confirm(f, `Remove webhook header ${o.id}?`, o.yes);
  await (await f.service()).deleteWebhookHeader(o.id);
  printDeleted(f, 'webhook header', o.id);
}
