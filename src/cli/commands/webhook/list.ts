// esign webhook list
import { WEBHOOK_EVENT_TYPES } from '../../../domain/enums.js';
import type { Webhook } from '../../../service/types.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { choiceOption } from '../../flags.js';
import { fieldColumns } from '../../output/print.js';
import { listVerb } from '../../verb.js';

export const list = listVerb('list', 'List webhooks', {
  flags: (c) =>
    c
      .option('--enabled', 'only enabled webhooks')
      .option('--disabled', 'only disabled webhooks')
      .addOption(
        choiceOption('--event-type <type>', 'only webhooks subscribed to this event type', WEBHOOK_EVENT_TYPES),
      ),
  examples: ['esign webhook list', 'esign webhook list --enabled --event-type bundle_complete'],
  pages: (o) => {
    if (o.enabled && o.disabled) throw new CliError('Give --enabled or --disabled, not both.', EXIT.USAGE);
    const enabled = o.enabled ? true : o.disabled ? false : undefined;
    return (s, q) => s.listWebhooks({ ...q, enabled, event_type: o.eventType });
  },
  columns: [
    ...fieldColumns<Webhook>(['id', 'name', 'url', 'enabled']),
    { header: 'FORMAT', value: (w) => (w.json ? 'json' : 'form') },
    { header: 'EVENTS', value: (w) => w.event_types },
  ],
  id: (w) => w.id,
});
