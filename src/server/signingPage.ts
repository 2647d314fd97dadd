// The signing page behind signing links and embedded signing URLs: a self-contained HTML page
// (inline CSS and JS only) that shows the documents and the signer's fields, and signs or declines.
//
// Follow-up requests carry a short-lived session token in the path, never a cookie: inside a
// cross-origin iframe, browsers drop third-party cookies. After signing, a packet with
// `signing_complete_redirect` gets a 303 to it. Forms submit to the frame they are in, so when
// the page is embedded in an iframe it is the frame that lands on the redirect, not the top-level
// page: moving the whole window on is up to the embedding app (e.g. from the redirect target).
import { createReadStream, existsSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LocalEngine } from '../local/engine.js';
import { MAX_ATTACHMENT_BYTES, type SignInput, type SignerAttachment, signInputFromJson } from '../local/signing.js';
import type { SigningField, SigningView } from '../local/signingSession.js';
import { ApiError } from '../service/errors.js';
import { esc, formAction, httpUrl, pageHandler, sendPage as sendHtml } from './pageKit.js';

/**
 * Only 'self' and inline code. No frame-ancestors and no X-Frame-Options: the page is meant to be
 * framed by other origins. form-action also names the completion redirect's origin, because
 * Chromium applies form-action to the redirect that follows a form submission.
 */
function csp(redirect?: URL): string {
  return [
    `default-src 'self'`, `script-src 'self' 'unsafe-inline'`, `style-src 'self' 'unsafe-inline'`, `img-src 'self' data:`,
    `object-src 'self'`, `frame-src 'self'`, `base-uri 'none'`, `form-action ${formAction(redirect)}`,
  ].join('; ');
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2430;background:#f4f6f9}
header{background:#1f3b63;color:#fff;padding:16px 24px}header h1{margin:0;font-size:1.35rem}header p{margin:4px 0 0;opacity:.9}
main{max-width:960px;margin:0 auto;padding:16px 24px 48px}section{background:#fff;border:1px solid #d9dee7;border-radius:8px;padding:16px;margin:16px 0}
h2{font-size:1.1rem;margin:0 0 12px}.doc object{width:100%;height:520px;border:1px solid #d9dee7;border-radius:4px;background:#eee}
.field{margin:0 0 14px}.field label{display:block;font-weight:600;margin-bottom:4px}.req{color:#b42318;font-weight:400;font-size:.85rem;margin-left:6px}
.where,.hint{color:#5b6575;font-size:.85rem;font-weight:400}input[type=text],input[type=date],textarea{width:100%;padding:8px;border:1px solid #b8c0cc;border-radius:4px;font:inherit}
input.sig{font-family:"Brush Script MT","Segoe Script",cursive;font-size:1.5rem}.field.missing input,.field.missing textarea,.field.invalid input,.field.invalid textarea{border-color:#b42318}
.error{color:#b42318;font-size:.9rem;margin:4px 0 0}.summary{border-color:#b42318;background:#fff4f3}.actions{display:flex;gap:12px;align-items:center;flex-wrap:wrap}
button{font:inherit;padding:10px 20px;border-radius:6px;border:1px solid #1f3b63;background:#1f3b63;color:#fff;cursor:pointer}button.secondary{background:#fff;color:#b42318;border-color:#b42318}
button:disabled{opacity:.6}details summary{cursor:pointer;color:#b42318;margin-top:12px}.left{color:#5b6575;font-size:.9rem}.done{text-align:center;padding:48px 16px}
`;

function layout(title: string, body: string, script = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`
    + `<meta name="referrer" content="no-referrer"><title>${esc(title)}</title><style>${STYLE}</style></head><body>${body}`
    + (script ? `<script>${script}</script>` : '') + `</body></html>`;
}

const send = (reply: FastifyReply, status: number, html: string, redirect?: URL): FastifyReply =>
  sendHtml(reply, status, html, csp(redirect));

const sendPage = (reply: FastifyReply, status: number, v: SigningView, state: FormState = {}) =>
  send(reply, status, signingPage(v, state), httpUrl(v.redirect));

const TITLES: Record<number, string> = { 404: 'Link not valid', 409: 'You cannot sign right now', 410: 'Link no longer valid', 413: 'File too large' };

function errorPage(reply: FastifyReply, e: ApiError): FastifyReply {
  const title = TITLES[e.status] ?? 'Something went wrong';
  return send(reply, e.status, layout(title, `<main><section class="done" role="alert"><h1>${esc(title)}</h1><p class="message">${esc(e.message)}</p></section></main>`));
}

const donePage = (reply: FastifyReply, title: string, text: string) =>
  send(reply, 200, layout(title, `<main><section class="done"><h1>${esc(title)}</h1><p>${esc(text)}</p></section></main>`));

const PATTERN_HINTS: Record<string, string> = {
  email: 'An email address', bank_routing: 'A 9-digit bank routing number', bank_account: 'A bank account number (4 to 17 digits)',
  letters: 'Letters only', numbers: 'A number', phone: 'A phone number', ssn: 'A social security number (123-45-6789)', zip_code: 'A ZIP code',
};

function hintOf(f: SigningField): string {
  const parts: string[] = [];
  if (f.v_regex !== undefined && f.v_regex_msg) parts.push(f.v_regex_msg);
  else if (f.v_pattern && PATTERN_HINTS[f.v_pattern]) parts.push(PATTERN_HINTS[f.v_pattern]);
  const unit = f.v_pattern === 'numbers' ? '' : ' characters';
  if (f.v_regex === undefined && f.v_min !== undefined) parts.push(`at least ${f.v_min}${unit}`);
  if (f.v_regex === undefined && f.v_max !== undefined) parts.push(`at most ${f.v_max}${unit}`);
  if (f.kind === 'att' && f.v_attachment_types?.length) parts.push(`Allowed types: ${f.v_attachment_types.join(', ')}`);
  if (f.kind === 'sig') parts.push('Type your name to sign');
  if (f.kind === 'ini') parts.push('Type your initials');
  return parts.join('; ');
}

/** The input for one field, by kind; signer name and timestamp fill themselves and only show. */
function inputOf(f: SigningField, id: string, value: string, signerName: string): string {
  const name = esc(`value:${f.ref}`);
  const aria = `id="${id}" aria-describedby="${id}-hint ${id}-err"${f.required ? ' aria-required="true"' : ''}`;
  switch (f.kind) {
    case 'txt':
      // The parser drops a newline right after <textarea>: one of our own keeps the value's own.
      return `<textarea ${aria} name="${name}" rows="4">\n${esc(value)}</textarea>`;
    case 'chk':
      return `<input type="checkbox" ${aria} name="${name}" value="true"${value === 'true' ? ' checked' : ''}>`;
    case 'dat':
      return `<input type="date" ${aria} name="${name}" value="${esc(value)}">`;
    case 'att':
      return `<input type="file" ${aria} name="${esc(`file:${f.ref}`)}" multiple${f.v_attachment_types?.length ? ` accept="${esc(f.v_attachment_types.map((t) => `.${t}`).join(','))}"` : ''}>`;
    case 'sig':
    case 'ini':
      return `<input type="text" class="sig" ${aria} name="${name}" value="${esc(value)}" autocomplete="off">`;
    case 'snm':
      return `<output id="${id}">${esc(value || signerName)}</output>`;
    case 'tms':
      return `<output id="${id}">Filled in when you sign</output>`;
    default:
      return `<input type="text" ${aria} name="${name}" value="${esc(value)}"${f.v_pattern === 'email' ? ' inputmode="email"' : f.v_pattern === 'numbers' ? ' inputmode="decimal"' : ''}>`;
  }
}

interface FormState {
  values?: Record<string, string>;
  errors?: Map<string, string[]>;
  general?: string[];
}

function fieldHtml(v: SigningView, f: SigningField, i: number, state: FormState): string {
  const id = `f${i}`;
  const errors = state.errors?.get(f.ref) ?? [];
  const value = state.values?.[f.ref] ?? (f.kind === 'chk' && state.values ? 'false' : f.value);
  const hint = hintOf(f);
  const attached = f.attached.length ? `<p class="hint">Attached: ${f.attached.map(esc).join(', ')}</p>` : '';
  const where = f.page ? `<span class="where"> · page ${esc(f.page)}</span>` : '';
  return `<div class="field${errors.length ? ' invalid' : ''}" data-field="${esc(f.ref)}" data-kind="${esc(f.kind)}"${f.required ? ' data-required' : ''}${f.attached.length ? ' data-attached' : ''}>`
    + `<label for="${id}">${esc(f.label)}${f.required ? '<span class="req">required</span>' : ''}${where}</label>`
    + inputOf(f, id, value, v.signer.name)
    + `<p class="hint" id="${id}-hint">${esc(hint)}</p>${attached}`
    + `<p class="error" id="${id}-err" role="alert"${errors.length ? '' : ' hidden'}>${errors.map(esc).join('<br>')}</p></div>`;
}

function signingPage(v: SigningView, state: FormState = {}): string {
  const base = `/sign/session/${encodeURIComponent(v.session.token)}`;
  const title = v.bundle.label || 'Documents to sign';
  const docs = v.documents.map((d) => {
    const src = esc(`${base}/documents/${encodeURIComponent(d.key)}`);
    return `<div class="doc" data-document="${esc(d.key)}"><h3>${esc(d.name)}${d.pages ? ` <span class="where">(${esc(d.pages)} page${d.pages === 1 ? '' : 's'})</span>` : ''}</h3>`
      + `<object data="${src}" type="application/pdf" title="${esc(d.name)}"><p><a href="${src}" target="_blank" rel="noopener">Open ${esc(d.name)}</a></p></object>`
      + `<p><a href="${src}" target="_blank" rel="noopener">Open in a new tab</a></p></div>`;
  }).join('');
  let i = 0;
  const byDoc = v.documents.map((d) => {
    const fields = v.fields.filter((f) => f.docKey === d.key);
    return fields.length ? `<fieldset><legend>${esc(d.name)}</legend>${fields.map((f) => fieldHtml(v, f, i++, state)).join('')}</fieldset>` : '';
  }).join('');
  const general = state.general?.length
    ? `<section class="summary" role="alert"><h2>Please check the form</h2><ul>${state.general.map((m) => `<li>${esc(m)}</li>`).join('')}</ul></section>` : '';
  const body = `<header><h1>${esc(title)}</h1><p>Sent by ${esc(v.requester.name)}${v.requester.email ? ` &lt;${esc(v.requester.email)}&gt;` : ''} to ${esc(v.signer.name)}</p></header>`
    + `<main data-session-url="${esc(base)}">${general}`
    + `<section><h2>Documents</h2>${docs}</section>`
    + `<form id="sign-form" method="post" action="${esc(`${base}/sign`)}" enctype="multipart/form-data" novalidate><section><h2>Your fields</h2>`
    + (byDoc || '<p>There is nothing to fill in; sign to accept the documents.</p>')
    + `<div class="actions"><button type="submit" id="sign">Sign</button><span class="left" id="left" aria-live="polite"></span></div></section></form>`
    + `<section><details><summary>Decline to sign</summary><form id="decline-form" method="post" action="${esc(`${base}/decline`)}" enctype="multipart/form-data">`
    + `<div class="field"><label for="reason">Why do you decline?</label><textarea id="reason" name="reason" rows="3" required></textarea></div>`
    + `<button type="submit" class="secondary" id="decline">Decline</button></form></details>${v.canReassign ? reassignForm(base) : ''}</section></main>`;
  return layout(title, body, CLIENT_JS);
}

const reassignForm = (base: string) =>
  `<details><summary>Ask someone else to sign</summary><form id="reassign-form" method="post" action="${esc(`${base}/reassign`)}" enctype="multipart/form-data">`
  + `<div class="field"><label for="ra-name">Their name</label><input type="text" id="ra-name" name="name" required></div>`
  + `<div class="field"><label for="ra-email">Their email address</label><input type="text" id="ra-email" name="email" inputmode="email" required></div>`
  + `<div class="field"><label for="ra-reason">Why (optional)</label><textarea id="ra-reason" name="reason" rows="2"></textarea></div>`
  + `<button type="submit" class="secondary" id="reassign">Ask them to sign</button></form></details>`;

// Hints only: the server checks every rule and answers with the errors next to their fields.
const CLIENT_JS = `
(function(){
var main=document.querySelector('main[data-session-url]');
if(main&&history.replaceState){try{history.replaceState(null,'',main.getAttribute('data-session-url'));}catch(e){}}
var form=document.getElementById('sign-form');if(!form)return;
var left=document.getElementById('left');
function empty(box){var el=box.querySelector('input,textarea');if(!el)return false;
 if(el.type==='checkbox')return !el.checked;if(el.type==='file')return el.files.length===0&&!box.hasAttribute('data-attached');return el.value.trim()==='';}
function update(mark){var n=0;form.querySelectorAll('[data-required]').forEach(function(box){var e=empty(box);if(e)n++;
 if(mark==='all'||mark===box)box.classList.toggle('missing',e);});
 left.textContent=n?n+(n===1?' required field left':' required fields left'):'';}
form.addEventListener('input',function(ev){update(ev.target.closest('.field'));});
form.addEventListener('change',function(ev){update(ev.target.closest('.field'));});
form.addEventListener('submit',function(){update('all');var b=document.getElementById('sign');setTimeout(function(){b.disabled=true;b.textContent='Signing…';},0);});
update(null);
})();`;

/** The sign form's multipart body as sign input; an unticked box is sent by browsers as nothing, so it counts as false. */
async function multipartInput(req: FastifyRequest, view: SigningView): Promise<{ input: SignInput; submitted: Record<string, string> }> {
  const values: Record<string, string> = Object.create(null);
  const attachments: Record<string, SignerAttachment[]> = Object.create(null);
  for await (const part of req.parts({ limits: { fileSize: MAX_ATTACHMENT_BYTES + 1, files: 20, fields: 500 } })) {
    if (part.type === 'file') {
      if (!part.fieldname.startsWith('file:')) {
        part.file.resume();
        continue;
      }
      const data = await part.toBuffer();
      if (!part.fieldname.startsWith('file:') || (!part.filename && !data.length)) continue;
      (attachments[part.fieldname.slice(5)] ??= []).push({ name: part.filename, data });
    } else if (part.fieldname.startsWith('value:')) values[part.fieldname.slice(6)] = String(part.value);
  }
  for (const f of view.fields) if (f.kind === 'chk' && values[f.ref] === undefined) values[f.ref] = 'false';
  const submitted = { ...values };
  // An empty input means "not given": the engine then keeps what is stored (and requires what is required).
  for (const [k, v] of Object.entries(values)) if (v.trim() === '') delete values[k];
  return { input: { values, attachments }, submitted };
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

const page = (run: (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) => pageHandler(run, errorPage, true);

export function registerSigningPage(app: FastifyInstance, engine: LocalEngine): void {
  const sessionOf = (req: FastifyRequest) => (req.params as { session: string }).session;

  /** A session whose signer has finished shows how it ended instead of the form. */
  const finishedPage = (reply: FastifyReply, v: SigningView): FastifyReply | undefined => {
    if (v.signer.status === 'co') return donePage(reply, 'You have signed', `Thank you, you have signed "${v.bundle.label || 'the documents'}".`);
    if (v.signer.status === 'ca' && v.bundle.status === 'de') return donePage(reply, 'You declined', `You declined to sign "${v.bundle.label || 'the documents'}".`);
    if (v.signer.status === 'ra') return donePage(reply, 'Handed on', `You asked someone else to sign "${v.bundle.label || 'the documents'}".`);
    if (v.bundle.status !== 'se' && v.bundle.status !== 'st') return errorPage(reply, new ApiError(409, 'conflict', 'These documents can no longer be signed.'));
    return undefined;
  };

  // No automatic HEAD route: a link checker's HEAD must not spend a single-use embedded URL.
  app.get('/sign/:token', { exposeHeadRoute: false }, page(async (req, reply) => {
    const v = await engine.openSigningLink((req.params as { token: string }).token);
    return sendPage(reply, 200, v);
  }));

  app.get('/sign/session/:session', page(async (req, reply) => {
    const v = await engine.signingSessionView(sessionOf(req));
    return finishedPage(reply, v) ?? sendPage(reply, 200, v);
  }));

  app.get('/sign/session/:session/documents/:docKey', page(async (req, reply) => {
    const d = await engine.signingSessionDocument(sessionOf(req), (req.params as { docKey: string }).docKey);
    if (!existsSync(d.path)) throw new ApiError(404, 'not_found', 'The document file is missing.');
    const name = /\.pdf$/i.test(d.name) ? d.name : `${d.name}.pdf`;
    return reply
      .type('application/pdf')
      .header('Content-Disposition', `inline; filename*=UTF-8''${encodeURIComponent(name)}`)
      .header('Cache-Control', 'private, no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .send(createReadStream(d.path));
  }));

  app.post('/sign/session/:session/sign', page(async (req, reply) => {
    const session = sessionOf(req);
    const id = await engine.resolveSigningSession(session);
    if (!req.isMultipart()) {
      // JSON callers: `{values, attachments: {key: [{name, b64}]}}`, answered in JSON.
      const packet = await engine.signPacket(id, signInputFromJson(req.body));
      return reply.send({ packet, redirect: httpUrl(packet.signing_complete_redirect)?.href ?? null });
    }
    const view = await engine.signingSessionView(session);
    const { input, submitted } = await multipartInput(req, view);
    try {
      await engine.signPacket(id, input);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 400) throw e;
      const fresh = await engine.signingSessionView(session);
      return sendPage(reply, 400, fresh, { values: submitted, ...placeErrors(fresh, e) });
    }
    const redirect = httpUrl(view.redirect);
    if (redirect) return reply.code(303).header('Location', redirect.href).header('Referrer-Policy', 'no-referrer').send();
    return donePage(reply, 'Thank you', `Thank you, you have signed "${view.bundle.label || 'the documents'}".`);
  }));

  // Form fields (name, email, reason) or JSON with the same members; answered in kind.
  app.post('/sign/session/:session/reassign', page(async (req, reply) => {
    const id = await engine.resolveSigningSession(sessionOf(req));
    const body: Record<string, string> = {};
    if (req.isMultipart()) {
      for await (const part of req.parts({ limits: { files: 0, fields: 10 } })) {
        if (part.type === 'file') part.file.resume();
        else if (['name', 'email', 'reason'].includes(part.fieldname) && String(part.value).trim()) body[part.fieldname] = String(part.value).trim();
      }
    }
    const packet = await engine.reassignPacket(id, req.isMultipart() ? body : (req.body ?? {}));
    if (!req.isMultipart()) return reply.send({ packet });
    return donePage(reply, 'Handed on', `${packet.name} has been asked to sign. You have nothing more to do.`);
  }));

  app.post('/sign/session/:session/decline', page(async (req, reply) => {
    const id = await engine.resolveSigningSession(sessionOf(req));
    let reason = '';
    if (req.isMultipart()) {
      for await (const part of req.parts({ limits: { files: 0, fields: 10 } })) {
        if (part.type === 'file') part.file.resume();
        else if (part.fieldname === 'reason') reason = String(part.value);
      }
    } else reason = String((req.body as { reason?: unknown } | undefined)?.reason ?? '');
    const packet = await engine.declinePacket(id, reason);
    if (!req.isMultipart()) return reply.send({ packet });
    return donePage(reply, 'You declined', 'You declined to sign. The sender has been told.');
  }));
}
