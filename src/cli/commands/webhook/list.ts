// esign webhook list
import type { Command } from '@commander-js/extra-typings';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { printList } from '../../output/print.js';
import { type PageFlags, addPageOptions, fetchPages } from '../../paging.js';
import type { Action } from '../../run.js';
import { WEBHOOK_EVENT_TYPES } from '../../../service/enums.js';
import { choiceOption } from '../../flags.js';

export interface ListOptions extends PageFlags {
  enabled?: boolean;
  disabled?: boolean;
  eventType?: string;
}

export function register(webhook: Command, action: Action): void {
  addPageOptions(
    webhook
      .command('list')
      .description('List webhooks')
      .option('--enabled', 'only enabled webhooks')
      .option('--disabled', 'only disabled webhooks')
      .addOption(
        choiceOption('--event-type <type>', 'only webhooks subscribed to this event type', WEBHOOK_EVENT_TYPES),
      ),
  ).action(action(run));
}

export async function run(f: Factory, o: ListOptions): Promise<void> {
  if (o.enabled && o.disabled) throw new CliError('Give --enabled or --disabled, not both.', EXIT.USAGE);
  const service = await f.service();
  const enabled = o.enabled ? true : o.disabled ? false : undefined;
  const items = await fetchPages(f, (q) => service.listWebhooks({ ...q, enabled, event_type: o.eventType }), o);
  await printList(
    f,
    items,
    [
      { header: 'ID', value: (w) => w.id },
      { header: 'NAME', value: (w) => w.name },
      { header: 'URL', value: (w) => w.url },
      { header: 'ENABLED', value: (w) => w.enabled },
      { header: 'FORMAT', value: (w) => (w.json ? 'json' : 'form') },
      { header: 'EVENTS', value: (w) => w.event_types },
    ],
    (w) => w.id,
  );
}
