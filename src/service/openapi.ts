// API v2 as an OpenAPI 3.1 document, generated: request bodies from the zod schemas the engine
// validates with (schemas.ts), responses from responseSchemas.ts. Only the table of operations is
// written here; a test checks it against the routes `esign serve` really has.
import { z } from 'zod';
import { BUNDLE_INCLUDES, BUNDLE_ORDERINGS, BUNDLE_STATUSES, WEBHOOK_EVENT_TYPES } from './enums.js';
import { RESPONSE_SCHEMAS } from './responseSchemas.js';
import * as requests from './schemas.js';

type Json = Record<string, unknown>;
type ResponseName = keyof typeof RESPONSE_SCHEMAS;

/** Every zod schema exported by schemas.ts, by its export name: a new one appears here by itself. */
export function requestSchemas(): Record<string, z.ZodType> {
  return Object.fromEntries(Object.entries(requests).filter(([, v]) => v instanceof z.ZodType)) as Record<string, z.ZodType>;
}

/** How an operation answers: one object, a bare array, a page of a list (bare array + pagination headers), or nothing. */
type Reply = { one: ResponseName; status?: number } | { array: ResponseName } | { page: ResponseName } | { none: true } | { raw: 'openapi' };

interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  summary: string;
  body?: string | string[];
  /** Form-encoded bodies are accepted too (their typed members as JSON text). */
  form?: boolean;
  multipart?: boolean;
  query?: Param[];
  reply: Reply;
  public?: boolean;
}

interface Param {
  name: string;
  schema: Json;
  description?: string;
  style?: 'deepObject';
}

const str = (description?: string): Json => ({ type: 'string', ...(description ? { description } : {}) });
const q = (name: string, schema: Json = str(), description?: string): Param => ({ name, schema, ...(description ? { description } : {}) });
const PAGE = [q('page', { type: 'integer', minimum: 1 }), q('per_page', { type: 'integer', minimum: 1, maximum: 100 }, 'Default 50, at most 100.')];
const day = { type: 'string', format: 'date' };
const statusList = { type: 'string', description: `Comma-separated statuses: ${BUNDLE_STATUSES.join(', ')}.` };
const eventType = { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] };

const BUNDLE_LIST = [
  ...PAGE, q('search'), q('status', { type: 'string', enum: [...BUNDLE_STATUSES] }), q('status__in', statusList), q('status_in', statusList, 'Synonym of status__in.'),
  q('tag'), q('tag__in', str('Comma-separated tags.')), q('tag_in', str('Synonym of tag__in.')),
  q('ordering', { type: 'string', enum: BUNDLE_ORDERINGS.flatMap((o) => [o, `-${o}`]) }),
  ...['created', 'sent', 'completed'].flatMap((k) => [q(`${k}_after`, day), q(`${k}_before`, day)]), q('template', { type: 'string', format: 'uuid' }),
];
const INCLUDE = q('include', str(`Comma-separated: ${BUNDLE_INCLUDES.join(', ')}.`));
const DATES = [q('after_date', { type: 'string', format: 'date-time' }), q('before_date', { type: 'string', format: 'date-time' })];

/** The operations of API v2, as `esign serve` routes them (paths relative to /api/v2). */
export const OPERATIONS: Operation[] = [
  { method: 'GET', path: '/bundles/', summary: 'List Bundles', query: BUNDLE_LIST, reply: { page: 'Bundle' } },
  { method: 'POST', path: '/bundles/', summary: 'Create a Bundle (JSON, or multipart with files)', body: ['BundleRequest', 'BundleTemplateRequest'], multipart: true, reply: { one: 'Bundle', status: 201 } },
  { method: 'POST', path: '/bundles/create_from_envelope_template/', summary: 'Create a Bundle from an Envelope Template', body: 'BundleTemplateRequest', reply: { one: 'Bundle', status: 201 } },
  { method: 'POST', path: '/bundles/preparation_session/', summary: 'Start a Bundle preparation session', body: 'BundlePreparationSessionRequest', reply: { one: 'EmbedUrl', status: 201 } },
  { method: 'POST', path: '/bundles/create_preparation_session/', summary: 'Start a Bundle preparation session (older path)', body: 'BundlePreparationSessionRequest', reply: { one: 'EmbedUrl', status: 201 } },
  { method: 'GET', path: '/bundles/{slug}/', summary: 'Retrieve a Bundle', query: [INCLUDE], reply: { one: 'Bundle' } },
  { method: 'PATCH', path: '/bundles/{slug}/', summary: 'Update a Bundle', body: 'BundlePatchRequest', reply: { one: 'Bundle' } },
  { method: 'DELETE', path: '/bundles/{slug}/', summary: 'Delete a draft Bundle', reply: { none: true } },
  { method: 'PUT', path: '/bundles/{slug}/cancel/', summary: 'Cancel a Bundle', reply: { one: 'Bundle' } },
  { method: 'PUT', path: '/bundles/{slug}/expire/', summary: 'Expire a Bundle', reply: { one: 'Bundle' } },
  { method: 'PUT', path: '/bundles/{slug}/validate/', summary: 'Check whether a draft can be sent', reply: { one: 'ValidateResult' } },
  { method: 'POST', path: '/bundles/{slug}/send/', summary: 'Send a draft Bundle', reply: { one: 'Bundle' } },
  { method: 'GET', path: '/bundles/{slug}/events/', summary: 'List the events of a Bundle', reply: { array: 'BundleEvent' } },
  { method: 'GET', path: '/bundles/{slug}/files/', summary: 'Links to the files of a Bundle', reply: { array: 'FileObject' } },
  { method: 'PUT', path: '/bundles/{slug}/files/', summary: 'Generate interim files', reply: { one: 'Bundle' } },
  { method: 'GET', path: '/bundles/{slug}/data/', summary: 'Field data of a Bundle', reply: { array: 'BundleDataItem' } },
  { method: 'PUT', path: '/bundles/{slug}/add_tags/', summary: 'Add tags', body: 'TagsRequest', reply: { one: 'Bundle' } },
  { method: 'PUT', path: '/bundles/{slug}/remove_tags/', summary: 'Remove tags', body: 'TagsRequest', reply: { one: 'Bundle' } },

  { method: 'GET', path: '/packets/{id}/', summary: 'Retrieve a Packet', reply: { one: 'Packet' } },
  { method: 'PATCH', path: '/packets/{id}/', summary: 'Update a Packet', body: 'PacketPatchRequest', reply: { one: 'Packet' } },
  { method: 'POST', path: '/packets/{id}/embed_url/', summary: 'Create an embedded signing URL', reply: { one: 'EmbedUrl', status: 201 } },
  { method: 'PUT', path: '/packets/{id}/remind/', summary: 'Send a reminder', reply: { one: 'Packet' } },
  { method: 'GET', path: '/packets/{id}/coe/', summary: 'Certificate of Evidence of a Packet', reply: { one: 'CoeFile' } },

  { method: 'GET', path: '/templates/', summary: 'List Document Templates', query: [...PAGE, { name: 'metadata', style: 'deepObject', schema: { type: 'object', additionalProperties: { type: 'string' } }, description: 'metadata[KEY]=VALUE filters.' }], reply: { page: 'DocumentTemplate' } },
  { method: 'POST', path: '/templates/preparation_session/', summary: 'Start a template preparation session', body: 'TemplatePreparationSessionRequest', reply: { one: 'EmbedUrl', status: 201 } },
  { method: 'GET', path: '/templates/{id}/', summary: 'Retrieve a Document Template', reply: { one: 'DocumentTemplate' } },
  { method: 'PATCH', path: '/templates/{id}/', summary: 'Update template metadata', body: 'TemplatePatchRequest', reply: { one: 'DocumentTemplate' } },
  { method: 'DELETE', path: '/templates/{id}/', summary: 'Delete a Document Template', reply: { none: true } },

  { method: 'GET', path: '/envelope-templates/', summary: 'List Envelope Templates', query: PAGE, reply: { page: 'EnvelopeTemplate' } },
  { method: 'GET', path: '/envelope-templates/{id}/', summary: 'Retrieve an Envelope Template', reply: { one: 'EnvelopeTemplate' } },

  { method: 'GET', path: '/persons/', summary: 'List Persons', query: [...PAGE, q('search'), q('email'), q('phone')], reply: { page: 'Person' } },
  { method: 'POST', path: '/persons/', summary: 'Create a Person', body: 'PersonRequest', reply: { one: 'Person', status: 201 } },
  { method: 'GET', path: '/persons/{id}/', summary: 'Retrieve a Person', reply: { one: 'Person' } },
  { method: 'PUT', path: '/persons/{id}/', summary: 'Replace a Person', body: 'PersonRequest', reply: { one: 'Person' } },
  { method: 'PATCH', path: '/persons/{id}/', summary: 'Update a Person', body: 'PersonPatchRequest', reply: { one: 'Person' } },
  { method: 'DELETE', path: '/persons/{id}/', summary: 'Delete a Person', reply: { none: true } },

  { method: 'GET', path: '/webhooks/', summary: 'List webhooks', query: [...PAGE, q('enabled', { type: 'boolean' }), q('event_type', eventType)], reply: { page: 'Webhook' } },
  { method: 'POST', path: '/webhooks/', summary: 'Create a webhook', body: 'WebhookRequest', form: true, reply: { one: 'Webhook', status: 201 } },
  { method: 'GET', path: '/webhooks/headers/', summary: 'List extra headers', query: [...PAGE, q('webhook'), q('event_type', eventType)], reply: { page: 'WebhookExtraHeader' } },
  { method: 'POST', path: '/webhooks/headers/', summary: 'Create an extra header', body: 'WebhookHeaderRequest', form: true, reply: { one: 'WebhookExtraHeader', status: 201 } },
  { method: 'GET', path: '/webhooks/headers/{id}/', summary: 'Retrieve an extra header', reply: { one: 'WebhookExtraHeader' } },
  { method: 'PUT', path: '/webhooks/headers/{id}/', summary: 'Replace an extra header', body: 'WebhookHeaderRequest', form: true, reply: { one: 'WebhookExtraHeader' } },
  { method: 'PATCH', path: '/webhooks/headers/{id}/', summary: 'Update an extra header', body: 'WebhookHeaderPatchRequest', form: true, reply: { one: 'WebhookExtraHeader' } },
  { method: 'DELETE', path: '/webhooks/headers/{id}/', summary: 'Delete an extra header', reply: { none: true } },
  { method: 'GET', path: '/webhooks/events/', summary: 'List webhook events', query: [...PAGE, q('webhook'), q('event_type', eventType), q('status', { type: 'integer' }), q('success', { type: 'boolean' }), ...DATES], reply: { page: 'WebhookEvent' } },
  { method: 'GET', path: '/webhooks/events/{id}/', summary: 'Retrieve a webhook event', reply: { one: 'WebhookEvent' } },
  { method: 'GET', path: '/webhooks/deliveries/', summary: 'List webhook deliveries', query: [...PAGE, q('webhook'), q('webhook_event'), q('event_type', eventType), q('status', { type: 'integer' }), ...DATES], reply: { page: 'WebhookDeliveryRecord' } },
  { method: 'GET', path: '/webhooks/deliveries/{id}/', summary: 'Retrieve a webhook delivery', reply: { one: 'WebhookDeliveryRecord' } },
  { method: 'GET', path: '/webhooks/secret/', summary: 'The webhook signing secret', reply: { one: 'WebhookSecret' } },
  { method: 'POST', path: '/webhooks/secret/regenerate/', summary: 'Regenerate the webhook signing secret', reply: { one: 'WebhookSecret' } },
  { method: 'GET', path: '/webhooks/{id}/', summary: 'Retrieve a webhook', reply: { one: 'Webhook' } },
  { method: 'PUT', path: '/webhooks/{id}/', summary: 'Replace a webhook', body: 'WebhookRequest', form: true, reply: { one: 'Webhook' } },
  { method: 'PATCH', path: '/webhooks/{id}/', summary: 'Update a webhook', body: 'WebhookPatchRequest', form: true, reply: { one: 'Webhook' } },
  { method: 'DELETE', path: '/webhooks/{id}/', summary: 'Delete a webhook', reply: { none: true } },

  { method: 'POST', path: '/verify/', summary: 'Verify a document by its SHA-256', body: 'VerifyRequest', reply: { one: 'VerifyResult' }, public: true },
  { method: 'GET', path: '/rate_limit/', summary: 'Rate-limit status of the key (uses no request)', reply: { one: 'RateLimit' } },
  { method: 'GET', path: '/openapi.json', summary: 'This document', reply: { raw: 'openapi' }, public: true },
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ 'application/json': { schema } });
const ERROR = { description: 'The Error object', content: json({ oneOf: [ref('Error'), ref('ErrorString')] }) };

function responses(op: Operation): Json {
  const r = op.reply;
  const out: Json = {};
  if ('none' in r) out['204'] = { description: 'Deleted' };
  else if ('raw' in r) out['200'] = { description: 'OpenAPI 3.1 document', content: json({ type: 'object' }) };
  else if ('one' in r) out[String(r.status ?? 200)] = { description: r.one, content: json(ref(r.one)) };
  else if ('array' in r) out['200'] = { description: `List of ${r.array}`, content: json({ type: 'array', items: ref(r.array) }) };
  else
    out['200'] = {
      description: `A page of ${r.page} (a bare array; the page is in the headers)`,
      headers: { 'X-Blueink-Pagination': { $ref: '#/components/headers/Pagination' }, Link: { $ref: '#/components/headers/Link' } },
      content: json({ type: 'array', items: ref(r.page) }),
    };
  if (op.body || op.query) out['400'] = ERROR;
  if (!op.public) out['401'] = ERROR;
  if (op.path.includes('{')) out['404'] = ERROR;
  if (op.method !== 'GET' && !op.public && op.path.includes('{')) out['409'] = ERROR;
  out['429'] = { ...ERROR, headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' } } };
  out['5XX'] = ERROR;
  return out;
}

function requestBody(op: Operation): Json | undefined {
  if (!op.body) return undefined;
  const names = Array.isArray(op.body) ? op.body : [op.body];
  const schema = names.length === 1 ? ref(names[0]) : { oneOf: names.map(ref) };
  const content: Json = json(schema);
  if (op.form) content['application/x-www-form-urlencoded'] = { schema };
  if (op.multipart)
    content['multipart/form-data'] = {
      schema: {
        type: 'object',
        properties: {
          bundle_request: { type: 'string', contentMediaType: 'application/json', description: 'The BundleRequest as JSON; documents refer to files by file_index.' },
          files: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } },
        },
        required: ['bundle_request'],
      },
    };
  return { required: true, content };
}

function operation(op: Operation): Json {
  const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  for (const p of op.query ?? [])
    params.push({ name: p.name, in: 'query', required: false, schema: p.schema as never, ...(p.description ? { description: p.description } : {}), ...(p.style ? { style: p.style, explode: true } : {}) } as never);
  const body = requestBody(op);
  return {
    operationId: operationId(op),
    summary: op.summary,
    tags: [op.path.split('/')[1]],
    ...(op.public ? { security: [] } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responses(op),
  };
}

/** `GET /bundles/{slug}/events/` -> `get_bundles_slug_events`. */
function operationId(op: Operation): string {
  return [op.method.toLowerCase(), ...op.path.split('/').filter(Boolean).map((s) => s.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_'))].join('_');
}

/** JSON Schemas of every request and response type, with cross-references as component $refs. */
function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [name, s] of Object.entries({ ...requestSchemas(), ...RESPONSE_SCHEMAS })) if (!registry.has(s)) registry.add(s, { id: name });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    // Requests are described as clients send them (before transforms); undefined-only members are left open.
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  for (const s of Object.values(schemas)) {
    delete s.$schema;
    delete s.$id;
  }
  return schemas;
}

/** One request type's JSON Schema, self-contained (for `esign schema NAME`). */
export function requestJsonSchema(name: string): Json | undefined {
  const s = requestSchemas()[name];
  return s ? (z.toJSONSchema(s, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Json) : undefined;
}

let cached: Json | undefined;

export function openApiDocument(version = '2.0.0'): Json {
  if (cached) return cached;
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method.toLowerCase()] = operation(op);
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'Electronic Signature Service API',
      version,
      description: 'API v2 as served by `esign serve` and the hosted service. Lists answer a bare JSON array; the page is in X-Blueink-Pagination.',
    },
    servers: [{ url: '/api/v2' }],
    security: [{ Token: [] }],
    paths,
    components: {
      securitySchemes: { Token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Authorization: Token <key>' } },
      headers: {
        Pagination: {
          description: 'page,total_pages,per_page,total',
          schema: { type: 'string', pattern: '^\\d+,\\d+,\\d+,\\d+$', examples: ['1,3,50,120'] },
        },
        Link: { description: 'RFC 5988 links: first, prev, next, last', schema: { type: 'string' } },
      },
      schemas: componentSchemas(),
    },
  };
  return cached;
}
