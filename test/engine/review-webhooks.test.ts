// Review findings on webhook delivery: leases that survive a move of the engine clock, a webhook
// deleted while its event is in flight, and extra headers that no delivery could ever send.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { bundleRequest, expectApiError, type newEngine } from '../helpers.js';
import { eachEngineAndReceiver } from './support.js';

type Engine = ReturnType<typeof newEngine>;

/** A receiver that holds every request until released, so a test can act while an attempt is in flight. */
async function gatedReceiver() {
  const held: ServerResponse[] = [];
  const bodies: string[] = [];
  let arrived: () => void = () => {};
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString());
      held.push(res);
      arrived();
    });
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    bodies,
    /** Resolves once `n` requests have arrived. */
    async waitFor(n: number) {
      const deadline = Date.now() + 5_000;
      while (bodies.length < n) {
        if (Date.now() > deadline) throw new Error(`received ${bodies.length} of ${n}`);
        await new Promise<void>((res) => {
          arrived = res;
          setTimeout(res, 20);
        });
      }
    },
    release(status = 200) {
      for (const res of held.splice(0)) res.writeHead(status).end('ok');
    },
    async close() {
      this.release();
      server.closeAllConnections();
      await new Promise((res) => server.close(res));
    },
  };
}

let engine: Engine;
let rx: Awaited<ReturnType<typeof gatedReceiver>>;
eachEngineAndReceiver(gatedReceiver, (e, r) => ([engine, rx] = [e, r]), 'receiver');

describe('webhook delivery under review', () => {
  it('does not deliver an event twice at once when the engine clock is moved while it is in flight', async () => {
    await engine.createWebhook({ name: 'r', url: rx.url, event_types: ['bundle_sent'] });
    await engine.createBundle(bundleRequest());
    const first = engine.deliverWebhooks();
    await rx.waitFor(1);
    // `esign local clock advance 2h` in another process, then that process (or esign serve) looks for due events.
    engine.clock.advance(2 * 3600_000);
    const other = new LocalEngine({ dataDir: engine.dataDir });
    try {
      expect(await other.deliverWebhooks()).toEqual({ delivered: 0, failed: 0 });
    } finally {
      rx.release();
      await other.close();
    }
    expect(await first).toEqual({ delivered: 1, failed: 0 });
    expect(rx.bodies).toHaveLength(1);
  });

  it('survives a webhook deleted while its event is in flight: the run ends normally and nothing is recorded', async () => {
    const w = await engine.createWebhook({ name: 'r', url: rx.url, event_types: ['bundle_sent'] });
    await engine.createBundle(bundleRequest());
    const run = engine.deliverWebhooks();
    await rx.waitFor(1);
    await engine.deleteWebhook(w.id);
    rx.release();
    await expect(run).resolves.toEqual({ delivered: 1, failed: 0 });
    expect((await engine.listWebhookEvents()).items).toEqual([]);
  });

  it('a resend whose webhook is deleted meanwhile answers 404, not a database error', async () => {
    const w = await engine.createWebhook({ name: 'r', url: rx.url, event_types: ['bundle_sent'] });
    await engine.createBundle(bundleRequest());
    const pk = (await engine.listWebhookEvents()).items[0]!.pk;
    const resend = engine.resendWebhookEvent(pk);
    await rx.waitFor(1);
    await engine.deleteWebhook(w.id);
    rx.release();
    await expectApiError(resend, 404);
  });

  it('a failing background delivery started by runDue is reported, not thrown out of close()', async () => {
    const d = await engine.dispatcher();
    d.deliverDue = () => Promise.reject(new Error('disk on fire'));
    engine.runDue();
    await expect(engine.close()).resolves.toBeUndefined();
  });

  it('refuses extra headers that the HTTP client cannot send (every delivery would fail)', async () => {
    const w = await engine.createWebhook({ name: 'r', url: rx.url, event_types: ['bundle_sent'] });
    for (const name of ['Expect', 'Upgrade', 'Keep-Alive'])
      await expectApiError(engine.createWebhookHeader({ webhook: w.id, name, value: 'x' }), 400, {
        field: 'name',
        message: /set by the delivery itself|cannot be an extra header/,
      });
  });
});
