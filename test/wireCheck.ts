// What a response of esign serve must be, read raw (status, headers, bytes) and held strictly to the
// operations table: the operation's response schema for a success (a member the schema does not name
// is a fault), the Error object for every 4xx and 5xx, X-Blueink-Pagination on a page of a list,
// Retry-After on a 429, Allow on a 405. `wireProblems` lists what is wrong; empty, the wire is right.
import { z } from 'zod';
import { ERROR_CODES } from '../src/domain/enums.js';
import { LINK_BASES } from '../src/service/linkPaths.js';
import { type OperationRow, operationAt } from '../src/service/operationTable.js';
import { RESPONSE_SCHEMAS } from '../src/domain/responseSchemas.js';

export interface WireResponse {
  method: string;
  /** The path and query as sent (`/api/v2/bundles/?page=2`). */
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** The Error object as the hosted service sends it: every member present, field errors in both spellings. */
export const STRICT_ERROR = z.strictObject({
  code: z.enum(ERROR_CODES),
  message: z.string().min(1),
  detail: z.string().min(1),
  errors: z.array(z.strictObject({ field: z.string(), messsage: z.string().min(1), message: z.string().min(1) })),
});

/** The other form a 400 may take (an invalid `include`). */
const ERROR_STRING = z.strictObject({ error: z.string().min(1) });

const API = '/api/v2';

/** The operation that answers `method url`, as esign serve routes it (the API's under /api/v2, the sandbox's from the root). */
function operationOf(method: string, url: string): OperationRow | undefined {
  const path = url.split('?')[0]!;
  const inApi = path.startsWith(`${API}/`);
  const found = operationAt(method, inApi ? path.slice(API.length) : path)?.row;
  return found && Boolean(found.fromRoot) !== inApi ? found : undefined;
}

const header = (r: WireResponse, name: string): string | undefined => {
  const v = r.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
};

/** Members of `raw` that parsing dropped: the schema does not name them (zod strips unknown keys). */
function unnamed(raw: unknown, parsed: unknown, at: string): string[] {
  if (Array.isArray(raw) && Array.isArray(parsed)) return raw.flatMap((v, i) => unnamed(v, parsed[i], `${at}[${i}]`));
  if (raw && typeof raw === 'object' && parsed && typeof parsed === 'object')
    return Object.entries(raw).flatMap(([k, v]) =>
      k in parsed ? unnamed(v, (parsed as Record<string, unknown>)[k], `${at}.${k}`) : [`${at}.${k}`],
    );
  return [];
}

/** What is wrong with `value` as `schema` allows it, strictly: failures, and members the schema does not name. */
function schemaProblems(schema: z.ZodType, value: unknown, at = 'body'): string[] {
  const r = schema.safeParse(value);
  if (!r.success) return r.error.issues.map((i) => `${[at, ...i.path].join('.')}: ${i.message}`);
  return unnamed(value, r.data, at).map((p) => `${p}: a member the schema does not name`);
}

function json(r: WireResponse, problems: string[]): unknown {
  const type = header(r, 'content-type') ?? '';
  if (!/^application\/json(;|$)/.test(type)) problems.push(`content-type ${JSON.stringify(type)}, not JSON`);
  try {
    return JSON.parse(r.body.toString('utf8'));
  } catch {
    problems.push(`a body that is not JSON: ${JSON.stringify(r.body.toString('utf8').slice(0, 120))}`);
    return undefined;
  }
}

/** An error answer: the Error object (or `{error}` on a 400), and the headers its status needs. */
export function errorProblems(r: WireResponse): string[] {
  const problems: string[] = [];
  const body = json(r, problems);
  if (body === undefined) return problems;
  const asString = r.status === 400 && ERROR_STRING.safeParse(body).success;
  if (!asString) {
    problems.push(...schemaProblems(STRICT_ERROR, body));
    const e = body as { message?: unknown; detail?: unknown; errors?: { messsage?: unknown; message?: unknown }[] };
    if (typeof e.detail === 'string' && e.detail !== e.message) problems.push('body.detail differs from body.message');
    for (const [i, f] of (Array.isArray(e.errors) ? e.errors : []).entries())
      if (f?.messsage !== f?.message) problems.push(`body.errors[${i}]: messsage and message differ`);
  }
  if (r.status === 429 && !/^\d+$/.test(header(r, 'retry-after') ?? ''))
    problems.push('a 429 without Retry-After in seconds');
  if (r.status === 405 && !header(r, 'allow')) problems.push('a 405 without Allow');
  return problems;
}

const PAGINATION = /^(\d+),(\d+),(\d+),(\d+)$/;

function pageProblems(r: WireResponse, items: unknown[]): string[] {
  const m = PAGINATION.exec(header(r, 'x-blueink-pagination') ?? '');
  if (!m)
    return [`X-Blueink-Pagination ${JSON.stringify(header(r, 'x-blueink-pagination'))}: not page,pages,per_page,total`];
  const [page, pages, perPage, total] = m.slice(1).map(Number) as [number, number, number, number];
  const problems: string[] = [];
  if (items.length > perPage) problems.push(`${items.length} items on a page of ${perPage}`);
  if (pages !== Math.max(1, Math.ceil(total / perPage)))
    problems.push(`${pages} pages for ${total} at ${perPage} a page`);
  if (page < pages && items.length !== perPage)
    problems.push(`page ${page} of ${pages} holds ${items.length}, not ${perPage}`);
  if (page > pages && items.length) problems.push(`page ${page} beyond ${pages} holds items`);
  return problems;
}

/** A success: the status the table gives the operation, and its body exactly as its response schema. */
function successProblems(r: WireResponse, op: OperationRow): string[] {
  const reply = op.reply;
  const expected = 'none' in reply ? 204 : 'page' in reply ? 200 : (reply.status ?? 200);
  if (r.status !== expected) return [`status ${r.status}, the table says ${expected}`];
  if ('none' in reply) return r.body.length ? [`a ${r.status} with a body`] : [];
  const problems: string[] = [];
  const body = json(r, problems);
  if (body === undefined) return problems;
  const name = 'one' in reply ? reply.one : 'array' in reply ? reply.array : reply.page;
  const schema = RESPONSE_SCHEMAS[name as keyof typeof RESPONSE_SCHEMAS];
  if (!schema) return [`no response schema named ${name}`];
  if ('one' in reply) return [...problems, ...schemaProblems(schema, body)];
  problems.push(...schemaProblems(z.array(schema), body));
  if ('page' in reply && Array.isArray(body)) problems.push(...pageProblems(r, body));
  return problems;
}

/** A line of the request log's stream (GET /sandbox/requests/: JSON lines, so not a row of the table). */
const REQUEST_LOG_LINE = z.strictObject({
  time: z.iso.datetime(),
  method: z.string().min(1),
  path: z.string().startsWith('/'),
  status: z.int().min(100).max(599),
  ms: z.number().nonnegative(),
  key_id: z.string().nullable(),
  operation: z.string().nullable(),
});

function requestLogProblems(r: WireResponse): string[] {
  const type = header(r, 'content-type') ?? '';
  if (!type.startsWith('application/x-ndjson')) return [`request log stream: content-type ${type}`];
  return r.body
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((line, i) => {
      try {
        return schemaProblems(REQUEST_LOG_LINE, JSON.parse(line), `line ${i + 1}`);
      } catch {
        return [`request log stream: line ${i + 1} is not JSON`];
      }
    });
}

/** A file link (GET /files/TOKEN/NAME): no operation of the table, the file as stored, typed and not sniffed. */
function fileLinkProblems(r: WireResponse): string[] {
  const problems: string[] = [];
  if (!header(r, 'content-type')) problems.push('file link: no content-type');
  if (header(r, 'x-content-type-options') !== 'nosniff') problems.push('file link: no X-Content-Type-Options: nosniff');
  return problems;
}

/** Everything wrong with one response of esign serve; empty when the wire is as the table says. */
export function wireProblems(r: WireResponse): string[] {
  if (r.status >= 400) return errorProblems(r);
  if (r.method === 'GET' && r.url.split('?')[0] === '/sandbox/requests/') return requestLogProblems(r);
  if (r.method === 'GET' && r.url.startsWith(`${LINK_BASES.file}/`)) return fileLinkProblems(r);
  const op = operationOf(r.method, r.url);
  if (!op) return [`no operation of the table answers ${r.method} ${r.url.split('?')[0]}`];
  return successProblems(r, op);
}
