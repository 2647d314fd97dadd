// The request log over the wire: GET /sandbox/requests/ streams esign serve's requests as JSON
// lines to a key holder (the last ones that match, then each new one as it is answered), so `esign
// logs tail` follows a remote esign serve as it follows a local data directory. A few streams at
// once; a stream holds its connection open, so it never times out for being quiet.
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import type { HostedEngine } from '../service/hosting.js';
import { backlogOf, parseRequestFilter, REQUEST_LOG_PATH } from '../service/requestLog.js';

/** Streams open at once, per server. */
export const MAX_LOG_STREAMS = 8;

export function registerRequestLog(
  app: FastifyInstance,
  engine: HostedEngine,
  guard: (req: FastifyRequest, reply: FastifyReply) => void,
): void {
  let open = 0;
  app.get(REQUEST_LOG_PATH, {
    onRequest: async (req, reply) => guard(req, reply),
    handler: async (req, reply) => {
      const q = req.query as Record<string, string | undefined>;
      const filter = parseRequestFilter(q);
      const backlog = backlogOf(q.backlog);
      const follow = q.follow !== 'false';
      if (follow && open >= MAX_LOG_STREAMS) {
        reply.header('Retry-After', '5');
        throw new ApiError(429, 'throttled', `Too many request log streams are open (at most ${MAX_LOG_STREAMS}).`);
      }
      const out = new PassThrough();
      const stop = new AbortController();
      if (follow) {
        open++;
        req.raw.socket.setTimeout(0);
      }
      // Its headers go out at once (Node sends them with the first byte otherwise): a stream with
      // nothing to show yet left its client waiting for an answer, and undici gives up after 300 s.
      reply.raw.once('pipe', () => reply.raw.flushHeaders());
      req.raw.on('close', () => stop.abort());
      out.on('close', () => stop.abort());
      engine
        .followRequests({ filter, backlog, follow, signal: stop.signal }, (e) => out.write(`${JSON.stringify(e)}\n`))
        .then(
          () => out.end(),
          (e: unknown) => out.destroy(e as Error),
        )
        .finally(() => {
          if (follow) open--;
        });
      return reply.type('application/x-ndjson; charset=utf-8').header('Cache-Control', 'no-store').send(out);
    },
  });
}
