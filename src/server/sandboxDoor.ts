// The sandbox's operations (signer activity, webhook test tools, the clock and the outbox) and the
// request log's stream, outside /api/v2, when the engine is the service.
import type { FastifyInstance } from 'fastify';
import type { HostedEngine } from '../service/hosting.js';
import type { EsignService } from '../service/service.js';
import { apiRoutes } from './apiRoutes.js';
import { type Door, errorObject } from './doors.js';
import type { ServerLimits } from './limits.js';
import { apiRefusalLimits } from './refusals.js';
import { tableRoute } from './tableRoute.js';

export function sandboxDoor(o: { service: EsignService; local: HostedEngine; limits: ServerLimits }): Door {
  const register = async (app: FastifyInstance) => {
    for (const route of apiRoutes(o)) if (route.op.fromRoot) tableRoute(app, route, o.limits);
    (await import('./requestLogRoute.js')).registerRequestLog(app, o.local, (req, reply) =>
      app.guard(req, reply, 'call'),
    );
  };
  return { name: 'sandbox', paths: ['/sandbox'], answer: errorObject, refusals: apiRefusalLimits(o.limits), register };
}
