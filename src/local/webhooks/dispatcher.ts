// Webhook delivery (TO BE WRITTEN next).
import { notImplemented } from '../../service/errors.js';
import type { WebhookEvent } from '../../service/types.js';
import type { EngineContext } from '../context.js';

export class Dispatcher {
  constructor(readonly ctx: EngineContext) {}
  async trigger(_eventType: string, _bundleSlug?: string): Promise<WebhookEvent[]> {
    throw notImplemented('Webhook trigger');
  }
  async resend(_id: string): Promise<WebhookEvent> {
    throw notImplemented('Webhook resend');
  }
}
