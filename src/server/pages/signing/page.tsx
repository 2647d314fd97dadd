// The signing page: the documents, the signer's fields by document, Sign, and Decline.
import type { SigningField, SigningView } from '../../../service/hosting.js';
import { PAGE_ASSETS } from '../assets.js';
import { type PageFamily, Problems } from '../kit.js';
import { linkPath } from '../../../service/linkPaths.js';

/**
 * The PDFs show in <object> (Chromium's viewer is a frame). Its script only hints (required fields
 * left); the server checks every rule and answers with the errors next to their fields.
 */
export const SIGNING: PageFamily = {
  name: 'signing',
  script: `${PAGE_ASSETS}/signing.js`,
  csp: [`object-src 'self'`, `frame-src 'self'`],
  titles: { 409: 'You cannot sign right now' },
};

export interface FormState {
  values?: Record<string, string>;
  errors?: Map<string, string[]>;
  general?: string[];
}

const sessionBase = (token: string) => linkPath('session', encodeURIComponent(token));

const PATTERN_HINTS: Record<string, string> = {
  email: 'An email address',
  bank_routing: 'A 9-digit bank routing number',
  bank_account: 'A bank account number (4 to 17 digits)',
  letters: 'Letters only',
  numbers: 'A number',
  phone: 'A phone number',
  ssn: 'A social security number (123-45-6789)',
  zip_code: 'A ZIP code',
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
function FieldInput({ f, id, value, signerName }: { f: SigningField; id: string; value: string; signerName: string }) {
  const a = {
    id,
    'aria-describedby': `${id}-hint ${id}-err`,
    'aria-required': f.required ? ('true' as const) : undefined,
  };
  const name = `value:${f.ref}`;
  switch (f.kind) {
    case 'txt':
      // The parser drops a newline right after <textarea>: one of our own keeps the value's own.
      return <textarea {...a} name={name} rows={4}>{`\n${value}`}</textarea>;
    case 'chk':
      return <input type="checkbox" {...a} name={name} value="true" checked={value === 'true'} />;
    case 'dat':
      return <input type="date" {...a} name={name} value={value} />;
    case 'att':
      return (
        <input
          type="file"
          {...a}
          name={`file:${f.ref}`}
          multiple
          accept={f.v_attachment_types?.length ? f.v_attachment_types.map((t) => `.${t}`).join(',') : undefined}
        />
      );
    case 'sig':
    case 'ini':
      return <input type="text" class="sig" {...a} name={name} value={value} autocomplete="off" />;
    case 'snm':
      return <output id={id}>{value || signerName}</output>;
    case 'tms':
      return <output id={id}>Filled in when you sign</output>;
    default:
      return (
        <input
          type="text"
          {...a}
          name={name}
          value={value}
          inputmode={f.v_pattern === 'email' ? 'email' : f.v_pattern === 'numbers' ? 'decimal' : undefined}
        />
      );
  }
}

function Field({ v, f, i, state }: { v: SigningView; f: SigningField; i: number; state: FormState }) {
  const id = `f${i}`;
  const errors = state.errors?.get(f.ref) ?? [];
  const value = state.values?.[f.ref] ?? (f.kind === 'chk' && state.values ? 'false' : f.value);
  return (
    <div
      class={errors.length ? 'field invalid' : 'field'}
      data-field={f.ref}
      data-kind={f.kind}
      data-required={f.required || undefined}
      data-attached={f.attached.length > 0 || undefined}
    >
      <label for={id}>
        {f.label}
        {f.required && <span class="req">required</span>}
        {f.page ? <span class="where"> · page {f.page}</span> : null}
      </label>
      <FieldInput f={f} id={id} value={value} signerName={v.signer.name} />
      <p class="hint" id={`${id}-hint`}>
        {hintOf(f)}
      </p>
      {f.attached.length > 0 && <p class="hint">Attached: {f.attached.join(', ')}</p>}
      <p class="error" id={`${id}-err`} role="alert" hidden={!errors.length}>
        {errors.map((m, n) => (
          <>
            {n > 0 && <br />}
            {m}
          </>
        ))}
      </p>
    </div>
  );
}

export const signingTitle = (v: SigningView) => v.bundle.label || 'Documents to sign';

export function SigningPage({ v, state }: { v: SigningView; state: FormState }) {
  const base = sessionBase(v.session.token);
  let i = 0;
  const byDoc = v.documents
    .map((d) => ({ d, fields: v.fields.filter((f) => f.docKey === d.key) }))
    .filter((x) => x.fields.length);
  return (
    <>
      <header>
        <h1>{signingTitle(v)}</h1>
        <p>
          Sent by {v.requester.name}
          {v.requester.email && ` <${v.requester.email}>`} to {v.signer.name}
        </p>
      </header>
      <main data-session-url={base}>
        <Problems items={(state.general ?? []).map((message) => ({ message }))} />
        <section>
          <h2>Documents</h2>
          {v.documents.map((d) => {
            const src = `${base}/documents/${encodeURIComponent(d.key)}`;
            return (
              <div class="doc" data-document={d.key}>
                <h3>
                  {d.name}
                  {d.pages ? (
                    <>
                      {' '}
                      <span class="where">
                        ({d.pages} page{d.pages === 1 ? '' : 's'})
                      </span>
                    </>
                  ) : null}
                </h3>
                <object data={src} type="application/pdf" title={d.name}>
                  <p>
                    <a href={src} target="_blank" rel="noopener">
                      Open {d.name}
                    </a>
                  </p>
                </object>
                <p>
                  <a href={src} target="_blank" rel="noopener">
                    Open in a new tab
                  </a>
                </p>
              </div>
            );
          })}
        </section>
        <form id="sign-form" method="post" action={`${base}/sign`} enctype="multipart/form-data" novalidate>
          <section>
            <h2>Your fields</h2>
            {byDoc.length ? (
              byDoc.map(({ d, fields }) => (
                <fieldset>
                  <legend>{d.name}</legend>
                  {fields.map((f) => (
                    <Field v={v} f={f} i={i++} state={state} />
                  ))}
                </fieldset>
              ))
            ) : (
              <p>There is nothing to fill in; sign to accept the documents.</p>
            )}
            <div class="actions">
              <button type="submit" id="sign">
                Sign
              </button>
              <span class="left" id="left" aria-live="polite" />
            </div>
          </section>
        </form>
        <section>
          <details>
            <summary>Decline to sign</summary>
            <form id="decline-form" method="post" action={`${base}/decline`} enctype="multipart/form-data">
              <div class="field">
                <label for="reason">Why do you decline?</label>
                <textarea id="reason" name="reason" rows={3} required />
              </div>
              <button type="submit" class="secondary danger" id="decline">
                Decline
              </button>
            </form>
          </details>
          {v.canReassign ? <ReassignForm base={base} /> : null}
        </section>
      </main>
    </>
  );
}

function ReassignForm({ base }: { base: string }) {
  return (
    <details>
      <summary>Ask someone else to sign</summary>
      <form id="reassign-form" method="post" action={`${base}/reassign`} enctype="multipart/form-data">
        <div class="field">
          <label for="ra-name">Their name</label>
          <input type="text" id="ra-name" name="name" required />
        </div>
        <div class="field">
          <label for="ra-email">Their email address</label>
          <input type="text" id="ra-email" name="email" inputmode="email" required />
        </div>
        <div class="field">
          <label for="ra-reason">Why (optional)</label>
          <textarea id="ra-reason" name="reason" rows={2} />
        </div>
        <button type="submit" class="secondary" id="reassign">
          Ask them to sign
        </button>
      </form>
    </details>
  );
}
