// How webhooks, their headers and events are shown, and the filters of the event and delivery lists.
import type { Command } from '@commander-js/extra-typings';
import { WEBHOOK_EVENT_TYPES } from '../../../service/enums.js';
import type { Webhook, WebhookEvent, WebhookExtraHeader } from '../../../service/types.js';
import { choiceOption, dayArg } from '../../flags.js';
import { deliveryOutcome } from '../../../service/deliveryOutcome.js';
import { type Column, type Out, printObject } from '../../output/print.js';
import { type PageFlags, addPageOptions } from '../../paging.js';
import { intArg } from '../../run.js';

export async function showWebhook(o: Out, w: Webhook): Promise<void> {
  await printObject(
    o,
    w,
    [
      ['id', w.id],
      ['name', w.name],
      ['url', w.url],
      ['enabled', w.enabled],
      ['format', w.json ? 'json' : 'form'],
      ['event_types', w.event_types],
      ...[...w.extra_headers]
        .sort((a, b) => a.order - b.order)
        .map((h): [string, unknown] => [`header ${h.order}`, `${h.name}: ${h.value} (${h.id})`]),
    ],
    w.id,
  );
}

export async function showHeader(o: Out, h: WebhookExtraHeader): Promise<void> {
  await printObject(
    o,
    h,
    [
      ['id', h.id],
      ['webhook', h.webhook],
      ['name', h.name],
      ['value', h.value],
      ['order', h.order],
    ],
    h.id,
  );
}

/** One event with every delivery attempt. */
export async function showEvent(o: Out, e: WebhookEvent): Promise<void> {
  await printObject(
    o,
    e,
    [
      ['pk', e.pk],
      ['webhook', e.webhook],
      ['event_type', e.event_type],
      ['created', e.created],
      ['status', e.status],
      ['success', e.success],
      ['payload', e.payload],
      ...e.deliveries.map((d, i): [string, unknown] => [`attempt ${i + 1}`, `${d.timestamp} ${deliveryOutcome(d)}`]),
    ],
    e.pk,
  );
}

export const EVENT_COLUMNS: Column<WebhookEvent>[] = [
  { header: 'ID', value: (e) => e.pk },
  { header: 'EVENT_TYPE', value: (e) => e.event_type },
  { header: 'CREATED', value: (e) => e.created },
  { header: 'STATUS', value: (e) => e.status },
  { header: 'SUCCESS', value: (e) => e.success },
  { header: 'ATTEMPTS', value: (e) => e.deliveries.length },
];

export interface FilterFlags extends PageFlags {
  webhook?: string;
  bundle?: string;
  eventType?: string;
  status?: string;
  after?: string;
  before?: string;
}

/** --event-type, --status, --after and --before of the event and delivery lists. */
export function eventFilters(o: FilterFlags) {
  return {
    bundle: o.bundle,
    event_type: o.eventType,
    status: o.status !== undefined ? intArg(o.status, '--status') : undefined,
    after_date: o.after,
    before_date: o.before,
  };
}

export function addEventFilters(cmd: Command): Command {
  return addPageOptions(
    cmd
      .option('--webhook <id>', 'of this webhook')
      .option('--bundle <slug>', "for this Bundle (on a server without this filter, matched in each page's payloads)")
      .addOption(choiceOption('--event-type <type>', 'of this event type', WEBHOOK_EVENT_TYPES))
      .option('--status <code>', 'whose last HTTP status is this (0: no answer)')
      .option('--after <date>', 'created on or after this day (YYYY-MM-DD)', dayArg)
      .option('--before <date>', 'created on or before this day (YYYY-MM-DD)', dayArg),
  );
}
