// The routes of API v2 and of esign serve's sandbox, made from the one table of operations: each
// route takes its port method's arguments from the request where the table places them, makes the
// one call, and answers as the table says. A few operations read their arguments their own way
// (DECODERS); a `multipart` row also takes its request as a multipart form with files
// (multipartRequest.ts). What the server answers itself, not the port, it hands in (`answers`).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import type { HostedEngine } from '../service/hosting.js';
import { OPERATION_TABLE, type OperationRow, type QueryParam, routePattern } from '../service/operationTable.js';
import type { EsignService } from '../service/service.js';
import type { Page } from '../service/types.js';
import { bodyOf, typedBody } from './formBody.js';
import type { ServerLimits } from './limits.js';
import { type MultipartRequest, receiveMultipartRequest } from './multipartRequest.js';

interface Result {
  status?: number;
  body?: unknown;
  page?: Page<unknown>;
}
type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<Result>;

export interface Route {
  op: OperationRow;
  /** The router's pattern (`/bundles/:slug/`), relative to /api/v2 unless `op.fromRoot`. */
  url: string;
  handler: Handler;
}

type Query = Record<string, string | undefined>;
type Decoder = (req: FastifyRequest, params: Record<string, string>) => unknown[] | Promise<unknown[]>;

const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));

/**
 * The list query of an operation from the query string: the table's parameters, page and per_page as
 * numbers, `metadata[KEY]=VALUE` as one object; other values as given (the service validates them).
 */
function listQuery(params: readonly QueryParam[], q: Query): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of params) {
    if (p.style === 'deepObject') {
      const found: Record<string, string> = {};
      for (const [k, v] of Object.entries(q)) {
        const m = /^(\w+)\[(.+)\]$/.exec(k);
        if (m && m[1] === p.name && v !== undefined) found[m[2]] = String(v);
      }
      out[p.name] = found;
    } else if (q[p.name] !== undefined)
      out[p.name] = p.name === 'page' || p.name === 'per_page' ? num(q[p.name]) : q[p.name];
  }
  return out;
}

/** The port method's arguments, from where the table places them (the body and files of a multipart request, if it is one). */
function argumentsOf(op: OperationRow, req: FastifyRequest, form?: MultipartRequest): unknown[] {
  const params = req.params as Record<string, string>;
  const q = req.query as Query;
  const body = () => (form ? (form.body as Record<string, unknown>) : bodyOf(req));
  return op.args.map((a) => {
    switch (a.in) {
      case 'path':
        return params[a.name];
      case 'query':
        return 'name' in a ? q[a.name] : listQuery(op.query ?? [], q);
      case 'body':
        if ('name' in a) return body()[a.name];
        return op.form && !form ? typedBody(req, op.form.typed) : body();
      case 'files':
        return form?.files ?? [];
    }
  });
}

const schemas = () => import('../domain/schemas.js');

/** Operations whose wire form is not their arguments one for one. */
const DECODERS: Partial<Record<OperationRow['name'], Decoder>> = {
  verify: (req) => [String(bodyOf(req).hash ?? '')],
  signPacket: async (req, p) => [p.id, (await schemas()).signInputOf(req.body)],
  declinePacket: async (req, p) => {
    const { PacketDeclineRequest, parseOr400 } = await schemas();
    return [p.id, parseOr400(PacketDeclineRequest, req.body ?? {}).reason ?? ''];
  },
  triggerWebhookEvent: (req) => {
    const b = bodyOf(req) as { event_type?: unknown; bundle?: unknown };
    if (typeof b.event_type !== 'string')
      throw new ApiError(400, 'invalid', 'event_type: This field is required.', [
        { field: 'event_type', message: 'This field is required.' },
      ]);
    return [b.event_type, typeof b.bundle === 'string' && b.bundle ? b.bundle : undefined];
  },
};

/** How the table says the operation answers: nothing, a page, or the value with its status. */
function answer(op: OperationRow, value: unknown): Result {
  const r = op.reply;
  if ('none' in r) return { status: 204 };
  if ('page' in r) return { page: value as Page<unknown> };
  return { status: r.status ?? 200, body: value };
}

function handlerFor(op: OperationRow, target: object, limits: ServerLimits): Handler {
  const method = (target as Record<string, unknown>)[op.name];
  if (typeof method !== 'function') throw new Error(`The service has no ${op.name}.`);
  const decode = DECODERS[op.name];
  return async (req) => {
    if (op.multipart && req.isMultipart()) {
      const form = await receiveMultipartRequest(req, limits);
      try {
        return answer(op, await method.apply(target, argumentsOf(op, req, form)));
      } finally {
        await form.cleanup();
      }
    }
    const args = decode ? await decode(req, req.params as Record<string, string>) : argumentsOf(op, req);
    return answer(op, await method.apply(target, args));
  };
}

export interface RouteOptions {
  service: EsignService;
  /** The embedded engine, when it is the service: its sandbox operations are routed too. */
  local?: HostedEngine;
  /** The body and upload limits of a multipart request. */
  limits: ServerLimits;
  /** Values the server answers itself rather than the port, by operation (the rate-limit status is its own counter's). */
  answers?: Partial<Record<OperationRow['name'], (req: FastifyRequest, reply: FastifyReply) => unknown>>;
}

/** Every route of the table this server offers: API v2, and the sandbox when the engine is the service. */
export function apiRoutes(o: RouteOptions): Route[] {
  const routes: Route[] = [];
  for (const op of OPERATION_TABLE) {
    if (op.fromRoot && !o.local) continue;
    const own = o.answers?.[op.name];
    const handler: Handler = own
      ? async (req, reply) => answer(op, await own(req, reply))
      : handlerFor(op, op.fromRoot ? o.local! : o.service, o.limits);
    for (const path of [op.path, ...(op.aliases ?? [])]) routes.push({ op, url: routePattern(path), handler });
  }
  return routes;
}
