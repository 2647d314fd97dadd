// The console's smaller pages: sign-in, confirmations, errors, webhooks, the outbox and verify.
import { deliveryOutcome } from '../../app/deliveryOutcome.js';
import { disabledWords } from '../../app/inspection.js';
import { similarAddressLead } from '../../app/similarAddresses.js';
import { clockTime } from '../../app/timeWords.js';
import type { WebhookHealth } from '../../app/webhookHealth.js';
import { MESSAGE_KINDS } from '../../domain/enums.js';
import { bundleStateWord, messageKindWord } from '../../domain/states.js';
import type { BundleMessage, Page, VerifyResult, Webhook, WebhookEvent } from '../../service/types.js';
import { bundleOfPayload } from '../../service/webhookEvents.js';
import { HookEvent, Message } from './bundle.js';
import { bundleUrl } from './find.js';
import { CONSOLE_PREFIX, ListTable, Pager, State, When, countOf } from './layout.js';

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
  health,
  failing,
  recent,
  urls,
  now,
  readOnly,
}: {
  hooks: Page<Webhook>;
  health: WebhookHealth[];
  failing: Page<WebhookEvent>;
  recent: Page<WebhookEvent>;
  urls: { hooks: (n: number) => string; failing: (n: number) => string; recent: (n: number) => string };
  now: number;
  readOnly: boolean;
}) {
  const names = new Map(hooks.items.map((h) => [h.id, h.name]));
  const item = (e: WebhookEvent) => {
    const slug = bundleOfPayload(e.payload);
    return (
      <div class="hook-item">
        <p class="hint">
          To {names.get(e.webhook) ?? e.webhook}
          {slug && (
            <>
              {' '}
              · Bundle{' '}
              <a href={bundleUrl(slug)}>
                <code>{slug}</code>
              </a>
            </>
          )}
        </p>
        <ul class="hooks">
          <HookEvent e={e} now={now} readOnly={readOnly || !slug} slug={slug ?? ''} />
        </ul>
      </div>
    );
  };
  return (
    <>
      <h1>Webhooks</h1>
      <section aria-labelledby="wh-h">
        <h2 id="wh-h">Subscriptions: {countOf(hooks.total, 'webhook', 'webhooks')}</h2>
        {hooks.items.length === 0 ? (
          <p>No webhook{hooks.total ? ' on this page' : ''}.</p>
        ) : (
          <ListTable heads={['Name', 'URL', 'Enabled', 'Events', 'Health']}>
            {hooks.items.map((h, i) => (
              <tr>
                <td>
                  {h.name}
                  <br />
                  <code class="hint">{h.id}</code>
                </td>
                <td>
                  <code>{h.url}</code>
                </td>
                <td>
                  {h.enabled ? (
                    'Yes'
                  ) : (
                    <>
                      No:{' '}
                      {disabledWords(
                        {
                          disabled_at: h.disabled_at ?? null,
                          disabled_after_failures: h.disabled_after_failures ?? null,
                        },
                        (iso) => clockTime(iso, now),
                      )}
                      <br />
                      <span class="hint">
                        Enable it again: <code>esign webhook update {h.id} --enable</code>, or from a Bundle's page.
                      </span>
                    </>
                  )}
                </td>
                <td>{h.event_types.join(', ')}</td>
                <td>
                  <Health h={health[i]!} now={now} enabled={h.enabled} />
                </td>
              </tr>
            ))}
          </ListTable>
        )}
        <Pager page={hooks} url={urls.hooks} label="Pages of webhooks" />
      </section>
      <section aria-labelledby="fail-h">
        <h2 id="fail-h">Failing deliveries: {countOf(failing.total, 'event', 'events')} not delivered</h2>
        {failing.items.length === 0 ? (
          <p>{failing.total ? 'None on this page.' : 'None failing.'}</p>
        ) : (
          failing.items.map(item)
        )}
        <Pager page={failing} url={urls.failing} label="Pages of failing deliveries" />
      </section>
      <section aria-labelledby="recent-h">
        <h2 id="recent-h">Every event, newest first: {countOf(recent.total, 'event', 'events')}</h2>
        {recent.items.length === 0 ? (
          <p>{recent.total ? 'None on this page.' : 'No event yet.'}</p>
        ) : (
          recent.items.map(item)
        )}
        <Pager page={recent} url={urls.recent} label="Pages of events" />
      </section>
    </>
  );
}

/** A webhook's health in a few words: how many of its events were delivered, its latest failure, its next retry. */
function Health({ h, now, enabled }: { h: WebhookHealth; now: number; enabled: boolean }) {
  if (!h.events) return <span class="none">No event yet</span>;
  const rate = Math.floor((h.successRate ?? 0) * 1000) / 10;
  const last = h.lastFailure;
  return (
    <dl class="kv health">
      <dt>Delivered</dt>
      <dd>
        {rate}%{' '}
        <span class="hint">
          ({(h.events - h.failing).toLocaleString('en')} of {h.events.toLocaleString('en')})
        </span>
      </dd>
      <dt>Last failure</dt>
      <dd>
        {last ? (
          <>
            <When iso={last.attempt?.timestamp ?? last.event.created} now={now} />{' '}
            <span class="reason">{last.attempt ? deliveryOutcome(last.attempt) : 'not attempted yet'}</span>
          </>
        ) : (
          'none'
        )}
      </dd>
      <dt>Next retry</dt>
      <dd>{!enabled ? 'none while disabled' : h.nextRetry ? <When iso={h.nextRetry} now={now} /> : 'none due'}</dd>
    </dl>
  );
}

/** The outbox's filters, as the query string gave them (bounded; a kind not known is dropped). */
export interface OutboxFilter {
  to: string;
  bundle: string;
  kind: string;
}

const text = (v: unknown, max: number) => (typeof v === 'string' ? v.trim().slice(0, max) : '');

export function outboxFilter(q: Record<string, unknown>): OutboxFilter {
  const kind = text(q.kind, 20);
  return {
    to: text(q.to, 254),
    bundle: text(q.bundle, 64),
    kind: (MESSAGE_KINDS as readonly string[]).includes(kind) ? kind : '',
  };
}

const outboxUrl = (f: OutboxFilter) =>
  `${CONSOLE_PREFIX}/outbox?${new URLSearchParams(Object.entries(f).filter(([, v]) => v))}`;

/** The outbox as a dense table (one message a row, its text on demand), with `esign local outbox`'s filters. */
export function OutboxPage({
  messages,
  filter,
  similar = [],
  url,
  now,
  readOnly,
  unavailable,
}: {
  messages: Page<BundleMessage> | undefined;
  filter: OutboxFilter;
  /** Addresses messages went to a typo away from the recipient asked for, when it found nothing. */
  similar?: string[];
  url: (n: number) => string;
  now: number;
  readOnly: boolean;
  unavailable?: string;
}) {
  const filtered = Boolean(filter.to || filter.bundle || filter.kind);
  return (
    <>
      <h1>Outbox</h1>
      {unavailable || !messages ? (
        <p class="note">{unavailable}</p>
      ) : (
        <section aria-labelledby="outbox-h">
          {/* biome-ignore lint/a11y/useSemanticElements: a form with role search is the landmark every browser knows */}
          <form role="search" method="get" action={`${CONSOLE_PREFIX}/outbox`} class="find">
            <div class="filter-row">
              <p>
                <label for="to">Recipient</label>
                <input type="text" id="to" name="to" value={filter.to} maxLength={254} autoComplete="off" />
              </p>
              <p>
                <label for="bundle">Bundle</label>
                <input type="text" id="bundle" name="bundle" value={filter.bundle} maxLength={64} autoComplete="off" />
              </p>
              <p>
                <label for="kind">Kind</label>
                <select id="kind" name="kind">
                  <option value="">Any</option>
                  {MESSAGE_KINDS.map((k) => (
                    <option value={k} selected={filter.kind === k}>
                      {messageKindWord(k)}
                    </option>
                  ))}
                </select>
              </p>
              <p>
                <button type="submit">Filter</button> {filtered && <a href={`${CONSOLE_PREFIX}/outbox`}>Show all</a>}
              </p>
            </div>
          </form>
          <h2 id="outbox-h">
            {countOf(messages.total, 'message', 'messages')}
            {filtered ? ' found' : ''}, newest first
          </h2>
          <p class="hint">
            As their recipients see them (open a row for its text); links that act as a signer are cut short. The same
            filters in a terminal: esign local outbox --to ADDRESS --bundle SLUG --kind KIND.
          </p>
          {messages.items.length === 0 ? (
            <>
              <p>{messages.total ? 'None on this page.' : filtered ? 'No message matches.' : 'No message sent yet.'}</p>
              {similar.length > 0 && (
                <p class="note">
                  {similarAddressLead(filter.to, similar.length)}{' '}
                  {similar.map((a, i) => (
                    <>
                      {i > 0 && ', '}
                      <a href={outboxUrl({ ...filter, to: a })}>{a}</a>
                    </>
                  ))}
                  .
                </p>
              )}
            </>
          ) : (
            <ListTable heads={['When', 'Kind', 'To', 'Subject', 'Bundle']} extra="outbox">
              {messages.items.map((m) => (
                <tr>
                  <td>
                    <When iso={m.created} now={now} clock />
                  </td>
                  <td>
                    {messageKindWord(m.kind)} <span class="hint">{m.channel === 'sms' ? 'SMS' : 'email'}</span>
                  </td>
                  <td>{m.recipient}</td>
                  <td>
                    <details>
                      <summary>{m.subject || m.body.slice(0, 60)}</summary>
                      <Message m={m} now={now} copy={!readOnly && (m.bundle_id ?? false)} />
                    </details>
                  </td>
                  <td>
                    {m.bundle_id ? (
                      <a href={bundleUrl(m.bundle_id)}>
                        <code class="id">{m.bundle_id}</code>
                      </a>
                    ) : (
                      <span class="none">—</span>
                    )}
                  </td>
                </tr>
              ))}
            </ListTable>
          )}
          <Pager page={messages} url={url} label="Pages of messages" />
        </section>
      )}
    </>
  );
}

/** A signing link, whole, after it was asked for: whose it is, and a copy button. */
export function SigningLinkPage({ link, who, back }: { link: string; who: string; back: string }) {
  return (
    <section class="confirm" aria-labelledby="link-h">
      <h1 id="link-h">Signing link of {who}</h1>
      <p class="failed-note">Whoever opens this link signs as {who}. Send it only to them, by a channel you trust.</p>
      <p>
        <label for="signing-link">Signing link</label>
        <input type="text" id="signing-link" value={link} readOnly class="wide" spellcheck={false} />
      </p>
      <p class="actions">
        <button type="button" class="copy" data-copy="signing-link">
          Copy
        </button>
        <a href={back}>Back to the Bundle</a>
      </p>
    </section>
  );
}

export function VerifyPage({
  result,
  hash,
  csrf,
  now,
}: {
  result?: VerifyResult;
  hash?: string;
  csrf: string;
  now: number;
}) {
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
        {result && <VerifyAnswer r={result} now={now} />}
      </div>
    </>
  );
}

export function VerifyAnswer({ r, now }: { r: VerifyResult; now: number }) {
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
              <When iso={r.signed_at} now={now} clock />
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
