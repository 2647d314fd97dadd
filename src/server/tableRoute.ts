// A route of the operations table on a server: the key and rate guard as soon as the headers are
// in (a body is read only for a key holder), then the one call, answered as the table says.
import type { FastifyInstance } from 'fastify';
import { API_ROOT } from '../service/operationTable.js';
import type { Route } from './apiRoutes.js';
import type { GuardKind } from './keyGuard.js';
import type { ServerLimits } from './limits.js';

export function tableRoute(app: FastifyInstance, { op, url, handler }: Route, limits: ServerLimits): void {
  const kind: GuardKind = op.public ? 'public' : op.throttle === 'none' ? 'status' : (op.throttle ?? 'call');
  app.route({
    method: op.method,
    url: op.fromRoot ? url : `${API_ROOT}${url}`,
    config: { operation: op.name },
    ...(op.documentBody ? { bodyLimit: limits.documentJsonBytes } : {}),
    onRequest: async (req, reply) => void app.guard(req, reply, kind),
    handler: async (req, reply) => {
      const r = await handler(req, reply);
      if (r.page) return reply.sendPage(r.page);
      if (r.status === 204) return reply.code(204).send();
      const json = frozenJson(r.body);
      if (json !== undefined)
        return reply
          .code(r.status ?? 200)
          .type('application/json; charset=utf-8')
          .send(json);
      return reply.code(r.status ?? 200).send(r.body);
    },
  });
}

const serializedFrozen = new WeakMap<object, string>();

/** The engine hands out frozen objects from its read cache: their JSON never changes, so it is made once. */
function frozenJson(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || !Object.isFrozen(body)) return undefined;
  let json = serializedFrozen.get(body);
  if (json === undefined) serializedFrozen.set(body, (json = JSON.stringify(body)));
  return json;
}
