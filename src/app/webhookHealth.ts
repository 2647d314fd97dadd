// How a webhook is doing, from the port's lists alone (so every backend can tell): its events and
// how many were delivered, its latest failure with the receiver's answer, and its next retry.
import type { EsignService } from '../service/service.js';
import type { WebhookDelivery, WebhookEvent } from '../service/types.js';

export interface WebhookHealth {
  events: number;
  /** Events not delivered (yet): failing, given up, or queued. */
  failing: number;
  /** Delivered events as a share of all, 0..1; null with no event yet. */
  successRate: number | null;
  /** The newest failing event and its last attempt. */
  lastFailure: { event: WebhookEvent; attempt: WebhookDelivery | undefined } | null;
  /** The soonest retry due among the newest failing events (RETRY_WINDOW of them). */
  nextRetry: string | null;
}

/** Failing events read for the next retry: retries end within a day, so the due ones are among the newest. */
const RETRY_WINDOW = 100;

export async function webhookHealth(service: EsignService, webhook: string): Promise<WebhookHealth> {
  const [all, failing] = await Promise.all([
    service.listWebhookEvents({ webhook, per_page: 1 }),
    service.listWebhookEvents({ webhook, success: false, per_page: RETRY_WINDOW }),
  ]);
  const newest = failing.items[0];
  const due = failing.items
    .map((e) => e.next_attempt_at)
    .filter((t): t is string => Boolean(t))
    .sort();
  return {
    events: all.total,
    failing: failing.total,
    successRate: all.total ? (all.total - failing.total) / all.total : null,
    lastFailure: newest ? { event: newest, attempt: newest.deliveries.at(-1) } : null,
    nextRetry: due[0] ?? null,
  };
}
