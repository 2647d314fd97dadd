// The engine's change signal for waiters: at once for its own writes, within a poll for another
// connection's (another process on the same data directory).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { nextPauseMs } from '../../src/app/rateBudget.js';
import { waitForBundles } from '../../src/app/wait/waiter.js';
import type { EsignService } from '../../src/service/service.js';
import { bundleRequest, newEngine } from '../helpers.js';

const engines: { dispose?: () => Promise<void>; close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const e of engines.splice(0).reverse()) await (e.dispose ?? e.close).call(e);
});

/** A fresh engine (disposed after the test) holding one sent Bundle, its documents processed. */
async function engineWithBundle() {
  const engine = newEngine();
  engines.push(engine);
  const b = await engine.createBundle(bundleRequest());
  await engine.settle();
  return { engine, b };
}

describe('watchBundles', () => {
  it("signals this engine's own change before the next poll, and another connection's within ~100 ms", async () => {
    const { engine, b } = await engineWithBundle();
    let calls = 0;
    const stop = engine.watchBundles(() => calls++);
    await engine.viewPacket(b.packets[0].id);
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(1);

    const other = new LocalEngine({ dataDir: engine.dataDir });
    engines.push(other);
    const before = calls;
    await other.viewPacket(b.packets[1].id);
    await vi.waitFor(() => expect(calls).toBeGreaterThan(before), { timeout: 20_000, interval: 10 });
    stop();
    const after = calls;
    await other.signPacket(b.packets[0].id, {});
    await new Promise((r) => setTimeout(r, 250));
    expect(calls).toBe(after);
  });
});

describe('waitForBundles on the engine', () => {
  it('hears a change committed while its first look reads: it watches before it looks', async () => {
    const { engine, b } = await engineWithBundle();
    // The first look answers the Bundle as it was, slowly: a signer's view is committed, and told,
    // before the answer comes.
    let looks = 0;
    const service = {
      getBundle: async (id: string) => {
        const seen = await engine.getBundle(id);
        if (looks++ === 0) {
          await engine.viewPacket(b.packets[0].id);
          await new Promise((r) => setTimeout(r, 50));
        }
        return seen;
      },
      watchBundles: (onChange: () => void) => engine.watchBundles(onChange),
      getRateLimit: () => engine.getRateLimit(),
    } as unknown as EsignService;
    // Missed, the next look would be the safety re-read, 5 s on.
    const start = Date.now();
    const r = await waitForBundles(service, [b.id], { target: 'started', timeoutMs: 20_000 });
    expect({ outcome: r.outcome, looks, heardAtOnce: Date.now() - start < 2_500 }).toEqual({
      outcome: 'reached',
      looks: 2,
      heardAtOnce: true,
    });
  });
});

describe('nextPauseMs', () => {
  const rate = (limit: number, remaining: number, window: number, resetInMs: number, now: number) => ({
    limit,
    remaining,
    window,
    reset: (now + resetInMs) / 1000,
  });
  const now = 1_000_000;
  // Changed on purpose (issue 23 item 5): a remote wait looked every 9 s at the hosted quota and backed off to
  // 15 s; while the quota allows it now looks at least every 1.5 s.
  it('looks at least every 1.5 s while the first half of its fifth of the limit lasts', () => {
    const hosted = rate(2000, 2000, 3600, 3_600_000, now);
    expect(nextPauseMs(0, 1, hosted, now)).toBe(1000);
    expect(nextPauseMs(1, 1, hosted, now)).toBe(1500);
    expect(nextPauseMs(20, 1, hosted, now)).toBe(1500);
    expect(nextPauseMs(20, 1, hosted, now, 1000, { inWindow: 199, sinceRead: 5 })).toBe(1500);
    // A shorter first step (tests) steps the same way.
    expect(nextPauseMs(1, 1, hosted, now, 50)).toBe(75);
  });
  it('then spreads the rest of its share over what is left of the window, per Bundle polled', () => {
    // 400 of 2000 an hour for waiting; 200 used: the other 200 over the hour, one every 18 s; two Bundles: 36 s.
    const hosted = rate(2000, 1800, 3600, 3_600_000, now);
    expect(nextPauseMs(30, 1, hosted, now, 1000, { inWindow: 200, sinceRead: 0 })).toBe(18_000);
    expect(nextPauseMs(30, 2, hosted, now, 1000, { inWindow: 200, sinceRead: 0 })).toBe(36_000);
  });
  it('waits for the reset when its share is spent, or little of the quota remains', () => {
    expect(nextPauseMs(0, 1, rate(2000, 3, 3600, 60_000, now), now)).toBe(60_001);
    expect(nextPauseMs(0, 1, rate(2000, 1600, 3600, 60_000, now), now, 1000, { inWindow: 400, sinceRead: 0 })).toBe(
      60_001,
    );
    // A fifth of what remains, whatever the limit: 100 left, 20 for the wait, 20 used since that was read.
    expect(nextPauseMs(0, 1, rate(2000, 100, 3600, 60_000, now), now, 1000, { inWindow: 20, sinceRead: 20 })).toBe(
      60_001,
    );
  });
  it('backs off to 15 s on a server that does not tell its rate limit', () => {
    expect(nextPauseMs(0, 1, undefined, now)).toBe(1000);
    expect(nextPauseMs(20, 1, undefined, now)).toBe(15_000);
  });
});
