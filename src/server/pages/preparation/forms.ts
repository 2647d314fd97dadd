// Reading the preparation pages' forms: what goes to the engine (the draft), and what the page
// shows again if the engine refuses it (the state).
import type { BundleDraft, TemplateDraft } from '../../../service/hosting.js';
import type { FieldError } from '../../../domain/errors.js';
import type { BundleFormState, Signer } from './bundlePage.js';
import type { TemplateFormState } from './templatePage.js';

export interface FormParts {
  /** Text inputs in document order; a name may repeat (one per row). */
  values: [string, string][];
  /** Files as received, read. */
  files: { field: string; filename: string; contentType: string; data: Buffer }[];
}

export interface ReadForm<D, S> {
  draft: D;
  state: S;
  /** Problems found before the engine is asked (e.g. a field list that is not JSON). */
  problems: FieldError[];
}

const all = (p: FormParts, name: string) => p.values.filter(([n]) => n === name).map(([, v]) => v);
const one = (p: FormParts, name: string) => all(p, name)[0] ?? '';

function jsonList(text: string, problems: FieldError[]): Record<string, unknown>[] {
  if (!text.trim()) return [];
  try {
    const v = JSON.parse(text) as unknown;
    if (Array.isArray(v) && v.every((x) => x && typeof x === 'object' && !Array.isArray(x)))
      return v as Record<string, unknown>[];
  } catch {
    // reported below
  }
  problems.push({ field: 'fields', message: 'The placed fields could not be read; place them again.' });
  return [];
}

export function templateForm(p: FormParts): ReadForm<TemplateDraft, TemplateFormState> {
  const problems: FieldError[] = [];
  const keys = all(p, 'role_key');
  const labels = all(p, 'role_label');
  const roles = keys
    .map((k, i) => ({ key: k.trim(), label: (labels[i] ?? '').trim() }))
    .filter((r) => r.key || r.label)
    .map((r) => (r.label ? r : { key: r.key }));
  const fields = jsonList(one(p, 'fields'), problems);
  const file = p.files.find((f) => f.field === 'pdf');
  const name = one(p, 'name').trim();
  return {
    draft: { name, roles, fields, pdf: file && { data: file.data, filename: file.filename || 'template.pdf' } },
    state: { name, roles, fields, errors: [] },
    problems,
  };
}

export function bundleForm(p: FormParts): ReadForm<BundleDraft, BundleFormState> {
  const problems: FieldError[] = [];
  const names = all(p, 'signer_name');
  const emails = all(p, 'signer_email');
  const keys = all(p, 'signer_key');
  const used = new Set<string>();
  const signers: Signer[] = names
    .map((n, i) => ({ name: n.trim(), email: (emails[i] ?? '').trim(), key: (keys[i] ?? '').trim() }))
    .filter((s) => s.name || s.email || s.key)
    .map((s, i) => {
      let key = s.key;
      for (let n = i + 1; !key || used.has(key); n++) key = `signer-${n}`;
      used.add(key);
      return { ...s, key };
    });
  const templates = [...new Set(all(p, 'template'))];
  const assignments: Record<string, Record<string, string>> = {};
  for (const [n, v] of p.values) {
    const m = /^assign:([^:]+):(.+)$/.exec(n);
    if (m && v) (assignments[m[1]!] ??= {})[m[2]!] = v;
  }
  const file = p.files.find((f) => f.field === 'pdf');
  const placed = jsonList(one(p, 'fields'), problems);
  const fields = file ? placed.map((f) => ({ ...f, doc: 0 })) : [];
  const label = one(p, 'label').trim();
  return {
    draft: {
      action: one(p, 'action') === 'draft' ? 'draft' : 'send',
      label: label || undefined,
      signers: signers.map((s) => ({ key: s.key, name: s.name, ...(s.email ? { email: s.email } : {}) })),
      uploads: file
        ? [{ filename: file.filename || 'document.pdf', data: file.data, contentType: file.contentType }]
        : [],
      fields,
      templates: templates.map((id) => ({
        template_id: id,
        assignments: Object.entries(assignments[id] ?? {}).map(([role, signer]) => ({ role, signer })),
      })),
    },
    state: { label, signers, templates, assignments, fields: placed, uploaded: !!file, errors: [] },
    problems,
  };
}
