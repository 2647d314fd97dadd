// esign webhook events | event ID | deliveries: what was sent, and each attempt.
import type { Command } from '@commander-js/extra-typings';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { printList } from '../../output/print.js';
import { fetchPages } from '../../paging.js';
import type { Action } from '../../run.js';
import { EVENT_COLUMNS, type FilterFlags, addEventFilters, eventFilters, showEvent } from './show.js';

export interface EventsOptions extends FilterFlags {
  success?: boolean;
  failed?: boolean;
}
export interface EventOptions {
  id: string;
}
export interface DeliveriesOptions extends FilterFlags {
  event?: string;
}

export function register(webhook: Command, action: Action): void {
  addEventFilters(
    webhook
      .command('events')
      .description('Webhook events (one per webhook and occurrence), newest first')
      .option('--success', 'only delivered events')
      .option('--failed', 'only events not delivered (yet)'),
  ).action(action(runEvents));
  webhook
    .command('event <id>')
    .description('One webhook event with its delivery attempts')
    .action(action(async (f, _o: object, id: string) => runEvent(f, { id })));
  addEventFilters(
    webhook
      .command('deliveries')
      .description('Delivery attempts, newest first')
      .option('--event <id>', 'of this webhook event'),
  ).action(action(runDeliveries));
}

export async function runEvents(f: Factory, o: EventsOptions): Promise<void> {
  if (o.success && o.failed) throw new CliError('Give --success or --failed, not both.', EXIT.USAGE);
  const service = await f.service();
  const success = o.success ? true : o.failed ? false : undefined;
  const filters = { webhook: o.webhook, success, ...eventFilters(o) };
  const items = await fetchPages(f, (q) => service.listWebhookEvents({ ...q, ...filters }), o);
  await printList(f, items, EVENT_COLUMNS, (e) => e.pk);
}

export async function runEvent(f: Factory, o: EventOptions): Promise<void> {
  await showEvent(f, await (await f.service()).getWebhookEvent(o.id));
}

export async function runDeliveries(f: Factory, o: DeliveriesOptions): Promise<void> {
  const service = await f.service();
  const filters = { webhook: o.webhook, webhook_event: o.event, ...eventFilters(o) };
  const items = await fetchPages(f, (q) => service.listWebhookDeliveries({ ...q, ...filters }), o);
  await printList(
    f,
    items,
    [
      { header: 'ID', value: (d) => d.pk },
      { header: 'EVENT', value: (d) => d.webhook_event },
      { header: 'EVENT_TYPE', value: (d) => d.event_type },
      { header: 'TIME', value: (d) => d.created },
      { header: 'STATUS', value: (d) => d.status },
      { header: 'SUCCESS', value: (d) => d.success },
    ],
    (d) => d.pk,
  );
}
