// Everything support needs about one Bundle, gathered through the port: the Bundle, its signers,
// one timeline (audit events, messages sent, webhook events and their attempts) and its files.
// Both front doors tell a Bundle's story from it: `esign bundle inspect` and the support console.
import { ApiError } from '../domain/errors.js';
import type { EsignService } from '../service/service.js';
import {
  bundleStateWord,
  eventDetail,
  isEnded,
  eventWord,
  isPacketDone,
  signerStateWord,
  signersWhoseTurnItIs,
  webhookEventStateWord,
} from '../domain/states.js';
import type {
  Bundle,
  BundleEvent,
  BundleMessage,
  FileObject,
  MissedWebhookEvents,
  Webhook,
  WebhookEvent,
} from '../service/types.js';
import { deliveryOutcome, deliveryParts } from './deliveryOutcome.js';
import { type SignerReminders, signerReminders } from './signerReminders.js';
import { WEBHOOK_EVENT_OF, packetOfPayload } from '../service/webhookEvents.js';
import { consoleBundleLink, noServerNote, runningServerLinks } from './runningServer.js';

/** The signer's name for a packet id, or the id when it is not one of the Bundle's. */
export const signerName = (b: Bundle, packetId: string | undefined | null): string =>
  (packetId && b.packets.find((p) => p.id === packetId)?.name) || (packetId ?? '');

const isLive = (bundleStatus: string) => bundleStatus === 'se' || bundleStatus === 'st';

/** "waits for Marc-André (viewed 1d ago)": `when` puts a time in words. */
export function waitsForWords(
  waits: { name: string; last_viewed: string | null }[],
  when: (iso: string) => string = (iso) => iso,
): string {
  if (!waits.length) return '';
  const one = (w: { name: string; last_viewed: string | null }) =>
    `${w.name} (${w.last_viewed ? `viewed ${when(w.last_viewed)}` : 'not viewed yet'})`;
  return `signs in order: waits for ${waits.map(one).join(' and ')}`;
}

/** A fact of an entry a person needs whole (a reason, an id, a link), on a line of its own when the entry does not fit. */
export interface TimelineFact {
  label: string;
  value: string;
  /** The value is an ISO time (shown in words by a terminal or a page). */
  time?: boolean;
}

export interface TimelineEntry {
  at: string;
  source: 'event' | 'message' | 'webhook' | 'attempt';
  code: string;
  signer: string | null;
  /** The whole entry in one line (piped output and --json keep it). */
  what: string;
  /** The entry without its facts. */
  head: string;
  facts: TimelineFact[];
}

/** An entry's text from its head and facts: "head: reason, next retry 2026-... [event ID]" as before. */
const entry = (
  e: Omit<TimelineEntry, 'what'>,
  what = [e.head, ...e.facts.map((f) => `${f.label} ${f.value}`)].join(', '),
): TimelineEntry => ({ ...e, what });

/** The detail an event of this kind carries, as a person calls it (an address is a fact: never broken). */
const DETAIL_LABELS: Record<string, string> = {
  pd: 'reason',
  bx: 'reason',
  bf: 'error',
  ff: 'error',
  be: 'reason',
  ns: 'to',
  pr: 'to',
};

export interface Inspection {
  bundle: Bundle;
  signers: {
    id: string;
    name: string;
    address: string | null;
    deliver_via: string;
    status: string;
    /** The signer's state in words ("Sent", "Viewed", "Declined"). */
    state: string;
    /** Their place in a signing order (the Bundle's in_order). */
    order: number;
    last_viewed: string | null;
    /** When they signed; null for a signer who declined (declined_at says when). */
    completed_at: string | null;
    declined_at?: string | null;
    /** In a signing order, the signers whose turn it is while this one waits (empty when it is their turn or they are done). */
    waits_for: { name: string; last_viewed: string | null }[];
    /** Reminders sent, and when the next may go (by hand, automatically); null once they have finished. */
    reminders: SignerReminders | null;
  }[];
  timeline: TimelineEntry[];
  files: FileObject[] | null;
  /** Why there are no files (not ready, say). */
  files_note: string | null;
  /** Where links open: the running `esign serve`, or null with `links_note` saying why not. */
  serving_url: string | null;
  /** This Bundle's page in the running server's support console, or null (none runs, or it serves no console). */
  console_url: string | null;
  links_note: string | null;
  /** Parts this backend does not offer. */
  unavailable: string[];
  /** The messages sent (email and SMS), oldest first: empty when the backend does not offer them. */
  messages: BundleMessage[];
  /** The Bundle's webhook events, each with its delivery attempts (the first WEBHOOK_PAGES pages of them). */
  webhook_events: WebhookEvent[];
  /** How many webhook events the Bundle has: more than `webhook_events` holds when the list stopped. */
  webhook_events_total: number;
  /** Each webhook subscribed to an event type the Bundle produced, enabled or not, with its outcome. */
  webhooks: WebhookSubscription[];
}

const WEBHOOK_PAGES = 5;

/** A webhook subscribed to what happened to the Bundle, and what became of its events. */
export interface WebhookSubscription {
  id: string;
  name: string;
  url: string;
  enabled: boolean;
  /** A disabled webhook: since when (null when the backend does not say). */
  disabled_at: string | null;
  /** After how many events given up in a row; null when a person disabled it, or not said. */
  disabled_after_failures: number | null;
  /** The Bundle's occurrences of the event types it subscribes to. */
  occurrences: number;
  delivered: number;
  /** Events not delivered (yet): failing, given up or queued. */
  not_delivered: number;
  /** Occurrences it got no event for. */
  not_sent: number;
  /**
   * Of those, the ones it missed while disabled that are kept to be sent once each (esign webhook
   * resend-missed); null where the backend keeps no such record (the API has none).
   */
  missed: number | null;
  /** The webhook's older missed events dropped to keep its record bounded (of any Bundle); 0 with none. */
  missed_dropped: number;
  /** All of the above in words (times as ISO). */
  outcome: string;
}

/** Why a disabled webhook got nothing, in words: "webhook disabled since <when> after 10 failures". */
export function disabledWords(
  w: Pick<WebhookSubscription, 'disabled_at' | 'disabled_after_failures'>,
  when = (iso: string) => iso,
): string {
  const since = w.disabled_at ? ` since ${when(w.disabled_at)}` : '';
  const why =
    w.disabled_after_failures !== null
      ? ` after ${w.disabled_after_failures} failure${w.disabled_after_failures === 1 ? '' : 's'} in a row`
      : w.disabled_at
        ? ' by a person'
        : '';
  return `webhook disabled${since}${why}`;
}

/** A subscription's outcome in words; `when` turns an ISO time into words for a reader. */
export function outcomeWords(w: Omit<WebhookSubscription, 'outcome'>, when?: (iso: string) => string): string {
  const parts: string[] = [];
  if (w.delivered) parts.push(`${w.delivered} delivered`);
  if (w.not_delivered) parts.push(`${w.not_delivered} not delivered (yet)`);
  const kept = Math.min(w.missed ?? 0, w.not_sent);
  const why = w.enabled ? 'the webhook was disabled, or not subscribed, then' : disabledWords(w, when);
  if (kept)
    parts.push(
      w.enabled
        ? `${kept} missed while the webhook was disabled, kept to be sent`
        : `${kept} not sent: ${why}; kept to be sent once it is enabled again`,
    );
  if (w.not_sent > kept) parts.push(`${w.not_sent - kept} not sent: ${why}`);
  if (w.missed_dropped)
    parts.push(
      `the webhook's ${w.missed_dropped.toLocaleString('en')} oldest missed events were dropped (its record is bounded)`,
    );
  if (!parts.length) parts.push('no event yet');
  return parts.join('; ');
}

/** Every webhook subscribed to an event type this Bundle produced, with the fate of its events. */
function subscriptions(
  hooks: Webhook[],
  events: BundleEvent[],
  hookEvents: WebhookEvent[],
  missed: Map<string, MissedWebhookEvents> | null,
): WebhookSubscription[] {
  const occurred = new Map<string, number>();
  for (const e of events) {
    const type = WEBHOOK_EVENT_OF[e.kind];
    if (type) occurred.set(type, (occurred.get(type) ?? 0) + 1);
  }
  return hooks
    .filter((w) => w.event_types.some((t) => occurred.has(t)))
    .map((w) => {
      const mine = hookEvents.filter((e) => e.webhook === w.id && occurred.has(e.event_type));
      const occurrences = w.event_types.reduce((n, t) => n + (occurred.get(t) ?? 0), 0);
      const delivered = mine.filter((e) => e.success).length;
      const s: Omit<WebhookSubscription, 'outcome'> = {
        id: w.id,
        name: w.name,
        url: w.url,
        enabled: w.enabled,
        disabled_at: w.disabled_at ?? null,
        disabled_after_failures: w.disabled_after_failures ?? null,
        occurrences,
        delivered,
        not_delivered: mine.length - delivered,
        not_sent: Math.max(0, occurrences - mine.length),
        missed: missed ? (missed.get(w.id)?.count ?? 0) : null,
        missed_dropped: missed?.get(w.id)?.dropped ?? 0,
      };
      return { ...s, outcome: outcomeWords(s) };
    });
}

/** The Bundle's webhook events (the port filters them by Bundle: the `bundle` query), and how many there are. */
async function webhookEventsOf(service: EsignService, slug: string): Promise<{ items: WebhookEvent[]; total: number }> {
  const items: WebhookEvent[] = [];
  let total = 0;
  for (let page = 1; page <= WEBHOOK_PAGES; page++) {
    const p = await service.listWebhookEvents({ bundle: slug, page, per_page: 100 });
    items.push(...p.items);
    total = p.total;
    if (page >= p.total_pages) break;
  }
  return { items, total };
}

const packetOf = (e: WebhookEvent): string | undefined => packetOfPayload(e.payload);

/** Links in a message body, moved onto the running server (the token path is what matters). */
const relink = (body: string, base: string | undefined) =>
  base ? body.replace(/https?:\/\/[^\s/]+(\/[^\s]*)/g, (_m, path: string) => `${base}${path}`) : body;

/** A webhook event on the timeline: its state, then each delivery attempt. */
function webhookEntries(e: WebhookEvent, hook: string, signer: string | null): TimelineEntry[] {
  const word = webhookEventStateWord(e).toLowerCase();
  const state = e.success
    ? `${word} (HTTP ${e.status})`
    : e.deliveries.length
      ? `${word} (last HTTP ${e.status || 'none'})`
      : word;
  const attempts = `${e.deliveries.length} attempt${e.deliveries.length === 1 ? '' : 's'}`;
  const head = `${e.event_type} to webhook ${hook}: ${state}, ${attempts}`;
  const retry: TimelineFact[] =
    !e.success && e.next_attempt_at ? [{ label: 'next retry', value: e.next_attempt_at, time: true }] : [];
  const facts = [...retry, { label: 'event', value: e.pk }];
  return [
    entry(
      { at: e.created, source: 'webhook', code: e.event_type, signer, head, facts },
      `${head}${retry.length ? `, next retry ${e.next_attempt_at}` : ''} [event ${e.pk}]`,
    ),
    ...e.deliveries.map((d, i): TimelineEntry => {
      const { status, reason } = deliveryParts(d);
      return entry(
        {
          at: d.timestamp,
          source: 'attempt',
          code: String(d.status),
          signer,
          head: `attempt ${i + 1} of ${e.event_type}: ${status}`,
          facts: reason ? [{ label: 'reason', value: reason }] : [],
        },
        `attempt ${i + 1} of ${e.event_type}: ${deliveryOutcome(d)}`,
      );
    }),
  ];
}

export async function inspectBundle(service: EsignService, bundle: Bundle): Promise<Inspection> {
  const slug = bundle.id;
  const unavailable: string[] = [];
  const name = (packetId: string | null | undefined) => (packetId ? signerName(bundle, packetId) : null);
  const events = await service.listBundleEvents(slug);
  const timeline: TimelineEntry[] = events.map((e) => {
    const detail = e.kind in DETAIL_LABELS ? eventDetail(e) : '';
    return entry(
      {
        at: e.timestamp,
        source: 'event',
        code: e.kind,
        signer: name(e.packet_id),
        head: detail ? eventWord(e.kind) : e.description || eventWord(e.kind),
        facts: detail ? [{ label: DETAIL_LABELS[e.kind]!, value: detail }] : [],
      },
      e.description || eventWord(e.kind),
    );
  });

  const running = runningServerLinks(service);
  const serving = running?.url;
  let messages: BundleMessage[] = [];
  if (service.listBundleMessages) messages = await service.listBundleMessages(slug);
  else unavailable.push("messages sent (the outbox is the local engine's)");
  for (const m of messages) {
    const link = /https?:\/\/\S+/.exec(relink(m.body, serving))?.[0];
    const head = `${m.channel}${m.subject ? `: ${m.subject}` : ''}`;
    timeline.push(
      entry(
        {
          at: m.created,
          source: 'message',
          code: m.kind,
          signer: name(m.packet_id),
          head,
          facts: [{ label: 'to', value: m.recipient }, ...(link ? [{ label: 'link', value: link }] : [])],
        },
        `${m.channel} to ${m.recipient}${m.subject ? `: ${m.subject}` : ''}${link ? ` <${link}>` : ''}`,
      ),
    );
  }

  const hookEvents: WebhookEvent[] = [];
  let hookTotal = 0;
  let webhooks: WebhookSubscription[] = [];
  try {
    const list = (await service.listWebhooks({ per_page: 100 })).items;
    const hooks = new Map(list.map((w) => [w.id, w.name]));
    const found = await webhookEventsOf(service, slug);
    hookEvents.push(...found.items);
    hookTotal = found.total;
    for (const e of hookEvents)
      timeline.push(...webhookEntries(e, hooks.get(e.webhook) ?? e.webhook, name(packetOf(e))));
    const missed = service.listMissedWebhookEvents
      ? new Map((await service.listMissedWebhookEvents({ bundle: slug })).map((m) => [m.webhook, m]))
      : null;
    webhooks = subscriptions(list, events, hookEvents, missed);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    unavailable.push(`webhook events (${e.message})`);
  }
  // Stable by time, then by where it came from (an event before the message it caused).
  const order = { event: 0, message: 1, webhook: 2, attempt: 3 };
  timeline.sort((a, b) => a.at.localeCompare(b.at) || order[a.source] - order[b.source]);

  let files: FileObject[] | null = null;
  let filesNote: string | null = null;
  try {
    files = await service.getBundleFiles(slug);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 409)) throw e;
    // An ended Bundle will never have them: said as such, not as "not ready yet".
    filesNote =
      isEnded(bundle.status) && bundle.status !== 'co'
        ? `No signed files: the Bundle is ${bundleStateWord(bundle.status)}, so it will not be completed, and no signed PDF or Certificate of Evidence will be made.`
        : e.message;
  }

  const turn = bundle.in_order ? signersWhoseTurnItIs(true, bundle.packets) : [];
  const asked = signersWhoseTurnItIs(bundle.in_order, bundle.packets);
  const nowMs = service.clockMs?.() ?? Date.now();
  const linksNote = noServerNote(service);

  return {
    bundle,
    signers: bundle.packets.map((p) => {
      // The packet holds no time for a decline: its event does.
      const declinedAt = [...events].reverse().find((e) => e.kind === 'pd' && e.packet_id === p.id)?.timestamp ?? null;
      const waiting = isLive(bundle.status) && !turn.includes(p) && !isPacketDone(p.status);
      return {
        id: p.id,
        name: p.name,
        address: p.deliver_via === 'phone' ? p.phone : p.email,
        deliver_via: p.deliver_via,
        status: p.status,
        state: signerStateWord(p.status, bundle.status),
        order: p.order,
        last_viewed: p.last_accessed_at,
        completed_at: declinedAt ? null : p.completed_at,
        declined_at: declinedAt,
        waits_for: waiting ? turn.map((t) => ({ name: t.name, last_viewed: t.last_accessed_at })) : [],
        reminders:
          isPacketDone(p.status) || declinedAt ? null : signerReminders(bundle, p, events, asked.includes(p), nowMs),
      };
    }),
    timeline,
    files,
    files_note: filesNote,
    serving_url: serving ?? null,
    console_url: consoleBundleLink(running, slug),
    links_note: linksNote,
    unavailable,
    messages,
    webhook_events: hookEvents,
    webhook_events_total: Math.max(hookTotal, hookEvents.length),
    webhooks,
  };
}
