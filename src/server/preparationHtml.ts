// What every preparation page shares: escaping, the layout, the CSP, error and done pages, and
// the list of problems shown above a refused form.
import type { FastifyReply } from 'fastify';
import type { ApiError, FieldError } from '../service/errors.js';
import { esc, formAction, sendPage } from './pageKit.js';
import { ASSETS } from './preparationAssets.js';

/** JSON for a `<script type="application/json">` block: nothing in it can close the element. */
export const jsonBlock = (id: string, value: unknown) =>
  `<script type="application/json" id="${id}">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>`;

/**
 * Scripts only from this server (no inline script at all); PDF.js's worker too. No frame-ancestors
 * and no X-Frame-Options: the pages are meant to be framed by the client application. form-action
 * names the redirect's origin, since Chromium applies it to the redirect after a form submission.
 */
function csp(redirect?: URL): string {
  return [
    `default-src 'self'`, `script-src 'self'`, `worker-src 'self'`, `style-src 'self' 'unsafe-inline'`, `img-src 'self' data: blob:`,
    `font-src 'self' data:`, `connect-src 'self'`, `object-src 'none'`, `base-uri 'none'`, `form-action ${formAction(redirect)}`,
  ].join('; ');
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2430;background:#f4f6f9}
header{background:#1f3b63;color:#fff;padding:16px 24px}header h1{margin:0;font-size:1.35rem}header p{margin:4px 0 0;opacity:.9}
main{max-width:1280px;margin:0 auto;padding:16px 24px 48px}section{background:#fff;border:1px solid #d9dee7;border-radius:8px;padding:16px;margin:16px 0}
h2{font-size:1.1rem;margin:0 0 12px}label{font-weight:600}.hint{color:#5b6575;font-size:.85rem;font-weight:400}
input[type=text],input[type=email],input[type=search],select{padding:7px;border:1px solid #b8c0cc;border-radius:4px;font:inherit}
.stack label{display:block;margin:0 0 12px}.stack input[type=text]{display:block;width:100%;max-width:480px;margin-top:4px}
.row{display:flex;gap:8px;align-items:center;margin:0 0 8px;flex-wrap:wrap}.row.invalid input{border-color:#b42318}
.error{color:#b42318;font-size:.9rem;margin:4px 0 0}.summary{border-color:#b42318;background:#fff4f3}
.actions{display:flex;gap:12px;align-items:center;flex-wrap:wrap}
button{font:inherit;padding:9px 18px;border-radius:6px;border:1px solid #1f3b63;background:#1f3b63;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1f3b63}button.link{background:none;border:none;color:#1f3b63;padding:2px 6px;text-decoration:underline}
button:disabled{opacity:.6}.done{text-align:center;padding:48px 16px}
.placer{display:grid;grid-template-columns:minmax(0,1fr) 320px;gap:16px;align-items:start}#field-list{position:sticky;top:8px;max-height:calc(100vh - 16px);overflow:auto}
#pages .page{position:relative;margin:0 0 12px;box-shadow:0 1px 4px rgba(0,0,0,.25);background:#fff}
#pages canvas{display:block}.overlay{position:absolute;inset:0;cursor:crosshair}
.box{position:absolute;border:2px solid #2f6fd6;background:rgba(47,111,214,.15);font-size:11px;overflow:hidden;white-space:nowrap;cursor:move;padding:0 2px;color:#1f3b63}
.box.selected{border-color:#e07b00;background:rgba(224,123,0,.2)}.box.invalid{border-color:#b42318}
.field-row{border:1px solid #d9dee7;border-radius:6px;padding:8px;margin:0 0 8px}.field-row.selected{border-color:#e07b00}.field-row.invalid{border-color:#b42318}
.field-head{display:flex;gap:6px;align-items:baseline;flex-wrap:wrap;margin-bottom:6px}.field-head .remove-field{margin-left:auto}
label.prop{display:flex;justify-content:space-between;gap:8px;align-items:center;font-weight:400;font-size:.9rem;margin:4px 0}
label.prop input[type=text],label.prop select{width:170px;padding:4px}
.assign{margin:4px 0 12px 28px}.assign label{display:block;font-weight:400;margin:4px 0}
ul.plain{list-style:none;padding:0;margin:8px 0}table{border-collapse:collapse}td,th{padding:4px 12px 4px 0;text-align:left}
`;

export function layout(title: string, body: string, script = false): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`
    + `<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,"><title>${esc(title)}</title><style>${STYLE}</style>`
    + (script ? `<script type="module" src="${ASSETS}/prep.js"></script>` : '')
    + `</head><body>${body}</body></html>`;
}

export const sendHtml = (reply: FastifyReply, status: number, html: string, redirect?: URL): FastifyReply =>
  sendPage(reply, status, html, csp(redirect));

const TITLES: Record<number, string> = { 403: 'Not allowed', 404: 'Link not valid', 409: 'Please wait', 410: 'Link no longer valid', 413: 'File too large' };

export function errorPage(reply: FastifyReply, e: ApiError): FastifyReply {
  const title = TITLES[e.status] ?? 'Something went wrong';
  return sendHtml(reply, e.status, layout(title, `<main><section class="done" role="alert"><h1>${esc(title)}</h1><p class="message">${esc(e.message)}</p></section></main>`));
}

export const donePage = (reply: FastifyReply, title: string, html: string) =>
  sendHtml(reply, 200, layout(title, `<main><section class="done" id="done"><h1>${esc(title)}</h1>${html}</section></main>`));

/** The problems with a submitted form, listed above it (each also marked at its input where the page can). */
export function summary(errors: FieldError[], describe: (field: string) => string = (f) => f): string {
  if (!errors.length) return '';
  const items = errors.map((e) => {
    const where = e.field && e.field !== 'non_field_errors' ? describe(e.field) : '';
    return `<li>${where ? `<strong>${esc(where)}</strong>: ` : ''}${esc(e.message)}</li>`;
  });
  return `<section class="summary" role="alert" id="problems"><h2>Please check the form</h2><ul>${items.join('')}</ul></section>`;
}

/** The field errors of a refusal, or its message alone. */
export const errorsOf = (e: ApiError): FieldError[] => (e.errors.length ? e.errors : [{ field: '', message: e.message }]);

/** Field kinds the placer offers, with their names. */
export const PLACER_KINDS: Record<string, string> = {
  sig: 'Signature', ini: 'Initials', snm: 'Signer name', inp: 'Text', txt: 'Multi-line text', dat: 'Date',
  tms: 'Signing timestamp', chk: 'Checkbox', att: 'Attachment', stp: 'Stamp',
};

export const kindOptions = (selected = 'sig') =>
  Object.entries(PLACER_KINDS).map(([k, n]) => `<option value="${k}"${k === selected ? ' selected' : ''}>${esc(n)}</option>`).join('');

/** The placer block: the pages with their fields, and the list of fields beside them. */
export function placerHtml(intro: string): string {
  return `<section id="placer"><h2>Fields</h2><p class="hint">${esc(intro)}</p>`
    + `<div class="row"><label for="tool-kind">Kind of field to place</label> <select id="tool-kind">${kindOptions()}</select>`
    + ` <span class="hint" id="pdf-status" aria-live="polite">Choose a PDF to see its pages.</span></div>`
    + `<div class="placer"><div id="pages"></div><div id="field-list" aria-label="Placed fields"></div></div>`
    + `<input type="hidden" name="fields" id="fields-json" value="[]"></section>`;
}
