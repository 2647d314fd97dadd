// esign webhook create: subscribe a URL to event types.
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { type Action, commaList } from '../../run.js';
import { showWebhook } from './show.js';
import { WEBHOOK_EVENT_TYPES } from '../../../service/enums.js';
import { choiceListOption } from '../../flags.js';

export interface CreateOptions {
  name: string;
  url: string;
  events: string;
  disabled?: boolean;
  form?: boolean;
}

export function register(webhook: Command, action: Action): void {
  webhook
    .command('create')
    .description('Subscribe a URL to event types')
    .requiredOption('--name <name>', 'what the webhook is for')
    .requiredOption('--url <url>', 'where deliveries are POSTed (http or https)')
    .addOption(
      choiceListOption(
        '--events <types>',
        'comma-separated event types, e.g. bundle_sent,bundle_complete',
        WEBHOOK_EVENT_TYPES,
      ).makeOptionMandatory(),
    )
    .option('--disabled', 'create it disabled')
    .option('--form', 'deliver form-urlencoded bodies instead of JSON')
    .action(action(run));
}

export async function run(f: Factory, o: CreateOptions): Promise<void> {
  const body = { name: o.name, url: o.url, event_types: commaList(o.events), enabled: !o.disabled, json: !o.form };
  await showWebhook(f, await (await f.service()).createWebhook(body));
}
