// How webhooks, their headers and events are shown.
import { deliveryOutcome } from '../../../../app/deliveryOutcome.js';
import { clockTime } from '../../../../app/timeWords.js';
import type { Webhook, WebhookEvent, WebhookExtraHeader } from '../../../../service/types.js';
import { type Column, type Out, fieldsOf, printObject } from '../../../output/print.js';

export async function showWebhook(o: Out, w: Webhook, more: [string, unknown][] = []): Promise<void> {
  await printObject(
    o,
    w,
    [
      ...fieldsOf(w, ['id', 'name', 'url', 'enabled']),
      ['format', w.json ? 'json' : 'form'],
      ...fieldsOf(w, ['event_types']),
      ...[...w.extra_headers]
        .sort((a, b) => a.order - b.order)
        .map((h): [string, unknown] => [`header ${h.order}`, `${h.name}: ${h.value} (${h.id})`]),
      ...more,
    ],
    w.id,
  );
}

export const showHeader = (o: Out, h: WebhookExtraHeader) =>
  printObject(o, h, fieldsOf(h, ['id', 'webhook', 'name', 'value', 'order']), h.id);

/** One event with every delivery attempt (on a terminal, each attempt's time to the second, in words of the one rule). */
export async function showEvent(o: Out, e: WebhookEvent): Promise<void> {
  const now = o.now?.() ?? Date.now();
  const when = (iso: string) => (o.io.out.isTTY ? clockTime(iso, now) : iso);
  await printObject(
    o,
    e,
    [
      ...fieldsOf(e, ['pk', 'webhook', 'event_type', 'created', 'status', 'success', 'payload']),
      ...e.deliveries.map((d, i): [string, unknown] => [
        `attempt ${i + 1}`,
        `${when(d.timestamp)} ${deliveryOutcome(d)}`,
      ]),
    ],
    e.pk,
  );
}

/**
 * What an event or a delivery says, after its ids: on a terminal of 80 columns, an id of 36 leaves
 * room for type, time, HTTP status and success; the attempts are left out first.
 */
export const deliveryColumns = <T extends WebhookEvent>(time: (row: T) => string): Column<T>[] => [
  { header: 'TYPE', value: (e) => e.event_type, priority: 1 },
  { header: 'TIME', value: time, kind: 'log', priority: 2 },
  { header: 'HTTP', value: (e) => e.status, kind: 'http', priority: 2 },
  { header: 'OK', value: (e) => e.success, kind: 'yes-no', priority: 2 },
];

export const EVENT_COLUMNS: Column<WebhookEvent>[] = [
  { header: 'ID', value: (e) => e.pk },
  ...deliveryColumns<WebhookEvent>((e) => e.created),
  { header: 'ATTEMPTS', value: (e) => e.deliveries.length, priority: -2 },
];
