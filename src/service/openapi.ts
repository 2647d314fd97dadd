// API v2 as an OpenAPI 3.1 document, generated from the one table of operations (operations.ts):
// request bodies from the zod schemas the engine validates with (schemas.ts), responses from
// responseSchemas.ts. esign serve's sandbox (outside /api/v2) is not part of the API.
import { z } from 'zod';
import { API_ROOT } from './operationTable.js';
import { OPENAPI_PATH, OPERATIONS, type OperationDef, requestSchemas } from './operations.js';
import { RESPONSE_SCHEMAS } from '../domain/responseSchemas.js';

export { requestSchemas };

type Json = Record<string, unknown>;

/** An operation as documented: the table's row at one of its paths (an older path says so). */
interface Documented {
  op: OperationDef;
  path: string;
  summary: string;
  /** The table's name for the operation (what `call`, `esign scenario ops` and the port use); an older path adds `_older_path`. */
  operationId: string;
}

/** The documented operations of API v2 (paths relative to /api/v2), the OpenAPI document's own path last. */
export function documentedOperations(): Documented[] {
  return OPERATIONS.filter((op) => !op.fromRoot).flatMap((op) => [
    { op, path: op.path, summary: op.summary, operationId: op.name },
    ...(op.aliases ?? []).map((path, i) => ({
      op,
      path,
      summary: `${op.summary} (older path)`,
      operationId: `${op.name}_older_path${i ? `_${i + 1}` : ''}`,
    })),
  ]);
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ 'application/json': { schema } });
const ERROR = { description: 'The Error object', content: json({ oneOf: [ref('Error'), ref('ErrorString')] }) };

function responses({ op, path }: Documented): Json {
  const r = op.reply;
  const out: Json = {};
  if ('none' in r) out['204'] = { description: 'Deleted' };
  else if ('one' in r) out[String(r.status ?? 200)] = { description: r.one, content: json(ref(r.one)) };
  else if ('array' in r)
    out[String(r.status ?? 200)] = {
      description: `List of ${r.array}`,
      content: json({ type: 'array', items: ref(r.array) }),
    };
  else
    out['200'] = {
      description: `A page of ${r.page} (a bare array; the page is in the headers)`,
      headers: {
        'X-Blueink-Pagination': { $ref: '#/components/headers/Pagination' },
        Link: { $ref: '#/components/headers/Link' },
      },
      content: json({ type: 'array', items: ref(r.page) }),
    };
  const withParams = path.includes('{');
  if (op.bodyNames || op.query) out['400'] = ERROR;
  if (!op.public) out['401'] = ERROR;
  if (withParams) out['404'] = ERROR;
  if (op.method !== 'GET' && !op.public && withParams) out['409'] = ERROR;
  out['429'] = {
    ...ERROR,
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' } },
  };
  out['5XX'] = ERROR;
  return out;
}

const MULTIPART_BUNDLE = {
  schema: {
    type: 'object',
    properties: {
      bundle_request: {
        type: 'string',
        contentMediaType: 'application/json',
        description: 'The BundleRequest as JSON; documents refer to files by file_index.',
      },
      files: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } },
    },
    required: ['bundle_request'],
  },
};

function requestBody(op: OperationDef): Json | undefined {
  const names = op.bodyNames;
  if (!names?.length) return undefined;
  const schema = names.length === 1 ? ref(names[0]) : { oneOf: names.map(ref) };
  const content: Json = json(schema);
  if (op.form) content['application/x-www-form-urlencoded'] = { schema };
  if (op.multipart) content['multipart/form-data'] = MULTIPART_BUNDLE;
  return { required: true, content };
}

function operation(d: Documented): Json {
  const { op, path } = d;
  const params: Json[] = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  for (const p of op.query ?? [])
    params.push({
      name: p.name,
      in: 'query',
      required: false,
      schema: p.schema,
      ...(p.description ? { description: p.description } : {}),
      ...(p.style ? { style: p.style, explode: true } : {}),
    });
  const body = requestBody(op);
  return {
    operationId: d.operationId,
    summary: d.summary,
    tags: [path.split('/')[1]],
    ...(op.public ? { security: [] } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responses(d),
  };
}

/** The document's own entry: public, answered by the server itself. */
const OPENAPI_OPERATION: Json = {
  operationId: 'getOpenApiDocument',
  summary: 'This document',
  tags: [OPENAPI_PATH.split('/')[1]],
  security: [],
  responses: {
    '200': { description: 'OpenAPI 3.1 document', content: json({ type: 'object' }) },
    '429': { ...ERROR, headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' } } },
    '5XX': ERROR,
  },
};

/** JSON Schemas of every request and response type, with cross-references as component $refs. */
function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [name, s] of Object.entries({ ...requestSchemas(), ...RESPONSE_SCHEMAS }))
    if (!registry.has(s)) registry.add(s, { id: name });
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
  for (const d of documentedOperations()) (paths[d.path] ??= {})[d.op.method.toLowerCase()] = operation(d);
  paths[OPENAPI_PATH] = { get: OPENAPI_OPERATION };
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'Electronic Signature Service API',
      version,
      description:
        'API v2 as served by `esign serve` and the hosted service. Lists answer a bare JSON array; the page is in X-Blueink-Pagination.',
    },
    servers: [{ url: API_ROOT }],
    security: [{ Token: [] }],
    paths,
    components: {
      securitySchemes: {
        Token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Authorization: Token <key>' },
      },
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
