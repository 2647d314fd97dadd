// The sandboxes of esign serve on the wire (docs/sandboxes.md).
//
// /sandboxes/ is managed with the server's own keys: POST makes one (its key answered once), GET
// lists them, GET and DELETE /sandboxes/{id}/ read and remove one. Everything under
// /sandboxes/{id}/ past that is the sandbox itself: the request is handed, before this server reads
// it, to the sandbox's own server (the same server on the sandbox's engine) with the prefix taken
// off, so /sandboxes/{id}/api/v2/bundles/ is its GET /api/v2/bundles/ and a client of API v2 needs
// only the sandbox's base URL and key. The links it makes carry the prefix, so its signing pages and
// file links reach it without a key.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { API_ROOT } from '../../service/operationTable.js';
import { SANDBOXES_PATH } from '../../service/sandboxes.js';
import { type Door, errorObject } from '../doors.js';
import type { RefusalLimits } from '../refusals.js';
import type { SandboxRegistry } from './registry.js';

const WITHIN = /^\/sandboxes\/(sbx_[0-9a-f]{20})(\/[^?]*)(\?.*)?$/;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Requests this server answers for a sandbox that cannot take them (over its disk). */
const overflowing = new WeakSet<IncomingMessage>();

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The path of a sandbox's base URL under a server's root. */
export const sandboxRoot = (root: string, id: string) => `${root.replace(/\/+$/, '')}${SANDBOXES_PATH}/${id}`;
export const sandboxBaseUrl = (root: string, id: string) => `${sandboxRoot(root, id)}${API_ROOT}`;

/**
 * The HTTP server of a server hosting sandboxes: a request within a live sandbox goes to its server,
 * every other to `handler` (this server). Made as fastify makes its own (fastify.js getServerInstance).
 */
export function sandboxServerFactory(registry: SandboxRegistry<FastifyInstance>) {
  return (handler: Handler, o: FastifyServerOptions & { http?: object }): Server => {
    const server = createServer(o.http ?? {}, (req, res) => void dispatch(registry, req, res, handler));
    if (o.keepAliveTimeout !== undefined) server.keepAliveTimeout = o.keepAliveTimeout;
    if (o.requestTimeout !== undefined) server.requestTimeout = o.requestTimeout;
    if (o.connectionTimeout !== undefined) server.setTimeout(o.connectionTimeout);
    return server;
  };
}

async function dispatch(
  registry: SandboxRegistry<FastifyInstance>,
  req: IncomingMessage,
  res: ServerResponse,
  handler: Handler,
): Promise<void> {
  const m = WITHIN.exec(req.url ?? '');
  // /sandboxes/{id}/ itself is this server's (read or delete the sandbox).
  if (!m || m[2] === '/') return handler(req, res);
  const sandbox = await registry.lookup(m[1]!).catch(() => undefined);
  if (!sandbox) return handler(req, res);
  if (WRITES.has(req.method ?? '') && registry.wouldOverflow(m[1]!, Number(req.headers['content-length'] ?? 0) || 0)) {
    overflowing.add(req);
    return handler(req, res);
  }
  req.url = `${m[2]}${m[3] ?? ''}`;
  sandbox.app.routing(req, res);
}

export interface SandboxesDoorOptions {
  registry: SandboxRegistry<FastifyInstance>;
  /** Authenticates with the server's own keys and counts the request; returns `key:<id>`. */
  authorize: (req: FastifyRequest, reply: FastifyReply) => string;
  /** The server's root as clients reach it (its public URL, else its listening address). */
  root: () => string;
  refusals: RefusalLimits;
}

/** The management routes, and the answers for a sandbox that is gone or full. */
export function sandboxesDoor(o: SandboxesDoorOptions): Door {
  const { registry } = o;
  const baseOf = (id: string) => sandboxBaseUrl(o.root(), id);
  const register = async (app: FastifyInstance) => {
    const guarded = { onRequest: async (req: FastifyRequest, reply: FastifyReply) => void o.authorize(req, reply) };
    app.post(`${SANDBOXES_PATH}/`, guarded, async (req, reply) => {
      const by = o.authorize(req, reply).replace(/^key:/, '');
      return reply.code(201).send(await registry.create(by, req.body, baseOf));
    });
    app.get(`${SANDBOXES_PATH}/`, guarded, async () => registry.list(baseOf));
    app.get(`${SANDBOXES_PATH}/:id/`, guarded, async (req) => registry.get((req.params as { id: string }).id, baseOf));
    app.delete(`${SANDBOXES_PATH}/:id/`, guarded, async (req, reply) => {
      await registry.delete((req.params as { id: string }).id);
      return reply.code(204).send();
    });
    // Reached only when the dispatch left the request here: no such sandbox, or it is full. Refused
    // as soon as the headers are in, its body unread.
    app.all(`${SANDBOXES_PATH}/:id/*`, {
      onRequest: async (req) => {
        if (overflowing.has(req.raw))
          throw new ApiError(
            403,
            'permission_denied',
            `This sandbox holds its limit of ${registry.limits.maxBytes} bytes: it can be read and deleted, not written.`,
          );
        throw new ApiError(404, 'not_found', 'No such sandbox (it was deleted, or it expired).');
      },
      handler: async () => undefined,
    });
  };
  return { name: 'sandboxes', paths: [SANDBOXES_PATH], answer: errorObject, refusals: o.refusals, register };
}
