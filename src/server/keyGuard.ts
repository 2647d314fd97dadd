// The API's key and rate guard: a request shows a live key (`Authorization: Token ...`), else it is
// the API's 401; it is counted against its key's limit (a create against the create limit), else
// the API's 429; `/verify/` is public and counted per client address, and the rate-limit status
// counts against nothing. Every door of the server is guarded by it (the API, the sandbox, MCP,
// the sandboxes' door), so it is lent to them all as decorations of the server.
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../domain/errors.js';
import type { RateLimit } from '../service/types.js';
import type { ConnectionGuard } from './connections.js';
import type { RateLimiter } from './rateLimit.js';

/** What a request is counted as: a call, a create, a public call (per address), or nothing (the rate-limit status). */
export type GuardKind = 'call' | 'create' | 'public' | 'status';

declare module 'fastify' {
  interface FastifyInstance {
    /** Authenticates and counts the request (`n` calls at once): whom it counted against. */
    guard(req: FastifyRequest, reply: FastifyReply, kind: GuardKind, n?: number): string;
    /** The key's rate limit as GET /rate_limit/ answers it: the server's one counter. */
    rateLimitOf(req: FastifyRequest, reply: FastifyReply): RateLimit;
    /** Whether a request shows a live key, trusting its connection when it does (a file link's download). */
    keyed(req: FastifyRequest): boolean;
  }
  interface FastifyRequest {
    /** The id of the API key the request was made with (the request log names it, never the key). */
    keyId: string | null;
  }
}

export interface KeyGuardOptions {
  /** Returns the id of the live API key, or undefined. */
  authenticate: (key: string) => string | undefined;
  limiter: RateLimiter;
  /** A connection that showed a live key is trusted (connections.ts). */
  connections: ConnectionGuard;
}

const TOKEN = /^Token\s+(\S+)\s*$/i;

/**
 * Decorates the server, not a scope of it (fastify-plugin): the doors are sibling scopes, and each
 * must see the one guard and its one counter.
 */
export const keyGuard = fp<KeyGuardOptions>(
  async (app, { authenticate, limiter, connections }) => {
    app.decorateRequest('keyId', null);
    app.decorate('guard', (req: FastifyRequest, reply: FastifyReply, kind: GuardKind, n = 1) => {
      let who: string;
      if (kind === 'public') who = `ip:${req.ip}`;
      else {
        const header = req.headers.authorization;
        const m = header ? TOKEN.exec(header) : null;
        if (!header) {
          reply.header('WWW-Authenticate', 'Token');
          throw new ApiError(401, 'not_authenticated', 'Authentication credentials were not provided.');
        }
        const id = m ? authenticate(m[1]!) : undefined;
        if (!id) {
          reply.header('WWW-Authenticate', 'Token');
          throw new ApiError(401, 'authentication_failed', 'Invalid token.');
        }
        connections.trust(req.raw.socket);
        req.keyId = id;
        who = `key:${id}`;
      }
      if (kind === 'status') return who;
      const taken = limiter.take(who, kind === 'create' ? 'create' : 'call', n);
      if (!taken.ok) {
        reply.header('Retry-After', String(taken.retryAfter));
        throw new ApiError(
          429,
          'throttled',
          `Request was throttled. Expected available in ${taken.retryAfter} seconds.`,
        );
      }
      return who;
    });
    app.decorate('rateLimitOf', (req: FastifyRequest, reply: FastifyReply) =>
      limiter.peek(app.guard(req, reply, 'status')),
    );
    app.decorate('keyed', (req: FastifyRequest) => {
      const m = TOKEN.exec(req.headers.authorization ?? '');
      if (!m || !authenticate(m[1]!)) return connections.trusted(req.raw.socket);
      connections.trust(req.raw.socket);
      return true;
    });
  },
  { name: 'esign-key-guard' },
);
