// The template authoring page: the PDF (the edited template's, or an upload), the name, the roles,
// and fields placed by clicking on the rendered pages.
import type { FieldError } from '../service/errors.js';
import type { TemplateSummary } from '../local/preparation.js';
import { esc } from './pageKit.js';
import { PLACER_KINDS, jsonBlock, layout, placerHtml, summary } from './preparationHtml.js';

export interface TemplateFormState {
  name: string;
  roles: { key: string; label?: string }[];
  fields: unknown[];
  errors: FieldError[];
}

export const initialTemplateState = (t: TemplateSummary | undefined): TemplateFormState => ({
  name: t?.name ?? '',
  roles: t?.roles ?? [],
  fields: t?.fields ?? [],
  errors: [],
});

const roleRow = (r: { key: string; label?: string }, invalid: boolean) =>
  `<div class="row role${invalid ? ' invalid' : ''}"><label class="hint">Key <input type="text" name="role_key" value="${esc(r.key)}" required></label>`
  + `<label class="hint">Label <input type="text" name="role_label" value="${esc(r.label ?? '')}"></label>`
  + `<button type="button" class="link remove-row">Remove</button></div>`;

/** `fields[3].kind` -> 3 and its message, for the placer's list. */
function fieldErrors(errors: FieldError[]): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  for (const e of errors) {
    const m = /^fields\[(\d+)\]\.?(.*)$/.exec(e.field);
    if (m) (out[Number(m[1])] ??= []).push(m[2] ? `${m[2]}: ${e.message}` : e.message);
  }
  return out;
}

function describe(field: string): string {
  const f = /^fields\[(\d+)\]\.?(.*)$/.exec(field);
  if (f) return `Field ${Number(f[1]) + 1}${f[2] ? ` (${f[2]})` : ''}`;
  const r = /^roles\[(\d+)\]\.?(.*)$/.exec(field);
  if (r) return `Role ${Number(r[1]) + 1}${r[2] ? ` (${r[2]})` : ''}`;
  return { name: 'Name', pdf: 'PDF', roles: 'Roles', fields: 'Fields', filename: 'PDF' }[field] ?? field;
}

export function templatePage(base: string, editing: TemplateSummary | undefined, state: TemplateFormState): string {
  const title = editing ? `Edit template: ${editing.name}` : 'New template';
  const badRoles = new Set(state.errors.map((e) => /^roles\[(\d+)\]/.exec(e.field)?.[1]).filter((x) => x !== undefined).map(Number));
  const roles = state.roles.map((r, i) => roleRow(r, badRoles.has(i))).join('');
  const data = {
    mode: 'template', session: base, assign: 'editor_roles', kinds: PLACER_KINDS,
    pdfUrl: editing ? `${base}/template.pdf` : null, fields: state.fields, fieldErrors: fieldErrors(state.errors),
  };
  const body = `<header><h1>${esc(title)}</h1><p>Name the template, add the signer roles, and click on the pages to place fields.</p></header>`
    + `<main data-session-url="${esc(base)}">${summary(state.errors, describe)}`
    + `<form id="prep-form" method="post" action="${esc(`${base}/template`)}" enctype="multipart/form-data" novalidate>`
    + `<section class="stack"><h2>Template</h2>`
    + `<label for="name">Name <input type="text" id="name" name="name" value="${esc(state.name)}" required></label>`
    + `<label for="pdf">${editing ? 'Replace the PDF (optional)' : 'PDF'} <input type="file" id="pdf" name="pdf" accept="application/pdf,.pdf"></label>`
    + (editing ? `<p class="hint">Without a new PDF, the template keeps its current one (shown below).</p>` : '')
    + `</section>`
    + `<section><h2>Roles</h2><p class="hint">The signers this template is written for, e.g. key <code>client</code>, label "Client".</p>`
    + `<div id="roles">${roles}</div><template id="roles-template">${roleRow({ key: '', label: '' }, false)}</template>`
    + `<button type="button" class="secondary" data-add-row="roles" id="add-role">Add role</button></section>`
    + placerHtml('Choose the kind of field, then click on a page where it goes (its top-left corner). Drag a field to move it; set its details in the list.')
    + `<div class="actions"><button type="submit" id="save">Save template</button></div></form></main>`
    + jsonBlock('prep-data', data);
  return layout(title, body, true);
}
