// One webhook delivery attempt in words: "HTTP 200", "HTTP 500: Internal error",
// "no answer: Connection refused (ECONNREFUSED)"; a message that already says the status is not repeated.
import type { WebhookDelivery } from '../service/types.js';

export function deliveryOutcome(d: Pick<WebhookDelivery, 'status' | 'message'>): string {
  const status = d.status ? `HTTP ${d.status}` : 'no answer';
  const message = (d.message ?? '').trim();
  if (!message || message === status) return status;
  if (d.status && message.startsWith(`HTTP ${d.status}`)) return message;
  return `${status}: ${message}`;
}

/** An attempt's outcome in two parts: "HTTP 503" (or "no answer"), and the reason after it, if any. */
export function deliveryParts(d: Pick<WebhookDelivery, 'status' | 'message'>): { status: string; reason: string } {
  const status = d.status ? `HTTP ${d.status}` : 'no answer';
  const whole = deliveryOutcome(d);
  if (whole === status) return { status, reason: '' };
  if (whole.startsWith(`${status}: `)) return { status, reason: whole.slice(status.length + 2) };
  return { status, reason: whole.startsWith(status) ? whole.slice(status.length).replace(/^[\s:—-]+/, '') : whole };
}
