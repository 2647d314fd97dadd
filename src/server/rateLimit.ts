// Fixed-window rate limits per API key (and per client address for /verify/), in memory.
//
// Keys' windows and addresses' windows are kept apart: addresses are cheap (IPv6, 127/8), keys are
// not, so only the anonymous side is ever evicted and no flood of addresses can reset a key's count.

import type { RateLimitConfig } from '../domain/rateLimits.js';

export { DEFAULT_RATE_LIMITS, type RateLimitConfig } from '../domain/rateLimits.js';

export interface WindowState {
  limit: number;
  remaining: number;
  /** UNIX seconds at which the window resets. */
  reset: number;
  window: number;
}

/** Anonymous (per-address) buckets kept at most: past it, ended windows go first, then the least recently used. */
export const MAX_BUCKETS = 50_000;

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  /** `key:` buckets: one per API key that has called, never evicted while their window lasts. */
  private readonly keyed = new Map<string, Window>();
  /** Every other bucket, in least-recently-used order (a Map keeps insertion order; a use re-inserts). */
  private readonly anonymous = new Map<string, Window>();
  constructor(
    readonly config: RateLimitConfig,
    private readonly nowMs: () => number = Date.now,
    private readonly maxBuckets = MAX_BUCKETS,
  ) {}

  /** Buckets held now (the memory the limiter uses). */
  get size(): number {
    return this.keyed.size + this.anonymous.size;
  }

  private ended(w: Window, now: number): boolean {
    return now - w.start >= this.config.windowSeconds * 1000;
  }

  private current(bucket: string): Window {
    const now = this.nowMs();
    const map = bucket.startsWith('key:') ? this.keyed : this.anonymous;
    let w = map.get(bucket);
    if (w && this.ended(w, now)) w = undefined;
    if (map === this.anonymous) {
      this.anonymous.delete(bucket);
      if (!w && this.anonymous.size >= this.maxBuckets) this.evictAnonymous(now);
    } else if (!w && this.keyed.size >= this.maxBuckets) this.dropEndedKeyed(now);
    w ??= { start: now, count: 0 };
    map.set(bucket, w);
    return w;
  }

  /** Ended windows go first; if every window is live, the least recently used tenth. */
  private evictAnonymous(now: number): void {
    for (const [k, w] of this.anonymous) if (this.ended(w, now)) this.anonymous.delete(k);
    let n = this.anonymous.size >= this.maxBuckets ? Math.ceil(this.maxBuckets / 10) : 0;
    for (const k of this.anonymous.keys()) {
      if (n-- <= 0) break;
      this.anonymous.delete(k);
    }
  }

  private dropEndedKeyed(now: number): void {
    for (const [k, w] of this.keyed) if (this.ended(w, now)) this.keyed.delete(k);
  }

  private state(bucket: string, limit: number): WindowState {
    const w = this.current(bucket);
    return {
      limit,
      remaining: Math.max(0, limit - w.count),
      reset: Math.ceil((w.start + this.config.windowSeconds * 1000) / 1000),
      window: this.config.windowSeconds,
    };
  }

  /**
   * Counts `n` requests (the calls of a JSON-RPC batch are each one), all or none; returns the
   * seconds to wait when the window has fewer left.
   */
  take(who: string, kind: 'call' | 'create', n = 1): { ok: true } | { ok: false; retryAfter: number } {
    const buckets: [string, number][] = [[`${who}:call`, this.config.limit]];
    if (kind === 'create') buckets.push([`${who}:create`, this.config.createLimit]);
    for (const [bucket, limit] of buckets) {
      const w = this.current(bucket);
      if (w.count + n > limit)
        return {
          ok: false,
          retryAfter: Math.max(1, Math.ceil((w.start + this.config.windowSeconds * 1000 - this.nowMs()) / 1000)),
        };
    }
    for (const [bucket] of buckets) this.current(bucket).count += n;
    return { ok: true };
  }

  /** What `GET /rate_limit/` reports, without using a request. */
  peek(who: string): WindowState {
    return this.state(`${who}:call`, this.config.limit);
  }
}
