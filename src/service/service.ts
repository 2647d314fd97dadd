// THE PORT: every API v2 operation group, implemented by the local engine and the remote adapter.
// Request bodies are `unknown` at this seam on purpose: each backend validates them (the local
// engine with the shared schemas, the hosted service by itself), so bad input meets the same rules
// whichever backend the CLI talks to. The schema types document what a valid body looks like.
import type {
  BundlePatchRequestT, BundlePreparationSessionRequestT, BundleRequestT, BundleTemplateRequestT,
  PacketPatchRequestT, PersonPatchRequestT, PersonRequestT, TemplatePatchRequestT,
  TemplatePreparationSessionRequestT, WebhookHeaderPatchRequestT, WebhookHeaderRequestT,
  WebhookPatchRequestT, WebhookRequestT,
} from './schemas.js';
import type {
  AttachedFile, Bundle, BundleDataItem, BundleEvent, BundleListQuery, CoeFile, DocumentTemplate,
  EmbedUrl, EnvelopeTemplate, FileObject, Packet, Page, PageQuery, Person, PersonListQuery, RateLimit,
  TemplateListQuery, ValidateResult, VerifyResult, Webhook, WebhookDelivery, WebhookDeliveryListQuery,
  WebhookDeliveryRecord, WebhookEvent, WebhookEventListQuery, WebhookExtraHeader, WebhookHeaderListQuery, WebhookListQuery,
  WebhookSecret, BundleMessage,
} from './types.js';

/** A request body: typed as the schema describes it, accepted as anything and validated by the backend. */
export type Body<T> = T | Record<string, unknown>;

export interface BundleOperations {
  createBundle(body: Body<BundleRequestT>, files?: AttachedFile[]): Promise<Bundle>;
  createBundleFromEnvelopeTemplate(body: Body<BundleTemplateRequestT>): Promise<Bundle>;
  createBundlePreparationSession(body: Body<BundlePreparationSessionRequestT>): Promise<EmbedUrl>;
  listBundles(query?: BundleListQuery): Promise<Page<Bundle>>;
  /** `include`: comma-separated `data`, `events`, `files`. */
  getBundle(slug: string, include?: string): Promise<Bundle>;
  updateBundle(slug: string, body: Body<BundlePatchRequestT>): Promise<Bundle>;
  cancelBundle(slug: string): Promise<Bundle>;
  validateBundle(slug: string): Promise<ValidateResult>;
  sendBundle(slug: string): Promise<Bundle>;
  listBundleEvents(slug: string): Promise<BundleEvent[]>;
  getBundleFiles(slug: string): Promise<FileObject[]>;
  generateInterimFiles(slug: string): Promise<Bundle>;
  getBundleData(slug: string): Promise<BundleDataItem[]>;
  addBundleTags(slug: string, tags: string[]): Promise<Bundle>;
  removeBundleTags(slug: string, tags: string[]): Promise<Bundle>;
  /** Not in the spec; one published client has it (wire-facts.md). Drafts only. */
  deleteBundle(slug: string): Promise<void>;
  /** Not in the spec; one published client has it (wire-facts.md). */
  expireBundle(slug: string): Promise<Bundle>;
}

export interface PacketOperations {
  getPacket(id: string): Promise<Packet>;
  updatePacket(id: string, body: Body<PacketPatchRequestT>): Promise<Packet>;
  remindPacket(id: string): Promise<Packet>;
  createEmbedUrl(id: string): Promise<EmbedUrl>;
  getPacketCoe(id: string): Promise<CoeFile>;
}

export interface TemplateOperations {
  listTemplates(query?: TemplateListQuery): Promise<Page<DocumentTemplate>>;
  getTemplate(id: string): Promise<DocumentTemplate>;
  updateTemplate(id: string, body: Body<TemplatePatchRequestT>): Promise<DocumentTemplate>;
  deleteTemplate(id: string): Promise<void>;
  createTemplatePreparationSession(body: Body<TemplatePreparationSessionRequestT>): Promise<EmbedUrl>;
}

export interface EnvelopeTemplateOperations {
  listEnvelopeTemplates(query?: PageQuery): Promise<Page<EnvelopeTemplate>>;
  getEnvelopeTemplate(id: string): Promise<EnvelopeTemplate>;
}

export interface PersonOperations {
  listPersons(query?: PersonListQuery): Promise<Page<Person>>;
  createPerson(body: Body<PersonRequestT>): Promise<Person>;
  getPerson(id: string): Promise<Person>;
  replacePerson(id: string, body: Body<PersonRequestT>): Promise<Person>;
  updatePerson(id: string, body: Body<PersonPatchRequestT>): Promise<Person>;
  deletePerson(id: string): Promise<void>;
}

export interface WebhookOperations {
  listWebhooks(query?: WebhookListQuery): Promise<Page<Webhook>>;
  createWebhook(body: Body<WebhookRequestT>): Promise<Webhook>;
  getWebhook(id: string): Promise<Webhook>;
  replaceWebhook(id: string, body: Body<WebhookRequestT>): Promise<Webhook>;
  updateWebhook(id: string, body: Body<WebhookPatchRequestT>): Promise<Webhook>;
  deleteWebhook(id: string): Promise<void>;

  listWebhookHeaders(query?: WebhookHeaderListQuery): Promise<Page<WebhookExtraHeader>>;
  createWebhookHeader(body: Body<WebhookHeaderRequestT>): Promise<WebhookExtraHeader>;
  getWebhookHeader(id: string): Promise<WebhookExtraHeader>;
  replaceWebhookHeader(id: string, body: Body<WebhookHeaderRequestT>): Promise<WebhookExtraHeader>;
  updateWebhookHeader(id: string, body: Body<WebhookHeaderPatchRequestT>): Promise<WebhookExtraHeader>;
  deleteWebhookHeader(id: string): Promise<void>;

  listWebhookEvents(query?: WebhookEventListQuery): Promise<Page<WebhookEvent>>;
  getWebhookEvent(id: string): Promise<WebhookEvent>;
  listWebhookDeliveries(query?: WebhookDeliveryListQuery): Promise<Page<WebhookDeliveryRecord>>;
  getWebhookDelivery(id: string): Promise<WebhookDeliveryRecord>;

  getWebhookSecret(): Promise<WebhookSecret>;
  regenerateWebhookSecret(): Promise<WebhookSecret>;
}

/**
 * esign's own test tools for webhook receivers: the embedded engine has them, and esign serve
 * offers them under /sandbox/. The hosted service has no such operations (404).
 */
export interface WebhookSandboxOperations {
  /** Fires a test occurrence of `eventType` (for a Bundle, or a placeholder) to every enabled, subscribed webhook. */
  triggerWebhookEvent(eventType: string, bundleSlug?: string): Promise<WebhookEvent[]>;
  /** Delivers an event again now, whatever its state, and returns it with the new attempt. */
  resendWebhookEvent(id: string): Promise<WebhookEvent>;
}

/**
 * What only some backends can tell (the local engine, sharing the data directory): callers check
 * that an operation exists and fall back (polling, the API's parts) when it does not.
 */
export interface InsightOperations {
  /** Calls `onChange` soon after any Bundle may have changed, in this process or another; returns the stop function. */
  watchBundles?(onChange: () => void): () => void;
  /** The messages sent for a Bundle (email and SMS), oldest first. */
  listBundleMessages?(slug: string): Promise<BundleMessage[]>;
  /** The Bundle a packet belongs to (404 when no such packet). */
  bundleOfPacket?(packetId: string): Promise<string>;
  /** The public URL of a running `esign serve` for this data, when one runs (links open there). */
  servingUrl?(): string | undefined;
}

export interface EsignService
  extends BundleOperations, PacketOperations, TemplateOperations, EnvelopeTemplateOperations,
    PersonOperations, WebhookOperations, WebhookSandboxOperations, InsightOperations {
  /** Public: needs no API key on the wire. */
  verify(hash: string): Promise<VerifyResult>;
  getRateLimit(): Promise<RateLimit>;
  /** Finishes work under way (document processing) and releases resources. */
  close(): Promise<void>;
}
