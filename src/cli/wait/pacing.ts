// How often a waiter may ask a remote server: backoff from a short first step, and never more than
// a small share of the rate limit the server reports, so a wait leaves the quota to the work it
// waits on (a batch of creates, say).

/** The share of the rate-limit window's requests a wait may use. */
export const WAIT_SHARE = 0.2;
export const FIRST_STEP_MS = 1_000;
const MAX_STEP_MS = 15_000;

export interface RateView {
  limit: number;
  remaining: number;
  /** UNIX seconds. */
  reset: number;
  window: number;
}

/**
 * The pause before the next round of `requests` calls: the backoff step, or longer when the rate
 * limit says so (the share of the limit spread over its window, or of what remains until reset).
 */
export function nextPauseMs(round: number, requests: number, rate: RateView | undefined, nowMs: number, firstStepMs = FIRST_STEP_MS): number {
  const step = Math.min(MAX_STEP_MS, firstStepMs * 1.5 ** round);
  if (!rate || rate.limit <= 0) return step;
  const budget = Math.max(1, rate.limit * WAIT_SHARE);
  const even = (requests * rate.window * 1000) / budget;
  const untilReset = Math.max(0, rate.reset * 1000 - nowMs);
  const spare = rate.remaining * WAIT_SHARE;
  const scarce = spare >= requests ? (requests * untilReset) / spare : untilReset + 1;
  return Math.max(step, even, Math.min(scarce, untilReset + 1));
}
