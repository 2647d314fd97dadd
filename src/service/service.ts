// THE PORT: every API v2 operation group, implemented by the local engine and the remote adapter.
// Request bodies are `unknown` at this seam on purpose: each backend validates them (the local
// engine with the shared schemas, the hosted service by itself), so bad input meets the same rules
// whichever backend the CLI talks to. The schema types document what a valid body looks like.
import type { Readable } from 'node:stream';
import type {
  BundlePatchRequestT,
  BundlePreparationSessionRequestT,
  BundleRequestT,
  BundleTemplateRequestT,
  PacketPatchRequestT,
  PersonPatchRequestT,
  ReassignRequestT,
  PersonRequestT,
  TemplatePatchRequestT,
  TemplatePreparationSessionRequestT,
  WebhookHeaderPatchRequestT,
  WebhookHeaderRequestT,
  WebhookPatchRequestT,
  WebhookRequestT,
} from './schemas.js';
import type { FieldError } from './errors.js';
import type {
  AccountFacts,
  AttachedFile,
  Bundle,
  BundleDataItem,
  BundleEvent,
  BundleListQuery,
  CoeFile,
  DocumentTemplate,
  EmbedUrl,
  EnvelopeTemplate,
  FileObject,
  Packet,
  Page,
  PageQuery,
  Person,
  PersonListQuery,
  RateLimit,
  TemplateListQuery,
  ValidateResult,
  VerifyResult,
  Webhook,
  WebhookDeliveryListQuery,
  WebhookDeliveryRecord,
  WebhookEvent,
  WebhookEventListQuery,
  WebhookExtraHeader,
  WebhookHeaderListQuery,
  WebhookListQuery,
  WebhookSecret,
  BundleMessage,
  ClockMove,
  FollowRequests,
  OutboxQuery,
  RequestLogEntry,
  SandboxClock,
  SandboxInfo,
} from './types.js';

/**
 * What a backend is, declared by the backend, so a command never has to ask which one it has
 * (never a base-URL check or an instanceof).
 */
export interface BackendCapabilities {
  /**
   * esign's sandbox (webhook trigger and resend) is always there (the embedded engine); false: only
   * if the server offers it (`esign serve` does, the hosted service answers 404).
   */
  sandbox: boolean;
  /** Email and SMS reach real people: a non-test Bundle sent here is a real request to sign. */
  sendsForReal: boolean;
  /** Requests are counted against a rate limit (GET /rate_limit/ tells it): batch work paces itself. */
  rateLimited: boolean;
}

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
  /** Not in the spec; one published client has it (docs/wire.md). Drafts only. */
  deleteBundle(slug: string): Promise<void>;
  /** Not in the spec; one published client has it (docs/wire.md). */
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

/** A file a signer attaches to an attachment field. */
export interface SignerAttachment {
  name: string;
  data: Buffer;
}

/** What a signer submits; on the wire (esign serve's sandbox) it is `PacketSignRequest` in schemas.ts. */
export interface SignInput {
  /** Field key, or `docKey/fieldKey` when the key is used in several documents. */
  values?: Record<string, string>;
  attachments?: Record<string, SignerAttachment[]>;
}

/**
 * Signer activity, since no real person signs against the embedded engine: the engine has it
 * in-process, and esign serve offers it under /sandbox/packets/. The hosted service has no such
 * operations (404).
 */
export interface SandboxOperations {
  /** The signer opens the documents: the packet (and a sent Bundle) becomes started. */
  viewPacket(id: string): Promise<Packet>;
  /** The signer signs, with field values and attachments; the last signer completes the Bundle. */
  signPacket(id: string, input: SignInput): Promise<Packet>;
  declinePacket(id: string, reason?: string): Promise<Packet>;
  /**
   * The signer hands their turn to another person; returns the new packet. Signer reassignment
   * (docs/wire.md: packet status `ra`, event `bundle_signer_reassigned`) is something a signer
   * does, so the API has no operation for it.
   */
  reassignPacket(id: string, body: Body<ReassignRequestT>): Promise<Packet>;
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

/** What a create would answer, found without making it. */
export interface CreateCheck {
  /** Why the create would be refused (the 400's field errors); empty when it would be accepted. */
  errors: FieldError[];
  /** The Bundle that already has the request's custom_key (a create would be refused for it). */
  existing?: string;
}

/**
 * A create's whole validation, without creating: only a backend that owns its store can run it (the
 * embedded engine: its own create in a transaction that is rolled back). Without it a caller checks
 * what the request, its files and the account's facts tell (src/app/createCheck.ts).
 */
export interface ValidationOperations {
  /** What `createBundle(body, files)` would answer now, with nothing stored and no one told. */
  checkCreateBundle?(body: unknown, files?: AttachedFile[]): Promise<CreateCheck>;
  /** The account's facts the create rules read (esign serve: GET /sandbox/account/; the hosted service: 404). */
  accountFacts?(): Promise<AccountFacts>;
}

/**
 * The sandbox's clock and outbox: the engine has them, esign serve offers them under /sandbox/ (so a
 * test runs whole against a remote esign serve), the hosted service has none (404).
 */
export interface SandboxAdminOperations {
  /** What this backend's sandbox offers; a server without one (the hosted service) says: nothing. */
  describeSandbox(): Promise<SandboxInfo>;
  getClock(): Promise<SandboxClock>;
  /** Moves the clock forward by `ms` and applies at once what that makes due (expiry, reminders). */
  advanceClock(ms: number): Promise<ClockMove>;
  /** Back to wall-clock time. */
  resetClock(): Promise<SandboxClock>;
  /** The messages recorded instead of sent: the newest `limit` that match, oldest first. */
  listOutbox(query?: OutboxQuery): Promise<BundleMessage[]>;
  /**
   * esign serve's requests (method, path, status, time, key id, operation): the last ones that
   * match, then each new one as it is answered, until `o.signal` aborts. The engine reads the log
   * esign serve keeps in its data directory; the remote adapter reads the server's stream (not an
   * operation of the table: a stream, as file links are).
   */
  followRequests(o: FollowRequests, onEntry: (e: RequestLogEntry) => void): Promise<void>;
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
  /** Every message sent (email and SMS), newest first, a page at a time. */
  listMessages?(q?: PageQuery): Promise<Page<BundleMessage>>;
  /** Bundles whose slug starts with `prefix` (from an index, however many Bundles), in slug order. */
  bundleIdsByPrefix?(prefix: string, limit: number): Promise<{ id: string; label: string }[]>;
  /**
   * The Bundles whose custom_key is exactly one of `keys`, by key, in one indexed read; a
   * backend without it is asked by search, one key at a time (customKey.ts findByCustomKey).
   */
  findBundlesByCustomKeys?(keys: readonly string[]): Promise<Map<string, Bundle>>;
  /** The Bundle a packet belongs to (404 when no such packet). */
  bundleOfPacket?(packetId: string): Promise<string>;
  /** The public URL of a running `esign serve` for this data, when one runs (links open there). */
  servingUrl?(): string | undefined;
  /**
   * The backend's clock in epoch ms, which times in words are measured against (the engine's moves
   * with `esign local clock advance`); a backend without it is read against this machine's clock.
   */
  clockMs?(): number;
  /**
   * A backend that does its own background work (the local engine: webhook deliveries, expiry,
   * reminders) keeps it going while a long-running door serves; returns the stop function.
   */
  keepWorking?(): () => void;
}

export interface EsignService
  extends BundleOperations,
    PacketOperations,
    TemplateOperations,
    EnvelopeTemplateOperations,
    PersonOperations,
    WebhookOperations,
    SandboxOperations,
    WebhookSandboxOperations,
    SandboxAdminOperations,
    ValidationOperations,
    InsightOperations {
  /** Public: needs no API key on the wire. */
  verify(hash: string): Promise<VerifyResult>;
  getRateLimit(): Promise<RateLimit>;
  readonly capabilities: BackendCapabilities;
  /**
   * The contents behind an expiring file link (`file_url` of a Bundle file or a Certificate of
   * Evidence) as a stream; an expired or unknown link is an error that says so.
   */
  openFileLink(url: string): Promise<Readable>;
  /** Finishes work under way (document processing) and releases resources. */
  close(): Promise<void>;
}
