// Second reading of the webhook receiver tools (built binary): esign webhook listen and verify.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execa } from 'execa';
import { deliveryLines, startListen } from '../webhooks/listen.js';
import { expectedSignature } from '../webhooks/receiver.js';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers.js';

const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;
const SECRET = 'whsec_review_secret';
const data = useTempDir('esign-cli-review-hooks-');

const now = () => Math.floor(Date.now() / 1000);
const signed = (body: string, secret = SECRET, ts = now()) => ({
  'X-Blueink-Signature': expectedSignature(secret, String(ts), body),
  'X-Blueink-Request-Timestamp': String(ts),
});
const eventBody = (id: string, type = 'bundle_sent') =>
  JSON.stringify({ event_id: id, event_type: type, payload: { bundle_id: 'B1' } });

const listen = (args: string[], env: Record<string, string> = {}) => startListen(data.dir, args, env);

const post = (url: string, body: string, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

describe('esign webhook listen (review)', () => {
  it('with --count, a delivery still being forwarded when the last one arrives is answered, not cut off', async () => {
    // The forward target holds the first delivery until the second has been answered.
    let slowArrived!: () => void;
    const slowForwarded = new Promise<void>((r) => (slowArrived = r));
    let releaseSlow!: () => void;
    const released = new Promise<void>((r) => (releaseSlow = r));
    const target = createServer((req, res) => {
      req.resume();
      if (req.headers['x-delay'] !== 'hold') return void res.writeHead(200).end('ok');
      slowArrived();
      void released.then(() => res.writeHead(200).end('ok'));
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    try {
      const forwardTo = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
      const { p, url } = await listen(['--secret', SECRET, '--count', '2', '--json', '--forward-to', forwardTo]);
      const a = eventBody('evt-slow');
      const slow = post(url, a, { ...signed(a), 'x-delay': 'hold' }).then(
        (r) => r.status,
        (e: Error & { cause?: { code?: string } }) => `error ${e.cause?.code ?? e.message}`,
      );
      await slowForwarded;
      const b = eventBody('evt-fast');
      expect((await post(url, b, { ...signed(b), 'x-delay': '0' })).status).toBe(200);
      releaseSlow();
      // The sender of the first delivery must hear that it was delivered (else it retries, and it is forwarded twice).
      expect(await slow).toBe(200);
      const done = await p;
      expect(done.exitCode, done.stderr).toBe(0);
      const lines = deliveryLines(done.stdout)
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { event: { event_id: string }; status: number });
      expect(lines.map((l) => l.event.event_id).sort()).toEqual(['evt-fast', 'evt-slow']);
      // The summary comes after every delivery's line.
      expect(done.stderr).toContain('Received 2 deliveries, 2 verified.');
    } finally {
      await new Promise((r) => target.close(r));
    }
  });

  it('-q prints only the ids of verified events, one per line', async () => {
    const { p, url } = await listen(['--secret', SECRET, '--count', '2', '--count-all', '-q']);
    const good = eventBody('evt-quiet');
    expect((await post(url, good, signed(good))).status).toBe(200);
    const forged = eventBody('evt-forged');
    expect((await post(url, forged, signed(forged, 'wrong-secret'))).status).toBe(401);
    const done = await p;
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stdout).toBe('evt-quiet');
  });

  it("an empty ESIGN_WEBHOOK_SECRET counts as unset: the service's secret is used", async () => {
    const env = { ESIGN_DATA_DIR: data.dir, CI: '1' };
    const secret = await execa('node', [BIN, 'webhook', 'secret', '-q'], { reject: false, env, extendEnv: true });
    expect(secret.exitCode, secret.stderr).toBe(0);
    const { p, url } = await listen(['--count', '1', '-q'], { ESIGN_WEBHOOK_SECRET: '' });
    const body = eventBody('evt-service-secret');
    expect((await post(url, body, signed(body, secret.stdout.trim()))).status).toBe(200);
    const done = await p;
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stdout).toBe('evt-service-secret');
  });
});
