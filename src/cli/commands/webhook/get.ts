// esign webhook get ID: the webhook, its extra headers, and how it is doing (the console's health:
// the share of its events delivered, its last failure with the receiver's reply, its next retry).
import { webhookHealth } from '../../../app/webhookHealth.js';
import { deliveryOutcome } from '../../../app/deliveryOutcome.js';
import { clockTime } from '../../../app/timeWords.js';
import { disabledWords } from '../../../app/inspection.js';
import { missedWords, resendMissedHint } from '../../../app/missedEvents.js';
import type { MissedWebhookEvents, Webhook } from '../../../service/types.js';
import { idVerb } from '../../verb.js';
import { showWebhook } from './shared/display.js';

export const get = idVerb({
  name: 'get',
  description: 'Show a webhook and its extra headers',
  examples: [
    'esign webhook get 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a',
    'esign webhook get 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a --json',
  ],
  fetch: async (s, id) => {
    const w = await s.getWebhook(id);
    const missed = s.listMissedWebhookEvents
      ? ((await s.listMissedWebhookEvents({ webhook: w.id }))[0] ?? null)
      : undefined;
    return { w, health: await webhookHealth(s, w.id), missed };
  },
  show: (f, { w, health: h, missed }) => {
    const last = h.lastFailure;
    const when = (iso: string) => (f.io.out.isTTY ? clockTime(iso, f.now()) : iso);
    return showWebhook(f, w, [
      [
        'delivered',
        h.events
          ? `${Math.floor((h.successRate ?? 0) * 1000) / 10}% (${h.events - h.failing} of ${h.events})`
          : 'no event yet',
      ],
      [
        'last failure',
        last
          ? `${when(last.attempt?.timestamp ?? last.event.created)} ${last.attempt ? deliveryOutcome(last.attempt) : 'not attempted yet'} [event ${last.event.pk}]`
          : 'none',
      ],
      // A disabled webhook retries nothing: what it shows instead is why, since when, and the way back.
      ...(w.enabled
        ? [['next retry', h.nextRetry ?? 'none due'] as [string, unknown]]
        : [
            [
              'disabled',
              disabledWords(
                { disabled_at: w.disabled_at ?? null, disabled_after_failures: w.disabled_after_failures ?? null },
                when,
              ),
            ] as [string, unknown],
            ['next retry', `none while disabled; enable it again: esign webhook update ${w.id} --enable`] as [
              string,
              unknown,
            ],
          ]),
      ...missedLine(w, missed, when),
    ]);
  },
});

/** What it missed while disabled: kept by the local engine (undefined: the backend keeps no record). */
function missedLine(
  w: Webhook,
  missed: MissedWebhookEvents | null | undefined,
  when: (iso: string) => string,
): [string, unknown][] {
  if (missed === undefined)
    return w.enabled ? [] : [['missed', 'not known to this backend (the API keeps no record of missed events)']];
  if (!missed) return w.enabled ? [] : [['missed', 'none']];
  return [['missed', `${missedWords(missed, when)}: ${resendMissedHint(w)}`]];
}
