// The sandbox's operations (signer activity, webhook test tools, the clock and the outbox) and the
// request log's stream, outside /api/v2, when the engine is the service.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/errors.js';
import type { HostedEngine } from '../service/hosting.js';
import type { EsignService } from '../service/service.js';
import { apiRoutes, type Route } from './apiRoutes.js';
import { type Door, errorObject } from './doors.js';
import type { ServerLimits } from './limits.js';
import { apiRefusalLimits } from './refusals.js';
import { tableRoute } from './tableRoute.js';

export function sandboxDoor(o: {
  service: EsignService;
  local: HostedEngine;
  limits: ServerLimits;
  /** Whether the fixture operations are served (a sandbox's server), else refused. */
  fixtures: boolean;
}): Door {
  const register = async (app: FastifyInstance) => {
    // What the sandbox offers depends on the server: fixtures only where they are served.
    const answers = { describeSandbox: async () => ({ ...(await o.local.describeSandbox()), fixtures: o.fixtures }) };
    for (const route of apiRoutes({ ...o, answers })) {
      if (!route.op.fromRoot) continue;
      if (route.op.fixture && !o.fixtures) refusedFixture(app, route);
      else tableRoute(app, route, o.limits);
    }
    (await import('./requestLogRoute.js')).registerRequestLog(app, o.local, (req, reply) =>
      app.guard(req, reply, 'call'),
    );
  };
  return { name: 'sandbox', paths: ['/sandbox'], answer: errorObject, refusals: apiRefusalLimits(o.limits), register };
}

/**
 * A fixture operation on a server's own account: a key holder gets a 403 as soon as the headers are
 * in (its body unread), since a sandbox's set-up never reaches the account it is hosted by.
 */
function refusedFixture(app: FastifyInstance, { op, url }: Route) {
  app.route({
    method: op.method,
    url,
    config: { operation: op.name },
    onRequest: async (req, reply) => {
      app.guard(req, reply, 'call');
      throw new ApiError(
        403,
        'permission_denied',
        `${op.name} sets up a sandbox: call it within one (its base URL, /sandboxes/{id}/api/v2, and its key). This server's own account is set up with esign local on its data directory.`,
      );
    },
    handler: async () => undefined,
  });
}
