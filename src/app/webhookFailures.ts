// Why webhook deliveries fail, per webhook (the agents' report; webhookHealth.ts is one webhook's
// summary line): how many events were delivered and how many were not (yet), and the latest
// undelivered ones with each one's last attempt (status and what the receiver answered, as
// recorded) and next retry. Read through the port, so any backend can tell it.
import type { EsignService } from '../service/service.js';
import type { Webhook, WebhookEvent } from '../service/types.js';
import { bundleOfPayload } from '../service/webhookEvents.js';
import { deliveryOutcome } from './deliveryOutcome.js';

interface FailingEvent {
  event: string;
  event_type: string;
  bundle: string | null;
  created: string;
  attempts: number;
  last_status: number;
  last_attempt_at: string | null;
  /** The last attempt in words: "HTTP 500: <what the receiver answered>", "no answer: ...". */
  last_outcome: string | null;
  next_attempt_at: string | null;
}

export interface WebhookFailures {
  webhook: Pick<Webhook, 'id' | 'name' | 'url' | 'enabled' | 'event_types'>;
  delivered: number;
  not_delivered: number;
  /** The latest events not delivered, newest first. */
  failing: FailingEvent[];
}

export interface FailuresQuery {
  /** One webhook; all of them when absent. */
  webhook?: string;
  /** Events from this day (YYYY-MM-DD) on. */
  since?: string;
  /** How many undelivered events to show per webhook. */
  failures: number;
}

const MAX_WEBHOOKS = 100;

function failing(e: WebhookEvent): FailingEvent {
  const last = e.deliveries.at(-1);
  return {
    event: e.pk,
    event_type: e.event_type,
    bundle: bundleOfPayload(e.payload) ?? null,
    created: e.created,
    attempts: e.deliveries.length,
    last_status: e.status,
    last_attempt_at: last?.timestamp ?? null,
    last_outcome: last ? deliveryOutcome(last) : null,
    next_attempt_at: e.next_attempt_at ?? null,
  };
}

export async function webhookFailures(service: EsignService, q: FailuresQuery): Promise<WebhookFailures[]> {
  const hooks = q.webhook
    ? [await service.getWebhook(q.webhook)]
    : (await service.listWebhooks({ per_page: MAX_WEBHOOKS })).items;
  const since = q.since ? { after_date: q.since } : {};
  return Promise.all(
    hooks.map(async (w) => {
      const [ok, bad] = await Promise.all([
        service.listWebhookEvents({ webhook: w.id, success: true, per_page: 1, ...since }),
        service.listWebhookEvents({ webhook: w.id, success: false, per_page: Math.max(1, q.failures), ...since }),
      ]);
      return {
        webhook: { id: w.id, name: w.name, url: w.url, enabled: w.enabled, event_types: w.event_types },
        delivered: ok.total,
        not_delivered: bad.total,
        failing: bad.items.slice(0, q.failures).map(failing),
      };
    }),
  );
}
