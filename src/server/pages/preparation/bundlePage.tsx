// The Bundle preparation page: documents (an uploaded PDF with fields placed on it, and/or the
// templates the session offers with their roles given to signers), the signers, then Send or
// Save as draft. With draft_bundle, the page shows that draft and sends it.
import type { BundleView, TemplateSummary } from '../../../service/hosting.js';
import type { FieldError } from '../../../domain/errors.js';
import type { Bundle } from '../../../service/types.js';
import { Problems } from '../kit.js';
import { Placer, PrepMain, describeField, itemsWithErrors, placerData, problemsOf } from './common.js';
import { ListRow, RowInput } from './listRow.js';

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
  label: '',
  signers: [{ key: 'signer-1', name: '', email: '' }],
  templates: [],
  assignments: {},
  fields: [],
  uploaded: false,
  errors: [],
});

const draftTitle = (b: Bundle) => (b.label ? `Draft: ${b.label}` : 'Draft Bundle');
export const bundleTitle = (v: BundleView) => (v.draft ? draftTitle(v.draft) : 'Prepare documents for signature');

function SignerRow({ s, invalid }: { s: Signer; invalid: boolean }) {
  return (
    <ListRow kind="signer" invalid={invalid}>
      <RowInput label="Name" name="signer_name" value={s.name} required />
      <RowInput label="Email" type="email" name="signer_email" value={s.email} required />
      <RowInput label="Key" name="signer_key" value={s.key} data-default="signer-#" size={10} />
    </ListRow>
  );
}

function TemplateChoice({ t, state }: { t: TemplateSummary; state: BundleFormState }) {
  const signers = state.signers.filter((s) => s.key);
  return (
    <div class="template-choice">
      <label>
        <input
          type="checkbox"
          name="template"
          value={t.id}
          checked={state.templates.includes(t.id)}
          data-template-name={t.name}
        />{' '}
        {t.name}
      </label>
      <div class="assign" id={`assign-${t.id}`}>
        {t.roles.length ? <p class="hint">Who signs as:</p> : <p class="hint">This template has no roles.</p>}
        {t.roles.map((r) => {
          const value = state.assignments[t.id]?.[r.key];
          return (
            <label>
              {r.label || r.key}{' '}
              <select name={`assign:${t.id}:${r.key}`} data-assign data-value={value ?? ''} data-role={r.key}>
                <option value="">Choose a signer</option>
                {signers.map((s) => (
                  <option value={s.key} selected={s.key === value}>
                    {s.name ? `${s.name} (${s.key})` : s.key}
                  </option>
                ))}
              </select>
            </label>
          );
        })}
      </div>
    </div>
  );
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
      if (i < uploads) return describeField(d[2] ?? '') ?? `Uploaded PDF${d[2] ? ` (${d[2]})` : ''}`;
      return `Template "${names[i - uploads] ?? i}"${d[2] ? ` (${d[2]})` : ''}`;
    }
    return { packets: 'Signers', documents: 'Documents', upload: 'Uploaded PDF', label: 'Title' }[field] ?? field;
  };
}

export function BundlePage({ base, v, state }: { base: string; v: BundleView; state: BundleFormState }) {
  if (v.draft) return <DraftPage base={base} b={v.draft} errors={state.errors} />;
  const badSigners = itemsWithErrors(state.errors, 'packets');
  const data = placerData('bundle', base, null, state, state.uploaded ? 'documents[0].' : undefined);
  return (
    <>
      <header>
        <h1>{bundleTitle(v)}</h1>
        <p>Choose the documents, add the signers, then send or save a draft.</p>
      </header>
      <PrepMain data={data}>
        <Problems items={problemsOf(state.errors, describer(v, state))} />
        <form id="prep-form" method="post" action={`${base}/bundle`} enctype="multipart/form-data" novalidate>
          <section class="stack">
            <h2>Title</h2>
            <label for="label">
              Title of the Bundle (optional) <input type="text" id="label" name="label" value={state.label} />
            </label>
          </section>
          <section class="stack" id="documents">
            <h2>Documents</h2>
            {v.spec.upload_pdf && (
              <label for="pdf">
                Upload a PDF <input type="file" id="pdf" name="pdf" accept="application/pdf,.pdf" />
              </label>
            )}
            {v.spec.upload_pdf && state.uploaded && state.errors.length > 0 && (
              <p class="error">Choose the PDF again: files are not kept when a form is refused.</p>
            )}
            {v.templates.length ? (
              <fieldset id="templates">
                <legend>Templates</legend>
                {v.templates.map((t) => (
                  <TemplateChoice t={t} state={state} />
                ))}
              </fieldset>
            ) : (
              !v.spec.upload_pdf && <p class="error">No template is available to this session.</p>
            )}
          </section>
          <section>
            <h2>Signers</h2>
            {v.spec.allow_search_signers && (
              <>
                <div class="row">
                  <label for="signer-search">Find a saved person</label>{' '}
                  <input type="search" id="signer-search" placeholder="Name or email" autocomplete="off" />
                </div>
                <ul class="plain" id="signer-results" aria-live="polite" />
              </>
            )}
            <div id="signers">
              {state.signers.map((s, i) => (
                <SignerRow s={s} invalid={badSigners.has(i)} />
              ))}
            </div>
            <template id="signers-template">
              <SignerRow s={{ key: '', name: '', email: '' }} invalid={false} />
            </template>
            <button type="button" class="secondary" data-add-row="signers" id="add-signer">
              Add signer
            </button>
          </section>
          {v.spec.upload_pdf && (
            <Placer intro="Fields on the uploaded PDF: choose the kind, click where it goes, and pick the signer who fills it in." />
          )}
          <div class="actions">
            <button type="submit" name="action" value="send" id="send">
              Send
            </button>
            <button type="submit" name="action" value="draft" class="secondary" id="save-draft">
              Save as draft
            </button>
          </div>
        </form>
      </PrepMain>
    </>
  );
}

function DraftPage({ base, b, errors }: { base: string; b: Bundle; errors: FieldError[] }) {
  return (
    <>
      <header>
        <h1>{draftTitle(b)}</h1>
        <p>Bundle {b.id} is a draft: check it, then send it.</p>
      </header>
      <PrepMain data={{ mode: 'draft', session: base, fields: [] }}>
        <Problems items={problemsOf(errors)} />
        <section>
          <h2>Documents</h2>
          <ul id="draft-documents">
            {b.documents.map((d) => (
              <li data-document={d.key}>{d.name || d.key}</li>
            ))}
          </ul>
        </section>
        <section>
          <h2>Signers</h2>
          <table id="draft-signers">
            <thead>
              <tr>
                <th>Name</th>
                <th>Email or phone</th>
                <th>Delivery</th>
              </tr>
            </thead>
            <tbody>
              {b.packets.map((p) => (
                <tr data-signer={p.id}>
                  <td>{p.name}</td>
                  <td>{p.email ?? p.phone ?? ''}</td>
                  <td>{p.deliver_via ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <form id="prep-form" method="post" action={`${base}/bundle`} enctype="multipart/form-data">
          <div class="actions">
            <button type="submit" name="action" value="send" id="send">
              Send
            </button>
          </div>
        </form>
      </PrepMain>
    </>
  );
}
