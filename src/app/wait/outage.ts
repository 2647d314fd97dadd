// A look that failed in a way that may pass: the server unreachable, a 5xx, a 429. A wait looks again
// through it until its own timeout; anything else (a wrong key, no such Bundle) ends the wait.
import { ApiError, TransportError } from '../../domain/errors.js';

export interface Outage {
  /** Words for it: "connection refused (ECONNREFUSED)", "HTTP 503: down for maintenance". */
  what: string;
  /** The server's Retry-After, when it gave one (ms). */
  retryAfterMs?: number;
}

/** Connection failures that may pass, in words; an unknown host (ENOTFOUND) is a wrong URL, not an outage. */
const PASSING_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection broken',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EAI_AGAIN: 'name lookup failed for now',
  UND_ERR_SOCKET: 'connection broken',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'no connection in time',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_BODY_TIMEOUT: 'answer cut short',
};

export function outageOf(e: unknown): Outage | undefined {
  if (e instanceof TransportError) {
    const words = PASSING_CODES[e.causeCode ?? ''];
    return words ? { what: `${words} (${e.causeCode})` } : undefined;
  }
  if (!(e instanceof ApiError) || (e.status !== 429 && e.status < 500)) return undefined;
  const seconds = (e as { retryAfterSeconds?: number }).retryAfterSeconds;
  const what = e.status === 429 ? 'rate limited (HTTP 429)' : `HTTP ${e.status}: ${e.message.slice(0, 120)}`;
  return { what, ...(seconds ? { retryAfterMs: seconds * 1000 } : {}) };
}

/** The longest pause between looks during an outage. */
const MAX_OUTAGE_STEP_MS = 15_000;

/** The pause before the next look during an outage: doubling from `firstStepMs`, never shorter than Retry-After. */
export function outagePauseMs(tries: number, firstStepMs: number, retryAfterMs = 0): number {
  return Math.max(retryAfterMs, Math.min(MAX_OUTAGE_STEP_MS, firstStepMs * 2 ** tries));
}
