// The preparation pages (template authoring, Bundle preparation) in real headless Chromium (Debian's
// chromium-headless-shell driven by playwright-core), against `esign serve`'s fastify app started
// in-process on the embedded engine.
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PageHarness, startPageHarness } from './harness.js';
import { CONTRACT_PDF, bundleRequest, fixture } from '../helpers.js';

let h: PageHarness;
let engine: PageHarness['engine'];
let base: string;
let outerBase: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let redirected: string[];

beforeAll(async () => {
  h = await startPageHarness({ features: ['template_preparation', 'teams'], frameId: 'prep', frameSize: [1200, 900] });
  ({ engine, base, outerBase, browser, redirected } = h);
});
afterAll(async () => h?.close());

beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1300, height: 1000 } });
  page = await context.newPage();
});
afterEach(async () => context?.close());

type Where = Page | FrameLocator;
const PAGE_WIDTH_PT = 612;

/** Waits until PDF.js has drawn the PDF's `n` pages. */
async function pagesShown(w: Where, n: number): Promise<void> {
  await w.locator(`#pages[data-pages="${n}"]`).waitFor();
  await expect(w.locator('#pdf-status').textContent()).resolves.toMatch(new RegExp(`^${n} pages?\\.`));
}

/** Clicks at (px, py) CSS pixels on a rendered page and returns where that is in PDF points. */
async function clickOnPage(w: Where, pageNo: number, px: number, py: number): Promise<{ x: number; y: number }> {
  const overlay = w.locator(`#pages .page[data-page="${pageNo}"] .overlay`);
  const box = (await overlay.boundingBox())!;
  await overlay.click({ position: { x: px, y: py } });
  const scale = box.width / PAGE_WIDTH_PT;
  return { x: px / scale, y: py / scale };
}

const problems = (w: Where) => w.locator('#problems').textContent();

/** The fields stored for a Bundle's document (what signers will get). */
function documentFields(slug: string, idx = 0): Record<string, unknown>[] {
  const row = engine.db
    .prepare('SELECT d.spec FROM documents d JOIN bundles b ON b.seq = d.bundle_seq WHERE b.id = ? AND d.idx = ?')
    .get(slug, idx) as { spec: string };
  return (JSON.parse(row.spec) as { fields: Record<string, unknown>[] }).fields;
}

describe('template authoring page', () => {
  it('makes a new template from an uploaded PDF: a role, a signature field placed by clicking, the session options applied', async () => {
    const team = engine.account.addTeam({ name: 'Legal' });
    const s = await engine.createTemplatePreparationSession({
      team: team.id,
      library: 'contracts',
      metadata: { source: 'prep-test' },
    });

    const res = await page.goto(s.url);
    expect(res!.status()).toBe(200);
    expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(res!.headers()['x-frame-options']).toBeUndefined();
    await expect(page.locator('header h1').textContent()).resolves.toBe('New template');
    // The page moved to its session URL: the single-use URL is no longer in the address bar.
    expect(page.url()).toMatch(/\/prepare\/session\/[\w-]+$/);

    await page.locator('#pdf').setInputFiles(fixture('nda.pdf'));
    await pagesShown(page, 2);
    await page.locator('#name').fill('Mutual NDA');
    await page.locator('#add-role').click();
    await page.locator('#roles input[name=role_key]').fill('client');
    await page.locator('#roles input[name=role_label]').fill('Client');
    await page.locator('#tool-kind').selectOption('sig');
    const at = await clickOnPage(page, 1, 120, 300);
    await expect(page.locator('.box[data-field="sig-1"]').isVisible()).resolves.toBe(true);
    const row = page.locator('#field-list .field-row').first();
    await row.locator('input[data-prop=label]').fill('Client signature');
    await row.locator('input[data-prop=data_flow_tag]').fill('client_sig');
    expect(await row.locator('select[data-prop=assignee]').inputValue()).toBe('client');
    await page.locator('#save').click();
    await page.getByText('is saved').waitFor();

    const id = (await page.locator('#template-id').textContent())!;
    const t = await engine.getTemplate(id);
    expect(t).toMatchObject({
      name: 'Mutual NDA',
      roles: [{ key: 'client', label: 'Client' }],
      metadata: { source: 'prep-test' },
      teams: [team.id],
    });
    expect(t.fields).toHaveLength(1);
    const f = t.fields[0]!;
    expect(f).toMatchObject({
      key: 'sig-1',
      kind: 'sig',
      label: 'Client signature',
      page: 1,
      required: true,
      editor_roles: ['client'],
      data_flow_tag: 'client_sig',
    });
    expect(Math.abs((f.x as number) - at.x)).toBeLessThan(2);
    expect(Math.abs((f.y as number) - at.y)).toBeLessThan(2);
    const library = engine.db.prepare('SELECT library FROM templates WHERE id = ?').get(id) as { library: string };
    expect(library.library).toBe('contracts');

    // Single use: the URL cannot be opened again, and the finished session is closed.
    const again = await page.goto(s.url);
    expect(again!.status()).toBe(410);
    await expect(page.locator('.message').textContent()).resolves.toMatch(/already been used/);
  });

  it('edits an existing template: shows its fields, refuses a missing name next to the form, then saves the change', async () => {
    const tpl = await engine.importTemplate({
      name: 'Lease',
      pdf: CONTRACT_PDF,
      filename: 'lease.pdf',
      roles: [{ key: 'tenant', label: 'Tenant' }],
      fields: [
        {
          key: 'rent',
          kind: 'inp',
          label: 'Rent',
          page: 1,
          x: 72,
          y: 500,
          w: 120,
          h: 20,
          editor_roles: ['tenant'],
          v_pattern: 'numbers',
          default_value: '1000',
        },
      ],
      metadata: { owner: 'ops' },
    });
    const s = await engine.createTemplatePreparationSession({
      template_id: tpl.id,
      library: 'ignored-when-editing',
      metadata: { reviewed: 'yes' },
    });
    await page.goto(s.url);
    await expect(page.locator('header h1').textContent()).resolves.toBe('Edit template: Lease');
    await pagesShown(page, 1);
    expect(await page.locator('#name').inputValue()).toBe('Lease');
    expect(await page.locator('#roles input[name=role_key]').inputValue()).toBe('tenant');
    // The stored field shows where it is: 72pt from the left.
    const box = (await page.locator('.box[data-field="rent"]').boundingBox())!;
    const pageBox = (await page.locator('.page[data-page="1"] .overlay').boundingBox())!;
    expect(Math.abs((box.x - pageBox.x) / (pageBox.width / PAGE_WIDTH_PT) - 72)).toBeLessThan(2);

    await page.locator('#tool-kind').selectOption('dat');
    await clickOnPage(page, 1, 300, 400);
    await page.locator('#name').fill('');
    const [refused] = await Promise.all([page.waitForNavigation(), page.locator('#save').click()]);
    expect(refused!.status()).toBe(400);
    await expect(problems(page)).resolves.toMatch(/Name.*required/);
    // Nothing was lost: both fields are still on the page.
    await pagesShown(page, 1);
    await expect(page.locator('#field-list .field-row').count()).resolves.toBe(2);
    expect((await engine.getTemplate(tpl.id)).name).toBe('Lease');

    await page.locator('#name').fill('Lease 2026');
    await page.locator('#save').click();
    await page.getByText('is saved').waitFor();
    const t = await engine.getTemplate(tpl.id);
    expect(t.name).toBe('Lease 2026');
    expect(t.metadata).toEqual({ owner: 'ops', reviewed: 'yes' });
    expect(t.fields.map((f) => f.key)).toEqual(['rent', 'dat-1']);
    // Members the page does not edit survive.
    expect(t.fields[0]).toMatchObject({ v_pattern: 'numbers', default_value: '1000', x: 72, y: 500 });
    expect(t.fields[1]).toMatchObject({ kind: 'dat', page: 1, editor_roles: ['tenant'] });
    expect(
      (engine.db.prepare('SELECT library FROM templates WHERE id = ?').get(tpl.id) as { library: string | null })
        .library,
    ).toBeNull();
  });

  it('refuses unknown, expired and HEAD-checked links clearly; HEAD does not spend the URL', async () => {
    const unknown = await page.goto(`${base}/prepare/no-such-token`);
    expect(unknown!.status()).toBe(404);
    await expect(page.locator('.message').textContent()).resolves.toMatch(/not valid/);

    const s = await engine.createTemplatePreparationSession({});
    expect((await page.request.head(s.url)).status()).toBe(404);
    expect((await page.goto(s.url))!.status()).toBe(200);

    const later = await engine.createTemplatePreparationSession({});
    const session = page.url();
    engine.clock.advance(2 * 3600_000);
    try {
      const expired = await page.goto(later.url);
      expect(expired!.status()).toBe(410);
      await expect(page.locator('.message').textContent()).resolves.toMatch(/expired/);
      // The page session expired with its URL.
      expect((await page.goto(session))!.status()).toBe(410);
    } finally {
      engine.clock.setOffset(0);
    }
  });
});

describe('Bundle preparation page', () => {
  it('from an uploaded PDF, in an iframe of another origin: a refused signer is shown, then Send sends and the frame lands on redirect_url with bundle_id', async () => {
    const s = await engine.createBundlePreparationSession({
      upload_pdf: true,
      redirect_url: `${outerBase}/done?from=prep`,
    });
    h.frame.src = s.url;
    await page.goto(`${outerBase}/app`);
    const frame = page.frameLocator('#prep');
    await expect(frame.locator('header h1').textContent()).resolves.toBe('Prepare documents for signature');

    await frame.locator('#label').fill('Supply agreement');
    await frame.locator('#pdf').setInputFiles(fixture('contract.pdf'));
    await pagesShown(frame, 1);
    await frame.locator('input[name=signer_name]').fill('Ada Lovelace');
    await frame.locator('input[name=signer_email]').fill('ada-at-example.com');
    const at = await clickOnPage(frame, 1, 200, 500);
    expect(await frame.locator('#field-list select[data-prop=assignee]').inputValue()).toBe('signer-1');
    await frame.locator('#send').click();
    await expect(problems(frame)).resolves.toMatch(/Signer 1 \(email\)/);
    expect((await engine.listBundles()).items.filter((b) => b.label === 'Supply agreement')).toHaveLength(0);
    await expect(frame.locator('.row.signer.invalid input[name=signer_email]').inputValue()).resolves.toBe(
      'ada-at-example.com',
    );
    await expect(frame.getByText('Choose the PDF again').isVisible()).resolves.toBe(true);

    await frame.locator('input[name=signer_email]').fill('ada@example.com');
    await frame.locator('#pdf').setInputFiles(fixture('contract.pdf'));
    await pagesShown(frame, 1);
    await expect(frame.locator('#field-list .field-row').count()).resolves.toBe(1);
    await frame.locator('#send').click();
    await frame.locator('#back').waitFor();

    const landed = page
      .frames()
      .map((f) => new URL(f.url()))
      .find((u) => u.pathname === '/done')!;
    expect(landed.searchParams.get('from')).toBe('prep');
    const slug = landed.searchParams.get('bundle_id')!;
    expect(redirected).toContain(`/done?from=prep&bundle_id=${slug}`);
    expect(page.url()).toBe(`${outerBase}/app`);
    await engine.settle();
    const b = await engine.getBundle(slug);
    expect(b).toMatchObject({
      label: 'Supply agreement',
      status: 'se',
      packets: [{ name: 'Ada Lovelace', email: 'ada@example.com' }],
    });
    expect(b.documents).toMatchObject([{ name: 'contract.pdf' }]);
    const [f] = documentFields(slug);
    expect(f).toMatchObject({ kind: 'sig', page: 1, editors: ['signer-1'] });
    expect(Math.abs((f!.x as number) - at.x)).toBeLessThan(2);
    expect(Math.abs((f!.y as number) - at.y)).toBeLessThan(2);
    expect(
      engine.outbox({ bundle: slug }).some((m) => m.kind === 'signing_request' && m.recipient === 'ada@example.com'),
    ).toBe(true);
  });

  it('from a template of an allowed folder, with a signer found by search and its role assigned: Save as draft', async () => {
    const hr = await engine.importTemplate({
      name: 'Employment contract',
      pdf: CONTRACT_PDF,
      roles: [{ key: 'employee', label: 'Employee' }],
      fields: [
        {
          key: 'emp-sig',
          kind: 'sig',
          page: 1,
          x: 72,
          y: 600,
          w: 160,
          h: 30,
          editor_roles: ['employee'],
          required: true,
        },
      ],
      library: 'hr',
    });
    await engine.importTemplate({
      name: 'Sales order',
      pdf: CONTRACT_PDF,
      roles: [{ key: 'buyer' }],
      library: 'sales',
    });
    await engine.createPerson({ name: 'Grace Hopper', channels: [{ kind: 'em', email: 'grace@example.com' }] });
    // Over the wire, as a client application asks for it.
    const api = await page.request.post(`${base}/api/v2/bundles/preparation_session/`, {
      headers: { Authorization: `Token ${engine.keys.create('prep').key}` },
      data: { folder_ids: ['hr'], allow_search_signers: true },
    });
    expect(api.status()).toBe(201);
    const s = (await api.json()) as { url: string; expires: string };
    expect(s.url).toMatch(new RegExp(`^${base}/prepare/[\\w-]+$`));
    await page.goto(s.url);

    const offered = await page
      .locator('input[name=template]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-template-name')));
    expect(offered).toEqual(['Employment contract']);
    await expect(page.locator('#pdf').count()).resolves.toBe(0);
    await page.locator('input[name=template]').check();
    await page.locator('#signer-search').fill('grace');
    await page.getByRole('button', { name: 'Grace Hopper <grace@example.com>' }).click();
    expect(await page.locator('input[name=signer_email]').inputValue()).toBe('grace@example.com');
    await page.locator(`select[name="assign:${hr.id}:employee"]`).selectOption('signer-1');
    await page.locator('#save-draft').click();
    await page.getByText('saved as a draft').waitFor();

    const slug = (await page.locator('#bundle-id').textContent())!;
    const b = await engine.getBundle(slug);
    expect(b).toMatchObject({
      status: 'dr',
      packets: [{ name: 'Grace Hopper', email: 'grace@example.com' }],
      documents: [{ template_id: hr.id }],
    });
    expect(documentFields(slug)).toMatchObject([{ key: 'emp-sig', editors: ['signer-1'] }]);
    expect(engine.outbox({ bundle: slug })).toHaveLength(0);
  });

  it('resumes a draft_bundle: shows its documents and signers, and Send sends it', async () => {
    const draft = await engine.createBundle(bundleRequest({ label: 'Draft to finish', status: 'dr' }));
    const s = await engine.createBundlePreparationSession({ upload_pdf: true, draft_bundle: draft.id });
    await page.goto(s.url);
    await expect(page.locator('header h1').textContent()).resolves.toBe('Draft: Draft to finish');
    await expect(page.locator('#draft-documents').textContent()).resolves.toContain('contract');
    await expect(page.locator('#draft-signers').textContent()).resolves.toMatch(
      /Ada Lovelace.*ada@example\.com.*Bob Example/s,
    );
    await page.locator('#send').click();
    await page.getByText('sent for signature').waitFor();
    await expect(page.locator('#bundle-id').textContent()).resolves.toBe(draft.id);
    await engine.settle();
    expect((await engine.getBundle(draft.id)).status).toBe('se');
    // The session is finished: a reload shows so instead of the form.
    expect((await page.goto(page.url().replace(/\/bundle$/, '')))!.status()).toBe(410);
  });
});

describe('Preparation page assets (review)', () => {
  it('serve only the listed PDF.js files: other names, object-prototype names and traversal are 404', async () => {
    expect((await fetch(`${base}/prepare/assets/pdf.mjs`)).status).toBe(200);
    expect((await fetch(`${base}/prepare/assets/prep.js`)).status).toBe(200);
    for (const path of [
      'constructor',
      '__proto__',
      'toString',
      'hasOwnProperty',
      'package.json',
      'constructor/x.bcmap',
      '__proto__/x',
      'toString/LICENSE',
      'cmaps/..%2F..%2Fpackage.json',
      'cmaps/%2E%2E',
      'standard_fonts/.hidden',
    ]) {
      const r = await fetch(`${base}/prepare/assets/${path}`);
      expect(r.status, path).toBe(404);
    }
  });
});

describe('Preparation page refusals (review)', () => {
  it('too many files is told as such, not as "a file is too large"', async () => {
    const s = await engine.createBundlePreparationSession({ upload_pdf: true });
    const opened = await fetch(s.url);
    const session = /data-session-url="([^"]+)"/.exec(await opened.text())![1]!;
    const form = new FormData();
    for (let i = 0; i < 7; i++) form.append(`pdf${i}`, new Blob([CONTRACT_PDF]), `doc-${i}.pdf`);
    const r = await fetch(`${base}${session}/bundle`, { method: 'POST', body: form });
    const html = await r.text();
    expect(r.status).toBe(400);
    expect(html).not.toMatch(/too large/i);
    expect(html).toMatch(/more files or fields/);
  });
});
