// Item 1: a client that sends headers and never finishes its body (or its headers) is answered 408
// and closed in bounded time, holds at most a few connections, and keyed requests are still served.
import { afterEach, describe, expect, it } from 'vitest';
import { rawSocket, type SecureServer, startServer } from './securityServer.js';

let srv: SecureServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const openConnections = (s: SecureServer) => new Promise<number>((r) => s.app.server.getConnections((_e, n) => r(n)));

describe('esign serve under slow clients', () => {
  it('answers a body that never finishes with 408 and closes the connection', async () => {
    srv = await startServer({ limits: { headersTimeoutMs: 400, requestTimeoutMs: 800 } });
    const started = Date.now();
    const body = await rawSocket(
      srv.port,
      'POST /api/v2/verify/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"hash":',
    );
    const head = await rawSocket(srv.port, 'GET /api/v2/bundles/ HTTP/1.1\r\nHost: x\r\n');
    await Promise.race([Promise.all([body.ended, head.ended]), new Promise((r) => setTimeout(r, 5_000))]);
    expect(body.destroyed && head.destroyed, 'both connections closed by the server').toBe(true);
    expect(body.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('keeps a few connections per address, and serves a keyed request within a second while 300 half-sent requests are open', async () => {
    srv = await startServer({ limits: { connectionsPerAddress: 8 } });
    const s = srv;
    const slow = [];
    for (let i = 0; i < 300; i++) {
      const head =
        i % 2
          ? 'POST /api/v2/verify/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"h'
          : 'GET /api/v2/bundles/ HTTP/1.1\r\nHost: x\r\nX-Slow: ';
      slow.push(await rawSocket(s.port, head));
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(await openConnections(s)).toBeLessThanOrEqual(8);
    const t0 = Date.now();
    const res = await s.call('/api/v2/bundles/');
    const ms = Date.now() - t0;
    expect(res.status).toBe(200);
    expect(ms).toBeLessThan(1_000);
    // The slow ones were closed by the server, not left waiting.
    expect(slow.filter((c) => c.destroyed || c.readableEnded).length).toBeGreaterThanOrEqual(290);
    for (const c of slow) c.destroy();
  });
});
