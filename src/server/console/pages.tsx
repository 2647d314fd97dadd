// The console's smaller pages: sign-in, confirmations, errors, webhooks, the outbox and verify.
import { bundleStateWord } from '../../service/states.js';
import type { BundleMessage, VerifyResult, Webhook, WebhookEvent } from '../../service/types.js';
import { HookEvent, Message } from './bundle.js';
import { bundleUrl } from './find.js';
import { CONSOLE_PREFIX, ListTable, State } from './layout.js';

export function SignInPage({ keyForm, message }: { keyForm: boolean; message?: string }) {
  return (
    <>
      <h1>Sign in to the support console</h1>
      {message && (
        <p class="error" role="alert">
          {message}
        </p>
      )}
      {keyForm ? (
        <form method="post" action={`${CONSOLE_PREFIX}/login`} class="stack">
          <p>
            <label for="key">API key</label>
            <input type="password" id="key" name="key" autoComplete="off" required maxLength={200} />
          </p>
          <p class="hint">
            A key of this server (esign local keys create). It is checked once; the console then keeps a session cookie.
          </p>
          <p>
            <button type="submit">Sign in</button>
          </p>
        </form>
      ) : (
        <p>
          Open the sign-in link that <code>esign console</code> printed. Each link works once; run
          <code>esign console</code> again for a new one.
        </p>
      )}
    </>
  );
}

export function ConfirmPage({
  title,
  text,
  action,
  csrf,
  back,
  danger,
}: {
  title: string;
  text: string;
  action: string;
  csrf: string;
  back: string;
  danger?: boolean;
}) {
  return (
    <section class="confirm" aria-labelledby="confirm-h">
      <h1 id="confirm-h">{title}</h1>
      <p>{text}</p>
      <form method="post" action={action} class="actions">
        <input type="hidden" name="csrf" value={csrf} />
        <button type="submit" id="confirm" class={danger ? 'danger' : undefined}>
          {title}
        </button>
        <a href={back}>Go back</a>
      </form>
    </section>
  );
}

export function ErrorPage({ title, message, back }: { title: string; message: string; back?: string }) {
  return (
    <section class="problem" role="alert">
      <h1>{title}</h1>
      <p>{message}</p>
      {back && (
        <p>
          <a href={back}>Go back</a>
        </p>
      )}
    </section>
  );
}

export function WebhooksPage({
  hooks,
  failing,
  recent,
  now,
  readOnly,
  unavailable,
}: {
  hooks: Webhook[];
  failing: WebhookEvent[];
  recent: WebhookEvent[];
  now: number;
  readOnly: boolean;
  unavailable?: string;
}) {
  const names = new Map(hooks.map((h) => [h.id, h.name]));
  const hookName = (e: WebhookEvent) => names.get(e.webhook) ?? e.webhook;
  const slugOf = (e: WebhookEvent) => {
    try {
      return (JSON.parse(e.payload) as { payload?: { bundle_id?: string } }).payload?.bundle_id;
    } catch {
      return undefined;
    }
  };
  const item = (e: WebhookEvent) => (
    <div class="hook-item">
      <p class="hint">
        To {hookName(e)}
        {slugOf(e) && (
          <>
            {' '}
            · Bundle{' '}
            <a href={bundleUrl(slugOf(e)!)}>
              <code>{slugOf(e)}</code>
            </a>
          </>
        )}
      </p>
      <ul class="hooks">
        <HookEvent e={e} now={now} readOnly={readOnly || !slugOf(e)} slug={slugOf(e) ?? ''} />
      </ul>
    </div>
  );
  return (
    <>
      <h1>Webhooks</h1>
      {unavailable && <p class="note">{unavailable}</p>}
      <section aria-labelledby="wh-h">
        <h2 id="wh-h">Subscriptions</h2>
        {hooks.length === 0 ? (
          <p>No webhook.</p>
        ) : (
          <ListTable heads={['Name', 'URL', 'Enabled', 'Events']}>
            {hooks.map((h) => (
              <tr>
                <td>
                  {h.name}
                  <br />
                  <code class="hint">{h.id}</code>
                </td>
                <td>
                  <code>{h.url}</code>
                </td>
                <td>{h.enabled ? 'Yes' : 'No'}</td>
                <td>{h.event_types.join(', ')}</td>
              </tr>
            ))}
          </ListTable>
        )}
      </section>
      <section aria-labelledby="fail-h">
        <h2 id="fail-h">Failing deliveries</h2>
        {failing.length === 0 ? <p>None failing.</p> : failing.map(item)}
      </section>
      <section aria-labelledby="recent-h">
        <h2 id="recent-h">Recent events</h2>
        {recent.length === 0 ? <p>No event yet.</p> : recent.map(item)}
      </section>
    </>
  );
}

export function OutboxPage({
  messages,
  now,
  unavailable,
}: {
  messages: BundleMessage[];
  now: number;
  unavailable?: string;
}) {
  return (
    <>
      <h1>Outbox</h1>
      {unavailable ? (
        <p class="note">{unavailable}</p>
      ) : (
        <>
          <p class="hint">
            The messages of the most recently created Bundles, newest first, as their recipients see them.
          </p>
          {messages.length === 0 ? (
            <p>No message sent yet.</p>
          ) : (
            messages.map((m) => (
              <div>
                {m.bundle_id && (
                  <p class="hint">
                    Bundle{' '}
                    <a href={bundleUrl(m.bundle_id)}>
                      <code>{m.bundle_id}</code>
                    </a>
                  </p>
                )}
                <Message m={m} now={now} />
              </div>
            ))
          )}
        </>
      )}
    </>
  );
}

export function VerifyPage({ result, hash, csrf }: { result?: VerifyResult; hash?: string; csrf: string }) {
  return (
    <>
      <h1>Verify a PDF</h1>
      <p>
        Drop a PDF here, or choose one: its SHA-256 is computed in this browser (the file is never uploaded), and the
        service says whether it is one of its signed documents.
      </p>
      <div id="drop" class="drop" data-verify={`${CONSOLE_PREFIX}/verify`}>
        <label for="verify-file">Choose a PDF, or drop it here</label>
        <input type="file" id="verify-file" accept="application/pdf,.pdf" />
      </div>
      <form method="post" action={`${CONSOLE_PREFIX}/verify`} class="stack" id="verify-form">
        <input type="hidden" name="csrf" value={csrf} />
        <p>
          <label for="hash">Or paste a SHA-256</label>
          <input
            type="text"
            id="hash"
            name="hash"
            value={hash ?? ''}
            maxLength={64}
            pattern="[0-9a-fA-F]{64}"
            spellcheck={false}
            autoComplete="off"
          />
        </p>
        <p>
          <button type="submit">Verify</button>
        </p>
      </form>
      <div id="verify-result" role="status" aria-live="polite">
        {result && <VerifyAnswer r={result} />}
      </div>
    </>
  );
}

export function VerifyAnswer({ r }: { r: VerifyResult }) {
  const match = r.status === 'match';
  return (
    <section class={`verdict ${match ? 'match' : 'no-match'}`} data-status={r.status}>
      <h2>
        {match ? 'Match: this is a document of the service' : 'No match: the service has no document with this hash'}
      </h2>
      <p>{r.message}</p>
      <dl class="kv">
        <dt>SHA-256</dt>
        <dd>
          <code class="sha">{r.sha256}</code>
        </dd>
        {r.document_type && (
          <>
            <dt>Document</dt>
            <dd>{r.document_type.replace(/_/g, ' ')}</dd>
          </>
        )}
        {r.signed_at && (
          <>
            <dt>Signed</dt>
            <dd>
              <time dateTime={r.signed_at}>{r.signed_at}</time>
            </dd>
          </>
        )}
        {r.envelope && (
          <>
            <dt>Bundle</dt>
            <dd>
              <a href={bundleUrl(r.envelope.bundle_slug)}>
                <code>{r.envelope.bundle_slug}</code>
              </a>{' '}
              <State word={bundleStateWord(r.envelope.status)} code={r.envelope.status} />
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}
