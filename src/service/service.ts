// THE PORT: every API v2 operation group, implemented by the local engine and the remote adapter.
// Request bodies are `unknown` at this seam on purpose: each backend validates them (the local
// engine with the shared schemas, the hosted service by itself), so bad input meets the same rules
// whichever backend the CLI talks to. The schema types document what a valid body looks like.
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { FieldError } from '../domain/errors.js';
import type { TableRow } from './operationTable.js';
import type { RESPONSE_SCHEMAS } from '../domain/responseSchemas.js';
import type * as Requests from '../domain/schemas.js';
import type {
  AttachedFile,
  Answer,
  Bundle,
  BundleListQuery,
  BundleMessage,
  DocumentTemplate,
  EnvelopeTemplate,
  Packet,
  Page,
  PageQuery,
  Person,
  PersonListQuery,
  TemplateListQuery,
  Webhook,
  WebhookDeliveryListQuery,
  WebhookDeliveryRecord,
  WebhookEvent,
  WebhookEventListQuery,
  WebhookExtraHeader,
  WebhookHeaderListQuery,
  WebhookListQuery,
  FollowRequests,
  MissedResend,
  MissedWebhookEvents,
  OutboxQuery,
  RequestLogEntry,
} from './types.js';

type AnswerName = keyof typeof RESPONSE_SCHEMAS;

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
  /**
   * A create is checked in this process, against the same schemas as a caller would check it, before
   * anything is stored (the embedded engine): a caller checking each body first only doubles the work.
   */
  checksInProcess: boolean;
}

/** A request body: typed as the schema describes it, accepted as anything and validated by the backend. */
export type Body<T> = T | Record<string, unknown>;

// ---- The operations, their types made from the table (operationTable.ts) ------------------------

/** The output of the request schema `N` of schemas.ts (a row's `body` names it). */
type RequestNamed<N> = N extends keyof typeof Requests
  ? (typeof Requests)[N] extends z.ZodType
    ? z.output<(typeof Requests)[N]>
    : never
  : never;
type BodyOf<Row> = Row extends { bodyNames?: infer B }
  ? NonNullable<B> extends readonly (infer N)[]
    ? RequestNamed<N>
    : unknown
  : unknown;

/** The type of one argument, by where it travels. A list's query is typed by hand (ListOperations). */
type ArgType<W, Row> = W extends { in: 'path' }
  ? string
  : W extends { in: 'query'; name: string }
    ? string | undefined
    : W extends { in: 'body'; name: infer K extends string }
      ? K extends keyof BodyOf<Row>
        ? BodyOf<Row>[K]
        : unknown
      : W extends { in: 'body' }
        ? Body<BodyOf<Row>>
        : W extends { in: 'files' }
          ? AttachedFile[] | undefined
          : never;
/** The arguments in the row's order; one that may be undefined may be left out (they come last). */
type ArgsOf<Ws, Row> = Ws extends readonly [infer H, ...infer T]
  ? undefined extends ArgType<H, Row>
    ? [ArgType<H, Row>?, ...ArgsOf<T, Row>]
    : [ArgType<H, Row>, ...ArgsOf<T, Row>]
  : [];
type ReplyOf<R> = R extends { one: infer S extends AnswerName }
  ? Answer<S>
  : R extends { array: infer S extends AnswerName }
    ? Answer<S>[]
    : R extends { page: infer S extends AnswerName }
      ? Page<Answer<S>>
      : never;
/** What the method resolves to: the answer, or nothing (`none`). */
type ResultOf<R> = R extends { none: true } ? Promise<void> : Promise<ReplyOf<R>>;

/** Every operation of the table as a method of the port: arguments where they travel, the answer's type. */
type TableOperations = {
  [Row in TableRow as Row['name']]: Row extends { args: infer A; reply: infer R }
    ? (...args: ArgsOf<A, Row>) => ResultOf<R>
    : never;
};

/** The operations whose argument types the table does not tell: the lists' filters, the sandbox's sign input. */
interface HandTypedOperations {
  listBundles(query?: BundleListQuery): Promise<Page<Bundle>>;
  listTemplates(query?: TemplateListQuery): Promise<Page<DocumentTemplate>>;
  listEnvelopeTemplates(query?: PageQuery): Promise<Page<EnvelopeTemplate>>;
  listPersons(query?: PersonListQuery): Promise<Page<Person>>;
  listWebhooks(query?: WebhookListQuery): Promise<Page<Webhook>>;
  listWebhookHeaders(query?: WebhookHeaderListQuery): Promise<Page<WebhookExtraHeader>>;
  listWebhookEvents(query?: WebhookEventListQuery): Promise<Page<WebhookEvent>>;
  listWebhookDeliveries(query?: WebhookDeliveryListQuery): Promise<Page<WebhookDeliveryRecord>>;
  /** The signer signs, with field values and attachments; the last signer completes the Bundle. */
  signPacket(id: string, input: SignInput): Promise<Packet>;
  /** Fires a test occurrence of `eventType` (for a Bundle, or a placeholder) to every enabled, subscribed webhook. */
  triggerWebhookEvent(eventType: string, bundleSlug?: string): Promise<WebhookEvent[]>;
  /** The messages recorded instead of sent: the newest `limit` that match, oldest first. */
  listOutbox(query?: OutboxQuery): Promise<BundleMessage[]>;
}

/** Every API v2 operation (and esign serve's sandbox): made from the table, or typed by hand above. */
export interface Operations extends Omit<TableOperations, keyof HandTypedOperations>, HandTypedOperations {}

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
 * operations (404). Signer reassignment (packet status `ra`, event `bundle_signer_reassigned`) is
 * something a signer does, so the API has no operation for it.
 */
export type SandboxOperations = Pick<Operations, 'viewPacket' | 'signPacket' | 'declinePacket' | 'reassignPacket'>;

/**
 * esign's own test tools for webhook receivers: the embedded engine has them, and esign serve
 * offers them under /sandbox/. The hosted service has no such operations (404).
 */
export type WebhookSandboxOperations = Pick<Operations, 'triggerWebhookEvent' | 'resendWebhookEvent'>;

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
interface ValidationOperations {
  /** What `createBundle(body, files)` would answer now, with nothing stored and no one told. */
  checkCreateBundle?(body: unknown, files?: AttachedFile[]): Promise<CreateCheck>;
}

/**
 * The sandbox's clock and outbox: the engine has them, esign serve offers them under /sandbox/ (so a
 * test runs whole against a remote esign serve), the hosted service has none (404; describeSandbox
 * then says: nothing).
 */
export type SandboxAdminOperations = Pick<
  Operations,
  'describeSandbox' | 'getClock' | 'advanceClock' | 'resetClock' | 'listOutbox'
>;

/**
 * What only some backends can tell (the local engine, sharing the data directory): callers check
 * that an operation exists and fall back (polling, the API's parts) when it does not.
 */
/** Which messages: to one recipient (any case), of one Bundle, of one kind (`signing_request`, `reminder`...). */
export interface MessageFilter {
  to?: string;
  bundle?: string;
  kind?: string;
}

interface InsightOperations {
  /** Calls `onChange` soon after any Bundle may have changed, in this process or another; returns the stop function. */
  watchBundles?(onChange: () => void): () => void;
  /** The messages sent for a Bundle (email and SMS), oldest first. */
  listBundleMessages?(slug: string): Promise<BundleMessage[]>;
  /** The messages sent (email and SMS), all or those that match, newest first, a page at a time. */
  listMessages?(q?: PageQuery & MessageFilter): Promise<Page<BundleMessage>>;
  /** Bundles whose slug starts with `prefix` (from an index, however many Bundles), in slug order. */
  bundleIdsByPrefix?(prefix: string, limit: number): Promise<{ id: string; label: string }[]>;
  /**
   * The Bundles whose custom_key is exactly one of `keys`, by key, in one indexed read; a backend
   * without it is asked `findBundleByCustomKey`, one key at a time.
   */
  findBundlesByCustomKeys?(keys: readonly string[]): Promise<Map<string, Bundle>>;
  /** The Bundle a packet belongs to (404 when no such packet). */
  bundleOfPacket?(packetId: string): Promise<string>;
  /**
   * The running `esign serve` for this data, when one runs: its public URL (links open there) and
   * whether it serves the support console.
   */
  runningServer?(): { url: string; console: boolean } | undefined;
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

/**
 * The events a webhook missed while it was disabled, sent once each after it is enabled again. The
 * API has no record of them and no route: only the embedded engine keeps them, so these are absent on
 * a remote backend (whoever serves it: the console of that esign serve has them).
 */
interface MissedWebhookOperations {
  /** Per webhook with any, the missed events not yet sent: all of them, or one webhook's, or one Bundle's. */
  listMissedWebhookEvents?(q?: { webhook?: string; bundle?: string }): Promise<MissedWebhookEvents[]>;
  /**
   * Queues each missed event of an enabled webhook once (a 409 while it is disabled): all of them, or
   * only one Bundle's; and makes their first attempts before answering, as far as a few seconds allow.
   */
  resendMissedWebhookEvents?(webhookId: string, q?: { bundle?: string }): Promise<MissedResend>;
}

export interface EsignService extends Operations, ValidationOperations, InsightOperations, MissedWebhookOperations {
  /**
   * esign serve's requests (method, path, status, time, key id, operation): the last ones that
   * match, then each new one as it is answered, until `o.signal` aborts. The engine reads the log
   * esign serve keeps in its data directory; the remote adapter reads the server's stream (not an
   * operation of the table: a stream, as file links are).
   */
  followRequests(o: FollowRequests, onEntry: (e: RequestLogEntry) => void): Promise<void>;
  /**
   * The Bundle whose custom_key is exactly `key` (any state), or undefined: the one look-up a create
   * that must not happen twice makes (a retried create, an agent's create, a batch row). The engine
   * reads its index; the API has no exact filter, so the remote adapter searches and compares.
   */
  findBundleByCustomKey(key: string): Promise<Bundle | undefined>;
  readonly capabilities: BackendCapabilities;
  /**
   * The contents behind an expiring file link (`file_url` of a Bundle file or a Certificate of
   * Evidence) as a stream; an expired or unknown link is an error that says so.
   */
  openFileLink(url: string): Promise<Readable>;
  /** Finishes work under way (document processing) and releases resources. */
  close(): Promise<void>;
}
