// esign webhook trigger TYPE | resend ID: the sandbox's test tools for webhook receivers.
import type { Command } from '@commander-js/extra-typings';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { deliveryOutcome } from '../../../service/deliveryOutcome.js';
import { note, printList } from '../../output/print.js';
import type { Action } from '../../run.js';
import { showEvent } from './show.js';

export interface TriggerOptions {
  eventType: string;
  bundle?: string;
}
export interface ResendOptions {
  id: string;
}

export function register(webhook: Command, action: Action): void {
  webhook
    .command('trigger <eventType>')
    .description('Send a test event to every enabled webhook subscribed to it (local engine, esign serve)')
    .option('--bundle <slug>', 'about this Bundle (else a placeholder "test")')
    .action(action(async (f, o: { bundle?: string }, eventType: string) => runTrigger(f, { ...o, eventType })));
  webhook
    .command('resend <eventId>')
    .description('Deliver an event again now (local engine, esign serve)')
    .action(action(async (f, _o: object, id: string) => runResend(f, { id })));
}

export async function runTrigger(f: Factory, o: TriggerOptions): Promise<void> {
  const events = await (await f.service()).triggerWebhookEvent(o.eventType, o.bundle);
  if (!events.length && !f.options.json && !f.options.quiet)
    note(f, `No enabled webhook subscribes to ${o.eventType}.`);
  await printList(
    f,
    events,
    [
      { header: 'ID', value: (e) => e.pk },
      { header: 'WEBHOOK', value: (e) => e.webhook },
      { header: 'EVENT_TYPE', value: (e) => e.event_type },
      { header: 'STATUS', value: (e) => e.deliveries[0]?.status ?? '' },
      { header: 'SUCCESS', value: (e) => e.success },
      { header: 'MESSAGE', value: (e) => e.deliveries[0]?.message ?? 'not attempted yet' },
    ],
    (e) => e.pk,
  );
}

export async function runResend(f: Factory, o: ResendOptions): Promise<void> {
  const event = await (await f.service()).resendWebhookEvent(o.id);
  await showEvent(f, event);
  // The event may have been delivered before: what counts is this attempt, the last one.
  const last = event.deliveries.at(-1);
  if (!last || last.status < 200 || last.status > 299)
    throw new CliError(
      `Event ${event.pk} was not delivered: ${last ? deliveryOutcome(last).replace(/\.$/, '') : 'no attempt was made'}.`,
      EXIT.FAILURE,
    );
}
