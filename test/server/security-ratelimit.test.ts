// Issue 24 item 8: a key's window survives any flood of anonymous addresses (/verify/ callers),
// which are evicted least recently used first, among themselves only.
import { describe, expect, it } from 'vitest';
import { MAX_BUCKETS, RateLimiter } from '../../src/server/rateLimit.js';

describe('rate limits under an address flood', () => {
  it('keeps a throttled key throttled after 60,000 other addresses have called', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ limit: 5, createLimit: 1, windowSeconds: 3600 }, () => now);
    for (let i = 0; i < 5; i++) expect(limiter.take('key:k1', 'call').ok).toBe(true);
    expect(limiter.take('key:k1', 'call').ok).toBe(false);
    for (let i = 0; i < MAX_BUCKETS + 10_000; i++) {
      now += 1;
      limiter.take(`ip:fd00::${i.toString(16)}`, 'call');
    }
    expect(limiter.size).toBeLessThanOrEqual(MAX_BUCKETS + 1);
    expect(limiter.take('key:k1', 'call').ok).toBe(false);
    expect(limiter.peek('key:k1').remaining).toBe(0);
  });

  it('evicts the least recently used address, not the one still calling', () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 3, createLimit: 1, windowSeconds: 3600 }, () => now, 100);
    for (let i = 0; i < 3; i++) limiter.take('ip:10.0.0.1', 'call');
    for (let i = 0; i < 1000; i++) {
      now += 1;
      limiter.take(`ip:10.1.${i >> 8}.${i & 255}`, 'call');
      // The throttled address keeps knocking: it stays recent, so it stays counted.
      if (i % 50 === 0) expect(limiter.take('ip:10.0.0.1', 'call').ok).toBe(false);
    }
    expect(limiter.size).toBeLessThanOrEqual(100);
  });
});
