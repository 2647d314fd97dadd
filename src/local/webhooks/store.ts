// Webhooks, their extra headers, the secret, and the event and delivery records (TO BE IMPLEMENTED: helper C).
import { notImplemented } from '../../service/errors.js';
import type {
  Page, Webhook, WebhookDeliveryListQuery, WebhookDeliveryRecord, WebhookEvent, WebhookEventListQuery,
  WebhookExtraHeader, WebhookHeaderListQuery, WebhookListQuery,
} from '../../service/types.js';
import type { EngineContext } from '../context.js';

const todo = (what: string): never => {
  throw notImplemented(what);
};
export const listWebhooks = (_ctx: EngineContext, _q: WebhookListQuery): Page<Webhook> => todo('Webhooks');
export const createWebhook = (_ctx: EngineContext, _body: unknown): Webhook => todo('Webhooks');
export const getWebhook = (_ctx: EngineContext, _id: string): Webhook => todo('Webhooks');
export const replaceWebhook = (_ctx: EngineContext, _id: string, _body: unknown): Webhook => todo('Webhooks');
export const updateWebhook = (_ctx: EngineContext, _id: string, _body: unknown): Webhook => todo('Webhooks');
export const deleteWebhook = (_ctx: EngineContext, _id: string): void => todo('Webhooks');
export const listWebhookHeaders = (_ctx: EngineContext, _q: WebhookHeaderListQuery): Page<WebhookExtraHeader> => todo('Webhook extra headers');
export const createWebhookHeader = (_ctx: EngineContext, _body: unknown): WebhookExtraHeader => todo('Webhook extra headers');
export const getWebhookHeader = (_ctx: EngineContext, _id: string): WebhookExtraHeader => todo('Webhook extra headers');
export const replaceWebhookHeader = (_ctx: EngineContext, _id: string, _body: unknown): WebhookExtraHeader => todo('Webhook extra headers');
export const updateWebhookHeader = (_ctx: EngineContext, _id: string, _body: unknown): WebhookExtraHeader => todo('Webhook extra headers');
export const deleteWebhookHeader = (_ctx: EngineContext, _id: string): void => todo('Webhook extra headers');
export const listWebhookEvents = (_ctx: EngineContext, _q: WebhookEventListQuery): Page<WebhookEvent> => todo('Webhook events');
export const getWebhookEvent = (_ctx: EngineContext, _pk: string): WebhookEvent => todo('Webhook events');
export const listWebhookDeliveries = (_ctx: EngineContext, _q: WebhookDeliveryListQuery): Page<WebhookDeliveryRecord> => todo('Webhook deliveries');
export const getWebhookDelivery = (_ctx: EngineContext, _pk: string): WebhookDeliveryRecord => todo('Webhook deliveries');
