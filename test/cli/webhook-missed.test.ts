// esign webhook resend-missed: what a webhook missed while disabled, told by `webhook get`, `webhook
// update --enable` and `bundle inspect`, sent once each to a real receiver; on a remote backend the
// command says it cannot (the API keeps no such record) and sends nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleRequest, kv } from '../helpers.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';
import { type CliBackend, localBackend, serveBackend } from './backends.js';
import { esignIn } from './inProcess.js';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

describe('on the local engine', () => {
  let b: CliBackend;
  beforeAll(async () => {
    b = await localBackend();
  });
  afterAll(() => b.close());
  const esign = (...args: string[]) => esignIn(args, { env: { ...b.env, CI: '1' } });

  it('says what it missed, refuses while disabled, and sends each missed event once after enabling', async () => {
    const w = await b.engine.createWebhook({ name: 'crm', url: rx.url, event_types: ['bundle_sent'] });
    await b.engine.updateWebhook(w.id, { enabled: false });
    const bundle = await b.engine.createBundle(bundleRequest());
    await b.engine.createBundle(bundleRequest());

    const got = await esign('webhook', 'get', w.id);
    expect(kv(got.stdout).missed).toMatch(
      new RegExp(
        `^2 events missed while disabled \\(from \\S+ to \\S+\\): enable it again \\(esign webhook update ${w.id} --enable\\), then send them: esign webhook resend-missed ${w.id}$`,
      ),
    );

    const early = await esign('webhook', 'resend-missed', w.id);
    expect(early.exitCode).toBe(7);
    expect(early.stderr.trim().split('\n')).toEqual([
      `esign: The webhook crm is disabled: enable it first (esign webhook update ${w.id} --enable), then send what it missed.`,
    ]);
    expect(rx.received).toHaveLength(0);

    const enabled = await esign('webhook', 'update', w.id, '--enable');
    expect(enabled.exitCode, enabled.stderr).toBe(0);
    expect(enabled.stderr).toContain(
      `Webhook crm is enabled again. Kept for it: 2 events missed while disabled (from `,
    );
    expect(enabled.stderr).toContain(`send them: esign webhook resend-missed ${w.id}.`);

    const inspect = await esign('bundle', 'inspect', bundle.id);
    expect(inspect.stdout).toContain('1 missed while the webhook was disabled, kept to be sent');
    expect(inspect.stdout).toContain(`crm: 1 missed, send them: esign webhook resend-missed ${w.id}`);

    const sent = await esign('webhook', 'resend-missed', w.id);
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(kv(sent.stdout)).toMatchObject({ sent: '2', delivered: '2', failed: '0', queued: '0' });
    expect(sent.stderr.trim()).toBe('Sent the 2 events webhook crm missed while disabled, each once: 2 delivered.');
    expect(rx.received.map((r) => JSON.parse(r.body).event_type)).toEqual(['bundle_sent', 'bundle_sent']);

    const again = await esign('webhook', 'resend-missed', w.id, '--json');
    expect(again.exitCode).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      webhook: w.id,
      events: [],
      delivered: 0,
      failed: 0,
      queued: 0,
      dropped: 0,
    });
    expect(rx.received).toHaveLength(2);
    expect(kv((await esign('webhook', 'get', w.id)).stdout).missed).toBeUndefined();
  });

  it('a failed first attempt is said in words with its own exit code', async () => {
    const w = await b.engine.createWebhook({ name: 'down', url: rx.url, event_types: ['bundle_sent'] });
    await b.engine.updateWebhook(w.id, { enabled: false });
    await b.engine.createBundle(bundleRequest());
    await b.engine.updateWebhook(w.id, { enabled: true });
    rx.respond = () => 503;
    try {
      const r = await esign('webhook', 'resend-missed', w.id);
      expect(r.exitCode).toBe(1);
      expect(r.stderr.trim()).toBe(
        'esign: Sent the 1 event webhook down missed while disabled, each once: 0 delivered, 1 failed their first attempt and are retried on the schedule.',
      );
    } finally {
      rx.respond = () => 200;
    }
  });
});

describe('on esign serve through the remote adapter', () => {
  let b: CliBackend;
  beforeAll(async () => {
    b = await serveBackend();
  });
  afterAll(() => b.close());
  const esign = (...args: string[]) => esignIn(args, { env: { ...b.env, CI: '1' } });

  it('says the API keeps no record, and sends nothing', async () => {
    const w = await b.engine.createWebhook({ name: 'crm', url: rx.url, event_types: ['bundle_sent'] });
    await b.engine.updateWebhook(w.id, { enabled: false });
    await b.engine.createBundle(bundleRequest());
    await b.engine.updateWebhook(w.id, { enabled: true });
    const before = rx.received.length;

    const r = await esign('webhook', 'resend-missed', w.id);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /^esign: Nothing was sent\. The API keeps no record of the events a disabled webhook missed/,
    );
    expect(r.stderr).toContain('support console of the esign serve that holds it');
    expect(rx.received).toHaveLength(before);
    // The engine behind the server still keeps them.
    expect((await b.engine.listMissedWebhookEvents({ webhook: w.id }))[0]?.count).toBe(1);

    await b.engine.updateWebhook(w.id, { enabled: false });
    expect(kv((await esign('webhook', 'get', w.id)).stdout).missed).toBe(
      'not known to this backend (the API keeps no record of missed events)',
    );
  });
});
