// Everything support needs about one Bundle, gathered through the port: the Bundle, its signers,
// one timeline (audit events, messages sent, webhook events and their attempts) and its files.
// Both front doors tell a Bundle's story from it: `esign bundle inspect` and the support console.
import { ApiError } from '../service/errors.js';
import type { EsignService } from '../service/service.js';
import { eventDetail, eventWord, webhookEventStateWord } from '../service/states.js';
import type { Bundle, BundleMessage, FileObject, WebhookEvent } from '../service/types.js';
import { deliveryOutcome, deliveryParts } from './deliveryOutcome.js';
import { packetOfPayload } from '../service/webhookEvents.js';
// An http(s) URL or nothing: what serve.json names is shown on terminals and pages alike.
import { safeUrl } from './sanitize.js';

/** The signer's name for a packet id, or the id when it is not one of the Bundle's. */
export const signerName = (b: Bundle, packetId: string | undefined | null): string =>
  (packetId && b.packets.find((p) => p.id === packetId)?.name) || (packetId ?? '');

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

/** The reason an event of this kind carries, as a person calls it. */
const DETAIL_LABELS: Record<string, string> = { pd: 'reason', bx: 'reason', bf: 'error', be: 'reason' };

export interface Inspection {
  bundle: Bundle;
  signers: {
    id: string;
    name: string;
    address: string | null;
    deliver_via: string;
    status: string;
    last_viewed: string | null;
    completed_at: string | null;
    declined_at?: string | null;
  }[];
  timeline: TimelineEntry[];
  files: FileObject[] | null;
  /** Why there are no files (not ready, say). */
  files_note: string | null;
  /** Where links open: the running `esign serve`, or null with `links_note` saying why not. */
  serving_url: string | null;
  links_note: string | null;
  /** Parts this backend does not offer. */
  unavailable: string[];
  /** The messages sent (email and SMS), oldest first: empty when the backend does not offer them. */
  messages: BundleMessage[];
  /** The Bundle's webhook events, each with its delivery attempts (the first WEBHOOK_PAGES pages of them). */
  webhook_events: WebhookEvent[];
  /** How many webhook events the Bundle has: more than `webhook_events` holds when the list stopped. */
  webhook_events_total: number;
}

export const WEBHOOK_PAGES = 5;

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

  // serve.json is a file on disk: only an http(s) URL from it is used or shown.
  const serving = service.servingUrl ? safeUrl(service.servingUrl()) : undefined;
  let messages: BundleMessage[] = [];
  if (service.listBundleMessages) messages = await service.listBundleMessages(slug);
  else unavailable.push("messages sent (the outbox is the local engine's)");
  for (const m of messages) {
    const link = /https?:\/\/\S+/.exec(relink(m.body, serving))?.[0];
    const head = `${m.channel} to ${m.recipient}${m.subject ? `: ${m.subject}` : ''}`;
    timeline.push(
      entry(
        {
          at: m.created,
          source: 'message',
          code: m.kind,
          signer: name(m.packet_id),
          head,
          facts: link ? [{ label: 'link', value: link }] : [],
        },
        `${head}${link ? ` <${link}>` : ''}`,
      ),
    );
  }

  const hookEvents: WebhookEvent[] = [];
  let hookTotal = 0;
  try {
    const hooks = new Map((await service.listWebhooks({ per_page: 100 })).items.map((w) => [w.id, w.name]));
    const found = await webhookEventsOf(service, slug);
    hookEvents.push(...found.items);
    hookTotal = found.total;
    for (const e of hookEvents)
      timeline.push(...webhookEntries(e, hooks.get(e.webhook) ?? e.webhook, name(packetOf(e))));
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
    filesNote = e.message;
  }

  let linksNote: string | null = null;
  if (service.servingUrl && !serving)
    linksNote =
      'No esign serve runs for this data directory, so the links above do not open. Start one: esign serve (with the same --data-dir).';

  return {
    bundle,
    signers: bundle.packets.map((p) => ({
      id: p.id,
      name: p.name,
      address: p.deliver_via === 'phone' ? p.phone : p.email,
      deliver_via: p.deliver_via,
      status: p.status,
      last_viewed: p.last_accessed_at,
      completed_at: p.completed_at,
      // The packet holds no time for a decline: its event does.
      declined_at: [...events].reverse().find((e) => e.kind === 'pd' && e.packet_id === p.id)?.timestamp ?? null,
    })),
    timeline,
    files,
    files_note: filesNote,
    serving_url: serving ?? null,
    links_note: linksNote,
    unavailable,
    messages,
    webhook_events: hookEvents,
    webhook_events_total: Math.max(hookTotal, hookEvents.length),
  };
}
