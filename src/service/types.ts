// Response and query types of API v2. An answer's type is its response schema's output
// (responseSchemas.ts), written once; request types come from the request schemas (schemas.ts).
import type { z } from 'zod';
import type { RESPONSE_SCHEMAS } from '../domain/responseSchemas.js';

/** What the API answers as `name` (a schema of RESPONSE_SCHEMAS, as the OpenAPI document names it). */
export type Answer<N extends keyof typeof RESPONSE_SCHEMAS> = z.output<(typeof RESPONSE_SCHEMAS)[N]>;

export type Packet = Answer<'Packet'>;
export type Bundle = Answer<'Bundle'>;
export type BundleEvent = Answer<'BundleEvent'>;
export type FileObject = Answer<'FileObject'>;
export type BundleDataItem = Answer<'BundleDataItem'>;
export type ValidateResult = Answer<'ValidateResult'>;
export type EmbedUrl = Answer<'EmbedUrl'>;
export type CoeFile = Answer<'CoeFile'>;
export type DocumentTemplate = Answer<'DocumentTemplate'>;
export type EnvelopeTemplate = Answer<'EnvelopeTemplate'>;
export type Person = Answer<'Person'>;
export type ContactChannel = Person['channels'][number];
export type WebhookExtraHeader = Answer<'WebhookExtraHeader'>;
export type Webhook = Answer<'Webhook'>;
export type WebhookEvent = Answer<'WebhookEvent'>;
/** One attempt of a webhook event. */
export type WebhookDelivery = WebhookEvent['deliveries'][number];
/** An item of the delivery list: one attempt, in the WebhookEvent shape (spec), naming its event. */
export type WebhookDeliveryRecord = Answer<'WebhookDeliveryRecord'>;
export type WebhookSecret = Answer<'WebhookSecret'>;
export type VerifyResult = Answer<'VerifyResult'>;
export type RateLimit = Answer<'RateLimit'>;
/** What the create rules read of the account: its feature switches and its users' verified addresses. */
export type AccountFacts = Answer<'AccountFacts'>;
export type AccountSetup = Answer<'AccountSetup'>;

/** One page of a list: the bare array of the wire plus what `X-Blueink-Pagination` carries. */
export interface Page<T> {
  items: T[];
  page: number;
  total_pages: number;
  per_page: number;
  total: number;
}

export interface PageQuery {
  page?: number;
  per_page?: number;
}

/** Bundle list filters as they travel on the wire (query strings). */
export interface BundleListQuery extends PageQuery {
  search?: string;
  status?: string;
  status__in?: string;
  /** One client's spelling of `status__in`; accepted as a synonym. */
  status_in?: string;
  tag?: string;
  tag__in?: string;
  /** One client's spelling of `tag__in`; accepted as a synonym. */
  tag_in?: string;
  ordering?: string;
  created_after?: string;
  created_before?: string;
  sent_after?: string;
  sent_before?: string;
  completed_after?: string;
  completed_before?: string;
  template?: string;
}

export interface TemplateListQuery extends PageQuery {
  metadata?: Record<string, string>;
}

export interface PersonListQuery extends PageQuery {
  search?: string;
  email?: string;
  phone?: string;
}

export interface WebhookListQuery extends PageQuery {
  enabled?: boolean;
  event_type?: string;
}

export interface WebhookHeaderListQuery extends PageQuery {
  webhook?: string;
  event_type?: string;
}

export interface WebhookEventListQuery extends PageQuery {
  webhook?: string;
  /** esign addition: events of this Bundle (slug). Servers without it ignore it; the remote adapter filters too (service/webhookEvents.ts). */
  bundle?: string;
  event_type?: string;
  status?: number;
  success?: boolean;
  after_date?: string;
  before_date?: string;
}

export interface WebhookDeliveryListQuery extends PageQuery {
  webhook?: string;
  /** esign addition: attempts for events of this Bundle (slug). */
  bundle?: string;
  webhook_event?: string;
  event_type?: string;
  status?: number;
  after_date?: string;
  before_date?: string;
}

/** A file attached to a create request (multipart `files` on the wire), referenced by `file_index`. */
export interface AttachedFile {
  filename: string;
  data: Buffer;
  contentType?: string;
}

/** A message the local engine recorded instead of sending it (its outbox). */
export interface BundleMessage {
  id: number;
  created: string;
  channel: 'email' | 'sms';
  kind: string;
  recipient: string;
  subject: string;
  body: string;
  bundle_id: string | null;
  packet_id: string | null;
}

/** The outbox's filters (GET /sandbox/outbox/): the newest `limit` messages, oldest first. */
export interface OutboxQuery {
  bundle?: string;
  packet?: string;
  /** The recipient's address, case-insensitive. */
  to?: string;
  kind?: string;
  /** 1..1000, default 1000. */
  limit?: number;
}

/** What a backend's sandbox offers (GET /sandbox/: signer actions, clock, outbox, webhook tools, request log). */
export type SandboxInfo = Answer<'SandboxInfo'>;

/** The sandbox's clock: its time and how far it is ahead of the wall clock. */
export type SandboxClock = Answer<'SandboxClock'>;

/** A move of the clock, and what it made due at once (Bundles expired, reminders sent). */
export type ClockMove = Answer<'ClockMove'>;

/** One request esign serve answered, as its request log keeps it (never the key, never the query). */
export interface RequestLogEntry {
  time: string;
  method: string;
  /** The path, without its query string. */
  path: string;
  status: number;
  ms: number;
  /** The id of the API key that made it (never the key), or null. */
  key_id: string | null;
  /** The operation of the table it was, or null (pages, files, the console, MCP). */
  operation: string | null;
}

/** Which requests to show: a status (`404`) or class (`4xx`), a method, a path prefix, an operation. */
export interface RequestFilter {
  status?: string;
  method?: string;
  path?: string;
  operation?: string;
}

export interface FollowRequests {
  filter?: RequestFilter;
  /** The last N matching requests first (default 20, at most 1000). */
  backlog?: number;
  /** Keep following new requests until `signal` aborts (default true). */
  follow?: boolean;
  signal?: AbortSignal;
}

/** What a webhook missed while it was disabled (esign's local engine keeps it; the API has no such record). */
export interface MissedWebhookEvents {
  webhook: string;
  /** The occurrences it missed, not yet sent. */
  count: number;
  /** When the first and the last of them happened (null with none). */
  first_at: string | null;
  last_at: string | null;
  /** The webhook's older missed events dropped to keep at most `kept_at_most` (all of its missed events, whatever the filter). */
  dropped: number;
  kept_at_most: number;
}

/** What sending a webhook's missed events did: each queued once, its first attempt made now where time allowed. */
export interface MissedResend {
  webhook: string;
  /** The new webhook events, one per missed occurrence, oldest first. */
  events: string[];
  /** Of them: delivered by their first attempt, failed it (retried on the schedule), not attempted yet (queued). */
  delivered: number;
  failed: number;
  queued: number;
  /** Older missed events dropped before (the record keeps a bounded number): not sent, now forgotten. */
  dropped: number;
}
