// Embedded preparation sessions: single-use, expiring URLs to the template authoring and Bundle
// preparation pages (src/server/preparation*.ts). Like embedded signing: opening the URL spends it
// and starts a session (a token in the page's URL, expiring with the URL) for the page's requests.
// What a session allows is kept with its links as JSON, so the engine, not the page, enforces it.
import { ApiError, FieldErrors } from '../../domain/errors.js';
import type {
  BundleDraft,
  BundlePrep,
  BundleView,
  PreparationPages,
  PrepSession,
  PrepSpec,
  TemplateDraft,
  TemplatePrep,
  TemplateSummary,
} from '../../service/hosting.js';
import type { Bundle, DocumentTemplate, EmbedUrl } from '../../service/types.js';
import { loadBundle } from '../bundles/read.js';
import { type EngineContext, inTransaction } from '../store/context.js';
import { sql } from '../store/db.js';
import { createLink, findLink, linkExpired, markLinkUsed } from '../bundles/links.js';
import { checkTeam } from '../account/rules.js';

/** A preparation session URL is valid for an hour; its page session ends at the same time. */
export const PREPARATION_TTL_MS = 60 * 60 * 1000;

const schemas = () => import('../../domain/schemas.js');
const templates = () => import('./templates.js');

const fieldError = (field: string, message: string) =>
  new ApiError(400, 'invalid', `${field}: ${message}`, [{ field, message }]);
const templateExists = (ctx: EngineContext, id: string) =>
  !!sql(ctx.db, 'SELECT 1 FROM templates WHERE id = ?').get(id);

function session(ctx: EngineContext, spec: PrepSpec): EmbedUrl {
  const { url, expires } = createLink(ctx, 'prepare', JSON.stringify(spec), PREPARATION_TTL_MS);
  return { url, expires };
}

export async function createTemplatePreparationSession(ctx: EngineContext, body: unknown): Promise<EmbedUrl> {
  if (!ctx.account.has('template_preparation'))
    throw new ApiError(
      403,
      'permission_denied',
      'Template preparation sessions are not enabled for this account (feature template_preparation).',
    );
  const S = await schemas();
  const req = S.parseOr400(S.TemplatePreparationSessionRequest, body);
  const errs = new FieldErrors();
  if (req.template_id !== undefined && !templateExists(ctx, req.template_id))
    errs.add('template_id', `Document Template "${req.template_id}" was not found.`);
  if (req.team !== undefined) checkTeam(ctx.account, req.team, 'team', errs, false);
  errs.throwIfAny();
  return session(ctx, {
    type: 'template',
    template_id: req.template_id,
    team: req.team,
    library: req.library,
    metadata: req.metadata,
  });
}

export async function createBundlePreparationSession(ctx: EngineContext, body: unknown): Promise<EmbedUrl> {
  const S = await schemas();
  const req = S.parseOr400(S.BundlePreparationSessionRequest, body);
  const errs = new FieldErrors();
  (req.template_ids ?? []).forEach((id, i) => {
    if (!templateExists(ctx, id)) errs.add(`template_ids[${i}]`, `Document Template "${id}" was not found.`);
  });
  if (req.draft_bundle !== undefined) {
    const b = sql(ctx.db, 'SELECT status FROM bundles WHERE id = ?').get(req.draft_bundle) as
      | { status: string }
      | undefined;
    if (!b) errs.add('draft_bundle', `Bundle "${req.draft_bundle}" was not found.`);
    else if (b.status !== 'dr')
      errs.add('draft_bundle', `Bundle "${req.draft_bundle}" is not a draft (status "${b.status}").`);
  }
  errs.throwIfAny();
  return session(ctx, {
    type: 'bundle',
    upload_pdf: req.upload_pdf === true,
    template_ids: req.template_ids ?? [],
    folder_ids: req.folder_ids ?? [],
    draft_bundle: req.draft_bundle,
    allow_search_signers: req.allow_search_signers === true,
    redirect_url: req.redirect_url,
  });
}

// ---- The pages' side: opening the URL, the session, and what Save / Send do. ----

const gone = (message: string) => new ApiError(410, 'gone', message);

/** Opens a preparation URL: spends it (single use) and starts the page's session, expiring with it. */
export function openPreparationLink(ctx: EngineContext, token: string): PrepSession {
  return inTransaction(ctx, () => {
    const link = findLink(ctx, token);
    if (link?.kind !== 'prepare')
      throw new ApiError(
        404,
        'not_found',
        'This preparation link is not valid. Check that you copied the whole address.',
      );
    if (link.used_at) throw gone('This preparation link has already been used. Ask for a new one.');
    if (linkExpired(ctx, link)) throw gone('This preparation link has expired. Ask for a new one.');
    if (!markLinkUsed(ctx, token)) throw gone('This preparation link has already been used. Ask for a new one.');
    // The session ends when the URL would have.
    const s = createLink(ctx, 'prepare_session', link.target, Date.parse(link.expires) - ctx.clock.nowMs());
    return { token: s.token, expires: s.expires, spec: prepSpecOf(link) };
  });
}

/** What a preparation link stands for (its target holds the session's spec). */
const prepSpecOf = (link: { target: string }): PrepSpec => JSON.parse(link.target) as PrepSpec;

/** The live session behind a page token: 404 unknown, 410 expired or already finished. */
export function preparationSession(ctx: EngineContext, token: string): PrepSession {
  const link = findLink(ctx, token);
  if (link?.kind !== 'prepare_session')
    throw new ApiError(404, 'not_found', 'This preparation session is not valid. Open the preparation link again.');
  if (link.used_at) throw gone('This preparation session is finished. Ask for a new preparation link to start again.');
  if (linkExpired(ctx, link)) throw gone('This preparation session has expired. Ask for a new preparation link.');
  return { token, expires: link.expires, spec: prepSpecOf(link) };
}

/** Ends a session after its Save or Send (false when another request finished it first). */
const finish = (ctx: EngineContext, token: string) => markLinkUsed(ctx, token);

/** Sessions whose Save or Send is under way in this process: a double click must not make two. */
const busy = new Set<string>();
async function once<T>(token: string, run: () => Promise<T>): Promise<T> {
  if (busy.has(token))
    throw new ApiError(409, 'conflict', 'This form is already being submitted; wait for it to finish.');
  busy.add(token);
  try {
    return await run();
  } finally {
    busy.delete(token);
  }
}

function templateSpec(ctx: EngineContext, token: string): TemplatePrep {
  const s = preparationSession(ctx, token).spec;
  if (s.type !== 'template') throw new ApiError(404, 'not_found', 'This is not a template preparation session.');
  return s;
}

function bundleSpec(ctx: EngineContext, token: string): BundlePrep {
  const s = preparationSession(ctx, token).spec;
  if (s.type !== 'bundle') throw new ApiError(404, 'not_found', 'This is not a Bundle preparation session.');
  return s;
}

async function stored(ctx: EngineContext, id: string) {
  const t = (await templates()).findStoredTemplate(ctx, id);
  if (!t) throw new ApiError(404, 'not_found', `Document Template "${id}" was not found.`);
  return t;
}

const summaryOf = (t: TemplateSummary): TemplateSummary => ({
  id: t.id,
  name: t.name,
  roles: t.roles,
  fields: t.fields,
});

/** The PDF a template session edits (404 when the session makes a new template). */
export async function sessionTemplatePdf(
  ctx: EngineContext,
  token: string,
): Promise<{ sha256: string; filename: string }> {
  const s = templateSpec(ctx, token);
  if (!s.template_id) throw new ApiError(404, 'not_found', 'This session makes a new template: there is no PDF yet.');
  const t = await stored(ctx, s.template_id);
  return { sha256: t.sha256, filename: t.filename };
}

/** The template being edited, when the session edits one. */
export async function sessionTemplate(ctx: EngineContext, token: string): Promise<TemplateSummary | undefined> {
  const s = templateSpec(ctx, token);
  return s.template_id ? summaryOf(await stored(ctx, s.template_id)) : undefined;
}

const fitName = (n: string) =>
  n.length <= 50 ? n : `${n.slice(0, 42)}${n.slice(n.lastIndexOf('.')).slice(0, 8)}`.slice(0, 50);

/** Save: makes the template (with the session's library, team and metadata) or replaces the edited one's definition. */
export async function saveSessionTemplate(
  ctx: EngineContext,
  token: string,
  draft: TemplateDraft,
): Promise<DocumentTemplate> {
  const s = templateSpec(ctx, token);
  const T = await templates();
  let result: DocumentTemplate;
  if (s.template_id) {
    const cur = T.getTemplate(ctx, s.template_id);
    const pdf = await sessionTemplatePdf(ctx, token);
    result = await T.saveTemplate(
      ctx,
      {
        name: draft.name,
        roles: draft.roles,
        fields: draft.fields,
        pdf: draft.pdf?.data ?? ctx.blobs.get(pdf.sha256),
        filename: draft.pdf ? fitName(draft.pdf.filename) : pdf.filename,
        metadata: { ...cur.metadata, ...s.metadata },
        teams: [...new Set([...cur.teams, ...(s.team ? [s.team] : [])])],
      },
      s.template_id,
    );
  } else {
    if (!draft.pdf) throw fieldError('pdf', 'Choose the PDF of the template.');
    result = await T.saveTemplate(ctx, {
      name: draft.name,
      roles: draft.roles,
      fields: draft.fields,
      pdf: draft.pdf.data,
      filename: fitName(draft.pdf.filename),
      metadata: s.metadata,
      teams: s.team ? [s.team] : undefined,
      library: s.library,
    });
  }
  finish(ctx, token);
  return result;
}

/** The templates a Bundle session may use: those named in template_ids, and those in the folders of folder_ids. */
export async function allowedTemplates(ctx: EngineContext, spec: BundlePrep): Promise<TemplateSummary[]> {
  const ids = new Set(spec.template_ids);
  if (spec.folder_ids.length) {
    const rows = sql(
      ctx.db,
      `SELECT id FROM templates WHERE library IN (${spec.folder_ids.map(() => '?').join(',')}) ORDER BY name, seq`,
    ).all(...spec.folder_ids) as { id: string }[];
    for (const r of rows) ids.add(r.id);
  }
  const T = await templates();
  return [...ids].flatMap((id) => {
    const t = T.findStoredTemplate(ctx, id);
    return t ? [summaryOf(t)] : [];
  });
}

export async function bundleView(ctx: EngineContext, token: string): Promise<BundleView> {
  const spec = bundleSpec(ctx, token);
  return {
    spec,
    templates: await allowedTemplates(ctx, spec),
    draft: spec.draft_bundle ? loadBundle(ctx.db, spec.draft_bundle) : undefined,
  };
}

/** Send or Save as draft; with draft_bundle, Send sends that draft. Ends the session. */
export async function submitBundle(
  ctx: EngineContext,
  token: string,
  draft: BundleDraft,
): Promise<{ bundle: Bundle; redirect: string | null }> {
  const spec = bundleSpec(ctx, token);
  const redirectTo = (b: Bundle) => {
    if (!spec.redirect_url) return null;
    const u = new URL(spec.redirect_url);
    u.searchParams.set('bundle_id', b.id);
    return u.href;
  };
  const life = await import('../bundles/lifecycle.js');
  if (spec.draft_bundle) {
    if (draft.action !== 'send') throw new ApiError(400, 'invalid', 'This draft is saved already; Send sends it.');
    life.sendBundle(ctx, spec.draft_bundle);
    finish(ctx, token);
    const bundle = loadBundle(ctx.db, spec.draft_bundle);
    return { bundle, redirect: redirectTo(bundle) };
  }
  const errs = new FieldErrors();
  if (draft.uploads.length && !spec.upload_pdf) errs.add('upload', 'This session does not allow uploading PDFs.');
  const allowed = new Set((await allowedTemplates(ctx, spec)).map((t) => t.id));
  draft.templates.forEach((t, i) => {
    if (!allowed.has(t.template_id))
      errs.add(`templates[${i}]`, `Document Template "${t.template_id}" is not offered in this session.`);
  });
  if (!draft.uploads.length && !draft.templates.length)
    errs.add('documents', 'Add a document: upload a PDF or choose a template.');
  errs.throwIfAny();
  const body = {
    ...(draft.label ? { label: draft.label } : {}),
    ...(draft.action === 'draft' ? { status: 'dr' } : {}),
    packets: draft.signers,
    documents: [
      ...draft.uploads.map((f, i) => ({
        key: `upload-${i + 1}`,
        file_index: i,
        filename: fitName(f.filename),
        fields: draft.fields.filter((x) => x.doc === i).map(({ doc: _doc, ...field }) => field),
      })),
      ...draft.templates.map((t, i) => ({
        key: `template-${i + 1}`,
        template_id: t.template_id,
        assignments: t.assignments,
      })),
    ],
  };
  const { createBundle } = await import('../bundles/create.js');
  const created = await createBundle(ctx, body, draft.uploads);
  finish(ctx, token);
  const bundle = loadBundle(ctx.db, created.id);
  return { bundle, redirect: redirectTo(bundle) };
}

/** Signer search (allow_search_signers): Persons by name or email, with their first email. */
export async function searchSigners(
  ctx: EngineContext,
  token: string,
  q: string,
): Promise<{ name: string; email: string }[]> {
  const spec = bundleSpec(ctx, token);
  if (!spec.allow_search_signers)
    throw new ApiError(403, 'permission_denied', 'Signer search is not enabled for this session.');
  const { listPersons } = await import('../persons/persons.js');
  const page = await listPersons(ctx, { search: q, per_page: 10 });
  return page.items.flatMap((p) => {
    const email = p.channels.find((c) => c.email)?.email;
    return email ? [{ name: p.name, email }] : [];
  });
}

/** Everything the preparation pages need, bound to one engine's context. */
export function preparationPages(ctx: EngineContext): PreparationPages {
  return {
    open: (token: string) => openPreparationLink(ctx, token),
    session: (token: string) => preparationSession(ctx, token),
    template: (token: string) => sessionTemplate(ctx, token),
    templatePdf: async (token: string) => {
      const t = await sessionTemplatePdf(ctx, token);
      return { path: ctx.blobs.path(t.sha256), filename: t.filename };
    },
    saveTemplate: (token: string, draft: TemplateDraft) => once(token, () => saveSessionTemplate(ctx, token, draft)),
    bundleView: (token: string) => bundleView(ctx, token),
    submitBundle: (token: string, draft: BundleDraft) => once(token, () => submitBundle(ctx, token, draft)),
    searchSigners: (token: string, q: string) => searchSigners(ctx, token, q),
  };
}
