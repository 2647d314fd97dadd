// How often a waiter may ask a remote server. A wait may use a fifth of the rate limit per window:
// the first half of that at once (a look every FAST_STEP_MS at most, so a change is seen within
// about 1.5 s plus one request), the rest spread over what is left of the window. It never takes
// more than a fifth of what the server says remains, so a wait leaves the quota to the work it
// waits on (a batch of creates, say), and waits for the reset when little remains.

/** The share of the rate-limit window's requests a wait may use. */
export const WAIT_SHARE = 0.2;
export const FIRST_STEP_MS = 1_000;
/** The longest pause between looks while the wait's fast half of its share lasts. */
export const FAST_STEP_MS = 1_500;
const MAX_STEP_MS = 15_000;

export interface RateView {
  limit: number;
  remaining: number;
  /** UNIX seconds. */
  reset: number;
  window: number;
}

/** The wait's own requests: in the server's current window, and since `remaining` was read. */
export interface Spent {
  inWindow: number;
  sinceRead: number;
}

/**
 * The pause before the next round of `requests` calls. Without a rate view (a server that has no
 * GET /rate_limit/), a backoff from the first step up to 15 s.
 */
export function nextPauseMs(
  round: number,
  requests: number,
  rate: RateView | undefined,
  nowMs: number,
  firstStepMs = FIRST_STEP_MS,
  spent: Spent = { inWindow: 0, sinceRead: 0 },
): number {
  const backoff = Math.min(MAX_STEP_MS, firstStepMs * 1.5 ** round);
  if (!rate || rate.limit <= 0) return backoff;
  const step = Math.min(FAST_STEP_MS, backoff);
  const untilReset = Math.max(0, rate.reset * 1000 - nowMs);
  const share = Math.floor(rate.limit * WAIT_SHARE);
  const left = Math.min(share - spent.inWindow, Math.floor(rate.remaining * WAIT_SHARE) - spent.sinceRead);
  if (left < requests) return Math.max(step, untilReset + 1);
  if (spent.inWindow + requests <= share / 2) return step;
  return Math.max(step, Math.min((requests * untilReset) / left, untilReset + 1));
}
