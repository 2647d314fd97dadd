// A remote `bundle wait` against esign serve with the hosted service's quota (2000 calls an hour)
// sees a change made while its real pacing is under way. How soon (within 2 s while its share of
// the quota lasts; it looked every 9 s before) is measured by bench/wait.mjs, not asserted here:
// here, that it looked more than once before the change, every look answered, and ended at the
// first look after it.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.js';
import { bundleRequest, newEngine } from '../helpers.js';
import { esignIn } from './inProcess.js';

describe('remote bundle wait at the hosted quota', () => {
  let engine: ReturnType<typeof newEngine>;
  let app: Awaited<ReturnType<typeof buildServer>>;
  let env: Record<string, string>;
  let looks = { id: '-', before: 0, after: 0, changed: false };
  beforeAll(async () => {
    engine = newEngine();
    const key = engine.keys.create('wait').key;
    app = await buildServer({ service: engine, local: engine, authenticate: (k) => engine.keys.authenticate(k) });
    app.addHook('onRequest', async (req) => {
      if (req.url.includes(looks.id)) looks[looks.changed ? 'after' : 'before']++;
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    env = {
      ESIGN_BASE_URL: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v2`,
      ESIGN_API_KEY: key,
      ESIGN_DATA_DIR: '',
    };
  });
  afterAll(async () => {
    await app.close();
    await engine.dispose();
  });

  it('ends at its first look after the change, with the real pacing (no shortened steps)', async () => {
    const b = await engine.createBundle(
      bundleRequest({ packets: [{ key: 'ada', name: 'Ada', email: 'ada@example.com' }] }),
    );
    await engine.settle();
    // The wait's requests for the Bundle, as the server received them: before the change, and after.
    looks = { id: b.id, before: 0, after: 0, changed: false };
    // Once the wait has looked twice (its pacing under way), the Bundle completes.
    const change = (async () => {
      while (looks.before < 2) await new Promise((r) => setTimeout(r, 50));
      await engine.signPacket(b.packets[0]!.id, {});
      looks.changed = true;
    })();
    const r = await esignIn(['bundle', 'wait', b.id, '--until', 'complete', '--timeout', '60s'], { env });
    await change;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(looks.before).toBeGreaterThanOrEqual(2);
    // None after the look that saw it (that one may have crossed the change: counted before it).
    expect(looks.after).toBeLessThanOrEqual(1);
  }, 90_000);
});
