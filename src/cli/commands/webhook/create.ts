// esign webhook create: subscribe a URL to event types.
import { WEBHOOK_EVENT_TYPES } from '../../../domain/enums.js';
import { choiceListOption } from '../../flags.js';
import { commaList } from '../../run.js';
import { defineVerb } from '../../verb.js';
import { showWebhook } from './shared/display.js';

export const create = defineVerb('create', 'Subscribe a URL to event types', {
  flags: (c) =>
    c
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
      .option('--form', 'deliver form-urlencoded bodies instead of JSON'),
  examples: [
    'esign webhook create --name crm --url https://crm.example.com/hooks/esign --events bundle_sent,bundle_complete',
    'esign webhook create --name audit --url https://audit.example.com/in --events packet_viewed --disabled',
  ],
  async run(f, o) {
    const body = { name: o.name, url: o.url, event_types: commaList(o.events), enabled: !o.disabled, json: !o.form };
    await showWebhook(f, await (await f.service()).createWebhook(body));
  },
});
