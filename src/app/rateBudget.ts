// One rate budget: how the rate limit of one API key is shared by what may run against it at once
// (a batch, waits beside it, the support console's live checks), each taking its share of the
// window and no more, so that together they stay under the limit. A 429 is still waited out (the
// remote adapter's retry policy), and pauses a batch's every row.
import type { EsignService } from '../service/service.js';
import type { RateLimit } from '../service/types.js';
import { UseCaseError } from './failure.js';

/**
 * The shares of one key's window. All three may run at once: together they leave a twentieth for
 * single commands (a `bundle get` beside a batch) and for rounding.
 */
export const RATE_SHARES = { batch: 0.65, wait: 0.2, consolePolling: 0.1 } as const;

/**
 * The pause between rounds of `requests` calls that spends at most `share` of the window evenly:
 * the console's live checks of a backend that cannot watch its data.
 */
export function evenPaceMs(rate: RateLimit, requests: number, share: number): number | undefined {
  if (rate.limit <= 0 || rate.window <= 0) return undefined;
  return Math.ceil((requests * rate.window * 1000) / (rate.limit * share));
}

// ---- A batch: Bundle creations and calls --------------------------------------------------------
//
// Spends a remote server's quota without running into 429s: what the current window has left goes
// at once, and only what exceeds it is paced (from the window's reset, one slot every
// window/limit with a small margin for clock and network skew). A 429 still pauses everyone until
// its Retry-After. Two budgets: Bundle creations, and calls (lookups by custom_key and the creates
// themselves), of which a share is left for other clients of the same key.

/** docs/wire.md: 200 Bundle creations and 2000 other calls per hour per key; creations are a tenth. */
const DOCUMENTED_CREATE_SHARE = 200 / 2000;
/** The share of the call limit a batch leaves to the others (waits, the console). */
export const CALL_RESERVE = 1 - RATE_SHARES.batch;
const MARGIN = 1.03;

export interface Allowance {
  creates: number;
  windowSeconds: number;
  /** How it was found, for the summary. */
  from: string;
  /** Creations the current window has left: they go at once. Absent: every create is paced. */
  left?: number;
  /** When the current window ends (ms since the epoch). */
  resetAtMs?: number;
  /** The call budget (lookups and creates), when the server told it. */
  calls?: { limit: number; left: number };
}

/** `50/10` (creates per seconds) from --rate: an explicit rate, every create paced evenly. */
export function parseRate(text: string): Allowance {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*(s)?\s*$/.exec(text);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1)
    throw new UseCaseError(`--rate expects CREATES/SECONDS (e.g. 200/3600), got "${text}".`, 'usage');
  return { creates: Number(m[1]), windowSeconds: Number(m[2]), from: '--rate' };
}

/**
 * The create allowance of a remote server: GET /rate_limit/ gives the call limit, what is left of it
 * and when the window resets; creations get the documented share of each (200 of 2000 per hour on the
 * hosted service). The creations left are an estimate (the wire does not report them apart): too
 * high, and the server's 429 with its Retry-After pauses the batch until the window resets.
 */
export async function readAllowance(service: EsignService, nowMs = Date.now()): Promise<Allowance> {
  const r = await service.getRateLimit();
  const creates = Math.max(1, Math.floor(r.limit * DOCUMENTED_CREATE_SHARE));
  const left = Math.max(0, Math.min(creates, Math.floor((creates * r.remaining) / Math.max(1, r.limit))));
  const resetAtMs = r.reset * 1000 > nowMs ? r.reset * 1000 : undefined;
  return {
    creates,
    windowSeconds: r.window,
    left,
    resetAtMs,
    calls: { limit: r.limit, left: Math.max(0, r.remaining - Math.ceil(r.limit * CALL_RESERVE)) },
    from: `GET /rate_limit/ (${r.limit} calls per ${r.window} s; creations ${creates})`,
  };
}

/** What the summary says of the pacing. */
export function describeAllowance(a: Allowance): string {
  const now = a.left !== undefined ? `; ${a.left} at once, the rest paced` : '';
  return `${a.creates} per ${a.windowSeconds} s (${a.from})${now}`;
}

export class Pacer {
  private next = 0;
  private pausedUntil = 0;
  private burst: number;
  readonly intervalMs: number;
  /**
   * `perWindow` slots every `windowSeconds`; `burst` of them may go at once, the rest from
   * `resetAtMs` (when the server's window renews) on, evenly.
   */
  constructor(
    perWindow: number,
    windowSeconds: number,
    o: { burst?: number; resetAtMs?: number } = {},
    private readonly now: () => number = Date.now,
  ) {
    this.intervalMs = ((windowSeconds * 1000) / perWindow) * MARGIN;
    this.burst = o.burst ?? 0;
    if (o.burst !== undefined) this.next = o.resetAtMs ?? this.now();
  }

  static forCreates(a: Allowance, now: () => number = Date.now): Pacer {
    return new Pacer(a.creates, a.windowSeconds, { burst: a.left, resetAtMs: a.resetAtMs }, now);
  }

  /** The call budget, when the server reported it. */
  static forCalls(a: Allowance, now: () => number = Date.now): Pacer | undefined {
    if (!a.calls) return undefined;
    const perWindow = Math.max(1, Math.floor(a.calls.limit * (1 - CALL_RESERVE)));
    return new Pacer(perWindow, a.windowSeconds, { burst: a.calls.left, resetAtMs: a.resetAtMs }, now);
  }

  /** When a slot asked for now would go (ms since the epoch). */
  private at(t: number): number {
    return this.burst > 0 ? Math.max(t, this.pausedUntil) : Math.max(t, this.next, this.pausedUntil);
  }

  /** Resolves true when the caller may make its call; false, at once, when `signal` aborts first (no slot taken). */
  async slot(signal?: AbortSignal): Promise<boolean> {
    for (;;) {
      if (signal?.aborted) return false;
      const t = this.now();
      const at = this.at(t);
      if (at <= t) {
        if (this.burst > 0) this.burst--;
        else this.next = Math.max(t, this.next) + this.intervalMs;
        return true;
      }
      await new Promise<void>((r) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          r();
        };
        const timer = setTimeout(done, at - t);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** The server said 429: nobody sends before `untilMs`, and what was left at once is gone. */
  pause(untilMs: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, untilMs);
    this.burst = 0;
  }

  /** When the next call may go (ms since the epoch). */
  nextSlotAt(): number {
    return this.at(this.now());
  }
}

// ---- A wait: looks at Bundles until they reach a state ------------------------------------------
//
// How often a waiter may ask a remote server. A wait may use a fifth of the rate limit per window:
// the first half of that at once (a look every FAST_STEP_MS at most, so a change is seen within
// about 1.5 s plus one request), the rest spread over what is left of the window. It never takes
// more than a fifth of what the server says remains, so a wait leaves the quota to the work it
// waits on (a batch of creates, say), and waits for the reset when little remains.

/** The share of the rate-limit window's requests a wait may use. */
const WAIT_SHARE = RATE_SHARES.wait;
export const FIRST_STEP_MS = 1_000;
/** The longest pause between looks while the wait's fast half of its share lasts. */
const FAST_STEP_MS = 1_500;
const MAX_STEP_MS = 15_000;

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
  rate: RateLimit | undefined,
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
