// Fields a document gets from its own content once its PDF is in hand: form fields already in the
// PDF (`converted_pdf_fields_to`), and auto-placements found by their text in the PDF.
import type { DocumentSpec, StoredField } from '../../bundles/fields.js';

export interface Problem {
  field: string;
  message: string;
}

export interface PreparedSpec extends DocumentSpec {
  converted_pdf_fields_to?: string | null;
  /** Form field name -> signer key (API 2.19); fields it does not name go to converted_pdf_fields_to, if set. */
  adobe_field_assignments?: Record<string, string> | null;
  html_fields_mode?: string | null;
  [more: string]: unknown;
}

const fieldKey = (name: string) =>
  name
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 100) || 'field';

function uniqueKey(wanted: string, taken: Set<string>): string {
  let key = wanted;
  for (let n = 2; taken.has(key); n++) key = `${wanted}-${n}`;
  taken.add(key);
  return key;
}

/** Adds converted form fields and places auto-placements; problems name the request field at fault. */
export async function deriveFields(
  pdf: Buffer,
  spec: PreparedSpec,
  index: number,
): Promise<{ spec: PreparedSpec; problems: Problem[] }> {
  const problems: Problem[] = [];
  const fields = [...(spec.fields ?? [])];
  const taken = new Set([...fields, ...(spec.auto_placements ?? [])].map((f) => f.key));

  const assigned = spec.adobe_field_assignments ?? {};
  if (spec.converted_pdf_fields_to || Object.keys(assigned).length) {
    const { formFieldsOfPdf } = await import('./pdfForm.js');
    const form = await formFieldsOfPdf(pdf);
    const names = new Set(form.map((f) => f.name));
    for (const name of Object.keys(assigned)) {
      if (names.has(name)) continue;
      const known = [...names].slice(0, 20).join(', ');
      problems.push({
        field: `documents[${index}].adobe_field_assignments.${name}`,
        message: `The PDF has no form field "${name}" (its fields: ${known || 'none'}).`,
      });
    }
    for (const f of form) {
      const signer = Object.hasOwn(assigned, f.name) ? assigned[f.name] : spec.converted_pdf_fields_to;
      if (!signer) continue;
      fields.push({
        key: uniqueKey(fieldKey(f.name), taken),
        kind: f.kind,
        label: f.name,
        page: f.page,
        x: f.x,
        y: f.y,
        w: f.w,
        h: f.h,
        editors: [signer],
        ...(f.required ? { required: true } : {}),
        ...(f.value ? { initial_value: f.value } : {}),
      });
    }
  }

  const placed: StoredField[] = [];
  const wanted = spec.auto_placements ?? [];
  if (wanted.length) {
    const { findTextsInPdf } = await import('./pdfText.js');
    const searches = wanted.map((ap) => String(ap.search ?? ''));
    // The text is extracted once for all the searches (an empty one finds nothing).
    const found = await findTextsInPdf(
      pdf,
      searches.map((s) => s || '\u0000'),
    );
    for (const [j, ap] of wanted.entries()) {
      const search = searches[j]!;
      const hits = search ? found[j]! : [];
      if (!hits.length) {
        problems.push({
          field: `documents[${index}].auto_placements[${j}].search`,
          message: `"${search}" was not found in the text of the document.`,
        });
        continue;
      }
      const { offset_x, offset_y, ...rest } = ap as StoredField & { offset_x?: number; offset_y?: number };
      hits.forEach((hit, k) => {
        placed.push({
          ...rest,
          key: k === 0 ? ap.key : uniqueKey(`${ap.key}-${k + 1}`, taken),
          page: hit.page,
          x: hit.x + (offset_x ?? 0),
          y: hit.y + (offset_y ?? 0),
          w: ap.w ?? 150,
          h: ap.h ?? 20,
        });
      });
    }
  }
  return { spec: { ...spec, fields, auto_placements: placed }, problems };
}
