// Signing links over HTTP: a HEAD (link checkers, proxies) does not spend a single-use embedded URL.
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.js';
import { bundleRequest, newEngine } from '../helpers.js';

let engine: ReturnType<typeof newEngine>;
afterEach(async () => engine?.dispose());

describe('signing links', () => {
  it('answers HEAD on /sign/<token> without opening it, so the signer can still open it once', async () => {
    engine = newEngine();
    const app = await buildServer({ service: engine, local: engine, authenticate: () => undefined });
    const b = await engine.createBundle(
      bundleRequest({ packets: [{ key: 'ada', name: 'Ada', email: 'ada@example.com', deliver_via: 'embed' }] }),
    );
    const { url } = await engine.createEmbedUrl(b.packets[0]!.id);
    const path = new URL(url).pathname;
    const head = await app.inject({ method: 'HEAD', url: path });
    expect(head.statusCode).not.toBe(200);
    expect((await engine.getPacket(b.packets[0]!.id)).status).toBe('se');
    expect((await app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: path })).statusCode).toBe(410);
    await app.close();
  });
});
