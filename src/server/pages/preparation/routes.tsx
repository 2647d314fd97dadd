// The pages behind preparation-session URLs on esign serve: template authoring and Bundle
// preparation. Like the signing page: the URL is single use, and opening it moves the page to a
// session token in its own URL (no cookie, so it works in a cross-origin iframe) that expires
// with the URL. HEAD never spends a URL. A refusal of the engine is shown next to the form.
import { existsSync } from 'node:fs';
import type { VNode } from 'preact';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../domain/errors.js';
import { linkRoute } from '../../../service/linkPaths.js';
import type { BundleDraft, PreparationPages, PrepSession, TemplateDraft } from '../../../service/hosting.js';
import { PREPARATION_FORM } from '../../limits.js';
import { receiveForm } from '../../multipartForm.js';
import { donePage, httpUrl, pageGate, pageHandler, redirectTo, sendPage, sendPdf } from '../kit.js';
import { type BundleFormState, BundlePage, bundleTitle, initialBundleState } from './bundlePage.js';
import { PREPARATION, errorsOf, sessionBase } from './common.js';
import { type FormParts, type ReadForm, bundleForm, templateForm } from './forms.js';
import { initialTemplateState, TemplatePage, templateTitle, type TemplateFormState } from './templatePage.js';

/** What hosts the preparation side (loaded on first use). */
interface PreparationHost {
  preparationPages(): Promise<PreparationPages>;
}
const pagesOf = (engine: PreparationHost): Promise<PreparationPages> => engine.preparationPages();

/** A file input left empty still sends a part, with no name and no bytes. */
const chosen = (f: { filename: string; size: number }) => f.filename !== '' || f.size > 0;

const page = (run: (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) =>
  pageHandler(PREPARATION, run);

const sessionOf = (req: FastifyRequest) => (req.params as { session: string }).session;

/** The preparation page of a session: the template editor or the Bundle form, with the user's input where given. */
async function render(
  engine: PreparationHost,
  reply: FastifyReply,
  s: PrepSession,
  status = 200,
  state?: TemplateFormState | BundleFormState,
): Promise<FastifyReply> {
  const pages = await pagesOf(engine);
  const base = sessionBase(s.token);
  const send = (title: string, page: VNode, redirect?: URL) =>
    sendPage(reply, PREPARATION, status, title, page, redirect);
  if (s.spec.type === 'template') {
    const editing = await pages.template(s.token);
    const st = (state as TemplateFormState | undefined) ?? initialTemplateState(editing);
    return send(templateTitle(editing), <TemplatePage base={base} editing={editing} state={st} />);
  }
  const view = await pages.bundleView(s.token);
  const st = (state as BundleFormState | undefined) ?? initialBundleState();
  return send(bundleTitle(view), <BundlePage base={base} v={view} state={st} />, httpUrl(s.spec.redirect_url));
}

/** Save or Send: on a 400 the page comes back with the problems listed and the user's input kept. */
async function submit<D, S extends TemplateFormState | BundleFormState>(
  engine: PreparationHost,
  req: FastifyRequest,
  reply: FastifyReply,
  read: (parts: FormParts) => ReadForm<D, S>,
  run: (p: PreparationPages, token: string, d: D) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  const token = sessionOf(req);
  const pages = await pagesOf(engine);
  const s = pages.session(token);
  const form = await receiveForm(req, PREPARATION_FORM, { keepFile: (field) => field === 'pdf' });
  try {
    const files = await Promise.all(form.files.filter(chosen).map(async (f) => ({ ...f, data: await f.read() })));
    const { draft, state, problems } = read({ values: form.fields, files });
    if (problems.length) return render(engine, reply, s, 400, { ...state, errors: problems });
    try {
      return await run(pages, token, draft);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 400) throw e;
      return render(engine, reply, s, 400, { ...state, errors: errorsOf(e) });
    }
  } finally {
    await form.cleanup();
  }
}

export function registerPreparationPages(app: FastifyInstance, engine: PreparationHost): void {
  /** The session and the form's type are checked before a byte of the body is read. */
  const live = {
    onRequest: pageGate(PREPARATION, async (req) => {
      (await pagesOf(engine)).session(sessionOf(req));
      if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? ''))
        throw new ApiError(415, 'unsupported_media_type', 'Submit the form of the preparation page.');
    }),
  };

  // No automatic HEAD route: a link checker's HEAD must not spend a single-use URL.
  app.get(
    linkRoute('prepare', 'token'),
    { exposeHeadRoute: false },
    page(async (req, reply) => {
      const s = (await pagesOf(engine)).open((req.params as { token: string }).token);
      return render(engine, reply, s);
    }),
  );

  app.get(
    linkRoute('prepare_session', 'session'),
    page(async (req, reply) => render(engine, reply, (await pagesOf(engine)).session(sessionOf(req)))),
  );

  app.get(
    `${linkRoute('prepare_session', 'session')}/template.pdf`,
    page(async (req, reply) => {
      const pdf = await (await pagesOf(engine)).templatePdf(sessionOf(req));
      if (!existsSync(pdf.path)) throw new ApiError(404, 'not_found', 'The template file is missing.');
      return sendPdf(reply, pdf.path, pdf.filename);
    }),
  );

  app.get(`${linkRoute('prepare_session', 'session')}/persons`, async (req, reply) => {
    const q = String((req.query as { q?: unknown }).q ?? '').trim();
    const found = q ? await (await pagesOf(engine)).searchSigners(sessionOf(req), q) : [];
    return reply.header('Cache-Control', 'private, no-store').send(found);
  });

  app.post(
    `${linkRoute('prepare_session', 'session')}/template`,
    live,
    page((req, reply) =>
      submit<TemplateDraft, TemplateFormState>(engine, req, reply, templateForm, async (p, token, d) => {
        const t = await p.saveTemplate(token, d);
        return donePage(
          reply,
          PREPARATION,
          'Template saved',
          <>
            <p>
              The template <strong id="template-name">{t.name}</strong> is saved.
            </p>
            <p class="hint">
              Template id: <code id="template-id">{t.id}</code>
            </p>
          </>,
        );
      }),
    ),
  );

  app.post(
    `${linkRoute('prepare_session', 'session')}/bundle`,
    live,
    page((req, reply) =>
      submit<BundleDraft, BundleFormState>(engine, req, reply, bundleForm, async (p, token, d) => {
        const { bundle, redirect } = await p.submitBundle(token, d);
        const to = httpUrl(redirect);
        if (to) return redirectTo(reply, to);
        const draft = bundle.status === 'dr';
        return donePage(
          reply,
          PREPARATION,
          draft ? 'Draft saved' : 'Sent',
          <>
            <p>The Bundle is {draft ? 'saved as a draft' : 'sent for signature'}.</p>
            <p>
              Bundle id: <code id="bundle-id">{bundle.id}</code>
            </p>
          </>,
        );
      }),
    ),
  );
}
