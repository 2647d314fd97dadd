// esign webhook headers list|add|update|remove: extra headers sent with a webhook's deliveries.
import type { WebhookExtraHeader } from '../../../service/types.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { fieldColumns } from '../../output/print.js';
import { intArg } from '../../run.js';
import { defineVerb, deleteVerb, listVerb } from '../../verb.js';
import { showHeader } from './shared/display.js';

export const list = listVerb('list', 'List extra headers', {
  flags: (c) => c.option('--webhook <id>', 'of this webhook'),
  examples: ['esign webhook headers list', 'esign webhook headers list --webhook 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a'],
  pages: (o) => (s, q) => s.listWebhookHeaders({ ...q, webhook: o.webhook }),
  columns: fieldColumns<WebhookExtraHeader>(['id', 'webhook', 'order', 'name', 'value']),
  id: (h) => h.id,
});

export const add = defineVerb('add <webhookId> <name> <value>', "Add a header to a webhook's deliveries", {
  flags: (c) => c.option('--order <n>', "position among the webhook's headers (default 1)"),
  examples: [
    'esign webhook headers add 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a X-Tenant acme',
    'esign webhook headers add 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a X-Env prod --order 2',
  ],
  async run(f, o, webhookId, name, value) {
    const body: Record<string, unknown> = { webhook: webhookId, name, value };
    if (o.order !== undefined) body.order = intArg(o.order, '--order');
    await showHeader(f, await (await f.service()).createWebhookHeader(body));
  },
});

export const update = defineVerb('update <headerId>', 'Change an extra header', {
  flags: (c) => c.option('--name <name>').option('--value <value>').option('--order <n>'),
  examples: [
    'esign webhook headers update 4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b --value beta',
    'esign webhook headers update 4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b --name X-Stage --order 1',
  ],
  async run(f, o, id) {
    const body: Record<string, unknown> = {};
    if (o.name !== undefined) body.name = o.name;
    if (o.value !== undefined) body.value = o.value;
    if (o.order !== undefined) body.order = intArg(o.order, '--order');
    if (!Object.keys(body).length)
      throw new CliError('Nothing to change: give --name, --value or --order.', EXIT.USAGE);
    await showHeader(f, await (await f.service()).updateWebhookHeader(id, body));
  },
});

export const remove = deleteVerb({
  name: 'remove',
  arg: 'headerId',
  what: 'webhook header',
  description: 'Remove an extra header',
  examples: [
    'esign webhook headers remove 4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b',
    'esign webhook headers remove 4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b --yes',
  ],
  remove: (s, id) => s.deleteWebhookHeader(id),
});
