// Each answered request, on every door: one line (method, path with link tokens cut, status, ms;
// never the key) and, when the engine is the service, a row of its request log (with the key's id).
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { HostedEngine } from '../service/hosting.js';
import { redactTokens } from '../service/linkPaths.js';

export interface RequestLoggingOptions {
  log: (line: string) => void;
  /** The engine whose request log keeps each request; absent: none is kept. */
  record?: HostedEngine;
}

/** Hooks the server, not a scope of it (fastify-plugin): every door's requests are logged. */
export const requestLogging = fp<RequestLoggingOptions>(
  async (app, { log, record }) => {
    app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const path = redactTokens(req.url.split('?')[0]!);
      log(`${req.method} ${path} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`);
      record?.recordRequest({
        time: new Date().toISOString(),
        method: req.method,
        path,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        key_id: req.keyId,
        operation: (req.routeOptions.config as { operation?: string } | undefined)?.operation ?? null,
      });
      done();
    });
  },
  { name: 'esign-request-logging' },
);
