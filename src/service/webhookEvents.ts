// Which Bundle and packet a webhook event or delivery is about: read from its payload (a JSON
// string on the wire), the one place that knows the payload's shape.
import type { WebhookEventType } from '../domain/enums.js';
import type { Page } from './types.js';

/** Bundle audit events that are webhook events: each occurrence is sent to every webhook subscribed to its type. */
export const WEBHOOK_EVENT_OF: Readonly<Record<string, WebhookEventType>> = {
  bl: 'bundle_sent',
  bk: 'bundle_complete',
  fr: 'bundle_docs_ready',
  bf: 'bundle_error',
  // The spec's bundle_error includes "failure in document processing after creation".
  ff: 'bundle_error',
  bx: 'bundle_cancelled',
  pv: 'packet_viewed',
  ps: 'packet_complete',
  pd: 'packet_declined',
  pa: 'bundle_signer_reassigned',
};

interface Payload {
  payload?: { bundle_id?: unknown; packet_id?: unknown };
}

function parsed(payload: string): Payload | undefined {
  try {
    return JSON.parse(payload) as Payload;
  } catch {
    return undefined;
  }
}

/** The Bundle an event's payload names, if any. */
export function bundleOfPayload(payload: string): string | undefined {
  const id = parsed(payload)?.payload?.bundle_id;
  return typeof id === 'string' ? id : undefined;
}

/** The packet an event's payload names, if any. */
export function packetOfPayload(payload: string): string | undefined {
  const id = parsed(payload)?.payload?.packet_id;
  return typeof id === 'string' ? id : undefined;
}

/** Keeps the items whose payload names the Bundle (all of them when no Bundle is asked for). */
export function ofBundle<T extends { payload: string }>(page: Page<T>, bundle: string | undefined): Page<T> {
  if (!bundle) return page;
  return { ...page, items: page.items.filter((item) => parsed(item.payload)?.payload?.bundle_id === bundle) };
}

/** A receiver took a delivery when it answered one of these within the time allowed (the hosted service's rule). */
const DELIVERED_STATUSES: readonly number[] = [200, 201, 202, 204];
export const isDeliveredStatus = (status: number): boolean => DELIVERED_STATUSES.includes(status);
