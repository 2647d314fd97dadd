// Webhook delivery seen through each backend: a state change made through the service reaches a
// real receiver on 127.0.0.1, signed; trigger and resend work on the embedded engine and through
// esign serve's sandbox; the records read back the same on both.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleRequest } from '../helpers.js';
import { type Receiver, expectedSignature, startReceiver } from '../webhooks/receiver.js';
import { BACKENDS, type Backend, useBackend } from './backends.js';

describe.each(BACKENDS)('contract webhook delivery: $name', ({ make }) => {
  let b: Backend;
  let rx: Receiver;
  beforeEach(async () => {
    b = await make();
    rx = await startReceiver();
  });
  afterEach(async () => {
    await b.close();
    await rx.close();
  });

  it('delivers a state change, signed with the secret the service reports, and records the attempt', async () => {
    const w = await b.service.createWebhook({ name: 'rx', url: rx.url, event_types: ['bundle_cancelled'] });
    const bundle = await b.service.createBundle(bundleRequest());
    await b.service.cancelBundle(bundle.id);
    await b.engine.deliverWebhooks();
    const [got] = await rx.waitFor(1);
    const body = JSON.parse(got!.body);
    expect(body).toMatchObject({ event_type: 'bundle_cancelled', payload: { bundle_id: bundle.id } });
    const { secret } = await b.service.getWebhookSecret();
    expect(got!.headers['x-blueink-signature']).toBe(
      expectedSignature(secret, got!.headers['x-blueink-request-timestamp'] as string, got!.body),
    );

    const events = await b.service.listWebhookEvents({ webhook: w.id });
    expect(events.items).toHaveLength(1);
    expect(events.items[0]).toMatchObject({ pk: body.event_id, success: true, status: 200 });
    const deliveries = await b.service.listWebhookDeliveries({ webhook_event: body.event_id });
    expect(deliveries.items).toHaveLength(1);
    expect(await b.service.getWebhookDelivery(deliveries.items[0]!.pk)).toEqual(deliveries.items[0]);
  });

  it('triggers a test event and resends it', async () => {
    await b.service.createWebhook({ name: 'rx', url: rx.url, event_types: ['bundle_complete'] });
    rx.respond = (_r, n) => (n === 1 ? 500 : 200);
    const [e] = await b.service.triggerWebhookEvent('bundle_complete');
    expect(e).toMatchObject({ event_type: 'bundle_complete', success: false, status: 500 });
    expect(JSON.parse(rx.received[0]!.body).payload).toEqual({ bundle_id: 'test' });
    const again = await b.service.resendWebhookEvent(e!.pk);
    expect(again).toMatchObject({ pk: e!.pk, success: true, status: 200 });
    expect(again.deliveries.map((d) => d.status)).toEqual([500, 200]);
  });
});

describe.each(BACKENDS)('contract preparation sessions: $name', ({ make }) => {
  const b = useBackend(make);

  it('gates template preparation on the account feature and returns single-use expiring URLs', async () => {
    const t = (await b.service.createTemplatePreparationSession({}).catch((e) => e)) as {
      status: number;
      code: string;
    };
    expect(t).toMatchObject({ status: 403, code: 'permission_denied' });
    b.engine.account.setFeatures(['template_preparation'], true);
    const s = await b.service.createTemplatePreparationSession({ metadata: { source: 'contract' } });
    expect(s.url).toMatch(/\/prepare\/[\w-]+$/);
    expect(Date.parse(s.expires)).toBeGreaterThan(Date.now());

    const none = (await b.service.createBundlePreparationSession({ allow_search_signers: true }).catch((e) => e)) as {
      status: number;
      errors: { field: string }[];
    };
    expect(none.status).toBe(400);
    expect(none.errors.map((e) => e.field)).toContain('upload_pdf');
    const u = await b.service.createBundlePreparationSession({
      upload_pdf: true,
      redirect_url: 'https://app.example/done',
    });
    expect(u.url).toMatch(/\/prepare\/[\w-]+$/);
  });
});
