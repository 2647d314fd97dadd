// THE ONE TABLE of API operations: every route of API v2 (and esign serve's sandbox) with its method,
// path, the port method it calls, where that method's arguments travel on the wire, and what it does
// to the world. The server's routes, the remote adapter's calls and the OpenAPI document are made
// from it; no other file in src/ writes a route path (test/service/operations.test.ts holds that).
// zod-free on purpose, so the remote adapter and the server load it without the schemas;
// operations.ts adds the request schemas for the OpenAPI document, the console and the MCP tools.
import { BUNDLE_INCLUDES, BUNDLE_ORDERINGS, BUNDLE_STATUSES, WEBHOOK_EVENT_TYPES } from './enums.js';
import type { EsignService } from './service.js';

export type Effect = 'read' | 'create' | 'change' | 'destroy';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type OperationGroup =
  | 'bundles'
  | 'packets'
  | 'templates'
  | 'envelopeTemplates'
  | 'persons'
  | 'webhooks'
  | 'verify'
  | 'rateLimit'
  | 'sandbox';

/** A JSON Schema fragment (OpenAPI 3.1). */
export type JsonSchema = Record<string, unknown>;

/** One query parameter of an operation. */
export interface QueryParam {
  name: string;
  schema: JsonSchema;
  description?: string;
  /** `metadata[KEY]=VALUE` parameters, handed to the port as one object under `name`. */
  style?: 'deepObject';
}

/** How an operation answers: one object, a bare array, a page of a list (bare array + pagination headers), or nothing. */
export type Reply =
  | { one: string; status?: number }
  | { array: string; status?: number }
  | { page: string }
  | { none: true };

/**
 * Where one argument of the port method travels: a path parameter, one query parameter, the list
 * query (the operation's `query`), the whole body, one member of the body, or the files of a multipart body.
 */
export type WireArg =
  | { in: 'path'; name: string }
  | { in: 'query'; name: string }
  | { in: 'query' }
  | { in: 'body' }
  | { in: 'body'; name: string }
  | { in: 'files' };

/** A row of the table, without the request schemas (operations.ts adds them as `body`). */
export interface OperationRow {
  /** The port's method name. */
  name: keyof EsignService & string;
  method: HttpMethod;
  /** Relative to /api/v2 (or to the server's root when `fromRoot`), OpenAPI style: '/bundles/{slug}/'. */
  path: string;
  summary: string;
  group: OperationGroup;
  effect: Effect;
  /** Repeating it leaves the world as one call did: safe to send again when an answer is lost. */
  idempotent: boolean;
  /** May send email or SMS to real people (send, create and send, remind, a changed contact...). */
  reachesPeople: boolean;
  /** A list with page/per_page and X-Blueink-Pagination. */
  paged?: boolean;
  /** No API key needed. */
  public?: boolean;
  /** Names of the request schemas (exports of schemas.ts) a body may follow; several: any one of them. */
  bodyNames?: readonly string[];
  /** Form-encoded bodies are accepted too; these members are typed (JSON text or True/False), the rest strings. */
  form?: { typed: readonly string[] };
  /** A Bundle create may come as multipart: files plus the request as JSON text in `bundle_request`. */
  multipart?: boolean;
  query?: readonly QueryParam[];
  reply: Reply;
  /** The port method's parameters, in order, and where each travels. */
  args: readonly WireArg[];
  /** Older paths served for the same operation (documented as such). */
  aliases?: readonly string[];
  /** The path is from the server's root, not /api/v2: esign serve's sandbox (the hosted service has none). */
  fromRoot?: boolean;
  /** Counted against the create limit of the API key, not the call limit. */
  throttle?: 'create';
  /** The body may carry documents as base64: the larger JSON body limit applies. */
  documentBody?: boolean;
}

// ---- Query parameters ----------------------------------------------------------------------------

const str = (description?: string): JsonSchema => ({ type: 'string', ...(description ? { description } : {}) });
const q = (name: string, schema: JsonSchema = str(), description?: string): QueryParam => ({
  name,
  schema,
  ...(description ? { description } : {}),
});
const PAGE: QueryParam[] = [
  q('page', { type: 'integer', minimum: 1 }),
  q('per_page', { type: 'integer', minimum: 1, maximum: 100 }, 'Default 50, at most 100.'),
];
const day = { type: 'string', format: 'date' };
const statusList = { type: 'string', description: `Comma-separated statuses: ${BUNDLE_STATUSES.join(', ')}.` };
const eventType = { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] };
const integer = { type: 'integer' };
const DATES = [
  q('after_date', { type: 'string', format: 'date-time' }),
  q('before_date', { type: 'string', format: 'date-time' }),
];
const BUNDLE_FILTER = q(
  'bundle',
  str(),
  "esign serve's filter: the events of one Bundle (the hosted service ignores it).",
);

const BUNDLE_LIST: QueryParam[] = [
  ...PAGE,
  q('search'),
  q('status', { type: 'string', enum: [...BUNDLE_STATUSES] }),
  q('status__in', statusList),
  q('status_in', statusList, 'Synonym of status__in.'),
  q('tag'),
  q('tag__in', str('Comma-separated tags.')),
  q('tag_in', str('Synonym of tag__in.')),
  q('ordering', { type: 'string', enum: BUNDLE_ORDERINGS.flatMap((o) => [o, `-${o}`]) }),
  ...['created', 'sent', 'completed'].flatMap((k) => [q(`${k}_after`, day), q(`${k}_before`, day)]),
  q('template', { type: 'string', format: 'uuid' }),
];
const METADATA: QueryParam = {
  name: 'metadata',
  style: 'deepObject',
  schema: { type: 'object', additionalProperties: { type: 'string' } },
  description: 'metadata[KEY]=VALUE filters.',
};

// ---- Arguments -----------------------------------------------------------------------------------

const SLUG: WireArg = { in: 'path', name: 'slug' };
const ID: WireArg = { in: 'path', name: 'id' };
const BODY: WireArg = { in: 'body' };
const LIST: WireArg = { in: 'query' };
const member = (name: string): WireArg => ({ in: 'body', name });

type Row = OperationRow;
const read = { effect: 'read', idempotent: true, reachesPeople: false } as const;
const get = (r: Omit<Row, 'method' | 'effect' | 'idempotent' | 'reachesPeople'>): Row => ({
  method: 'GET',
  ...read,
  ...r,
});
const list = (
  r: Omit<Row, 'method' | 'effect' | 'idempotent' | 'reachesPeople' | 'args' | 'reply' | 'paged'> & { page: string },
): Row => {
  const { page, ...rest } = r;
  return { method: 'GET', ...read, paged: true, args: [LIST], reply: { page }, ...rest };
};
const WEBHOOK_TYPED = { typed: ['event_types', 'enabled', 'json'] } as const;
const HEADER_TYPED = { typed: ['order'] } as const;

/** Every operation, in the order the OpenAPI document lists them. */
export const OPERATION_TABLE: readonly OperationRow[] = [
  // ---- Bundles
  list({
    name: 'listBundles',
    path: '/bundles/',
    summary: 'List Bundles',
    group: 'bundles',
    query: BUNDLE_LIST,
    page: 'Bundle',
  }),
  {
    name: 'createBundle',
    method: 'POST',
    path: '/bundles/',
    group: 'bundles',
    summary: 'Create a Bundle (JSON, or multipart with files); sent at once unless is_draft',
    effect: 'create',
    idempotent: false,
    reachesPeople: true,
    bodyNames: ['BundleRequest', 'BundleTemplateRequest'],
    multipart: true,
    args: [BODY, { in: 'files' }],
    reply: { one: 'Bundle', status: 201 },
    throttle: 'create',
    documentBody: true,
  },
  {
    name: 'createBundleFromEnvelopeTemplate',
    method: 'POST',
    path: '/bundles/create_from_envelope_template/',
    summary: 'Create a Bundle from an Envelope Template; sent at once unless is_draft',
    group: 'bundles',
    effect: 'create',
    idempotent: false,
    reachesPeople: true,
    bodyNames: ['BundleTemplateRequest'],
    args: [BODY],
    reply: { one: 'Bundle', status: 201 },
    throttle: 'create',
    documentBody: true,
  },
  {
    name: 'createBundlePreparationSession',
    method: 'POST',
    path: '/bundles/preparation_session/',
    aliases: ['/bundles/create_preparation_session/'],
    summary: 'Start a Bundle preparation session',
    group: 'bundles',
    effect: 'create',
    idempotent: false,
    reachesPeople: false,
    bodyNames: ['BundlePreparationSessionRequest'],
    args: [BODY],
    reply: { one: 'EmbedUrl', status: 201 },
  },
  get({
    name: 'getBundle',
    path: '/bundles/{slug}/',
    summary: 'Retrieve a Bundle',
    group: 'bundles',
    query: [q('include', str(`Comma-separated: ${BUNDLE_INCLUDES.join(', ')}.`))],
    args: [SLUG, { in: 'query', name: 'include' }],
    reply: { one: 'Bundle' },
  }),
  {
    name: 'updateBundle',
    method: 'PATCH',
    path: '/bundles/{slug}/',
    summary: 'Update a Bundle',
    group: 'bundles',
    effect: 'change',
    idempotent: true,
    reachesPeople: false,
    bodyNames: ['BundlePatchRequest'],
    args: [SLUG, BODY],
    reply: { one: 'Bundle' },
  },
  {
    name: 'deleteBundle',
    method: 'DELETE',
    path: '/bundles/{slug}/',
    summary: 'Delete a draft Bundle',
    group: 'bundles',
    effect: 'destroy',
    idempotent: true,
    reachesPeople: false,
    args: [SLUG],
    reply: { none: true },
  },
  {
    name: 'cancelBundle',
    method: 'PUT',
    path: '/bundles/{slug}/cancel/',
    summary: 'Cancel a Bundle',
    group: 'bundles',
    effect: 'change',
    idempotent: true,
    reachesPeople: false,
    args: [SLUG],
    reply: { one: 'Bundle' },
  },
  {
    name: 'expireBundle',
    method: 'PUT',
    path: '/bundles/{slug}/expire/',
    summary: 'Expire a Bundle',
    group: 'bundles',
    effect: 'change',
    idempotent: true,
    reachesPeople: false,
    args: [SLUG],
    reply: { one: 'Bundle' },
  },
  {
    name: 'validateBundle',
    method: 'PUT',
    path: '/bundles/{slug}/validate/',
    group: 'bundles',
    summary: 'Check whether a draft can be sent',
    ...read,
    args: [SLUG],
    reply: { one: 'ValidateResult' },
  },
  {
    name: 'sendBundle',
    method: 'POST',
    path: '/bundles/{slug}/send/',
    summary: 'Send a draft Bundle to its signers',
    group: 'bundles',
    effect: 'change',
    idempotent: false,
    reachesPeople: true,
    args: [SLUG],
    reply: { one: 'Bundle' },
  },
  get({
    name: 'listBundleEvents',
    path: '/bundles/{slug}/events/',
    summary: 'List the events of a Bundle',
    group: 'bundles',
    args: [SLUG],
    reply: { array: 'BundleEvent' },
  }),
  get({
    name: 'getBundleFiles',
    path: '/bundles/{slug}/files/',
    summary: 'Links to the files of a Bundle',
    group: 'bundles',
    args: [SLUG],
    reply: { array: 'FileObject' },
  }),
  {
    name: 'generateInterimFiles',
    method: 'PUT',
    path: '/bundles/{slug}/files/',
    summary: 'Generate interim files',
    group: 'bundles',
    effect: 'change',
    idempotent: true,
    reachesPeople: false,
    args: [SLUG],
    reply: { one: 'Bundle' },
  },
  get({
    name: 'getBundleData',
    path: '/bundles/{slug}/data/',
    summary: 'Field data of a Bundle',
    group: 'bundles',
    args: [SLUG],
    reply: { array: 'BundleDataItem' },
  }),
  {
    name: 'addBundleTags',
    method: 'PUT',
    path: '/bundles/{slug}/add_tags/',
    summary: 'Add tags',
    group: 'bundles',
    effect: 'change',
    idempotent: true,
    reachesPeople: false,
    bodyNames: ['TagsRequest'],
    args: [SLUG, member('tags')],
    reply: { one: 'Bundle' },
  },
  {
    name: 'removeBundleTags',
    method: 'PUT',
    path: '/bundles/{slug}/remove_tags/',
    summary: 'Remove tags',
    group: 'bundles',
    effect: 'change',
    idempotent: true,
    reachesPeople: false,
    bodyNames: ['TagsRequest'],
    args: [SLUG, member('tags')],
    reply: { one: 'Bundle' },
  },

  // ---- Packets
  get({
    name: 'getPacket',
    path: '/packets/{id}/',
    summary: 'Retrieve a Packet',
    group: 'packets',
    args: [ID],
    reply: { one: 'Packet' },
  }),
  {
    name: 'updatePacket',
    method: 'PATCH',
    path: '/packets/{id}/',
    group: 'packets',
    summary: 'Update a Packet (a changed contact on a sent Bundle is asked again)',
    effect: 'change',
    idempotent: true,
    reachesPeople: true,
    bodyNames: ['PacketPatchRequest'],
    args: [ID, BODY],
    reply: { one: 'Packet' },
  },
  {
    name: 'createEmbedUrl',
    method: 'POST',
    path: '/packets/{id}/embed_url/',
    summary: 'Create an embedded signing URL',
    group: 'packets',
    effect: 'create',
    idempotent: false,
    reachesPeople: false,
    args: [ID],
    reply: { one: 'EmbedUrl', status: 201 },
  },
  {
    name: 'remindPacket',
    method: 'PUT',
    path: '/packets/{id}/remind/',
    summary: 'Send a reminder to the signer',
    group: 'packets',
    effect: 'change',
    idempotent: false,
    reachesPeople: true,
    args: [ID],
    reply: { one: 'Packet' },
  },
  get({
    name: 'getPacketCoe',
    path: '/packets/{id}/coe/',
    summary: 'Certificate of Evidence of a Packet',
    group: 'packets',
    args: [ID],
    reply: { one: 'CoeFile' },
  }),

  // ---- Document Templates
  list({
    name: 'listTemplates',
    path: '/templates/',
    summary: 'List Document Templates',
    group: 'templates',
    query: [...PAGE, METADATA],
    page: 'DocumentTemplate',
  }),
  {
    name: 'createTemplatePreparationSession',
    method: 'POST',
    path: '/templates/preparation_session/',
    summary: 'Start a template preparation session',
    group: 'templates',
    effect: 'create',
    idempotent: false,
    reachesPeople: false,
    bodyNames: ['TemplatePreparationSessionRequest'],
    args: [BODY],
    reply: { one: 'EmbedUrl', status: 201 },
  },
  get({
    name: 'getTemplate',
    path: '/templates/{id}/',
    summary: 'Retrieve a Document Template',
    group: 'templates',
    args: [ID],
    reply: { one: 'DocumentTemplate' },
  }),
  {
    name: 'updateTemplate',
    method: 'PATCH',
    path: '/templates/{id}/',
    summary: 'Update template metadata',
    group: 'templates',
    effect: 'change',
    idempotent: true,
    reachesPeople: false,
    bodyNames: ['TemplatePatchRequest'],
    args: [ID, BODY],
    reply: { one: 'DocumentTemplate' },
  },
  {
    name: 'deleteTemplate',
    method: 'DELETE',
    path: '/templates/{id}/',
    summary: 'Delete a Document Template',
    group: 'templates',
    effect: 'destroy',
    idempotent: true,
    reachesPeople: false,
    args: [ID],
    reply: { none: true },
  },

  // ---- Envelope Templates
  list({
    name: 'listEnvelopeTemplates',
    path: '/envelope-templates/',
    summary: 'List Envelope Templates',
    group: 'envelopeTemplates',
    query: PAGE,
    page: 'EnvelopeTemplate',
  }),
  get({
    name: 'getEnvelopeTemplate',
    path: '/envelope-templates/{id}/',
    summary: 'Retrieve an Envelope Template',
    group: 'envelopeTemplates',
    args: [ID],
    reply: { one: 'EnvelopeTemplate' },
  }),

  // ---- Persons
  list({
    name: 'listPersons',
    path: '/persons/',
    summary: 'List Persons',
    group: 'persons',
    query: [...PAGE, q('search'), q('email'), q('phone')],
    page: 'Person',
  }),
  {
    name: 'createPerson',
    method: 'POST',
    path: '/persons/',
    summary: 'Create a Person',
    group: 'persons',
    effect: 'create',
    idempotent: false,
    reachesPeople: false,
    bodyNames: ['PersonRequest'],
    args: [BODY],
    reply: { one: 'Person', status: 201 },
  },
  get({
    name: 'getPerson',
    path: '/persons/{id}/',
    summary: 'Retrieve a Person',
    group: 'persons',
    args: [ID],
    reply: { one: 'Person' },
  }),
  {
    name: 'replacePerson',
    method: 'PUT',
    path: '/persons/{id}/',
    group: 'persons',
    summary: 'Replace a Person (a moved contact of a live Bundle is asked again)',
    effect: 'change',
    idempotent: true,
    reachesPeople: true,
    bodyNames: ['PersonRequest'],
    args: [ID, BODY],
    reply: { one: 'Person' },
  },
  {
    name: 'updatePerson',
    method: 'PATCH',
    path: '/persons/{id}/',
    group: 'persons',
    summary: 'Update a Person (a moved contact of a live Bundle is asked again)',
    effect: 'change',
    idempotent: false,
    reachesPeople: true,
    bodyNames: ['PersonPatchRequest'],
    args: [ID, BODY],
    reply: { one: 'Person' },
  },
  {
    name: 'deletePerson',
    method: 'DELETE',
    path: '/persons/{id}/',
    summary: 'Delete a Person',
    group: 'persons',
    effect: 'destroy',
    idempotent: true,
    reachesPeople: false,
    args: [ID],
    reply: { none: true },
  },

  // ---- Webhooks (the fixed paths before /webhooks/{id}/)
  list({
    name: 'listWebhooks',
    path: '/webhooks/',
    summary: 'List webhooks',
    group: 'webhooks',
    query: [...PAGE, q('enabled', { type: 'boolean' }), q('event_type', eventType)],
    page: 'Webhook',
  }),
  {
    name: 'createWebhook',
    method: 'POST',
    path: '/webhooks/',
    summary: 'Create a webhook',
    group: 'webhooks',
    effect: 'create',
    idempotent: false,
    reachesPeople: false,
    bodyNames: ['WebhookRequest'],
    form: WEBHOOK_TYPED,
    args: [BODY],
    reply: { one: 'Webhook', status: 201 },
  },
  list({
    name: 'listWebhookHeaders',
    path: '/webhooks/headers/',
    summary: 'List extra headers',
    group: 'webhooks',
    query: [...PAGE, q('webhook'), q('event_type', eventType)],
    page: 'WebhookExtraHeader',
  }),
  {
    name: 'createWebhookHeader',
    method: 'POST',
    path: '/webhooks/headers/',
    summary: 'Create an extra header',
    group: 'webhooks',
    effect: 'create',
    idempotent: false,
    reachesPeople: false,
    bodyNames: ['WebhookHeaderRequest'],
    form: HEADER_TYPED,
    args: [BODY],
    reply: { one: 'WebhookExtraHeader', status: 201 },
  },
  get({
    name: 'getWebhookHeader',
    path: '/webhooks/headers/{id}/',
    summary: 'Retrieve an extra header',
    group: 'webhooks',
    args: [ID],
    reply: { one: 'WebhookExtraHeader' },
  }),
  {
    name: 'replaceWebhookHeader',
    method: 'PUT',
    path: '/webhooks/headers/{id}/',
    summary: 'Replace an extra header',
    group: 'webhooks',
    effect: 'change',
    idempotent: true,
    reachesPeople: false,
    bodyNames: ['WebhookHeaderRequest'],
    form: HEADER_TYPED,
    args: [ID, BODY],
    reply: { one: 'WebhookExtraHeader' },
  },
  {
    name: 'updateWebhookHeader',
    method: 'PATCH',
    path: '/webhooks/headers/{id}/',
    summary: 'Update an extra header',
    group: 'webhooks',
    effect: 'change',
    idempotent: true,
    reachesPeople: false,
    bodyNames: ['WebhookHeaderPatchRequest'],
    form: HEADER_TYPED,
    args: [ID, BODY],
    reply: { one: 'WebhookExtraHeader' },
  },
  {
    name: 'deleteWebhookHeader',
    method: 'DELETE',
    path: '/webhooks/headers/{id}/',
    summary: 'Delete an extra header',
    group: 'webhooks',
    effect: 'destroy',
    idempotent: true,
    reachesPeople: false,
    args: [ID],
    reply: { none: true },
  },
  list({
    name: 'listWebhookEvents',
    path: '/webhooks/events/',
    summary: 'List webhook events',
    group: 'webhooks',
    query: [
      ...PAGE,
      q('webhook'),
      BUNDLE_FILTER,
      q('event_type', eventType),
      q('status', integer),
      q('success', { type: 'boolean' }),
      ...DATES,
    ],
    page: 'WebhookEvent',
  }),
  get({
    name: 'getWebhookEvent',
    path: '/webhooks/events/{id}/',
    summary: 'Retrieve a webhook event',
    group: 'webhooks',
    args: [ID],
    reply: { one: 'WebhookEvent' },
  }),
  list({
    name: 'listWebhookDeliveries',
    path: '/webhooks/deliveries/',
    summary: 'List webhook deliveries',
    group: 'webhooks',
    query: [
      ...PAGE,
      q('webhook'),
      BUNDLE_FILTER,
      q('webhook_event'),
      q('event_type', eventType),
      q('status', integer),
      ...DATES,
    ],
    page: 'WebhookDeliveryRecord',
  }),
  get({
    name: 'getWebhookDelivery',
    path: '/webhooks/deliveries/{id}/',
    summary: 'Retrieve a webhook delivery',
    group: 'webhooks',
    args: [ID],
    reply: { one: 'WebhookDeliveryRecord' },
  }),
  get({
    name: 'getWebhookSecret',
    path: '/webhooks/secret/',
    summary: 'The webhook signing secret',
    group: 'webhooks',
    args: [],
    reply: { one: 'WebhookSecret' },
  }),
  {
    name: 'regenerateWebhookSecret',
    method: 'POST',
    path: '/webhooks/secret/regenerate/',
    summary: 'Regenerate the webhook signing secret',
    group: 'webhooks',
    effect: 'change',
    idempotent: false,
    reachesPeople: false,
    args: [],
    reply: { one: 'WebhookSecret' },
  },
  get({
    name: 'getWebhook',
    path: '/webhooks/{id}/',
    summary: 'Retrieve a webhook',
    group: 'webhooks',
    args: [ID],
    reply: { one: 'Webhook' },
  }),
  {
    name: 'replaceWebhook',
    method: 'PUT',
    path: '/webhooks/{id}/',
    summary: 'Replace a webhook',
    group: 'webhooks',
    effect: 'change',
    idempotent: true,
    reachesPeople: false,
    bodyNames: ['WebhookRequest'],
    form: WEBHOOK_TYPED,
    args: [ID, BODY],
    reply: { one: 'Webhook' },
  },
  {
    name: 'updateWebhook',
    method: 'PATCH',
    path: '/webhooks/{id}/',
    summary: 'Update a webhook',
    group: 'webhooks',
    effect: 'change',
    idempotent: true,
    reachesPeople: false,
    bodyNames: ['WebhookPatchRequest'],
    form: WEBHOOK_TYPED,
    args: [ID, BODY],
    reply: { one: 'Webhook' },
  },
  {
    name: 'deleteWebhook',
    method: 'DELETE',
    path: '/webhooks/{id}/',
    summary: 'Delete a webhook',
    group: 'webhooks',
    effect: 'destroy',
    idempotent: true,
    reachesPeople: false,
    args: [ID],
    reply: { none: true },
  },

  // ---- Verification and the rate limit
  {
    name: 'verify',
    method: 'POST',
    path: '/verify/',
    summary: 'Verify a document by its SHA-256',
    group: 'verify',
    ...read,
    public: true,
    bodyNames: ['VerifyRequest'],
    args: [member('hash')],
    reply: { one: 'VerifyResult' },
  },
  get({
    name: 'getRateLimit',
    path: '/rate_limit/',
    summary: 'Rate-limit status of the key (uses no request)',
    group: 'rateLimit',
    args: [],
    reply: { one: 'RateLimit' },
  }),

  // ---- esign serve's sandbox: signer activity and webhook test tools (the hosted service answers 404)
  {
    name: 'viewPacket',
    method: 'POST',
    path: '/sandbox/packets/{id}/view/',
    fromRoot: true,
    group: 'sandbox',
    summary: 'Sandbox: the signer opens the documents',
    effect: 'change',
    idempotent: false,
    reachesPeople: false,
    args: [ID],
    reply: { one: 'Packet' },
  },
  {
    name: 'signPacket',
    method: 'POST',
    path: '/sandbox/packets/{id}/sign/',
    fromRoot: true,
    group: 'sandbox',
    summary: 'Sandbox: the signer signs (the last signer completes the Bundle)',
    effect: 'change',
    idempotent: false,
    reachesPeople: true,
    bodyNames: ['PacketSignRequest'],
    args: [ID, BODY],
    reply: { one: 'Packet' },
    documentBody: true,
  },
  {
    name: 'declinePacket',
    method: 'POST',
    path: '/sandbox/packets/{id}/decline/',
    fromRoot: true,
    group: 'sandbox',
    summary: 'Sandbox: the signer declines',
    effect: 'change',
    idempotent: false,
    reachesPeople: true,
    bodyNames: ['PacketDeclineRequest'],
    args: [ID, member('reason')],
    reply: { one: 'Packet' },
  },
  {
    name: 'reassignPacket',
    method: 'POST',
    path: '/sandbox/packets/{id}/reassign/',
    fromRoot: true,
    group: 'sandbox',
    summary: 'Sandbox: the signer hands their turn to another person',
    effect: 'create',
    idempotent: false,
    reachesPeople: true,
    bodyNames: ['ReassignRequest'],
    args: [ID, BODY],
    reply: { one: 'Packet', status: 201 },
  },
  {
    name: 'triggerWebhookEvent',
    method: 'POST',
    path: '/sandbox/webhooks/trigger/',
    fromRoot: true,
    group: 'sandbox',
    summary: 'Sandbox: fire a test event to every enabled, subscribed webhook',
    effect: 'create',
    idempotent: false,
    reachesPeople: false,
    args: [member('event_type'), member('bundle')],
    reply: { array: 'WebhookEvent', status: 201 },
  },
  {
    name: 'resendWebhookEvent',
    method: 'POST',
    path: '/sandbox/webhooks/events/{id}/resend/',
    fromRoot: true,
    group: 'sandbox',
    summary: 'Sandbox: deliver a webhook event again now',
    effect: 'change',
    idempotent: false,
    reachesPeople: false,
    args: [ID],
    reply: { one: 'WebhookEvent' },
  },
];

/** The OpenAPI document itself (not an operation of the port), relative to /api/v2. */
export const OPENAPI_PATH = '/openapi.json';

/** `/bundles/{slug}/` as a router pattern: `/bundles/:slug/`. */
export const routePattern = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** The path with its parameters filled in (each encoded). */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_m, k: string) => encodeURIComponent(params[k] ?? ''));
}

const byName = new Map(OPERATION_TABLE.map((op) => [op.name as string, op]));

/** The row of one port method. */
export function operationRow(name: string): OperationRow | undefined {
  return byName.get(name);
}
