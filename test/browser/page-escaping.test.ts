// Both page families render what people typed as text, never as markup: the pages are JSX
// rendered by a library that escapes every interpolation. And they run under a CSP with no inline
// script or style at all, without a single violation.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONTRACT_B64, CONTRACT_PDF, bundleRequest, field } from '../helpers.js';
import { type PageHarness, startPageHarness } from './harness.js';

const EVIL = `"><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> 'quoted' & <b>bold</b>`;

let h: PageHarness;
let context: BrowserContext;
let page: Page;
let violations: string[];

beforeAll(async () => {
  h = await startPageHarness({ features: ['template_preparation'], frameId: 'unused', frameSize: [10, 10] });
});
afterAll(async () => h?.close());

beforeEach(async () => {
  context = await h.browser.newContext({ viewport: { width: 1300, height: 1000 } });
  await context.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  page = await context.newPage();
  violations = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
});
afterEach(async () => context?.close());

/** Nothing from EVIL ran or became an element, and the CSP held without a violation. */
async function inert(): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('img, b').count()).toBe(0);
  // Only the page's own module script.
  expect(await page.locator('script').evaluateAll((els) => els.map((e) => e.getAttribute('src')))).toHaveLength(1);
  expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
  expect(violations).toEqual([]);
}

describe('pages escape what people typed', () => {
  it('the signing page: Bundle label, requester-given signer name, field label and a refused value', async () => {
    const b = await h.engine.createBundle(
      bundleRequest({
        label: EVIL,
        packets: [{ key: 'ada', name: `Ada ${EVIL}`, email: 'ada@example.com', deliver_via: 'embed' }],
        documents: [
          {
            key: 'contract',
            file_b64: CONTRACT_B64,
            filename: 'contract.pdf',
            fields: [field('title', { label: EVIL, v_pattern: 'email' })],
          },
        ],
      }),
    );
    const res = await page.goto((await h.engine.createEmbedUrl(b.packets[0]!.id)).url);
    expect(res!.headers()['content-security-policy']).toMatch(/script-src 'self'; style-src 'self';/);
    const html = await res!.text();
    expect(html).not.toContain('<script>window.__pwned');
    expect(html).toContain('&lt;script>window.__pwned=1&lt;/script>');
    await expect(page.locator('header h1').textContent()).resolves.toBe(EVIL);
    await expect(page.locator('header p').textContent()).resolves.toContain(`to Ada ${EVIL}`);
    await expect(page.locator('[data-field="title"] label').textContent()).resolves.toBe(`${EVIL} · page 1`);
    // The page's own script runs (it counts nothing here, but moved the page to its session URL).
    expect(page.url()).toMatch(/\/sign\/session\/[\w-]+$/);
    await inert();

    // A refused value comes back in its input as it was typed.
    await page.locator('[data-field="title"] input').fill(EVIL);
    const [refused] = await Promise.all([page.waitForNavigation(), page.locator('#sign').click()]);
    expect(refused!.status()).toBe(400);
    expect(await page.locator('[data-field="title"] input').inputValue()).toBe(EVIL);
    await inert();
  });

  it('the preparation pages: template name, role label and placed field label; the done page; a draft Bundle', async () => {
    const tpl = await h.engine.importTemplate({
      name: EVIL,
      pdf: CONTRACT_PDF,
      filename: 'lease.pdf',
      roles: [{ key: 'tenant', label: EVIL }],
      fields: [
        { key: 'rent', kind: 'inp', label: EVIL, page: 1, x: 72, y: 500, w: 120, h: 20, editor_roles: ['tenant'] },
      ],
    });
    const s = await h.engine.createTemplatePreparationSession({ template_id: tpl.id });
    const res = await page.goto(s.url);
    expect(res!.headers()['content-security-policy']).toMatch(/script-src 'self'; style-src 'self';/);
    await expect(page.locator('header h1').textContent()).resolves.toBe(`Edit template: ${EVIL}`);
    expect(await page.locator('#name').inputValue()).toBe(EVIL);
    expect(await page.locator('#roles input[name=role_label]').inputValue()).toBe(EVIL);
    // The script read the fields from the page's data and drew them, label as text.
    await page.locator('#pages[data-pages="1"]').waitFor();
    await expect(page.locator('.box[data-field="rent"]').textContent()).resolves.toBe(EVIL);
    await inert();

    await page.locator('#save').click();
    await page.getByText('is saved').waitFor();
    await expect(page.locator('#template-name').textContent()).resolves.toBe(EVIL);
    await inert();

    const draft = await h.engine.createBundle(
      bundleRequest({ label: EVIL, status: 'dr', packets: [{ key: 'ada', name: EVIL, email: 'ada@example.com' }] }),
    );
    await page.goto((await h.engine.createBundlePreparationSession({ upload_pdf: true, draft_bundle: draft.id })).url);
    await expect(page.locator('header h1').textContent()).resolves.toBe(`Draft: ${EVIL}`);
    await expect(page.locator('#draft-signers tbody td').first().textContent()).resolves.toBe(EVIL);
    await inert();
  });
});
