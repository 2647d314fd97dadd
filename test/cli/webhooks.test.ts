// End-to-end: webhooks, their headers and secret, and the receiver tools (verify, listen) through the built binary.
import { writeFileSync } from 'node:fs';
import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { deliveryLines, startListen } from '../webhooks/listen.js';
import { expectedSignature } from '../webhooks/receiver.js';
import { describe, expect, it } from 'vitest';
import { argv, useTempDir, kv, tsvRows } from '../helpers.js';
import { esignIn } from './inProcess.js';

const SECRET = 'whsec_test_secret';
const data = useTempDir('esign-cli-hooks-');

/** In-process; the receiver (webhook listen) runs as its own process (startListen). */
function esign(args: string[], opts: { input?: string; env?: Record<string, string> } = {}) {
  return esignIn(args, { input: opts.input ?? '', env: { ESIGN_DATA_DIR: data.dir, CI: '1', ...opts.env } });
}

/** The receiver's side of the signature, computed independently of the source (test/webhooks/receiver.ts). */
const signature = (secret: string, ts: number, body: string) => expectedSignature(secret, String(ts), body);
const now = () => Math.floor(Date.now() / 1000);

const eventBody = (type = 'bundle_sent', id = 'evt-1') =>
  JSON.stringify({
    event_id: id,
    event_type: type,
    event_date: '2025-01-01T00:00:00Z',
    account_id: 'acct',
    payload: { bundle_id: 'B123', packet_id: 'P9' },
  });

const listen = (args: string[], env: Record<string, string> = {}) => startListen(data.dir, args, env);

function post(url: string, body: string, headers: Record<string, string>) {
  return fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
}

const signed = (body: string, secret = SECRET, ts = now()) => ({
  'X-Blueink-Signature': signature(secret, ts, body),
  'X-Blueink-Request-Timestamp': String(ts),
});

describe('esign webhook (subscriptions, headers, secret)', () => {
  let id = '';

  it('creates webhooks (JSON by default; --form, --disabled)', async () => {
    const r = await esign(argv`webhook create --name CRM --url https://crm.example.com/hooks
      --events bundle_sent,bundle_complete --json`);
    expect(r.exitCode, r.stderr).toBe(0);
    const w = JSON.parse(r.stdout);
    id = w.id;
    expect(w).toMatchObject({
      name: 'CRM',
      url: 'https://crm.example.com/hooks',
      enabled: true,
      json: true,
      event_types: ['bundle_sent', 'bundle_complete'],
    });
    const form = await esign(argv`webhook create --name Old --url http://old.example.com/
      --events packet_viewed --form --disabled`);
    expect(form.exitCode, form.stderr).toBe(0);
    expect(kv(form.stdout)).toMatchObject({ enabled: 'false', format: 'form', event_types: 'packet_viewed' });
  });

  it('refuses a missing flag and an unknown event type as usage errors naming --events (exit 2)', async () => {
    const missing = await esign(['webhook', 'create', '--name', 'X', '--url', 'https://x.example.com/']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('--events');
    const bad = await esign(argv`webhook create --name X --url https://x.example.com/ --events bundle_exploded`);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/^esign: option '--events <types>' argument 'bundle_exploded' is invalid/);
  });

  it('lists piped, filtered by state and event type', async () => {
    const rows = tsvRows((await esign(['webhook', 'list'])).stdout);
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r[0] === id)).toEqual([
      id,
      'CRM',
      'https://crm.example.com/hooks',
      'true',
      'json',
      'bundle_sent, bundle_complete',
    ]);
    expect((await esign(['webhook', 'list', '-q', '--enabled'])).stdout.trim()).toBe(id);
    expect((await esign(['webhook', 'list', '--json', '--disabled'])).stdout).toContain('"Old"');
    expect((await esign(['webhook', 'list', '-q', '--event-type', 'bundle_complete'])).stdout.trim()).toBe(id);
    expect((await esign(['webhook', 'list', '--enabled', '--disabled'])).exitCode).toBe(2);
  });

  it('updates: replaces subscriptions, disables, switches format; nothing to change is exit 2', async () => {
    const r = await esign(['webhook', 'update', id, '--events', 'bundle_cancelled', '--disable', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ enabled: false, event_types: ['bundle_cancelled'] });
    const back = await esign(['webhook', 'update', id, '--enable', '--events', 'bundle_sent', '--form']);
    expect(kv(back.stdout)).toMatchObject({ enabled: 'true', format: 'form', event_types: 'bundle_sent' });
    expect((await esign(['webhook', 'update', id])).exitCode).toBe(2);
    expect((await esign(['webhook', 'update', id, '--enable', '--disable'])).exitCode).toBe(2);
  });

  it('adds, lists, updates and removes extra headers', async () => {
    const add = await esign(['webhook', 'headers', 'add', id, 'X-Api-Token', 'tok-1', '--order', '2', '--json']);
    expect(add.exitCode, add.stderr).toBe(0);
    const h = JSON.parse(add.stdout);
    expect(h).toMatchObject({ webhook: id, name: 'X-Api-Token', value: 'tok-1', order: 2 });
    const bad = await esign(['webhook', 'headers', 'add', id, 'Bad Name', 'v']);
    expect(bad.exitCode).toBe(3);

    const rows = (await esign(['webhook', 'headers', 'list', '--webhook', id])).stdout.trim().split('\n');
    expect(rows).toEqual([[h.id, id, '2', 'X-Api-Token', 'tok-1'].join('\t')]);
    const upd = await esign(['webhook', 'headers', 'update', h.id, '--value', 'tok-2']);
    expect(kv(upd.stdout).value).toBe('tok-2');
    expect(kv((await esign(['webhook', 'get', id])).stdout)['header 2']).toBe(`X-Api-Token: tok-2 (${h.id})`);

    expect((await esign(['webhook', 'headers', 'remove', h.id])).exitCode).toBe(2);
    const rm = await esign(['webhook', 'headers', 'remove', h.id, '-y']);
    expect(rm.exitCode, rm.stderr).toBe(0);
    expect(rm.stderr).toContain(`Deleted webhook header ${h.id}.`);
    expect((await esign(['webhook', 'headers', 'list', '--webhook', id])).stdout).toBe('');
  });

  it('prints the secret (-q: the bare secret) and regenerates it only when confirmed', async () => {
    const first = (await esign(['webhook', 'secret', '-q'])).stdout.trim();
    expect(first.length).toBeGreaterThanOrEqual(20);
    expect(kv((await esign(['webhook', 'secret'])).stdout).secret).toBe(first);
    const refused = await esign(['webhook', 'secret', '--regenerate']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await esign(['webhook', 'secret', '-q'])).stdout.trim()).toBe(first);
    const again = await esign(['webhook', 'secret', '--regenerate', '-y', '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    const s = JSON.parse(again.stdout);
    expect(s.secret).not.toBe(first);
    expect((await esign(['webhook', 'secret', '-q'])).stdout.trim()).toBe(s.secret);
  });

  it('deletes only when confirmed', async () => {
    expect((await esign(['webhook', 'delete', id])).exitCode).toBe(2);
    const r = await esign(['webhook', 'delete', id, '--yes', '-q']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(id);
    expect((await esign(['webhook', 'get', id])).exitCode).toBe(6);
  });
});

describe('esign webhook verify', () => {
  const body = eventBody();

  it('accepts a good signature (exit 0), from --payload, stdin or a file, secret from the environment', async () => {
    const ts = now();
    const sig = signature(SECRET, ts, body);
    const r = await esign(argv`webhook verify --secret ${SECRET} --signature ${sig} --timestamp ${String(ts)}
      --payload ${body}`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(kv(r.stdout)).toMatchObject({ verified: 'true', timestamp: String(ts) });
    const stdin = await esign(['webhook', 'verify', '--signature', sig, '--timestamp', String(ts)], {
      input: body,
      env: { ESIGN_WEBHOOK_SECRET: SECRET },
    });
    expect(stdin.exitCode, stdin.stderr).toBe(0);
    const file = join(data.dir, 'body.json');
    writeFileSync(file, body);
    const fromFile = await esign(argv`webhook verify --secret ${SECRET} --signature ${sig}
      --timestamp ${String(ts)} --payload-file ${file} --json`);
    expect(fromFile.exitCode, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout)).toMatchObject({ verified: true, timestamp: ts });
  });

  it('a wrong secret or a changed body is exit 9 with a one-line message', async () => {
    const ts = now();
    const wrong = await esign(argv`webhook verify --secret ${SECRET}
      --signature ${signature('other', ts, body)} --timestamp ${String(ts)} --payload ${body}`);
    expect(wrong.exitCode).toBe(9);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr.trim().split('\n')).toEqual([
      'esign: The signature does not match: wrong secret, or the body was changed.',
    ]);
    const changed = await esign(argv`webhook verify --secret ${SECRET}
      --signature ${signature(SECRET, ts, body)} --timestamp ${String(ts)} --payload ${`${body} `}`);
    expect(changed.exitCode).toBe(9);
  });

  it('a good signature with an old timestamp is exit 11 (stale), unless the tolerance allows it', async () => {
    const ts = now() - 600;
    const args = argv`webhook verify --secret ${SECRET} --signature ${signature(SECRET, ts, body)}
      --timestamp ${String(ts)} --payload ${body}`;
    const stale = await esign(args);
    expect(stale.exitCode).toBe(11);
    expect(stale.stderr).toMatch(/^esign: The signature is valid but its timestamp is 6\d\d s away from now/);
    const json = await esign([...args, '--json']);
    expect(json.exitCode).toBe(11);
    expect(JSON.parse(json.stdout)).toMatchObject({ verified: false, reason: 'stale_timestamp' });
    expect((await esign([...args, '--tolerance', '3600'])).exitCode).toBe(0);
    expect((await esign([...args, '--tolerance', '1h'])).exitCode).toBe(0);
  });

  it('missing or malformed inputs are usage errors (exit 2)', async () => {
    const ts = String(now());
    const noSig = await esign(['webhook', 'verify', '--secret', SECRET, '--timestamp', ts, '--payload', body]);
    expect(noSig.exitCode).toBe(2);
    expect(noSig.stderr).toContain('--signature');
    const noSecret = await esign(['webhook', 'verify', '--signature', 'v0=00', '--timestamp', ts, '--payload', body]);
    expect(noSecret.exitCode).toBe(2);
    expect(noSecret.stderr).toContain('ESIGN_WEBHOOK_SECRET');
    const badTs = await esign(argv`webhook verify --secret ${SECRET} --signature v0=00 --timestamp yesterday
      --payload ${body}`);
    expect(badTs.exitCode).toBe(2);
    const both = await esign(argv`webhook verify --secret ${SECRET} --signature v0=00 --timestamp ${ts}
      --payload ${body} --payload-file x`);
    expect(both.exitCode).toBe(2);
  });
});

describe('esign webhook listen', () => {
  it('verifies each delivery: 200 and verified:true when signed, 401 and the reason when not (--json, --count --count-all)', async () => {
    // --count-all: the two forged deliveries count too (by default only verified ones end the wait).
    const { p, url } = await listen(['--secret', SECRET, '--json', '--count', '3', '--count-all']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const good = eventBody('bundle_sent', 'evt-good');
    const r1 = await post(url, good, signed(good));
    expect(r1.status).toBe(200);
    const bad = eventBody('bundle_complete', 'evt-bad');
    const r2 = await post(url, bad, signed(bad, 'not-the-secret'));
    expect(r2.status).toBe(401);
    const old = eventBody('packet_viewed', 'evt-old');
    const r3 = await post(url, old, signed(old, SECRET, now() - 3600));
    expect(r3.status).toBe(401);
    const done = await p;
    expect(done.exitCode, done.stderr).toBe(0);
    const lines = deliveryLines(done.stdout)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({
      verified: true,
      reason: null,
      event: { event_id: 'evt-good', event_type: 'bundle_sent', payload: { bundle_id: 'B123' } },
    });
    expect(lines[1]).toMatchObject({ verified: false, reason: 'bad_signature', event: { event_id: 'evt-bad' } });
    expect(lines[2]).toMatchObject({ verified: false, reason: 'stale_timestamp' });
    expect(done.stderr).toContain('Received 3 deliveries, 1 verified.');
  });

  it('prints one tab-separated line per event, reads form bodies, and skips types not in --events', async () => {
    const { p, url } = await listen(['--count', '1', '--events', 'bundle_sent,packet_complete', '--path', '/hooks'], {
      ESIGN_WEBHOOK_SECRET: SECRET,
    });
    expect(url).toMatch(/\/hooks$/);
    const skipped = eventBody('bundle_cancelled', 'evt-skip');
    const r0 = await post(url, skipped, signed(skipped));
    expect(r0.status).toBe(200);
    expect(await r0.text()).toContain('Skipped');
    expect((await post(url.replace(/\/hooks$/, '/other'), skipped, signed(skipped))).status).toBe(404);
    const form = new URLSearchParams({
      event_id: 'evt-form',
      event_type: 'packet_complete',
      event_date: '2025-01-01T00:00:00Z',
      account_id: 'acct',
      payload: JSON.stringify({ bundle_id: 'B7', packet_id: 'P7' }),
    }).toString();
    const r1 = await post(url, form, { ...signed(form), 'content-type': 'application/x-www-form-urlencoded' });
    expect(r1.status).toBe(200);
    const done = await p;
    expect(done.exitCode, done.stderr).toBe(0);
    const cells = done.stdout.trim().split('\t');
    expect(cells[0]).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(cells.slice(1)).toEqual(['packet_complete', 'B7', 'P7', 'evt-form', 'verified']);
  });

  it("forwards a verified delivery with its body and headers, and answers with the forward's status", async () => {
    const got: { body: string; headers: IncomingHttpHeaders }[] = [];
    const app = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        got.push({ body, headers: req.headers });
        res.writeHead(202).end('accepted');
      });
    });
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    const target = `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhooks/esign`;
    try {
      const { p, url } = await listen(['--secret', SECRET, '--count', '1', '--json', '--forward-to', target]);
      const body = eventBody('bundle_complete', 'evt-fwd');
      const headers = { ...signed(body), 'X-Api-Token': 'tok-9' };
      const r = await post(url, body, headers);
      expect(r.status).toBe(202);
      const done = await p;
      expect(done.exitCode, done.stderr).toBe(0);
      expect(JSON.parse(deliveryLines(done.stdout))).toMatchObject({
        verified: true,
        forward: { status: 202 },
        status: 202,
      });
      expect(got).toHaveLength(1);
      expect(got[0].body).toBe(body);
      expect(got[0].headers['x-blueink-signature']).toBe(headers['X-Blueink-Signature']);
      expect(got[0].headers['x-blueink-request-timestamp']).toBe(headers['X-Blueink-Request-Timestamp']);
      expect(got[0].headers['x-api-token']).toBe('tok-9');
      expect(got[0].headers['content-type']).toBe('application/json');
    } finally {
      await new Promise((r) => app.close(r));
    }
  });

  it('reports a forward that fails on stderr and answers 502', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const { p, url } = await listen(['--secret', SECRET, '--count', '1', '--forward-to', `http://127.0.0.1:${port}/`]);
    const body = eventBody();
    expect((await post(url, body, signed(body))).status).toBe(502);
    const done = await p;
    expect(done.stdout.trim().split('\t').slice(-2)).toEqual(['verified', 'forward failed']);
    expect(done.stderr).toContain(`esign: forwarding to http://127.0.0.1:${port}/ failed`);
  });

  it('receives what the engine delivers: trigger, then events, the event with its attempt, deliveries and resend', async () => {
    // No --secret: listen asks the service for it, as the engine signs with it.
    const { p, url } = await listen(['--count', '1', '--json']);
    const create = await esign(argv`webhook create --name Listener --url ${url} --events bundle_sent -q`);
    expect(create.exitCode, create.stderr).toBe(0);
    const hook = create.stdout.trim();
    const trig = await esign(['webhook', 'trigger', 'bundle_sent', '--json']);
    expect(trig.exitCode, trig.stderr).toBe(0);
    const events = JSON.parse(trig.stdout);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ webhook: hook, event_type: 'bundle_sent', success: true, status: 200 });
    const done = await p;
    expect(done.exitCode, done.stderr).toBe(0);
    const line = JSON.parse(deliveryLines(done.stdout));
    expect(line).toMatchObject({ verified: true, event: { event_type: 'bundle_sent', event_id: events[0].pk } });

    const pk = events[0].pk;
    const rows = tsvRows((await esign(['webhook', 'events', '--webhook', hook])).stdout);
    // Every row names its webhook (last, so scripts reading the first columns keep working).
    expect(rows).toEqual([[pk, 'bundle_sent', expect.any(String), '200', 'true', '1', 'Listener']]);
    expect((await esign(['webhook', 'events', '-q', '--failed', '--webhook', hook])).stdout).toBe('');
    const shown = kv((await esign(['webhook', 'event', pk])).stdout);
    expect(shown['attempt 1']).toMatch(/ HTTP 200: OK$/);
    expect((await esign(['webhook', 'deliveries', '--json', '--event', pk])).stdout).toContain(pk);

    // Nobody listens now: a resend is recorded as a failed attempt, and the command fails (exit 1).
    const resent = await esign(['webhook', 'resend', pk, '--json']);
    expect(resent.exitCode, resent.stderr).toBe(1);
    expect(JSON.parse(resent.stdout).deliveries).toHaveLength(2);
    const none = await esign(['webhook', 'trigger', 'packet_declined']);
    expect(none.exitCode).toBe(0);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('No enabled webhook subscribes to packet_declined.');
  });
});
