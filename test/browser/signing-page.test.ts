// The signing page in real headless Chromium (Debian's chromium-headless-shell driven by playwright-core),
// against `esign serve`'s fastify app started in-process on the embedded engine.
import { createHash } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PageHarness, startPageHarness } from './harness.js';
import { CONTRACT_B64, bundleRequest, field } from '../helpers.js';

type Obj = Record<string, unknown>;

let h: PageHarness;
let engine: PageHarness['engine'];
let base: string;
let outerBase: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  h = await startPageHarness({ features: ['signing_brands'], frameId: 'signing', frameSize: [900, 700] });
  ({ engine, base, outerBase, browser } = h);
});
afterAll(async () => h?.close());

beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
});
afterEach(async () => context?.close());

const doc = (fields: Obj[]) => ({ key: 'contract', file_b64: CONTRACT_B64, filename: 'contract.pdf', fields });
const ADA = { key: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const BOB = { key: 'bob', name: 'Bob Example', email: 'bob@example.com' };

/** The signing link in the signer's latest signing request in the outbox. */
function emailedLink(slug: string, email: string): string {
  const m = engine
    .outbox({ bundle: slug })
    .filter((x) => x.kind === 'signing_request' && x.recipient === email)
    .at(-1);
  const url = m?.body.match(/http:\/\/\S+\/sign\/\S+/)?.[0];
  expect(url, `signing link for ${email}`).toBeDefined();
  return url!;
}

const fieldRefs = () => page.locator('[data-field]').evaluateAll((els) => els.map((e) => e.getAttribute('data-field')));
const errorOf = (ref: string) => page.locator(`[data-field="${ref}"] .error`);
const eventKinds = async (slug: string) => (await engine.listBundleEvents(slug)).map((x) => x.kind);

describe('the signing page', () => {
  it('an embedded signer signs once; the next signer in order gets their turn; the URL is single use', async () => {
    const label = 'Consulting <agreement> & "co"';
    const b = await engine.createBundle(
      bundleRequest({
        label,
        in_order: true,
        packets: [{ ...ADA, deliver_via: 'embed' }, BOB],
        documents: [
          doc([
            field('title', { label: 'Your title', required: true }),
            field('agree', { kind: 'chk', label: 'I agree', x: 300, w: 14, h: 14 }),
            field('sig-ada', { kind: 'sig', y: 600, w: 180, h: 30 }),
            field('sig-bob', { kind: 'sig', y: 600, w: 180, h: 30, editors: ['bob'], required: true }),
          ]),
        ],
      }),
    );
    const [ada, bob] = b.packets;
    const { url } = await engine.createEmbedUrl(ada!.id);

    const res = await page.goto(url);
    expect(res!.status()).toBe(200);
    const headers = res!.headers();
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['x-frame-options']).toBeUndefined();
    await expect(page.locator('header h1').textContent()).resolves.toBe(label);
    await expect(page.locator('header').textContent()).resolves.toContain('Ada Lovelace');
    expect(await fieldRefs()).toEqual(['title', 'agree', 'sig-ada']);
    expect(await page.locator('[data-field="sig-ada"] input').inputValue()).toBe('Ada Lovelace');
    expect((await engine.getPacket(ada!.id)).status).toBe('st');

    // The page moved itself to its session URL; the original PDF streams from there.
    expect(page.url()).toMatch(/\/sign\/session\/[\w-]+$/);
    const pdf = await page.request.get(`${page.url()}/documents/contract`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).equals(Buffer.from(CONTRACT_B64, 'base64'))).toBe(true);

    await page.locator('[data-field="title"] input').fill('CEO');
    await page.locator('[data-field="agree"] input').check();
    await page.locator('#sign').click();
    await page.getByText('Thank you, you have signed').waitFor();

    expect((await engine.getPacket(ada!.id)).status).toBe('co');
    expect((await engine.getPacket(bob!.id)).status).toBe('se');
    expect((await engine.getBundle(b.id)).status).toBe('st');
    emailedLink(b.id, 'bob@example.com');
    const values = engine.db.prepare('SELECT field_key, value FROM field_values WHERE packet_id = ?').all(ada!.id) as {
      field_key: string;
      value: string;
    }[];
    expect(Object.fromEntries(values.map((v) => [v.field_key, v.value]))).toEqual({
      title: 'CEO',
      agree: 'true',
      'sig-ada': 'Ada Lovelace',
    });

    const again = await page.goto(url);
    expect(again!.status()).toBe(410);
    await expect(page.locator('.message').textContent()).resolves.toMatch(/already been used/);
  });

  it('a required field left empty: the error shows next to it and nothing is stored; email links are reusable', async () => {
    const b = await engine.createBundle(
      bundleRequest({
        packets: [ADA, BOB],
        documents: [doc([field('title', { label: 'Your title', required: true }), field('note', { kind: 'txt' })])],
      }),
    );
    const link = emailedLink(b.id, 'ada@example.com');
    expect((await page.goto(link))!.status()).toBe(200);
    expect((await page.goto(link))!.status()).toBe(200);
    await expect(page.locator('#left').textContent()).resolves.toBe('1 required field left');

    await page.locator('[data-field="note"] textarea').fill('a note');
    const [res] = await Promise.all([page.waitForNavigation(), page.locator('#sign').click()]);
    expect(res!.status()).toBe(400);
    await expect(errorOf('title').textContent()).resolves.toMatch(/Required field "Your title".*needs a value/);
    expect(await errorOf('title').isVisible()).toBe(true);
    expect(await errorOf('note').isVisible()).toBe(false);
    expect(await page.locator('[data-field="note"] textarea').inputValue()).toBe('a note');

    expect((await engine.getPacket(b.packets[0]!.id)).status).toBe('st');
    expect(await eventKinds(b.id)).not.toContain('ps');
    expect(
      engine.db.prepare('SELECT count(*) AS n FROM field_values WHERE packet_id = ?').get(b.packets[0]!.id),
    ).toEqual({ n: 0 });
  });

  it('a v_pattern email field given a bad value shows the validation message', async () => {
    const b = await engine.createBundle(
      bundleRequest({
        packets: [{ ...ADA, deliver_via: 'embed' }, BOB],
        documents: [doc([field('contact', { label: 'Contact email', v_pattern: 'email', required: true })])],
      }),
    );
    await page.goto((await engine.createEmbedUrl(b.packets[0]!.id)).url);
    await page.locator('[data-field="contact"] input').fill('not-an-email');
    const [res] = await Promise.all([page.waitForNavigation(), page.locator('#sign').click()]);
    expect(res!.status()).toBe(400);
    await expect(errorOf('contact').textContent()).resolves.toBe('The value must be an email address.');
    expect(await page.locator('[data-field="contact"] input').inputValue()).toBe('not-an-email');
    expect((await engine.getPacket(b.packets[0]!.id)).status).toBe('st');

    // Corrected on the re-rendered page (same session), it signs.
    await page.locator('[data-field="contact"] input').fill('ada@example.com');
    await page.locator('#sign').click();
    await page.getByText('Thank you, you have signed').waitFor();
    expect((await engine.getPacket(b.packets[0]!.id)).status).toBe('co');
  });

  it('works inside an iframe of another origin, and the frame lands on signing_complete_redirect', async () => {
    const redirect = `${outerBase}/done?signed=1`;
    const b = await engine.createBundle(
      bundleRequest({
        label: 'Framed agreement',
        packets: [{ ...ADA, deliver_via: 'embed', signing_complete_redirect: redirect }, BOB],
        documents: [doc([field('title', { required: true })])],
      }),
    );
    h.frame.src = (await engine.createEmbedUrl(b.packets[0]!.id)).url;
    await page.goto(`${outerBase}/app`);
    const frame = page.frameLocator('#signing');
    await expect(frame.locator('header h1').textContent()).resolves.toBe('Framed agreement');
    await frame.locator('[data-field="title"] input').fill('CTO');
    await frame.locator('#sign').click();
    await frame.locator('#back').waitFor();

    expect(page.frames().map((f) => f.url())).toContain(redirect);
    expect(page.url()).toBe(`${outerBase}/app`);
    expect((await engine.getPacket(b.packets[0]!.id)).status).toBe('co');
  });

  it('declines with a reason: the Bundle is declined and the reason recorded', async () => {
    const b = await engine.createBundle(
      bundleRequest({ packets: [{ ...ADA, deliver_via: 'embed' }, BOB], documents: [doc([field('title')])] }),
    );
    await page.goto((await engine.createEmbedUrl(b.packets[0]!.id)).url);
    await page.getByText('Decline to sign').click();
    await page.locator('#reason').fill('The fee is <wrong>');
    await page.locator('#decline').click();
    await page.getByText('You declined to sign').waitFor();

    expect((await engine.getBundle(b.id)).status).toBe('de');
    expect((await engine.getPacket(b.packets[0]!.id)).status).toBe('ca');
    expect((await engine.listBundleEvents(b.id)).at(-1)).toMatchObject({
      kind: 'pd',
      description: 'Signer declined: The fee is <wrong>',
    });
  });

  it('the last signer signing (with an attachment) completes the Bundle and its signed PDFs are produced', async () => {
    const b = await engine.createBundle(
      bundleRequest({
        packets: [ADA, BOB],
        documents: [
          doc([
            field('sig-ada', { kind: 'sig', required: true }),
            field('sig-bob', { kind: 'sig', editors: ['bob'], required: true }),
            field('id-scan', {
              kind: 'att',
              label: 'ID scan',
              editors: ['bob'],
              required: true,
              v_attachment_types: ['png', 'pdf'],
            }),
          ]),
        ],
      }),
    );
    await engine.signPacket(b.packets[0]!.id, {});
    await page.goto(emailedLink(b.id, 'bob@example.com'));
    expect(await fieldRefs()).toEqual(['sig-bob', 'id-scan']);
    expect(await page.locator('[data-field="sig-bob"] input').inputValue()).toBe('Bob Example');
    await page.locator('[data-field="id-scan"] input').setInputFiles({
      name: 'id.png',
      mimeType: 'image/png',
      buffer: Buffer.from('\x89PNG\r\n\x1a\n!', 'latin1') /* a PNG's signature: 9 bytes */,
    });
    await page.locator('#sign').click();
    await page.getByText('Thank you, you have signed').waitFor();

    expect((await engine.getBundle(b.id)).status).toBe('co');
    await engine.settle();
    const files = await engine.getBundleFiles(b.id);
    expect(files.map((f) => f.kind)).toContain('signed_pdf');
    const data = await engine.getBundleData(b.id);
    expect(data.find((d) => d.field_key === 'id-scan')!.attachments).toMatchObject([{ name: 'id.png', size: 9 }]);
  });

  it('refuses unknown and expired links and sessions with a clear page, and a signer whose turn has not come', async () => {
    const unknown = await page.goto(`${base}/sign/no-such-token`);
    expect(unknown!.status()).toBe(404);
    await expect(page.locator('.message').textContent()).resolves.toMatch(/not valid/);
    expect(
      (
        await page.request.post(`${base}/sign/session/no-such-session/sign`, { multipart: { 'value:title': 'x' } })
      ).status(),
    ).toBe(404);

    const b = await engine.createBundle(
      bundleRequest({
        in_order: true,
        packets: [{ ...ADA, deliver_via: 'embed' }, BOB],
        documents: [doc([field('title')])],
      }),
    );
    expect((await page.goto((await engine.createEmbedUrl(b.packets[0]!.id)).url))!.status()).toBe(200);
    const session = page.url();
    const later = await engine.createEmbedUrl(b.packets[0]!.id);
    engine.clock.advance(2 * 3600_000);
    try {
      const expired = await page.goto(later.url);
      expect(expired!.status()).toBe(410);
      await expect(page.locator('.message').textContent()).resolves.toMatch(/expired/);
      expect((await page.request.post(`${session}/sign`, { multipart: { 'value:title': 'x' } })).status()).toBe(410);
    } finally {
      engine.clock.setOffset(0);
    }

    // Bob's turn has not come (in order), so he has no link yet: record one as a message would.
    const bobLink = 'bob-early-link-token';
    engine.db
      .prepare('INSERT INTO links (token_hash, kind, target, created, expires) VALUES (?, ?, ?, ?, ?)')
      .run(
        createHash('sha256').update(bobLink).digest('hex'),
        'sign',
        b.packets[1]!.id,
        new Date().toISOString(),
        new Date(Date.now() + 3600_000).toISOString(),
      );
    const early = await page.goto(`${base}/sign/${bobLink}`);
    expect(early!.status()).toBe(409);
    await expect(page.locator('.message').textContent()).resolves.toMatch(/not this signer's turn/);

    // A cancelled Bundle: the reusable email link is refused too.
    const c = await engine.createBundle(bundleRequest({ packets: [ADA, BOB], documents: [doc([field('title')])] }));
    await engine.cancelBundle(c.id);
    const cancelled = await page.goto(emailedLink(c.id, 'ada@example.com'));
    expect(cancelled!.status()).toBe(409);
    await expect(page.locator('.message').textContent()).resolves.toMatch(/cancelled/);
  });
});
