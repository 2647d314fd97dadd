// The routes of API v2 and of esign serve's sandbox, made from the one table of operations: each
// route takes its port method's arguments from the request where the table places them, makes the
// one call, and answers as the table says. A few operations read their arguments their own way
// (DECODERS); a host may replace a whole handler (the multipart Bundle create lives in app.ts).
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../service/errors.js';
import type { HostedEngine } from '../service/hosting.js';
import { OPERATION_TABLE, type OperationRow, type QueryParam, routePattern } from '../service/operationTable.js';
import type { EsignService } from '../service/service.js';
import type { Page } from '../service/types.js';
import { bodyOf, typedBody } from './formBody.js';

export interface Result {
  status?: number;
  body?: unknown;
  page?: Page<unknown>;
}
export type Handler = (req: FastifyRequest) => Promise<Result>;

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

/** The port method's arguments, from where the table places them. */
function argumentsOf(op: OperationRow, req: FastifyRequest): unknown[] {
  const params = req.params as Record<string, string>;
  const q = req.query as Query;
  return op.args.map((a) => {
    switch (a.in) {
      case 'path':
        return params[a.name];
      case 'query':
        return 'name' in a ? q[a.name] : listQuery(op.query ?? [], q);
      case 'body':
        if ('name' in a) return bodyOf(req)[a.name];
        return op.form ? typedBody(req, op.form.typed) : bodyOf(req);
      case 'files':
        return [];
    }
  });
}

const schemas = () => import('../service/schemas.js');

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

function handlerFor(op: OperationRow, target: object): Handler {
  const method = (target as Record<string, unknown>)[op.name];
  if (typeof method !== 'function') throw new Error(`The service has no ${op.name}.`);
  const decode = DECODERS[op.name];
  return async (req) => {
    const args = decode ? await decode(req, req.params as Record<string, string>) : argumentsOf(op, req);
    return answer(op, await method.apply(target, args));
  };
}

export interface RouteOptions {
  service: EsignService;
  /** The embedded engine, when it is the service: its sandbox operations are routed too. */
  local?: HostedEngine;
  /** Handlers the host writes itself, by operation name (each path and its aliases). */
  own?: Partial<Record<OperationRow['name'], Handler>>;
  /** Operations the host answers without the port (the rate-limit status). */
  skip?: readonly OperationRow['name'][];
}

/** Every route of the table this server offers: API v2, and the sandbox when the engine is the service. */
export function apiRoutes(o: RouteOptions): Route[] {
  const routes: Route[] = [];
  for (const op of OPERATION_TABLE) {
    if (o.skip?.includes(op.name)) continue;
    if (op.fromRoot && !o.local) continue;
    const handler = o.own?.[op.name] ?? handlerFor(op, op.fromRoot ? o.local! : o.service);
    for (const path of [op.path, ...(op.aliases ?? [])]) routes.push({ op, url: routePattern(path), handler });
  }
  return routes;
}
