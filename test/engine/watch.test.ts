// The engine's change signal for waiters: at once for its own writes, within a poll for another
// connection's (another process on the same data directory).
import { afterEach, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { nextPauseMs } from '../../src/cli/wait/pacing.js';
import { bundleRequest, newEngine } from '../helpers.js';

const engines: { dispose?: () => Promise<void>; close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const e of engines.splice(0).reverse()) await (e.dispose ?? e.close).call(e);
});

describe('watchBundles', () => {
  it('signals this engine\'s own change before the next poll, and another connection\'s within ~100 ms', async () => {
    const engine = newEngine();
    engines.push(engine);
    const b = await engine.createBundle(bundleRequest());
    await engine.settle();
    let calls = 0;
    const stop = engine.watchBundles(() => calls++);
    await engine.viewPacket(b.packets[0].id);
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(1);

    const other = new LocalEngine({ dataDir: engine.dataDir });
    engines.push(other);
    const before = calls;
    const t0 = Date.now();
    await other.viewPacket(b.packets[1].id);
    while (calls === before && Date.now() - t0 < 2000) await new Promise((r) => setTimeout(r, 10));
    expect(calls).toBeGreaterThan(before);
    expect(Date.now() - t0).toBeLessThan(500);
    stop();
    const after = calls;
    await other.signPacket(b.packets[0].id, {});
    await new Promise((r) => setTimeout(r, 250));
    expect(calls).toBe(after);
  });
});

describe('nextPauseMs', () => {
  const rate = (limit: number, remaining: number, window: number, resetInMs: number, now: number) => ({ limit, remaining, window, reset: (now + resetInMs) / 1000 });
  it('backs off from 1 s while the quota is ample', () => {
    const now = 1_000_000;
    const ample = rate(1_000_000, 1_000_000, 3600, 3_600_000, now);
    expect(nextPauseMs(0, 1, ample, now)).toBe(1000);
    expect(nextPauseMs(1, 1, ample, now)).toBe(1500);
    expect(nextPauseMs(20, 1, ample, now)).toBe(15_000);
    // A shorter first step (tests) backs off the same way.
    expect(nextPauseMs(1, 1, ample, now, 50)).toBe(75);
  });
  it('spreads a fifth of the limit over the window, per Bundle polled', () => {
    const now = 1_000_000;
    // 2000 an hour: 400 for waiting, one every 9 s; two Bundles: 18 s a round.
    expect(nextPauseMs(0, 1, rate(2000, 2000, 3600, 3_600_000, now), now)).toBe(9000);
    expect(nextPauseMs(0, 2, rate(2000, 2000, 3600, 3_600_000, now), now)).toBe(18_000);
  });
  it('waits for the reset when little of the quota remains', () => {
    const now = 1_000_000;
    expect(nextPauseMs(0, 1, rate(2000, 3, 3600, 60_000, now), now)).toBe(60_001);
  });
});
