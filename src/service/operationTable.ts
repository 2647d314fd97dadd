// THE ONE TABLE of API operations: every route of API v2 (and esign serve's sandbox) with its method,
// path, the port method it calls, where that method's arguments travel on the wire, and what it does
// to the world. The server's routes, the remote adapter's calls and the OpenAPI document are made
// from it; no other file in src/ writes a route path (test/service/operations.test.ts holds that).
// zod-free on purpose, so the remote adapter and the server load it without the schemas;
// operations.ts adds the request schemas for the OpenAPI document, the console and the MCP tools.
import {
  BUNDLE_INCLUDES,
  BUNDLE_ORDERINGS,
  BUNDLE_STATUSES,
  MESSAGE_KINDS,
  WEBHOOK_EVENT_TYPES,
} from '../domain/enums.js';

type Effect = 'read' | 'create' | 'change' | 'destroy';
type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
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
type WireArg =
  | { in: 'path'; name: string }
  | { in: 'query'; name: string }
  | { in: 'query' }
  | { in: 'body' }
  | { in: 'body'; name: string }
  | { in: 'files' };

/** A row of the table, without the request schemas (operations.ts adds them as `body`). */
export interface OperationRow {
  /** The port's method name (service.ts makes the method's type from the row: TableOperations). */
  name: string;
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
  /** Counted against the create limit of the API key, not the call limit; `none`: counted against neither. */
  throttle?: 'create' | 'none';
  /** The body may carry documents as base64: the larger JSON body limit applies. */
  documentBody?: boolean;
  /**
   * Sets up a sandbox's fixtures (what API v2 cannot make): served within a sandbox and by the
   * embedded engine, refused on a server's own account, never an MCP tool (docs/sandboxes.md).
   */
  fixture?: boolean;
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
// Both backends filter events and deliveries by day (YYYY-MM-DD), both ends inclusive.
const DATES = [
  q('after_date', day, 'From this day on (YYYY-MM-DD).'),
  q('before_date', day, 'Up to this day (YYYY-MM-DD).'),
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

// ---- Rows ----------------------------------------------------------------------------------------

const SLUG = { in: 'path', name: 'slug' } as const;
const ID = { in: 'path', name: 'id' } as const;
const member = <const N extends string>(name: N) => ({ in: 'body', name }) as const;

/** What an operation does to the world. */
type Marks = Pick<OperationRow, 'effect' | 'idempotent' | 'reachesPeople'>;
const READS: Marks = { effect: 'read', idempotent: true, reachesPeople: false };
/** A change that leaves the world as one call did when repeated. */
const SETS: Marks = { effect: 'change', idempotent: true, reachesPeople: false };
/** A change that acts again each time it is sent. */
const ACTS: Marks = { effect: 'change', idempotent: false, reachesPeople: false };
const CREATES: Marks = { effect: 'create', idempotent: false, reachesPeople: false };
const DESTROYS: Marks = { effect: 'destroy', idempotent: true, reachesPeople: false };
const people = (m: Marks): Marks => ({ ...m, reachesPeople: true });

const one = <const S extends string>(schema: S) => ({ one: schema }) as const;
const many = <const S extends string>(schema: S) => ({ array: schema }) as const;
const NONE = { none: true } as const;

type Route = `${HttpMethod} ${string}`;
/** A row that adds nothing. */
type NoMore = Record<never, never>;
type Section = Omit<OperationRow, 'group'>;
/** What a row may add; `body` names its request schema(s); `args` defaults to the path's parameters, then the body. */
type More = Partial<Omit<Section, 'name' | 'method' | 'path' | 'summary' | 'bodyNames' | keyof Marks>> & {
  body?: string | readonly string[];
};

/** The path parameters of `/bundles/{slug}/...`, in order, as the arguments they are. */
type PathArgs<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? [{ in: 'path'; name: N }, ...PathArgs<Rest>]
  : [];
type BodyNames<B> = B extends string ? readonly [B] : B extends readonly string[] ? B : undefined;
type ArgsOfRow<R extends string, M> = M extends { args: infer A extends readonly WireArg[] }
  ? A
  : [...PathArgs<R>, ...(M extends { body: string | readonly string[] } ? [{ in: 'body' }] : [])];

/**
 * A row whose port method, arguments, answer and request schemas keep their literal types: service.ts
 * makes the port method's type from them (TableOperations).
 */
export interface TypedRow<
  N extends string,
  A extends readonly WireArg[],
  R extends Reply,
  B extends readonly string[] | undefined,
> extends Section {
  name: N;
  args: A;
  reply: R;
  bodyNames?: B;
}

/**
 * One row: `'PATCH /bundles/{slug}/'`, the port method, a summary, its marks, its answer, and what else it has.
 * A create answers 201.
 */
function op<const N extends string, const Rt extends Route, const R extends Reply, const M extends More = NoMore>(
  route: Rt,
  name: N,
  summary: string,
  marks: Marks,
  reply: R,
  more: M = {} as M,
): TypedRow<N, ArgsOfRow<Rt, M>, R, BodyNames<M['body']>> {
  const [method, path] = route.split(' ') as [HttpMethod, string];
  const { body, ...rest } = more;
  const bodyNames = body === undefined ? undefined : typeof body === 'string' ? [body] : body;
  const params = [...path.matchAll(/\{(\w+)\}/g)].map((m): WireArg => ({ in: 'path', name: m[1] as string }));
  const args = [...params, ...(bodyNames ? [{ in: 'body' } as const] : [])];
  const answer = marks.effect === 'create' ? { ...reply, status: 201 } : reply;
  const row = { name, method, path, summary, ...marks, ...(bodyNames ? { bodyNames } : {}), args, reply: answer };
  return { ...row, ...rest } as unknown as TypedRow<N, ArgsOfRow<Rt, M>, R, BodyNames<M['body']>>;
}
/** A paged list: GET, page/per_page first in `query`, the list query as its one argument. */
const list = <const N extends string, const S extends string>(
  path: string,
  name: N,
  summary: string,
  page: S,
  query: QueryParam[],
) => op(`GET ${path}`, name, summary, READS, { page }, { paged: true, query, args: [{ in: 'query' }] });
const reads = <const N extends string, const Rt extends Route, const R extends Reply, const M extends More = NoMore>(
  route: Rt,
  name: N,
  summary: string,
  reply: R,
  more?: M,
) => op(route, name, summary, READS, reply, more);
const get = <const N extends string, const P extends string, const R extends Reply, const M extends More = NoMore>(
  path: P,
  name: N,
  summary: string,
  reply: R,
  more?: M,
) => reads(`GET ${path}`, name, summary, reply, more);

/** The rows of one group, their literal types kept. */
const section = <const S extends readonly Section[]>(
  group: OperationGroup,
  rows: S,
  common: Partial<OperationRow> = {},
): { [K in keyof S]: S[K] & { group: OperationGroup } } =>
  rows.map((r) => ({ ...r, group, ...common })) as { [K in keyof S]: S[K] & { group: OperationGroup } };

const WEBHOOK_FORM = { form: { typed: ['event_types', 'enabled', 'json'] } } as const;
const HEADER_FORM = { form: { typed: ['order'] } } as const;
const PERSON_CHANGE = 'a moved contact of a live Bundle is asked again';

/** Every operation, in the order the OpenAPI document lists them. */
export const OPERATION_TABLE = [
  ...section('bundles', [
    list('/bundles/', 'listBundles', 'List Bundles', 'Bundle', BUNDLE_LIST),
    op(
      'POST /bundles/',
      'createBundle',
      'Create a Bundle (JSON, or multipart with files); sent at once unless is_draft',
      people(CREATES),
      one('Bundle'),
      {
        body: ['BundleRequest', 'BundleTemplateRequest'],
        multipart: true,
        args: [{ in: 'body' }, { in: 'files' }],
        throttle: 'create',
        documentBody: true,
      },
    ),
    op(
      'POST /bundles/create_from_envelope_template/',
      'createBundleFromEnvelopeTemplate',
      'Create a Bundle from an Envelope Template; sent at once unless is_draft',
      people(CREATES),
      one('Bundle'),
      { body: 'BundleTemplateRequest', throttle: 'create', documentBody: true },
    ),
    op(
      'POST /bundles/preparation_session/',
      'createBundlePreparationSession',
      'Start a Bundle preparation session',
      CREATES,
      one('EmbedUrl'),
      { body: 'BundlePreparationSessionRequest', aliases: ['/bundles/create_preparation_session/'] },
    ),
    get('/bundles/{slug}/', 'getBundle', 'Retrieve a Bundle', one('Bundle'), {
      query: [q('include', str(`Comma-separated: ${BUNDLE_INCLUDES.join(', ')}.`))],
      args: [SLUG, { in: 'query', name: 'include' }],
    }),
    op('PATCH /bundles/{slug}/', 'updateBundle', 'Update a Bundle', SETS, one('Bundle'), {
      body: 'BundlePatchRequest',
    }),
    op('DELETE /bundles/{slug}/', 'deleteBundle', 'Delete a draft Bundle', DESTROYS, NONE),
    op('PUT /bundles/{slug}/cancel/', 'cancelBundle', 'Cancel a Bundle', SETS, one('Bundle')),
    op('PUT /bundles/{slug}/expire/', 'expireBundle', 'Expire a Bundle', SETS, one('Bundle')),
    reads(
      'PUT /bundles/{slug}/validate/',
      'validateBundle',
      'Check whether a draft can be sent',
      one('ValidateResult'),
    ),
    op('POST /bundles/{slug}/send/', 'sendBundle', 'Send a draft Bundle to its signers', people(ACTS), one('Bundle')),
    get('/bundles/{slug}/events/', 'listBundleEvents', 'List the events of a Bundle', many('BundleEvent')),
    get('/bundles/{slug}/files/', 'getBundleFiles', 'Links to the files of a Bundle', many('FileObject')),
    op('PUT /bundles/{slug}/files/', 'generateInterimFiles', 'Generate interim files', SETS, one('Bundle')),
    get('/bundles/{slug}/data/', 'getBundleData', 'Field data of a Bundle', many('BundleDataItem')),
    ...(['add', 'remove'] as const).map((verb) =>
      op(
        `PUT /bundles/{slug}/${verb}_tags/`,
        `${verb}BundleTags`,
        `${verb === 'add' ? 'Add' : 'Remove'} tags`,
        SETS,
        one('Bundle'),
        { body: 'TagsRequest', args: [SLUG, member('tags')] },
      ),
    ),
  ]),
  ...section('packets', [
    get('/packets/{id}/', 'getPacket', 'Retrieve a Packet', one('Packet')),
    op(
      'PATCH /packets/{id}/',
      'updatePacket',
      'Update a Packet (a changed contact on a sent Bundle is asked again)',
      people(SETS),
      one('Packet'),
      { body: 'PacketPatchRequest' },
    ),
    op('POST /packets/{id}/embed_url/', 'createEmbedUrl', 'Create an embedded signing URL', CREATES, one('EmbedUrl')),
    op('PUT /packets/{id}/remind/', 'remindPacket', 'Send a reminder to the signer', people(ACTS), one('Packet')),
    get('/packets/{id}/coe/', 'getPacketCoe', 'Certificate of Evidence of a Packet', one('CoeFile')),
  ]),
  ...section('templates', [
    list('/templates/', 'listTemplates', 'List Document Templates', 'DocumentTemplate', [...PAGE, METADATA]),
    op(
      'POST /templates/preparation_session/',
      'createTemplatePreparationSession',
      'Start a template preparation session',
      CREATES,
      one('EmbedUrl'),
      { body: 'TemplatePreparationSessionRequest' },
    ),
    get('/templates/{id}/', 'getTemplate', 'Retrieve a Document Template', one('DocumentTemplate')),
    op('PATCH /templates/{id}/', 'updateTemplate', 'Update template metadata', SETS, one('DocumentTemplate'), {
      body: 'TemplatePatchRequest',
    }),
    op('DELETE /templates/{id}/', 'deleteTemplate', 'Delete a Document Template', DESTROYS, NONE),
  ]),
  ...section('envelopeTemplates', [
    list('/envelope-templates/', 'listEnvelopeTemplates', 'List Envelope Templates', 'EnvelopeTemplate', PAGE),
    get('/envelope-templates/{id}/', 'getEnvelopeTemplate', 'Retrieve an Envelope Template', one('EnvelopeTemplate')),
  ]),
  ...section('persons', [
    list('/persons/', 'listPersons', 'List Persons', 'Person', [...PAGE, q('search'), q('email'), q('phone')]),
    op('POST /persons/', 'createPerson', 'Create a Person', CREATES, one('Person'), { body: 'PersonRequest' }),
    get('/persons/{id}/', 'getPerson', 'Retrieve a Person', one('Person')),
    op('PUT /persons/{id}/', 'replacePerson', `Replace a Person (${PERSON_CHANGE})`, people(SETS), one('Person'), {
      body: 'PersonRequest',
    }),
    op('PATCH /persons/{id}/', 'updatePerson', `Update a Person (${PERSON_CHANGE})`, people(ACTS), one('Person'), {
      body: 'PersonPatchRequest',
    }),
    op('DELETE /persons/{id}/', 'deletePerson', 'Delete a Person', DESTROYS, NONE),
  ]),
  // The fixed paths before /webhooks/{id}/
  ...section('webhooks', [
    list('/webhooks/', 'listWebhooks', 'List webhooks', 'Webhook', [
      ...PAGE,
      q('enabled', { type: 'boolean' }),
      q('event_type', eventType),
    ]),
    op('POST /webhooks/', 'createWebhook', 'Create a webhook', CREATES, one('Webhook'), {
      body: 'WebhookRequest',
      ...WEBHOOK_FORM,
    }),
    list('/webhooks/headers/', 'listWebhookHeaders', 'List extra headers', 'WebhookExtraHeader', [
      ...PAGE,
      q('webhook'),
      q('event_type', eventType),
    ]),
    op('POST /webhooks/headers/', 'createWebhookHeader', 'Create an extra header', CREATES, one('WebhookExtraHeader'), {
      body: 'WebhookHeaderRequest',
      ...HEADER_FORM,
    }),
    get('/webhooks/headers/{id}/', 'getWebhookHeader', 'Retrieve an extra header', one('WebhookExtraHeader')),
    op(
      'PUT /webhooks/headers/{id}/',
      'replaceWebhookHeader',
      'Replace an extra header',
      SETS,
      one('WebhookExtraHeader'),
      { body: 'WebhookHeaderRequest', ...HEADER_FORM },
    ),
    op(
      'PATCH /webhooks/headers/{id}/',
      'updateWebhookHeader',
      'Update an extra header',
      SETS,
      one('WebhookExtraHeader'),
      { body: 'WebhookHeaderPatchRequest', ...HEADER_FORM },
    ),
    op('DELETE /webhooks/headers/{id}/', 'deleteWebhookHeader', 'Delete an extra header', DESTROYS, NONE),
    list('/webhooks/events/', 'listWebhookEvents', 'List webhook events', 'WebhookEvent', [
      ...PAGE,
      q('webhook'),
      BUNDLE_FILTER,
      q('event_type', eventType),
      q('status', integer),
      q('success', { type: 'boolean' }),
      ...DATES,
    ]),
    get('/webhooks/events/{id}/', 'getWebhookEvent', 'Retrieve a webhook event', one('WebhookEvent')),
    list('/webhooks/deliveries/', 'listWebhookDeliveries', 'List webhook deliveries', 'WebhookDeliveryRecord', [
      ...PAGE,
      q('webhook'),
      BUNDLE_FILTER,
      q('webhook_event'),
      q('event_type', eventType),
      q('status', integer),
      ...DATES,
    ]),
    get(
      '/webhooks/deliveries/{id}/',
      'getWebhookDelivery',
      'Retrieve a webhook delivery',
      one('WebhookDeliveryRecord'),
    ),
    get('/webhooks/secret/', 'getWebhookSecret', 'The webhook signing secret', one('WebhookSecret')),
    op(
      'POST /webhooks/secret/regenerate/',
      'regenerateWebhookSecret',
      'Regenerate the webhook signing secret',
      ACTS,
      one('WebhookSecret'),
    ),
    get('/webhooks/{id}/', 'getWebhook', 'Retrieve a webhook', one('Webhook')),
    op('PUT /webhooks/{id}/', 'replaceWebhook', 'Replace a webhook', SETS, one('Webhook'), {
      body: 'WebhookRequest',
      ...WEBHOOK_FORM,
    }),
    op('PATCH /webhooks/{id}/', 'updateWebhook', 'Update a webhook', SETS, one('Webhook'), {
      body: 'WebhookPatchRequest',
      ...WEBHOOK_FORM,
    }),
    op('DELETE /webhooks/{id}/', 'deleteWebhook', 'Delete a webhook', DESTROYS, NONE),
  ]),
  ...section('verify', [
    op('POST /verify/', 'verify', 'Verify a document by its SHA-256', READS, one('VerifyResult'), {
      public: true,
      body: 'VerifyRequest',
      args: [member('hash')],
    }),
  ]),
  ...section('rateLimit', [
    get('/rate_limit/', 'getRateLimit', 'Rate-limit status of the key (uses no request)', one('RateLimit'), {
      throttle: 'none',
    }),
  ]),
  // esign serve's sandbox: signer activity and webhook test tools (the hosted service answers 404)
  ...section(
    'sandbox',
    [
      get(
        '/sandbox/account/',
        'accountFacts',
        "Sandbox: the account's features and its users' verified addresses (what a create's check reads)",
        one('AccountFacts'),
      ),
      op(
        'POST /sandbox/packets/{id}/view/',
        'viewPacket',
        'Sandbox: the signer opens the documents',
        ACTS,
        one('Packet'),
      ),
      op(
        'POST /sandbox/packets/{id}/sign/',
        'signPacket',
        'Sandbox: the signer signs (the last signer completes the Bundle)',
        people(ACTS),
        one('Packet'),
        { body: 'PacketSignRequest', documentBody: true },
      ),
      op(
        'POST /sandbox/packets/{id}/decline/',
        'declinePacket',
        'Sandbox: the signer declines',
        people(ACTS),
        one('Packet'),
        { body: 'PacketDeclineRequest', args: [ID, member('reason')] },
      ),
      op(
        'POST /sandbox/packets/{id}/reassign/',
        'reassignPacket',
        'Sandbox: the signer hands their turn to another person',
        // It makes a packet (201) and takes the turn from another: it changes what exists.
        people(ACTS),
        { ...one('Packet'), status: 201 },
        { body: 'ReassignRequest' },
      ),
      op(
        'POST /sandbox/webhooks/trigger/',
        'triggerWebhookEvent',
        'Sandbox: fire a test event to every enabled, subscribed webhook',
        CREATES,
        many('WebhookEvent'),
        { args: [member('event_type'), member('bundle')] },
      ),
      op(
        'POST /sandbox/webhooks/events/{id}/resend/',
        'resendWebhookEvent',
        'Sandbox: deliver a webhook event again now',
        ACTS,
        one('WebhookEvent'),
      ),
      get('/sandbox/', 'describeSandbox', 'Sandbox: what this server offers of it', one('SandboxInfo')),
      get('/sandbox/clock/', 'getClock', "Sandbox: the engine's clock", one('SandboxClock')),
      op(
        'POST /sandbox/clock/advance/',
        'advanceClock',
        'Sandbox: move the clock forward (what that makes due happens at once: expiry, reminders)',
        people(ACTS),
        one('ClockMove'),
        { body: 'ClockAdvanceRequest', args: [member('ms')] },
      ),
      op(
        'POST /sandbox/clock/reset/',
        'resetClock',
        'Sandbox: the clock back to wall-clock time',
        SETS,
        one('SandboxClock'),
      ),
      // A sandbox's fixtures: what API v2 cannot make (docs/sandboxes.md, "Fixtures").
      op(
        'PATCH /sandbox/account/',
        'setupAccount',
        "Sandbox fixture: switch the account's features, set its requester, add users, teams and signing brands",
        SETS,
        one('AccountSetup'),
        { body: 'AccountSetupRequest', fixture: true },
      ),
      op(
        'POST /sandbox/templates/',
        'setupTemplate',
        'Sandbox fixture: a Document Template from a PDF (base64), its roles and fields',
        CREATES,
        one('DocumentTemplate'),
        { body: 'TemplateSetupRequest', fixture: true, documentBody: true },
      ),
      op(
        'POST /sandbox/envelope-templates/',
        'setupEnvelopeTemplate',
        'Sandbox fixture: an Envelope Template of Document Templates and PDFs (base64) with fields',
        CREATES,
        one('EnvelopeTemplate'),
        { body: 'EnvelopeTemplateSpec', fixture: true, documentBody: true },
      ),
      reads(
        'GET /sandbox/outbox/',
        'listOutbox',
        'Sandbox: the emails and SMS recorded instead of sent, oldest first',
        many('OutboxMessage'),
        {
          query: [
            q('bundle'),
            q('packet'),
            q('to', str('The recipient, case-insensitive.')),
            q('kind', { type: 'string', enum: [...MESSAGE_KINDS] }),
            q('limit', { type: 'integer', minimum: 1, maximum: 1000 }, 'The newest N that match (default 1000).'),
          ],
          args: [{ in: 'query' }],
        },
      ),
    ],
    { fromRoot: true },
  ),
] as const satisfies readonly OperationRow[];

/** A row of the table, as its literal type. */
export type TableRow = (typeof OPERATION_TABLE)[number];

/** Where API v2 lives on a server: every operation's path is relative to it (unless `fromRoot`). */
export const API_ROOT = '/api/v2';

/** The server's root, for a base URL that ends with the API root (`https://x/api/v2` -> `https://x`). */
export const serverRootOf = (baseUrl: string): string =>
  baseUrl.endsWith(API_ROOT) ? baseUrl.slice(0, -API_ROOT.length) : baseUrl;

/** A path from the API root, given with or without it (`/api/v2/bundles/` -> `/bundles/`). */
export const withinApi = (path: string): string =>
  path.startsWith(`${API_ROOT}/`) ? path.slice(API_ROOT.length) : path;

/** The OpenAPI document itself (not an operation of the port), relative to the API root. */
export const OPENAPI_PATH = '/openapi.json';

/** `/bundles/{slug}/` as a router pattern: `/bundles/:slug/`. */
export const routePattern = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** The path with its parameters filled in (each encoded). */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_m, k: string) => encodeURIComponent(params[k] ?? ''));
}

const byName = new Map<string, OperationRow>(OPERATION_TABLE.map((op) => [op.name, op]));

/** The row of one port method. */
export function operationRow(name: string): OperationRow | undefined {
  return byName.get(name);
}

const decoded = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

interface PathMatcher {
  row: OperationRow;
  pattern: RegExp;
  names: string[];
  params: number;
}

let matchers: PathMatcher[] | undefined;

/** Every path of the table (aliases too) as a pattern; fixed paths first, as a router prefers them. */
function pathMatchers(): PathMatcher[] {
  matchers ??= OPERATION_TABLE.flatMap((row) =>
    [row.path, ...(row.aliases ?? [])].map((path) => {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const source = path
        .replace(/\/$/, '')
        .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
        .replace(/\\?\{\w+\\?\}/g, '([^/]+)');
      return { row, pattern: new RegExp(`^${source}/?$`), names, params: names.length };
    }),
  ).sort((a, b) => a.params - b.params);
  return matchers;
}

/**
 * The operation a request stands for, and its path parameters: `path` as the row writes it,
 * relative to /api/v2 (or to the server's root for a `fromRoot` row), with or without the last `/`.
 */
export function operationAt(
  method: string,
  path: string,
): { row: OperationRow; params: Record<string, string> } | undefined {
  for (const m of pathMatchers()) {
    if (m.row.method !== method.toUpperCase()) continue;
    const found = m.pattern.exec(path);
    if (found) return { row: m.row, params: Object.fromEntries(m.names.map((n, i) => [n, decoded(found[i + 1]!)])) };
  }
  return undefined;
}
