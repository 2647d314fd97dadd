// Response and query types of API v2. Request types come from the zod schemas (schemas.ts).
import type { AccountFeature, BundleStatus, DeliverVia, DocStatus, PacketStatus, WebhookEventType } from './enums.js';
import type { WireError } from './errors.js';

export interface Packet {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  person_id: string | null;
  deliver_via: DeliverVia;
  order: number;
  status: PacketStatus;
  auth_sms: boolean;
  auth_selfie: boolean;
  auth_id: boolean;
  signing_complete_redirect: string | null;
  suppress_all: boolean;
  suppress_signing: boolean;
  suppress_reminder: boolean;
  suppress_docs_ready: boolean;
  completed_at: string | null;
  last_accessed_at: string | null;
  requires_witness: boolean;
  witness_nominated_by: 'sgn' | 'snd' | '';
}

export interface BundleDocument {
  template_id?: string;
  key: string;
  name: string;
}

export interface BundleEvent {
  kind: string;
  description: string;
  timestamp: string;
  packet_id?: string;
}

export interface FileObject {
  file_url: string;
  expires: string;
  /** esign additions (the container shape is not shown by the spec): what the file is. */
  kind?: 'document' | 'signed_pdf' | 'combined_pdf' | 'coe_pdf' | 'interim_pdf';
  name?: string;
  doc_key?: string;
  packet_id?: string;
  sha256?: string;
  /** esign addition: bytes. */
  size?: number;
}

export interface BundleDataItem {
  doc_key: string;
  field_key: string;
  label: string;
  kind: string;
  value: string;
  filled_by: string;
  packet_id: string | null;
  attachments: { url: string; name: string; size: number; num: number; ext: string; is_image: boolean }[];
}

export interface Bundle {
  id: string;
  created: string;
  status: BundleStatus;
  label: string;
  in_order: boolean;
  email_subject: string;
  email_message: string;
  sms_message: string;
  requester_name: string;
  requester_email: string;
  cc_emails: string[];
  custom_key: string | null;
  team: string | null;
  is_test: boolean;
  payment: { billed_to: string; amount_due: number; payment_method_types: string[] } | null;
  tag_values: Record<string, string | number>;
  docs_ready: boolean;
  doc_status: DocStatus;
  errors: WireError[];
  packets: Packet[];
  documents: BundleDocument[];
  tags: string[];
  sent: string | null;
  completed_at: string | null;
  expires: string | null;
  cc_sender: boolean;
  send_reminders: boolean;
  reminder_offset: number | null;
  reminder_interval: number | null;
  reminder_expires: number | null;
  allow_signer_reassign: boolean;
  allow_chained_signer_reassign: boolean;
  owner: string | null;
  /** API 2.19: the owner's name and address, and a cap on reminders (null: none). */
  owner_name: string;
  owner_email: string;
  max_reminders: number | null;
  signing_brand: string | null;
  template: string | null;
  data?: BundleDataItem[] | null;
  events?: BundleEvent[] | null;
  files?: FileObject[] | null;
}

export interface ValidateResult {
  can_send: boolean;
  msg: string;
  n_docs: number;
}

export interface EmbedUrl {
  url: string;
  expires: string;
}

export interface CoeFile {
  file_url: string;
  expires: string;
  sha256: string;
}

export interface DocumentTemplate {
  id: string;
  is_shared: boolean;
  name: string;
  file_url: string;
  roles: { key: string; label: string }[];
  fields: Record<string, unknown>[];
  metadata: Record<string, string>;
  teams: string[];
}

export interface EnvelopeTemplate {
  id: string;
  created: string;
  name: string;
  description: string;
  is_shared: boolean;
  is_portal: boolean;
  allow_direct_signing: boolean;
  documents: { key: string; name: string; order: number }[];
  signers: { key: string; label: string; order: number; auth_sms: boolean; auth_selfie: boolean; auth_id: boolean }[];
  smart_link_url: string;
}

export interface ContactChannel {
  id: string;
  kind: 'em' | 'mp';
  email?: string;
  phone?: string;
}

export interface Person {
  id: string;
  name: string;
  metadata: Record<string, unknown>;
  is_user: boolean;
  channels: ContactChannel[];
}

export interface WebhookExtraHeader {
  id: string;
  webhook: string;
  name: string;
  value: string;
  order: number;
}

export interface Webhook {
  id: string;
  name: string;
  url: string;
  enabled: boolean;
  json: boolean;
  event_types: WebhookEventType[];
  extra_headers: WebhookExtraHeader[];
}

export interface WebhookDelivery {
  pk: string;
  timestamp: string;
  status: number;
  message: string;
}

export interface WebhookEvent {
  pk: string;
  webhook: string;
  event_type: string;
  created: string;
  status: number;
  success: boolean;
  payload: string;
  deliveries: WebhookDelivery[];
  /** esign addition (local engine): when the next attempt is due; null when none is. */
  next_attempt_at?: string | null;
}

/** An item of the delivery list: one attempt, in the WebhookEvent shape (spec), naming its event. */
export interface WebhookDeliveryRecord extends WebhookEvent {
  webhook_event: string;
}

export interface WebhookSecret {
  secret: string;
  create_date: string;
}

export interface VerifyResult {
  status: 'match' | 'no_match';
  message: string;
  sha256: string;
  document_type: 'signed_pdf' | 'combined_pdf' | 'coe_pdf' | null;
  signed_at: string | null;
  envelope: { bundle_slug: string; status: BundleStatus; sent: string | null; completed_at: string | null } | null;
}

/** What the create rules read of the account: its feature switches and its users' verified addresses. */
export interface AccountFacts {
  features: AccountFeature[];
  /** The verified email addresses of the account's users: the only addresses a test Bundle may go to. */
  verified_addresses: string[];
}

export interface RateLimit {
  limit: number;
  remaining: number;
  reset: number;
  window: number;
}

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

/** What a backend's sandbox offers (GET /sandbox/): the hosted service has none of it. */
export interface SandboxInfo {
  /** View, sign, decline and reassign as the signer (/sandbox/packets/...). */
  signer_actions: boolean;
  /** The engine's clock: read, moved forward, reset. */
  clock: boolean;
  /** The messages recorded instead of sent. */
  outbox: boolean;
  /** Webhook trigger and resend. */
  webhook_tools: boolean;
  /** A live log of the server's requests. */
  request_log: boolean;
}

/** The sandbox's clock: its time and how far it is ahead of the wall clock. */
export interface SandboxClock {
  now: string;
  offset_ms: number;
}

/** A move of the clock, and what it made due at once. */
export interface ClockMove extends SandboxClock {
  /** Bundles that expired. */
  expired: number;
  /** Reminders sent. */
  reminded: number;
}

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
