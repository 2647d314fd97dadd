// What the preparation pages share beyond the page kit: their family (script, CSP, titles), the
// field placer, and how a refusal's errors are listed.
import type { ComponentChildren } from 'preact';
import type { FieldError } from '../../../domain/errors.js';
import { PREP_ASSETS } from '../assets.js';
import type { PageFamily, Problem } from '../kit.js';
import type { PlacedField, PrepData } from './data.js';
import { linkPath } from '../../../service/linkPaths.js';

/** The script renders PDFs with PDF.js, whose worker and font data come from this server too. */
export const PREPARATION: PageFamily = {
  name: 'preparation',
  script: `${PREP_ASSETS}/prep.js`,
  csp: [`worker-src 'self'`, `connect-src 'self'`, `object-src 'none'`],
  titles: { 409: 'Please wait' },
};

export const sessionBase = (token: string) => linkPath('prepare_session', encodeURIComponent(token));

/** Field kinds the placer offers, with their names. */
const PLACER_KINDS: Record<string, string> = {
  sig: 'Signature',
  ini: 'Initials',
  snm: 'Signer name',
  inp: 'Text',
  txt: 'Multi-line text',
  dat: 'Date',
  tms: 'Signing timestamp',
  chk: 'Checkbox',
  att: 'Attachment',
  stp: 'Stamp',
};

/** The field errors of a refusal, or its message alone. */
export const errorsOf = (e: { errors: FieldError[]; message: string }): FieldError[] =>
  e.errors.length ? e.errors : [{ field: '', message: e.message }];

/** A refusal's errors for the list above the form, each said where it is when the page can. */
export const problemsOf = (errors: FieldError[], describe: (field: string) => string = (f) => f): Problem[] =>
  errors.map((e) => ({
    where: e.field && e.field !== 'non_field_errors' ? describe(e.field) : undefined,
    message: e.message,
  }));

/** Messages for placed fields by index, from errors named `<prefix>fields[3].kind`. */
function placedFieldErrors(errors: FieldError[], prefix: string): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  for (const e of errors) {
    if (!e.field.startsWith(prefix)) continue;
    const m = /^fields\[(\d+)\]\.?(.*)$/.exec(e.field.slice(prefix.length));
    if (m) (out[Number(m[1])] ??= []).push(m[2] ? `${m[2]}: ${e.message}` : e.message);
  }
  return out;
}

/** The indexes of the items of `list` that an error names: `packets[2].email` -> 2. */
export function itemsWithErrors(errors: FieldError[], list: 'packets' | 'roles'): Set<number> {
  const item = new RegExp(`^${list}\\[(\\d+)\\]`);
  return new Set(errors.flatMap((e) => item.exec(e.field)?.slice(1, 2).map(Number) ?? []));
}

/**
 * What the placer is handed: the kinds it offers, who a field is given to (roles or signers), the fields
 * placed so far and their errors, named under `prefix` (none: no field placed on a PDF yet).
 */
export const placerData = (
  mode: 'template' | 'bundle',
  session: string,
  pdfUrl: string | null,
  state: { fields: unknown[]; errors: FieldError[] },
  prefix: string | undefined,
): PrepData => ({
  mode,
  session,
  assign: mode === 'template' ? 'editor_roles' : 'editors',
  kinds: PLACER_KINDS,
  pdfUrl,
  fields: state.fields as PlacedField[],
  fieldErrors: prefix === undefined ? {} : placedFieldErrors(state.errors, prefix),
});

/** `fields[3].kind` -> "Field 4 (kind)". */
export function describeField(field: string): string | undefined {
  const f = /^fields\[(\d+)\]\.?(.*)$/.exec(field);
  return f ? `Field ${Number(f[1]) + 1}${f[2] ? ` (${f[2]})` : ''}` : undefined;
}

/** The page's `<main>`: its session URL, and the data its script reads (JSON in an attribute, escaped like any other). */
export function PrepMain({ data, children }: { data: PrepData; children: ComponentChildren }) {
  return (
    <main data-session-url={data.session} data-prep={JSON.stringify(data)}>
      {children}
    </main>
  );
}

/** The placer block: the pages with their fields, and the list of fields beside them. */
export function Placer({ intro }: { intro: string }) {
  return (
    <section id="placer">
      <h2>Fields</h2>
      <p class="hint">{intro}</p>
      <div class="row">
        <label for="tool-kind">Kind of field to place</label>{' '}
        <select id="tool-kind">
          {Object.entries(PLACER_KINDS).map(([k, n]) => (
            <option value={k} selected={k === 'sig'}>
              {n}
            </option>
          ))}
        </select>{' '}
        <span class="hint" id="pdf-status" aria-live="polite">
          Choose a PDF to see its pages.
        </span>
      </div>
      <div class="placer">
        <div id="pages" />
        <section id="field-list" aria-label="Placed fields" />
      </div>
      <input type="hidden" name="fields" id="fields-json" value="[]" />
    </section>
  );
}
