// esign webhook listen (built binary) facing a stranger: a forged delivery never ends a --count wait,
// and nothing in any delivery's body reaches the terminal as an escape sequence.
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers.js';
import { deliveryLines, startListen } from '../webhooks/listen.js';
import { expectedSignature } from '../webhooks/receiver.js';

const SECRET = 'whsec_untrusted_secret';
const HOSTILE = 'bundle_sent\x1b]0;pwned\x07\x1b[2J\u009b31m';
const data = useTempDir('esign-listen-untrusted-');

const signed = (body: string, secret = SECRET) => {
  const ts = String(Math.floor(Date.now() / 1000));
  return { 'X-Blueink-Signature': expectedSignature(secret, ts, body), 'X-Blueink-Request-Timestamp': ts };
};
const eventBody = (id: string, type = 'bundle_sent') =>
  JSON.stringify({ event_id: id, event_type: type, payload: { bundle_id: `B${type}` } });
const post = (url: string, body: string, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
const escapes = (s: string) => s.match(/[\x1b\x07\u009b]/g) ?? [];

describe('esign webhook listen --count', () => {
  it('is not satisfied by a forged delivery: it waits for a verified one', async () => {
    const { p, url } = await startListen(data.dir, ['--secret', SECRET, '--count', '1']);
    const forged = eventBody('evt-forged');
    expect((await post(url, forged, signed(forged, 'guessed'))).status).toBe(401);
    const unsigned = eventBody('evt-unsigned');
    expect((await post(url, unsigned, {})).status).toBe(401);
    // Still listening: the real one is received and ends the wait.
    const good = eventBody('evt-good');
    expect((await post(url, good, signed(good))).status).toBe(200);
    const done = await p;
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stdout.split('\n').map((l) => l.split('\t')[4])).toEqual(['evt-forged', 'evt-unsigned', 'evt-good']);
    expect(done.stderr).toContain('Received 3 deliveries, 1 verified.');
  });

  it('with --count-all counts every delivery, forged ones too', async () => {
    const { p, url } = await startListen(data.dir, ['--secret', SECRET, '--count', '1', '--count-all']);
    const forged = eventBody('evt-forged');
    expect((await post(url, forged, signed(forged, 'guessed'))).status).toBe(401);
    const done = await p;
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stderr).toContain('Received 1 delivery, 0 verified.');
  });
});

describe('esign webhook listen and a hostile body', () => {
  it("prints forged and verified deliveries' members without their escapes, in lines and in JSON", async () => {
    const lines = await startListen(data.dir, ['--secret', SECRET, '--count', '1']);
    const forged = eventBody(`evt\x1b[1A-forged`, HOSTILE);
    expect((await post(lines.url, forged, signed(forged, 'guessed'))).status).toBe(401);
    const good = eventBody('evt-good', HOSTILE);
    expect((await post(lines.url, good, signed(good))).status).toBe(200);
    const done = await lines.p;
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stdout.split('\n').map((l) => l.split('\t').slice(1, 5))).toEqual([
      ['bundle_sent31m', 'Bbundle_sent31m', '', 'evt-forged'],
      ['bundle_sent31m', 'Bbundle_sent31m', '', 'evt-good'],
    ]);
    expect(escapes(done.stdout + done.stderr)).toEqual([]);

    const json = await startListen(data.dir, ['--secret', SECRET, '--count', '1', '--json']);
    expect((await post(json.url, good, signed(good))).status).toBe(200);
    const j = await json.p;
    expect(escapes(j.stdout)).toEqual([]);
    // The same event, only written safely.
    expect((JSON.parse(deliveryLines(j.stdout)) as { event: { event_type: string } }).event.event_type).toBe(HOSTILE);
  });
});
