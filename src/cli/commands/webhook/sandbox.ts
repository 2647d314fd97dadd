// esign webhook trigger TYPE | resend ID: the sandbox's test tools for webhook receivers.
import { deliveryOutcome } from '../../../app/deliveryOutcome.js';
import type { WebhookEvent } from '../../../service/types.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { fieldColumns, note, printList } from '../../output/print.js';
import { defineVerb } from '../../verb.js';
import { isDeliveredStatus } from '../../../service/webhookEvents.js';
import { showEvent } from './shared/display.js';

export const trigger = defineVerb(
  'trigger <eventType>',
  'Send a test event to every enabled webhook subscribed to it (local engine, esign serve)',
  {
    flags: (c) => c.option('--bundle <slug>', 'about this Bundle (else a placeholder "test")'),
    examples: ['esign webhook trigger bundle_complete', 'esign webhook trigger bundle_sent --bundle 9KwSrpJdyp'],
    async run(f, o, eventType) {
      const events = await (await f.service()).triggerWebhookEvent(eventType, o.bundle);
      if (!events.length && !f.options.json && !f.options.quiet)
        note(f, `No enabled webhook subscribes to ${eventType}.`);
      await printList(
        f,
        events,
        [
          { header: 'ID', value: (e) => e.pk },
          ...fieldColumns<WebhookEvent>(['webhook', 'event_type']),
          { header: 'STATUS', value: (e) => e.deliveries[0]?.status ?? '' },
          ...fieldColumns<WebhookEvent>(['success']),
          { header: 'MESSAGE', value: (e) => e.deliveries[0]?.message ?? 'not attempted yet' },
        ],
        (e) => e.pk,
      );
    },
  },
);

export const resend = defineVerb('resend <eventId>', 'Deliver an event again now (local engine, esign serve)', {
  examples: [
    'esign webhook resend 6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c',
    'esign webhook resend 6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c --json',
  ],
  async run(f, _o, id) {
    const event = await (await f.service()).resendWebhookEvent(id);
    await showEvent(f, event);
    // The event may have been delivered before: what counts is this attempt, the last one.
    const last = event.deliveries.at(-1);
    if (last && isDeliveredStatus(last.status)) {
      if (!f.options.json && !f.options.quiet)
        note(f, `Event ${event.pk} was delivered again: the receiver answered ${deliveryOutcome(last)}.`);
      return;
    }
    throw new CliError(
      `Event ${event.pk} was not delivered: ${last ? deliveryOutcome(last).replace(/\.$/, '') : 'no attempt was made'}.`,
      EXIT.FAILURE,
    );
  },
});
