// esign webhook events | event ID | deliveries: what was sent, and each attempt.
import type { EsignService } from '../../../service/service.js';
import type { WebhookDeliveryRecord, WebhookEvent } from '../../../service/types.js';
import type { Column } from '../../output/print.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { idVerb, listVerb } from '../../verb.js';
import { deliveryColumns, EVENT_COLUMNS, showEvent } from './shared/display.js';
import { eventFilterFlags, eventFilters } from './shared/filters.js';

/** Webhook names by id, read anew by each command (a process may run several): every row names its webhook. */
const hookNames = new Map<string, string>();
function hookNamesReader(): (s: EsignService) => Promise<void> {
  let read = false;
  return async (s) => {
    if (read) return;
    hookNames.clear();
    for (const w of (await s.listWebhooks({ per_page: 100 })).items) hookNames.set(w.id, w.name);
    read = true;
  };
}
const WEBHOOK_COLUMN: Column<WebhookEvent> = {
  header: 'WEBHOOK',
  value: (e) => hookNames.get(e.webhook) ?? e.webhook,
  // Left out before a cut: at 80 columns the event type and time matter more than the name.
  priority: -2,
};

export const events = listVerb('events', 'Webhook events (one per webhook and occurrence), newest first', {
  flags: (c) =>
    eventFilterFlags(
      c.option('--success', 'only delivered events').option('--failed', 'only events not delivered (yet)'),
    ),
  examples: [
    'esign webhook events --failed',
    'esign webhook events --event-type bundle_complete --after 2025-01-01 --json',
  ],
  pages: (o) => {
    if (o.success && o.failed) throw new CliError('Give --success or --failed, not both.', EXIT.USAGE);
    const success = o.success ? true : o.failed ? false : undefined;
    const filters = { webhook: o.webhook, success, ...eventFilters(o) };
    const readHookNames = hookNamesReader();
    return async (s, q) => {
      await readHookNames(s);
      return s.listWebhookEvents({ ...q, ...filters });
    };
  },
  columns: [...EVENT_COLUMNS, WEBHOOK_COLUMN],
  id: (e) => e.pk,
});

export const event = idVerb({
  name: 'event',
  description: 'One webhook event with its delivery attempts',
  examples: [
    'esign webhook event 6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c',
    'esign webhook event 6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c --json',
  ],
  fetch: (s, id) => s.getWebhookEvent(id),
  show: showEvent,
});

export const deliveries = listVerb('deliveries', 'Delivery attempts, newest first', {
  flags: (c) => eventFilterFlags(c.option('--event <id>', 'of this webhook event')),
  examples: [
    'esign webhook deliveries --event 6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c',
    'esign webhook deliveries --status 500 --limit 10',
  ],
  pages: (o) => {
    const filters = { webhook: o.webhook, webhook_event: o.event, ...eventFilters(o) };
    const readHookNames = hookNamesReader();
    return async (s, q) => {
      await readHookNames(s);
      return s.listWebhookDeliveries({ ...q, ...filters });
    };
  },
  // The event's id is what `webhook resend` takes: the delivery's own is left out first.
  columns: [
    { header: 'ID', value: (d) => d.pk, priority: -2 },
    { header: 'EVENT', value: (d) => d.webhook_event },
    ...deliveryColumns<WebhookDeliveryRecord>((d) => d.created),
    WEBHOOK_COLUMN,
  ],
  id: (d) => d.pk,
});
