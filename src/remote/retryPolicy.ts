// THE retry policy of the remote backend, in one place:
// - a throttled request (429) was not processed: it is waited out (Retry-After, else backoff) and sent
//   again, whatever its method, unless the server asks for longer than the policy will wait;
// - a request whose outcome is unknown (a cut connection, a timeout, 502/503/504) is sent again only
//   if repeating it is safe (the operation is idempotent);
// - a create is never sent again blind: with a custom_key, one exact look-up of that key first (the
//   port's findBundleByCustomKey), and the Bundle found is the answer; without one, the failure is final.
// Waits go through `sleep`, so a test injects time instead of sleeping.

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff step (ms); it doubles each attempt, capped at maxDelayMs, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A server asking to wait longer than this (Retry-After) gets its error back at once. */
  maxRetryAfterMs: number;
  sleep: (ms: number) => Promise<void>;
  /** One line per wait, for people (stderr). */
  note?: (line: string) => void;
  /** Told when a 429 is being waited out, and until when (ms since the epoch): a batch pauses all its rows. */
  onThrottle?: (untilMs: number) => void;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

const UNKNOWN_OUTCOME_STATUSES = new Set([502, 503, 504]);
/** An answer that may be different if asked again (throttled, or a gateway or the service briefly down). */
export const isTransientStatus = (status: number): boolean => status === 429 || UNKNOWN_OUTCOME_STATUSES.has(status);

/** Connection failures after which the request may or may not have reached the server. */
const UNKNOWN_OUTCOME_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** What one failed attempt was: an answer with a status, or a connection failure with a code. */
export type Failure = { status: number; retryAfter?: string | string[] } | { code: string };

/** How a failure is handled: waited out and sent again, sent again only if safe, or final. */
function classify(f: Failure): 'throttled' | 'unknown' | 'final' {
  if ('status' in f)
    return f.status === 429 ? 'throttled' : UNKNOWN_OUTCOME_STATUSES.has(f.status) ? 'unknown' : 'final';
  return UNKNOWN_OUTCOME_CODES.has(f.code) ? 'unknown' : 'final';
}

/** Seconds of a Retry-After header (a number of seconds or an HTTP date), if it says anything. */
function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(header) ? header[0] : header;
  if (v === undefined || v.trim() === '') return undefined;
  const seconds = Number(v);
  if (Number.isFinite(seconds)) return seconds > 0 ? seconds * 1000 : undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Jitter over an exponential step; the server's Retry-After is honoured when longer. */
function delayMs(p: RetryPolicy, attempt: number, retryAfter?: string | string[]): number {
  const step = Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** attempt);
  const jittered = step / 2 + Math.random() * (step / 2);
  const asked = retryAfter === undefined ? undefined : retryAfterMs(retryAfter);
  return asked !== undefined ? Math.max(jittered, asked) : jittered;
}

/**
 * Whether to try again after `failure` on attempt `attempt` (0-based), and after how long; undefined:
 * give the failure back. `safe`: repeating the request leaves the world as one call did.
 */
export function nextWait(p: RetryPolicy, f: Failure, attempt: number, safe: boolean): number | undefined {
  const kind = classify(f);
  if (kind === 'final' || attempt >= p.maxRetries) return undefined;
  if (kind === 'unknown' && !safe) return undefined;
  const wait = delayMs(p, attempt, 'status' in f ? f.retryAfter : undefined);
  return wait > p.maxRetryAfterMs ? undefined : wait;
}

/** A failure of a create whose outcome is unknown (the Bundle may exist). */
function outcomeUnknown(e: unknown): boolean {
  const status = (e as { status?: unknown }).status;
  // No status: the server was not reached, or its answer was lost.
  return typeof status === 'number' ? classify({ status }) === 'unknown' : true;
}

/**
 * A create with a custom_key: `post` makes one attempt (throttling already waited out); after a
 * failure whose outcome is unknown, one exact look-up of the key, and the Bundle found is the
 * answer; else, after a backoff, one more attempt, up to the policy's retries.
 */
export async function createWithKey<T>(
  p: RetryPolicy,
  post: () => Promise<T>,
  lookup: () => Promise<T | undefined>,
  what: string,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await post();
    } catch (e) {
      if (!outcomeUnknown(e)) throw e;
      const found = await lookup();
      if (found) return found;
      if (attempt >= p.maxRetries) throw e;
      const wait = delayMs(p, attempt);
      p.note?.(
        `esign: ${what} may not have been made (${(e as Error).message}); not found by its custom_key, ` +
          `so it is sent again in ${(wait / 1000).toFixed(1)} s (retry ${attempt + 1} of ${p.maxRetries})`,
      );
      await p.sleep(wait);
    }
  }
}
