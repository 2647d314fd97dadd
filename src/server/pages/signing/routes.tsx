// The signing page behind signing links and embedded signing URLs: shows the documents and the
// signer's fields, and signs or declines.
//
// Follow-up requests carry a short-lived session token in the path, never a cookie: inside a
// cross-origin iframe, browsers drop third-party cookies. After signing, a packet with
// `signing_complete_redirect` gets a 303 to it. Forms submit to the frame they are in, so when
// the page is embedded in an iframe it is the frame that lands on the redirect, not the top-level
// page: moving the whole window on is up to the embedding app (e.g. from the redirect target).
import { existsSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../domain/errors.js';
import { linkPath, linkRoute } from '../../../service/linkPaths.js';
import type { SigningPages, SigningView } from '../../../service/hosting.js';
import type { SignInput, SignerAttachment } from '../../../service/service.js';
import { isInProgress } from '../../../domain/states.js';
import { SIGNING_FORM, SMALL_FORM } from '../../limits.js';
import { receiveFields, receiveForm } from '../../multipartForm.js';
import { donePage, errorPage, httpUrl, pageGate, pageHandler, redirectTo, sendPage, sendPdf } from '../kit.js';
import { type FormState, SIGNING, SigningPage, signingTitle } from './page.js';

const showPage = (reply: FastifyReply, status: number, v: SigningView, state: FormState = {}) =>
  sendPage(reply, SIGNING, status, signingTitle(v), <SigningPage v={v} state={state} />, httpUrl(v.redirect));

const done = (reply: FastifyReply, title: string, text: string) => donePage(reply, SIGNING, title, <p>{text}</p>);

/**
 * The sign form's multipart body as sign input (attachments stay on disk until the engine reads
 * them); an unticked box is sent by browsers as nothing, so it counts as false.
 */
interface SignForm {
  input: SignInput;
  submitted: Record<string, string>;
  /** Removes the attachments' temporary files. */
  cleanup: () => Promise<void>;
}

async function multipartInput(req: FastifyRequest, view: SigningView): Promise<SignForm> {
  const form = await receiveForm(req, SIGNING_FORM, { keepFile: (field) => field.startsWith('file:') });
  const values: Record<string, string> = Object.create(null);
  const attachments: Record<string, SignerAttachment[]> = Object.create(null);
  try {
    for (const f of form.files) {
      if (!f.filename && !f.size) continue;
      (attachments[f.field.slice(5)] ??= []).push({ name: f.filename, data: await f.read() });
    }
  } catch (e) {
    await form.cleanup();
    throw e;
  }
  for (const [name, value] of form.fields) if (name.startsWith('value:')) values[name.slice(6)] = value;
  for (const f of view.fields) if (f.kind === 'chk' && values[f.ref] === undefined) values[f.ref] = 'false';
  const submitted = { ...values };
  // An empty input means "not given": the engine then keeps what is stored (and requires what is required).
  for (const [k, v] of Object.entries(values)) if (v.trim() === '') delete values[k];
  return { input: { values, attachments }, submitted, cleanup: form.cleanup };
}

/** Field errors (`values.<ref>`, `attachments.<ref>[i]`) by field ref; the others for the summary. */
function placeErrors(view: SigningView, e: ApiError): { errors: Map<string, string[]>; general: string[] } {
  const errors = new Map<string, string[]>();
  const general: string[] = [];
  const refs = new Set(view.fields.map((f) => f.ref));
  const seen = new Set<string>();
  for (const fe of e.errors) {
    const ref = fe.field.replace(/^(values|attachments)\./, '').replace(/\[\d+\]$/, '');
    // One message per input: a refused value also leaves a required field "without a value".
    if (seen.has(fe.field)) continue;
    seen.add(fe.field);
    if (refs.has(ref)) errors.set(ref, [...(errors.get(ref) ?? []), fe.message]);
    else general.push(fe.field ? `${fe.field}: ${fe.message}` : fe.message);
  }
  if (!e.errors.length) general.push(e.message);
  return { errors, general };
}

const page = (run: (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) =>
  pageHandler(SIGNING, run, true);

/** How often the page of a Bundle whose documents are being prepared looks again, in seconds. */
const PREPARING_REFRESH_S = 2;

/**
 * A pending Bundle (documents still being processed): a page that says so and reloads its session
 * (the `Refresh` header: no script) until they are ready; a Bundle that failed shows its failure.
 */
function notReadyPage(reply: FastifyReply, v: SigningView): FastifyReply | undefined {
  if (v.bundle.status === 'pe') {
    reply.header('Refresh', `${PREPARING_REFRESH_S}; url=${linkPath('session', v.session.token)}`);
    return done(
      reply,
      'Documents are being prepared',
      `The documents of "${v.bundle.label || 'this request'}" are being prepared. This page opens them when they are ready.`,
    );
  }
  if (v.bundle.status === 'fa')
    return errorPage(
      reply,
      SIGNING,
      new ApiError(
        409,
        'conflict',
        `These documents could not be prepared: ${v.bundle.errors.join('; ') || 'the Bundle failed'}.`,
      ),
    );
  return undefined;
}

/** A session whose signer has finished shows how it ended instead of the form. */
function finishedPage(reply: FastifyReply, v: SigningView): FastifyReply | undefined {
  if (v.signer.status === 'co')
    return done(reply, 'You have signed', `Thank you, you have signed "${v.bundle.label || 'the documents'}".`);
  if (v.signer.status === 'ca' && v.bundle.status === 'de')
    return done(reply, 'You declined', `You declined to sign "${v.bundle.label || 'the documents'}".`);
  if (v.signer.status === 'ra')
    return done(reply, 'Handed on', `You asked someone else to sign "${v.bundle.label || 'the documents'}".`);
  if (!isInProgress(v.bundle.status))
    return errorPage(reply, SIGNING, new ApiError(409, 'conflict', 'These documents can no longer be signed.'));
  return undefined;
}

/** A signature sent: JSON answered in JSON; a form answered with the form again (400) or a thank-you. */
async function signSubmitted(
  engine: SigningPages,
  session: string,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const id = await engine.resolveSigningSession(session);
  if (!req.isMultipart()) {
    // JSON callers: `{values, attachments: {key: [{name, b64}]}}`, answered in JSON.
    const { signInputOf } = await import('../../../domain/schemas.js');
    const packet = await engine.signPacket(id, signInputOf(req.body));
    return reply.send({ packet, redirect: httpUrl(packet.signing_complete_redirect)?.href ?? null });
  }
  const view = await engine.signingSessionView(session);
  const { input, submitted, cleanup } = await multipartInput(req, view);
  try {
    await engine.signPacket(id, input);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 400) throw e;
    const fresh = await engine.signingSessionView(session);
    return showPage(reply, 400, fresh, { values: submitted, ...placeErrors(fresh, e) });
  } finally {
    await cleanup();
  }
  const redirect = httpUrl(view.redirect);
  if (redirect) return redirectTo(reply, redirect);
  return done(reply, 'Thank you', `Thank you, you have signed "${view.bundle.label || 'the documents'}".`);
}

export function registerSigningPage(app: FastifyInstance, engine: SigningPages): void {
  const sessionOf = (req: FastifyRequest) => (req.params as { session: string }).session;
  /** The session is checked before a byte of the body is read. */
  const live = { onRequest: pageGate(SIGNING, (req) => engine.resolveSigningSession(sessionOf(req)), true) };

  // No automatic HEAD route: a link checker's HEAD must not spend a single-use embedded URL.
  app.get(
    linkRoute('sign', 'token'),
    { exposeHeadRoute: false },
    page(async (req, reply) => {
      const v = await engine.openSigningLink((req.params as { token: string }).token);
      return notReadyPage(reply, v) ?? showPage(reply, 200, v);
    }),
  );

  app.get(
    linkRoute('session', 'session'),
    page(async (req, reply) => {
      const v = await engine.signingSessionView(sessionOf(req));
      return notReadyPage(reply, v) ?? finishedPage(reply, v) ?? showPage(reply, 200, v);
    }),
  );

  app.get(
    `${linkRoute('session', 'session')}/documents/:docKey`,
    page(async (req, reply) => {
      const d = await engine.signingSessionDocument(sessionOf(req), (req.params as { docKey: string }).docKey);
      if (!existsSync(d.path)) throw new ApiError(404, 'not_found', 'The document file is missing.');
      return sendPdf(reply, d.path, d.name);
    }),
  );

  app.post(
    `${linkRoute('session', 'session')}/sign`,
    live,
    page((req, reply) => signSubmitted(engine, sessionOf(req), req, reply)),
  );

  app.post(
    `${linkRoute('session', 'session')}/decline`,
    live,
    page(async (req, reply) => {
      const id = await engine.resolveSigningSession(sessionOf(req));
      let reason = '';
      if (req.isMultipart()) {
        reason = (await receiveFields(req, SMALL_FORM)).find(([name]) => name === 'reason')?.[1] ?? '';
      } else reason = String((req.body as { reason?: unknown } | undefined)?.reason ?? '');
      const packet = await engine.declinePacket(id, reason);
      if (!req.isMultipart()) return reply.send({ packet });
      return done(reply, 'You declined', 'You declined to sign. The sender has been told.');
    }),
  );

  // Form fields (name, email, reason) or JSON with the same members; answered in kind.
  app.post(
    `${linkRoute('session', 'session')}/reassign`,
    live,
    page(async (req, reply) => {
      const id = await engine.resolveSigningSession(sessionOf(req));
      const body: Record<string, string> = {};
      if (req.isMultipart()) {
        for (const [name, value] of await receiveFields(req, SMALL_FORM))
          if (['name', 'email', 'reason'].includes(name) && value.trim()) body[name] = value.trim();
      }
      const packet = await engine.reassignPacket(
        id,
        req.isMultipart() ? body : ((req.body ?? {}) as Record<string, unknown>),
      );
      if (!req.isMultipart()) return reply.send({ packet });
      return done(reply, 'Handed on', `${packet.name} has been asked to sign. You have nothing more to do.`);
    }),
  );
}
