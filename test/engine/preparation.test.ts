// Preparation sessions on the engine: the feature gate, the checks of each request member, and the
// single-use, expiring URL with what the session remembers.
import { describe, expect, it } from 'vitest';
import { CONTRACT_PDF, bundleRequest, expectApiError } from '../helpers.js';
import { type TestEngine, useEngine } from './support.js';

const t = useEngine();
const HOUR = 3600_000;

const importTemplate = (e: TestEngine, over: Record<string, unknown> = {}) =>
  e.importTemplate({ name: 'NDA', pdf: CONTRACT_PDF, roles: [{ key: 'client', label: 'Client' }], ...over });

/** The token of a preparation URL, checking its shape on the engine's public URL. */
function tokenOf(e: TestEngine, url: string): string {
  const base = e.account.settings().public_url;
  expect(url.startsWith(`${base}/prepare/`), url).toBe(true);
  const token = url.slice(`${base}/prepare/`.length);
  expect(token).toMatch(/^[\w-]{20,}$/);
  return token;
}

describe('template preparation sessions', () => {
  it('refuses with 403 permission_denied while the template_preparation feature is off', async () => {
    await expectApiError(t.e.createTemplatePreparationSession({}), 403, {
      code: 'permission_denied',
      message: /template_preparation/,
    });
    // The gate comes first: even a request naming a template gets the 403.
    await expectApiError(
      t.e.createTemplatePreparationSession({ template_id: '9b2f6f38-5d0c-4c2a-9d55-0d3b1f1f0c11' }),
      403,
    );
    t.e.account.setFeatures(['template_preparation'], true);
    await expect(t.e.createTemplatePreparationSession({})).resolves.toMatchObject({ url: expect.any(String) });
  });

  it('gives a single-use URL valid for one hour that remembers template, team, library and metadata', async () => {
    t.e.account.setFeatures(['template_preparation'], true);
    const team = t.e.account.addTeam({ name: 'Legal' });
    const tpl = await importTemplate(t.e);
    const before = Date.now();
    const s = await t.e.createTemplatePreparationSession({
      template_id: tpl.id,
      team: team.id,
      library: 'contracts',
      metadata: { dept: 'legal' },
    });
    const token = tokenOf(t.e, s.url);
    const expires = Date.parse(s.expires);
    expect(expires).toBeGreaterThanOrEqual(before + HOUR);
    expect(expires).toBeLessThanOrEqual(Date.now() + HOUR);

    const link = t.e.resolveLink(token, 'prepare');
    expect(link).toMatchObject({ expires: s.expires, used_at: null });
    expect(JSON.parse(link!.target)).toEqual({
      type: 'template',
      template_id: tpl.id,
      team: team.id,
      library: 'contracts',
      metadata: { dept: 'legal' },
    });

    t.e.clock.advance(HOUR + 1000);
    expect(t.e.resolveLink(token, 'prepare')).toBeUndefined();
  });

  it('400 for an unknown template_id or team, and for a malformed request', async () => {
    t.e.account.setFeatures(['template_preparation'], true);
    const missing = '9b2f6f38-5d0c-4c2a-9d55-0d3b1f1f0c11';
    await expectApiError(t.e.createTemplatePreparationSession({ template_id: missing }), 400, {
      field: 'template_id',
      message: /not found/,
    });
    await expectApiError(t.e.createTemplatePreparationSession({ team: missing }), 400, { field: 'team' });
    await expectApiError(t.e.createTemplatePreparationSession({ template_id: 'nope' }), 400, { field: 'template_id' });
    await expectApiError(t.e.createTemplatePreparationSession({ metadata: { k: 'x'.repeat(501) } }), 400, {
      field: 'metadata.k',
    });
  });
});

describe('Bundle preparation sessions', () => {
  it('400 without any document input', async () => {
    await expectApiError(t.e.createBundlePreparationSession({}), 400, {
      field: 'upload_pdf',
      message: /At least one document input/,
    });
    await expectApiError(
      t.e.createBundlePreparationSession({ upload_pdf: false, template_ids: [], allow_search_signers: true }),
      400,
      { field: 'upload_pdf' },
    );
  });

  it('400 for an unknown template in template_ids, naming its index', async () => {
    const tpl = await importTemplate(t.e);
    const missing = '9b2f6f38-5d0c-4c2a-9d55-0d3b1f1f0c11';
    const e = await expectApiError(t.e.createBundlePreparationSession({ template_ids: [tpl.id, missing] }), 400, {
      field: 'template_ids[1]',
    });
    expect(e.errors.map((x) => x.field)).not.toContain('template_ids[0]');
  });

  it('400 for a draft_bundle that does not exist or is not a draft', async () => {
    await expectApiError(t.e.createBundlePreparationSession({ upload_pdf: true, draft_bundle: 'NoSuchSlug' }), 400, {
      field: 'draft_bundle',
      message: /not found/,
    });
    const sent = await t.e.createBundle(bundleRequest());
    await expectApiError(t.e.createBundlePreparationSession({ upload_pdf: true, draft_bundle: sent.id }), 400, {
      field: 'draft_bundle',
      message: /not a draft/,
    });
    const draft = await t.e.createBundle(bundleRequest({ status: 'dr' }));
    await expect(
      t.e.createBundlePreparationSession({ upload_pdf: true, draft_bundle: draft.id }),
    ).resolves.toMatchObject({ url: expect.any(String) });
  });

  it('gives a single-use URL valid for one hour that remembers the session options (no feature needed)', async () => {
    const tpl = await importTemplate(t.e);
    const s = await t.e.createBundlePreparationSession({
      upload_pdf: true,
      template_ids: [tpl.id],
      folder_ids: ['contracts'],
      allow_search_signers: true,
      redirect_url: 'https://app.example/done',
    });
    const token = tokenOf(t.e, s.url);
    expect(Date.parse(s.expires) - Date.now()).toBeGreaterThan(HOUR - 60_000);
    expect(Date.parse(s.expires) - Date.now()).toBeLessThanOrEqual(HOUR);
    expect(JSON.parse(t.e.resolveLink(token, 'prepare')!.target)).toEqual({
      type: 'bundle',
      upload_pdf: true,
      template_ids: [tpl.id],
      folder_ids: ['contracts'],
      allow_search_signers: true,
      redirect_url: 'https://app.example/done',
    });
    // Another session gets another URL.
    const other = await t.e.createBundlePreparationSession({ upload_pdf: true });
    expect(other.url).not.toBe(s.url);
  });

  it('400 for a redirect_url that is not a URL', async () => {
    await expectApiError(t.e.createBundlePreparationSession({ upload_pdf: true, redirect_url: 'not a url' }), 400, {
      field: 'redirect_url',
    });
  });
});
