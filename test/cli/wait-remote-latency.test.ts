// A remote `bundle wait` against esign serve with the hosted service's quota (2000 calls an hour)
// sees a change within 2 s while its share of the quota lasts (it looked every 9 s before).
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.js';
import { bundleRequest, newEngine } from '../helpers.js';
import { esignIn } from './inProcess.js';

describe('remote bundle wait at the hosted quota', () => {
  let engine: ReturnType<typeof newEngine>;
  let app: Awaited<ReturnType<typeof buildServer>>;
  let env: Record<string, string>;
  beforeAll(async () => {
    engine = newEngine();
    const key = engine.keys.create('wait').key;
    app = await buildServer({ service: engine, local: engine, authenticate: (k) => engine.keys.authenticate(k) });
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

  it('answers within 2 s of the change, with the real pacing (no shortened steps)', async () => {
    const b = await engine.createBundle(
      bundleRequest({ packets: [{ key: 'ada', name: 'Ada', email: 'ada@example.com' }] }),
    );
    await engine.settle();
    let changedAt = 0;
    // Long enough for the old pacing's first 9 s pause to be under way, short enough for a test.
    const change = new Promise<void>((resolve) =>
      setTimeout(async () => {
        await engine.signPacket(b.packets[0]!.id, {});
        changedAt = Date.now();
        resolve();
      }, 3_000),
    );
    const r = await esignIn(['bundle', 'wait', b.id, '--until', 'complete', '--timeout', '30s'], { env });
    const endedAt = Date.now();
    await change;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(endedAt - changedAt).toBeLessThan(2_000);
  }, 40_000);
});
