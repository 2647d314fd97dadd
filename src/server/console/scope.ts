// What every part of the console shares: its options, the port, the sessions, how pages are sent,
// and the request helpers its routes use.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ComponentChildren } from 'preact';
import type { EsignService } from '../../service/service.js';
import type { Frame } from './layout.js';
import type { LiveOptions, LiveStreams } from './live.js';
import type { ConsoleSessions, Session, SessionTiming, SignInThrottle } from './sessions.js';

export interface ConsoleOptions {
  service: EsignService;
  /** The serve door: an API key signs in (returns the key's id, or undefined). */
  authenticateKey?: (key: string) => string | undefined;
  /** The serve door: whether a key is still live; a session signed in with a key that is not ends. */
  keyIsLive?: (id: string) => boolean;
  /** Look, never change: every POST but sign-in, sign-out and verify is refused. */
  readOnly?: boolean;
  /** The backend in words, shown in the header. */
  backend?: string;
  /** Host headers accepted (DNS rebinding): a predicate; absent, any. */
  allowedHost?: (host: string) => boolean;
  timing?: Partial<SessionTiming>;
  live?: Partial<LiveOptions>;
}

export interface Console {
  o: ConsoleOptions;
  s: EsignService;
  sessions: ConsoleSessions;
  signIns: SignInThrottle;
  live: LiveStreams;
  readOnly: boolean;
  /** The backend's clock (the engine's moves with `local clock advance`): times in words are read against it. */
  now: () => number;
  /** The live pace on a backend without `watchBundles`, asked once. */
  paceMs: () => Promise<number>;
  page: (
    req: FastifyRequest,
    reply: FastifyReply,
    status: number,
    title: string,
    body: ComponentChildren,
    current?: Frame['current'],
  ) => FastifyReply;
  problem: (req: FastifyRequest, reply: FastifyReply, status: number, title: string, message: string) => FastifyReply;
}

export const READ_ONLY = 'This console is read-only: it can look, not change anything.';

/** The session of a request that passed the sign-in check. */
export const sessionOf = new WeakMap<FastifyRequest, Session>();

export const field = (req: FastifyRequest, name: string): string => {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v : '';
};
export const param = (req: FastifyRequest, name: string) => (req.params as Record<string, string>)[name] ?? '';
export const queryOf = (req: FastifyRequest) => req.query as Record<string, unknown>;

/** A page number from a query string: 1 for anything that is not a whole number from 1 to 100,000. */
export function pageNumber(v: unknown): number {
  const n = Number(typeof v === 'string' ? v.slice(0, 8) : '');
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
}
