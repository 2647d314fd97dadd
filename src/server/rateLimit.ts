// Fixed-window rate limits per API key (and per client address for /verify/), in memory.

import type { RateLimitConfig } from '../service/rateLimits.js';

export { DEFAULT_RATE_LIMITS, type RateLimitConfig } from '../service/rateLimits.js';

export interface WindowState {
  limit: number;
  remaining: number;
  /** UNIX seconds at which the window resets. */
  reset: number;
  window: number;
}

/** Buckets kept at most: past it, ended windows go first, then the oldest (whose client starts afresh). */
export const MAX_BUCKETS = 50_000;

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  constructor(readonly config: RateLimitConfig, private readonly nowMs: () => number = Date.now, private readonly maxBuckets = MAX_BUCKETS) {}

  /** Buckets held now (the memory the limiter uses). */
  get size(): number {
    return this.windows.size;
  }

  private current(bucket: string): { start: number; count: number } {
    const now = this.nowMs();
    const w = this.windows.get(bucket);
    if (w && now - w.start < this.config.windowSeconds * 1000) return w;
    const fresh = { start: now, count: 0 };
    // Re-inserted, so the Map's order stays oldest window first.
    this.windows.delete(bucket);
    if (this.windows.size >= this.maxBuckets) this.evict(now);
    this.windows.set(bucket, fresh);
    return fresh;
  }

  private evict(now: number): void {
    for (const [k, w] of this.windows) {
      if (now - w.start < this.config.windowSeconds * 1000) break; // the rest started later
      this.windows.delete(k);
    }
    // All still live: the oldest tenth goes.
    if (this.windows.size >= this.maxBuckets) {
      let n = Math.ceil(this.maxBuckets / 10);
      for (const k of this.windows.keys()) {
        if (n-- <= 0) break;
        this.windows.delete(k);
      }
    }
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

  /** Counts one request; returns the seconds to wait when the window is used up. */
  take(who: string, kind: 'call' | 'create'): { ok: true } | { ok: false; retryAfter: number } {
    const buckets: [string, number][] = [[`${who}:call`, this.config.limit]];
    if (kind === 'create') buckets.push([`${who}:create`, this.config.createLimit]);
    for (const [bucket, limit] of buckets) {
      const w = this.current(bucket);
      if (w.count >= limit)
        return { ok: false, retryAfter: Math.max(1, Math.ceil((w.start + this.config.windowSeconds * 1000 - this.nowMs()) / 1000)) };
    }
    for (const [bucket] of buckets) this.current(bucket).count++;
    return { ok: true };
  }

  /** What `GET /rate_limit/` reports, without using a request. */
  peek(who: string): WindowState {
    return this.state(`${who}:call`, this.config.limit);
  }
}
