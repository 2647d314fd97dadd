// API v2: the routes of the operations table (the rate-limit status answered from the server's own
// counter), the OpenAPI document, and a 405 naming the allowed methods on every API path.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/errors.js';
import type { HostedEngine } from '../service/hosting.js';
import { API_ROOT } from '../service/operationTable.js';
import type { EsignService } from '../service/service.js';
import { apiRoutes } from './apiRoutes.js';
import { type Door, errorObject } from './doors.js';
import type { ServerLimits } from './limits.js';
import { apiRefusalLimits } from './refusals.js';
import { tableRoute } from './tableRoute.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface ApiDoorOptions {
  service: EsignService;
  local?: HostedEngine;
  limits: ServerLimits;
}

export function apiDoor({ service, local, limits }: ApiDoorOptions): Door {
  const register = async (app: FastifyInstance) => {
    const methodsByPath = new Map<string, string[]>();
    const routes = apiRoutes({
      service,
      local,
      limits,
      answers: { getRateLimit: (req, reply) => app.rateLimitOf(req, reply) },
    });
    for (const route of routes) {
      if (route.op.fromRoot) continue;
      methodsByPath.set(route.url, [...(methodsByPath.get(route.url) ?? []), route.op.method]);
      tableRoute(app, route, limits);
    }
    // The other methods of every known path are a 405 that names the allowed ones.
    for (const [path, allowed] of methodsByPath) {
      const others = METHODS.filter((m) => !allowed.includes(m));
      if (others.length)
        app.route({
          method: others,
          url: `${API_ROOT}${path}`,
          // Refused as soon as the headers are in: a body sent with it is never read.
          onRequest: async (req, reply) => {
            reply.header('Allow', allowed.join(', '));
            throw new ApiError(405, 'method_not_allowed', `Method "${req.method}" not allowed.`);
          },
          handler: async () => undefined,
        });
    }
    (await import('./openapiRoute.js')).registerOpenApi(app, API_ROOT);
  };
  return { name: 'api', paths: [API_ROOT], answer: errorObject, refusals: apiRefusalLimits(limits), register };
}
