// A Bundle's whole story on one page: state, signers, one timeline, messages as their recipients
// saw them, webhook events with each attempt, files with their SHA-256 and a preview, and actions
// (each behind a confirmation page). The part inside #story is what a live update replaces.
import type { ComponentChildren } from 'preact';
import { deliveryParts } from '../../app/deliveryOutcome.js';
import { filesZipName } from '../../app/filesZip.js';
import { type Inspection, type TimelineEntry, outcomeWords, waitsForWords } from '../../app/inspection.js';
import { clockTime, timelineStyle } from '../../app/timeWords.js';
import type { SignerReminders } from '../../app/signerReminders.js';
import { redactSecretLinks, signingLinkIn } from '../../app/secretLinks.js';
import {
  bundleStateWord,
  signedFilesWord,
  isInProgress,
  signerStateWord,
  webhookEventStateWord,
} from '../../domain/states.js';
import { isDeliveredStatus } from '../../service/webhookEvents.js';
import type { BundleDataItem, BundleMessage, WebhookEvent } from '../../service/types.js';
import { bundleUrl } from './find.js';
import { CONSOLE_PREFIX, ListTable, State, StateCell, RENDER_ZONE, When, WhenCell } from './layout.js';
import { type Command, commandsFor } from './commands.js';
import type { Flash } from './sessions.js';

export interface BundleView {
  r: Inspection;
  now: number;
  readOnly: boolean;
  /** How the page keeps itself current, in words. */
  live: string;
  /** Its live stream, told what the page shows. */
  liveUrl: string;
  /** What the last action's backend answered, shown at the top once. */
  flash?: Flash;
  /** The values signers filled in, or why there are none to show yet. */
  data: BundleDataItem[] | string;
}

const SOURCE_WORDS: Record<TimelineEntry['source'], string> = {
  event: 'Audit',
  message: 'Message',
  webhook: 'Webhook',
  attempt: 'Attempt',
};

const cancelUrl = (slug: string) => `${bundleUrl(slug)}/cancel`;
const remindUrl = (slug: string, packet: string) => `${bundleUrl(slug)}/packets/${encodeURIComponent(packet)}/remind`;
const enableUrl = (slug: string, webhook: string) => `${bundleUrl(slug)}/webhook/${encodeURIComponent(webhook)}/enable`;
const resendMissedUrl = (slug: string, webhook: string) =>
  `${bundleUrl(slug)}/webhook/${encodeURIComponent(webhook)}/resend-missed`;
const resendUrl = (slug: string, event: string) =>
  `${bundleUrl(slug)}/webhook-events/${encodeURIComponent(event)}/resend`;
const fileUrl = (slug: string, n: number) => `${bundleUrl(slug)}/files/${n}`;
const signingLinkUrl = (slug: string, message: number) => `${bundleUrl(slug)}/messages/${message}/signing-link`;

/** An action's outcome: a success is a status, a failure an alert, each styled as what it is. */
function Banner({ flash }: { flash: Flash }) {
  return flash.ok ? (
    <p class="done-note" role="status">
      {flash.text}
    </p>
  ) : (
    <p class="failed-note" role="alert">
      {flash.text}
    </p>
  );
}

export function BundlePage(v: BundleView) {
  const b = v.r.bundle;
  return (
    <div data-live={v.liveUrl}>
      <p class="crumbs">
        <a href={`${CONSOLE_PREFIX}/`}>Find</a> › <code>{b.id}</code>
      </p>
      {v.flash && <Banner flash={v.flash} />}
      <p id="live-status" class="hint" role="status" aria-live="polite">
        {v.live}
      </p>
      <div id="story">
        <Story {...v} />
      </div>
    </div>
  );
}

/** Everything that changes as the Bundle moves on. */
function Story({ r, now, readOnly, data }: BundleView) {
  const b = r.bundle;
  return (
    <>
      <h1>
        {b.label || '(no label)'} <State word={bundleStateWord(b.status)} code={b.status} />
        {b.is_test && <span class="tag">test</span>}
      </h1>
      <Summary r={r} now={now} readOnly={readOnly} />
      <Files r={r} />
      <Signers r={r} now={now} readOnly={readOnly} />
      <Timeline r={r} now={now} />
      <FieldValues data={data} />
      <Messages r={r} now={now} readOnly={readOnly} />
      <Webhooks r={r} now={now} readOnly={readOnly} />
      <Commands list={commandsFor(r, readOnly)} />
      {r.unavailable.length > 0 && (
        <section aria-labelledby="missing-h">
          <h2 id="missing-h">Not shown on this backend</h2>
          <ul>
            {r.unavailable.map((u) => (
              <li>{u}</li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** One term of a `<dl>` and what it says. */
const Kv = ({ term, children }: { term: string; children: ComponentChildren }) => (
  <>
    <dt>{term}</dt>
    <dd>{children}</dd>
  </>
);

const SUMMARY_TIMES = [
  ['Created', 'created'],
  ['Sent', 'sent'],
  ['Completed', 'completed_at'],
  ['Expires', 'expires'],
] as const;

function Summary({ r, now, readOnly }: Pick<BundleView, 'r' | 'now' | 'readOnly'>) {
  const b = r.bundle;
  const canCancel = !readOnly && (isInProgress(b.status) || b.status === 'dr');
  return (
    <section aria-labelledby="summary-h">
      <h2 id="summary-h">Summary</h2>
      <dl class="kv">
        <Kv term="Slug">
          <code>{b.id}</code>
        </Kv>
        <Kv term="Documents">
          {b.documents.map((d) => d.name).join(', ') || '—'}
          <span class="hint"> · signed files: {signedFilesWord(b)}</span>
        </Kv>
        {SUMMARY_TIMES.map(([term, key]) => (
          <Kv term={term}>
            <When iso={b[key]} now={now} />
          </Kv>
        ))}
        <Kv term="Requester">
          {b.requester_name} {b.requester_email && <span class="hint">&lt;{b.requester_email}&gt;</span>}
        </Kv>
        {b.custom_key && (
          <Kv term="custom_key">
            <code>{b.custom_key}</code>
          </Kv>
        )}
        {b.tags.length > 0 && (
          <Kv term="Tags">
            {b.tags.map((t) => (
              <span class="tag">{t}</span>
            ))}
          </Kv>
        )}
        <Ending r={r} now={now} />
        {b.errors.map((e, i) => (
          <>
            <dt>Error {i + 1}</dt>
            <dd class="error">{e.message}</dd>
          </>
        ))}
      </dl>
      {canCancel && (
        <p class="actions">
          <a class="button danger" href={cancelUrl(b.id)}>
            Cancel this Bundle…
          </a>
        </p>
      )}
    </section>
  );
}

/** The audit events that end a Bundle, and what the summary calls them. */
const ENDINGS: Record<string, string> = { pd: 'Declined', bx: 'Cancelled', be: 'Expired', bf: 'Failed' };

/** Why the Bundle ended, near the top: who declined and their reason, when. */
function Ending({ r, now }: { r: Inspection; now: number }) {
  const e = [...r.timeline].reverse().find((t) => t.source === 'event' && t.code in ENDINGS);
  if (!e) return null;
  const reason = e.facts[0]?.value;
  return (
    <Kv term={ENDINGS[e.code]!}>
      {e.signer ? `by ${e.signer}, ` : ''}
      <When iso={e.at} now={now} />
      {reason && (
        <>
          : <q class="reason">{reason}</q>
        </>
      )}
    </Kv>
  );
}

function Signers({ r, now, readOnly }: Pick<BundleView, 'r' | 'now' | 'readOnly'>) {
  const b = r.bundle;
  return (
    <section aria-labelledby="signers-h">
      <h2 id="signers-h">Signers</h2>
      <ListTable heads={['Signer', 'Delivery', 'State', 'Last viewed', 'Completed', !readOnly && 'Action']}>
        {r.signers.map((s) => (
          <tr>
            <td>
              {s.name}
              <br />
              <code class="hint">{s.id}</code>
              {s.waits_for.length > 0 && (
                <>
                  <br />
                  <span class="hint waits">{waitsForWords(s.waits_for, (iso) => clockTime(iso, now))}</span>
                </>
              )}
              {s.reminders && (
                <>
                  <br />
                  <Reminders r={s.reminders} now={now} />
                </>
              )}
            </td>
            <td>
              {s.deliver_via === 'phone' ? 'SMS' : 'Email'} to <span class="addr">{s.address ?? '—'}</span>
            </td>
            <StateCell word={signerStateWord(s.status, b.status)} code={s.status} />
            <WhenCell iso={s.last_viewed} now={now} />
            <WhenCell iso={s.completed_at} now={now} />
            {!readOnly && (
              <td>
                <RemindAction slug={b.id} s={s} now={now} />
              </td>
            )}
          </tr>
        ))}
      </ListTable>
    </section>
  );
}

type Signer = Inspection['signers'][number];

/** A signer's reminders: how many went and when, and when the next may go (by hand, automatically). */
function Reminders({ r, now }: { r: SignerReminders; now: number }) {
  return (
    <span class="hint reminders">
      Reminders:{' '}
      {r.sent ? (
        <>
          {r.sent} sent, the last <When iso={r.last_at} now={now} clock />
        </>
      ) : (
        'none sent'
      )}
      {'; '}
      {r.by_hand_at ? (
        Date.parse(r.by_hand_at) <= now ? (
          'one can be sent now'
        ) : (
          <>
            the next can be sent after <When iso={r.by_hand_at} now={now} clock /> (once an hour)
          </>
        )
      ) : (
        `none can be sent: ${r.why_not}`
      )}
      {'; '}
      {r.automatic_at ? (
        <>
          next automatic {Date.parse(r.automatic_at) <= now ? 'due now' : <When iso={r.automatic_at} now={now} clock />}{' '}
          ({r.automatic})
        </>
      ) : (
        `automatic: ${r.automatic}`
      )}
    </span>
  );
}

/** Remind, offered only when it can succeed now; else when it can, or why it cannot. */
function RemindAction({ slug, s, now }: { slug: string; s: Signer; now: number }) {
  const at = s.reminders?.by_hand_at;
  if (!at) return <span class="none">—</span>;
  if (Date.parse(at) <= now) return <a href={remindUrl(slug, s.id)}>Remind {s.name}…</a>;
  return (
    <span class="hint">
      Remind after <When iso={at} now={now} clock />
    </span>
  );
}

function Timeline({ r, now }: Pick<BundleView, 'r' | 'now'>) {
  // Several days: every row dated (the browser's script decides again in the viewer's zone).
  const style = timelineStyle(
    r.timeline.map((t) => t.at),
    RENDER_ZONE,
  );
  return (
    <section aria-labelledby="timeline-h">
      <h2 id="timeline-h">Timeline</h2>
      <ol class="timeline" id="timeline" data-count={r.timeline.length}>
        {r.timeline.map((t) => (
          <li class={`t-${t.source}`}>
            <When iso={t.at} now={now} style={style} /> <span class="source">{SOURCE_WORDS[t.source]}</span>{' '}
            <span class="what">{redactSecretLinks(t.head)}</span>
            {t.signer && <span class="hint"> · {t.signer}</span>}
            {t.facts.length > 0 && (
              <ul class="facts">
                {t.facts.map((f) => (
                  <li>
                    <span class="label">{f.label}</span>{' '}
                    {f.time ? <When iso={f.value} now={now} /> : <code>{redactSecretLinks(f.value)}</code>}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

function FieldValues({ data }: { data: BundleDataItem[] | string }) {
  return (
    <section aria-labelledby="data-h">
      <h2 id="data-h">Field values</h2>
      {typeof data === 'string' ? (
        <p>{data}</p>
      ) : data.length === 0 ? (
        <p>No field.</p>
      ) : (
        <ListTable heads={['Document', 'Field', 'Value', 'Filled by']}>
          {data.map((d) => (
            <tr>
              <td>
                <code>{d.doc_key}</code>
              </td>
              <td>{d.label || d.field_key}</td>
              <td>
                {d.value}
                {d.attachments.map((a) => (
                  <span class="tag">{a.name}</span>
                ))}
              </td>
              <td>{d.filled_by || '—'}</td>
            </tr>
          ))}
        </ListTable>
      )}
    </section>
  );
}

function Messages({ r, now, readOnly }: { r: Inspection; now: number; readOnly: boolean }) {
  return (
    <section aria-labelledby="messages-h">
      <h2 id="messages-h">Messages sent</h2>
      {r.messages.length === 0 ? (
        <p>
          {r.unavailable.some((u) => u.startsWith('messages'))
            ? 'This backend does not show the messages it sends.'
            : 'No message sent yet.'}
        </p>
      ) : (
        r.messages.map((m) => <Message m={m} now={now} copy={!readOnly && r.bundle.id} />)
      )}
    </section>
  );
}

/**
 * One message as its recipient would see it (Mailpit-style): who, subject, the text itself, with its
 * secret links cut short. With `copy` (a console that may act), a signing link can be asked for whole.
 */
export function Message({ m, now, copy }: { m: BundleMessage; now: number; copy?: string | false }) {
  return (
    <article class="message" aria-label={`${m.channel === 'sms' ? 'SMS' : 'Email'} to ${m.recipient}`}>
      <dl class="kv">
        <dt>To</dt>
        <dd>
          {m.recipient}{' '}
          <span class="hint">
            ({m.channel === 'sms' ? 'SMS' : 'email'}, {m.kind.replace(/_/g, ' ')})
          </span>
        </dd>
        <dt>When</dt>
        <dd>
          <When iso={m.created} now={now} />
        </dd>
        {m.subject && (
          <>
            <dt>Subject</dt>
            <dd>{m.subject}</dd>
          </>
        )}
      </dl>
      <pre class="body">{redactSecretLinks(m.body)}</pre>
      {copy && signingLinkIn(m.body) && (
        <p>
          <a href={signingLinkUrl(copy, m.id)}>Copy signing link…</a>
        </p>
      )}
    </article>
  );
}

function Webhooks({ r, now, readOnly }: { r: Inspection; now: number; readOnly: boolean }) {
  const events = [...r.webhook_events].sort(
    (a, b) => Number(a.success) - Number(b.success) || b.created.localeCompare(a.created),
  );
  const names = new Map(r.webhooks.map((w) => [w.id, w.name]));
  return (
    <section aria-labelledby="hooks-h">
      <h2 id="hooks-h">Webhook deliveries</h2>
      {r.webhooks.length > 0 && (
        <ListTable heads={['Webhook', 'State', 'Outcome for this Bundle']} extra="hooks-subscribed">
          {r.webhooks.map((w) => (
            <tr class={w.enabled ? '' : 'failing'}>
              <td>
                {w.name} <span class="hint">{w.url}</span>
              </td>
              <td>
                {w.enabled ? (
                  'Enabled'
                ) : (
                  <>Disabled {!readOnly && <a href={enableUrl(r.bundle.id, w.id)}>Enable again…</a>}</>
                )}
              </td>
              <td>
                {outcomeWords(w, (iso) => clockTime(iso, now))}
                {w.enabled && !readOnly && (w.missed ?? 0) > 0 && (
                  <>
                    {' '}
                    <a href={resendMissedUrl(r.bundle.id, w.id)}>Send the {w.missed} it missed about this Bundle…</a>
                  </>
                )}
              </td>
            </tr>
          ))}
        </ListTable>
      )}
      {r.webhook_events_total > events.length && (
        <p class="note">
          The first {events.length} of {r.webhook_events_total.toLocaleString('en')} webhook events are shown: esign
          webhook events --bundle {r.bundle.id} --all lists every one.
        </p>
      )}
      {events.length === 0 ? (
        <p>No webhook event for this Bundle.</p>
      ) : (
        <ul class="hooks">
          {events.map((e) => (
            <HookEvent e={e} now={now} readOnly={readOnly} slug={r.bundle.id} hook={names.get(e.webhook)} />
          ))}
        </ul>
      )}
    </section>
  );
}

export function HookEvent({
  e,
  now,
  readOnly,
  slug,
  hook,
}: {
  e: WebhookEvent;
  now: number;
  readOnly: boolean;
  slug: string;
  /** The webhook's name, when known. */
  hook?: string;
}) {
  const state = webhookEventStateWord(e);
  return (
    <li class={`hook ${e.success ? 'ok' : 'failing'}`}>
      <p>
        <strong>{e.event_type}</strong> to webhook <strong>{hook ?? e.webhook}</strong>{' '}
        <span class={`state ${e.success ? 's-co' : 's-fa'}`}>{state}</span> <When iso={e.created} now={now} clock />{' '}
        <span class="hint">
          event <code>{e.pk}</code>
        </span>
        {!e.success && e.next_attempt_at && (
          <span class="hint">
            {' '}
            · next retry <When iso={e.next_attempt_at} now={now} />
          </span>
        )}
      </p>
      {e.deliveries.length > 0 && (
        <ol class="attempts">
          {e.deliveries.map((d, i) => {
            const { status, reason } = deliveryParts(d);
            const ok = isDeliveredStatus(d.status);
            return (
              <li class={ok ? 'ok' : 'failed'}>
                Attempt {i + 1}: <When iso={d.timestamp} now={now} clock /> <strong>{status}</strong>{' '}
                <span class="outcome">{ok ? 'delivered' : 'failed'}</span>
                {reason && <span class="reason"> — {reason}</span>}
              </li>
            );
          })}
        </ol>
      )}
      {!readOnly && !e.success && (
        <p>
          <a href={resendUrl(slug, e.pk)}>Resend this delivery…</a>
        </p>
      )}
    </li>
  );
}

function Files({ r }: { r: Inspection }) {
  const slug = r.bundle.id;
  return (
    <section aria-labelledby="files-h">
      <h2 id="files-h">Files</h2>
      {!r.files ? (
        <p>{r.files_note}</p>
      ) : r.files.length === 0 ? (
        <p>No file yet.</p>
      ) : (
        <>
          <p>
            <a href={`${bundleUrl(slug)}/files.zip`} download={filesZipName(slug)}>
              Download all {r.files.length} files (zip)
            </a>
          </p>
          <ListTable heads={['File', 'Kind', 'Bytes', 'SHA-256', 'Open']} extra="files">
            {r.files.map((f, i) => (
              <tr>
                <td>{f.name ?? '—'}</td>
                <td>{(f.kind ?? 'file').replace(/_/g, ' ')}</td>
                <td>{f.size?.toLocaleString('en') ?? '—'}</td>
                <td>
                  <code class="sha">{f.sha256 ?? '—'}</code>
                </td>
                <td>
                  <a href={fileUrl(slug, i)} download={f.name ?? `file-${i}.pdf`}>
                    Download
                  </a>{' '}
                  <button
                    type="button"
                    class="link preview"
                    data-src={fileUrl(slug, i)}
                    data-name={f.name ?? `file ${i + 1}`}
                    aria-controls="preview"
                  >
                    Preview
                  </button>
                </td>
              </tr>
            ))}
          </ListTable>
          <figure id="preview" class="preview-box" hidden>
            <figcaption id="preview-caption" aria-live="polite" />
            <div class="preview-nav">
              <button type="button" class="secondary" id="preview-prev">
                Previous page
              </button>
              <button type="button" class="secondary" id="preview-next">
                Next page
              </button>
            </div>
            <canvas id="preview-canvas" />
          </figure>
        </>
      )}
    </section>
  );
}

function Commands({ list }: { list: Command[] }) {
  return (
    <section aria-labelledby="cmd-h">
      <h2 id="cmd-h">As esign commands</h2>
      <ul class="commands">
        {list.map((c, i) => (
          <li>
            <span class="hint">{c.what}</span>
            <br />
            <code id={`cmd-${i}`}>{c.line}</code>{' '}
            <button type="button" class="link copy" data-copy={`cmd-${i}`}>
              Copy
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
