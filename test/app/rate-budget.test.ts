// One rate budget: a batch, a wait beside it and the console's live checks, run at once against one
// key, together ask for no more than the key's window allows.
import { describe, expect, it } from 'vitest';
import { CALL_RESERVE, evenPaceMs, nextPauseMs, Pacer, RATE_SHARES, readAllowance } from '../../src/app/rateBudget.js';
import type { EsignService } from '../../src/service/service.js';
import type { RateLimit } from '../../src/service/types.js';

const WINDOW_S = 3600;
const fresh = (limit: number, nowMs: number): RateLimit => ({
  limit,
  remaining: limit,
  reset: Math.floor(nowMs / 1000) + WINDOW_S,
  window: WINDOW_S,
});

describe('the rate budget', () => {
  it('gives each use its share, and the shares make at most the whole window', () => {
    expect(Object.values(RATE_SHARES).reduce((a, b) => a + b, 0)).toBeLessThan(1);
    expect(CALL_RESERVE).toBeCloseTo(1 - RATE_SHARES.batch);
  });

  it('keeps a batch, a wait and the console under the limit of one window together', async () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    for (const limit of [100, 2000, 10_000]) {
      const rate = fresh(limit, now);
      // The batch: every call slot its pacer grants within the window.
      const allowance = await readAllowance({ getRateLimit: async () => rate } as EsignService, now);
      let t = now;
      const calls = Pacer.forCalls(allowance, () => t)!;
      let batch = 0;
      for (;;) {
        const at = calls.nextSlotAt();
        if (at >= now + WINDOW_S * 1000) break;
        t = at;
        await calls.slot();
        batch++;
      }
      // A wait of one Bundle (one request a round), counting what it spent.
      let wait = 0;
      for (let round = 0, w = now; w < now + WINDOW_S * 1000; round++) {
        wait++;
        w += nextPauseMs(round, 1, rate, w, 1_000, { inWindow: wait, sinceRead: wait });
      }
      // The console's checks of one open Bundle (two requests each).
      const consoleChecks = Math.floor((WINDOW_S * 1000) / evenPaceMs(rate, 2, RATE_SHARES.consolePolling)!) + 1;
      expect(batch + wait + 2 * consoleChecks, `limit ${limit}`).toBeLessThanOrEqual(limit);
    }
  });
});
