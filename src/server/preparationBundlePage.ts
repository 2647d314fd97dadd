// The Bundle preparation page: documents (an uploaded PDF with fields placed on it, and/or the
// templates the session offers with their roles given to signers), the signers, then Send or
// Save as draft. With draft_bundle, the page shows that draft and sends it.
import type { BundleView, TemplateSummary } from '../local/preparation.js';
import type { FieldError } from '../service/errors.js';
import type { Bundle } from '../service/types.js';
import { esc } from './pageKit.js';
import { PLACER_KINDS, jsonBlock, layout, placerHtml, summary } from './preparationHtml.js';

export interface Signer {
  key: string;
  name: string;
  email: string;
}

export interface BundleFormState {
  label: string;
  signers: Signer[];
  /** Chosen template ids, in order. */
  templates: string[];
  /** template id -> role key -> signer key. */
  assignments: Record<string, Record<string, string>>;
  fields: unknown[];
  /** A PDF was uploaded with the refused form: the browser cannot keep it, so the page asks for it again. */
  uploaded: boolean;
  errors: FieldError[];
}

export const initialBundleState = (): BundleFormState => ({
  label: '', signers: [{ key: 'signer-1', name: '', email: '' }], templates: [], assignments: {}, fields: [], uploaded: false, errors: [],
});

const signerRow = (s: Signer, invalid: boolean) =>
  `<div class="row signer${invalid ? ' invalid' : ''}">`
  + `<label class="hint">Name <input type="text" name="signer_name" value="${esc(s.name)}" required></label>`
  + `<label class="hint">Email <input type="email" name="signer_email" value="${esc(s.email)}" required></label>`
  + `<label class="hint">Key <input type="text" name="signer_key" value="${esc(s.key)}" data-default="signer-#" size="10"></label>`
  + `<button type="button" class="link remove-row">Remove</button></div>`;

const options = (signers: Signer[], value: string | undefined) =>
  `<option value="">Choose a signer</option>` + signers.filter((s) => s.key).map((s) =>
    `<option value="${esc(s.key)}"${s.key === value ? ' selected' : ''}>${esc(s.name ? `${s.name} (${s.key})` : s.key)}</option>`).join('');

function templateChoice(t: TemplateSummary, state: BundleFormState): string {
  const chosen = state.templates.includes(t.id);
  const roles = t.roles.map((r) => {
    const value = state.assignments[t.id]?.[r.key];
    return `<label>${esc(r.label || r.key)} <select name="${esc(`assign:${t.id}:${r.key}`)}" data-assign data-value="${esc(value ?? '')}" data-role="${esc(r.key)}">${options(state.signers, value)}</select></label>`;
  }).join('');
  return `<div class="template-choice"><label><input type="checkbox" name="template" value="${esc(t.id)}"${chosen ? ' checked' : ''} data-template-name="${esc(t.name)}"> ${esc(t.name)}</label>`
    + `<div class="assign" id="assign-${esc(t.id)}">${roles ? `<p class="hint">Who signs as:</p>${roles}` : '<p class="hint">This template has no roles.</p>'}</div></div>`;
}

/** Says where an engine error points: `packets[0].email` is the first signer's email, and so on. */
function describer(v: BundleView, state: BundleFormState) {
  const uploads = state.uploaded ? 1 : 0;
  const names = state.templates.map((id) => v.templates.find((t) => t.id === id)?.name ?? id);
  return (field: string): string => {
    const p = /^packets\[(\d+)\]\.?(.*)$/.exec(field);
    if (p) return `Signer ${Number(p[1]) + 1}${p[2] ? ` (${p[2]})` : ''}`;
    const d = /^documents\[(\d+)\]\.?(.*)$/.exec(field);
    if (d) {
      const i = Number(d[1]);
      const f = /^fields\[(\d+)\]\.?(.*)$/.exec(d[2] ?? '');
      if (i < uploads) return f ? `Field ${Number(f[1]) + 1}${f[2] ? ` (${f[2]})` : ''}` : `Uploaded PDF${d[2] ? ` (${d[2]})` : ''}`;
      return `Template "${names[i - uploads] ?? i}"${d[2] ? ` (${d[2]})` : ''}`;
    }
    return { packets: 'Signers', documents: 'Documents', upload: 'Uploaded PDF', label: 'Title' }[field] ?? field;
  };
}

function placedFieldErrors(errors: FieldError[], uploaded: boolean): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  if (!uploaded) return out;
  for (const e of errors) {
    const m = /^documents\[0\]\.fields\[(\d+)\]\.?(.*)$/.exec(e.field);
    if (m) (out[Number(m[1])] ??= []).push(m[2] ? `${m[2]}: ${e.message}` : e.message);
  }
  return out;
}

export function bundlePage(base: string, v: BundleView, state: BundleFormState): string {
  if (v.draft) return draftPage(base, v.draft, state.errors);
  const title = 'Prepare documents for signature';
  const badSigners = new Set(state.errors.map((e) => /^packets\[(\d+)\]/.exec(e.field)?.[1]).filter((x) => x !== undefined).map(Number));
  const upload = v.spec.upload_pdf
    ? `<label for="pdf">Upload a PDF <input type="file" id="pdf" name="pdf" accept="application/pdf,.pdf"></label>`
      + (state.uploaded && state.errors.length ? `<p class="error">Choose the PDF again: files are not kept when a form is refused.</p>` : '')
    : '';
  const templates = v.templates.length
    ? `<fieldset id="templates"><legend>Templates</legend>${v.templates.map((t) => templateChoice(t, state)).join('')}</fieldset>`
    : (v.spec.upload_pdf ? '' : '<p class="error">No template is available to this session.</p>');
  const search = v.spec.allow_search_signers
    ? `<div class="row"><label for="signer-search">Find a saved person</label> <input type="search" id="signer-search" placeholder="Name or email" autocomplete="off"></div><ul class="plain" id="signer-results" aria-live="polite"></ul>`
    : '';
  const data = {
    mode: 'bundle', session: base, assign: 'editors', kinds: PLACER_KINDS, pdfUrl: null,
    fields: state.fields, fieldErrors: placedFieldErrors(state.errors, state.uploaded),
  };
  const body = `<header><h1>${esc(title)}</h1><p>Choose the documents, add the signers, then send or save a draft.</p></header>`
    + `<main data-session-url="${esc(base)}">${summary(state.errors, describer(v, state))}`
    + `<form id="prep-form" method="post" action="${esc(`${base}/bundle`)}" enctype="multipart/form-data" novalidate>`
    + `<section class="stack"><h2>Title</h2><label for="label">Title of the Bundle (optional) <input type="text" id="label" name="label" value="${esc(state.label)}"></label></section>`
    + `<section class="stack" id="documents"><h2>Documents</h2>${upload}${templates}</section>`
    + `<section><h2>Signers</h2>${search}<div id="signers">${state.signers.map((s, i) => signerRow(s, badSigners.has(i))).join('')}</div>`
    + `<template id="signers-template">${signerRow({ key: '', name: '', email: '' }, false)}</template>`
    + `<button type="button" class="secondary" data-add-row="signers" id="add-signer">Add signer</button></section>`
    + (v.spec.upload_pdf ? placerHtml('Fields on the uploaded PDF: choose the kind, click where it goes, and pick the signer who fills it in.') : '')
    + `<div class="actions"><button type="submit" name="action" value="send" id="send">Send</button>`
    + `<button type="submit" name="action" value="draft" class="secondary" id="save-draft">Save as draft</button></div></form></main>`
    + jsonBlock('prep-data', data);
  return layout(title, body, true);
}

function draftPage(base: string, b: Bundle, errors: FieldError[]): string {
  const title = b.label ? `Draft: ${b.label}` : 'Draft Bundle';
  const docs = b.documents.map((d) => `<li data-document="${esc(d.key)}">${esc(d.name || d.key)}</li>`).join('');
  const signers = b.packets.map((p) =>
    `<tr data-signer="${esc(p.id)}"><td>${esc(p.name)}</td><td>${esc(p.email ?? p.phone ?? '')}</td><td>${esc(p.deliver_via ?? '')}</td></tr>`).join('');
  const body = `<header><h1>${esc(title)}</h1><p>Bundle ${esc(b.id)} is a draft: check it, then send it.</p></header>`
    + `<main data-session-url="${esc(base)}">${summary(errors)}`
    + `<section><h2>Documents</h2><ul id="draft-documents">${docs}</ul></section>`
    + `<section><h2>Signers</h2><table id="draft-signers"><thead><tr><th>Name</th><th>Email or phone</th><th>Delivery</th></tr></thead><tbody>${signers}</tbody></table></section>`
    + `<form id="prep-form" method="post" action="${esc(`${base}/bundle`)}" enctype="multipart/form-data">`
    + `<div class="actions"><button type="submit" name="action" value="send" id="send">Send</button></div></form></main>`
    + jsonBlock('prep-data', { mode: 'draft', session: base, fields: [] });
  return layout(title, body, true);
}
