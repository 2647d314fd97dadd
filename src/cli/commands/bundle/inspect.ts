// esign bundle inspect ID: everything support needs about one Bundle in one view (a packet id
// leads to its Bundle where the backend can tell).
import { getBundleOrPacketsBundle } from '../../../app/bundleRef.js';
import {
  type Inspection,
  type TimelineFact,
  type WebhookSubscription,
  inspectBundle,
  outcomeWords,
  waitsForWords,
} from '../../../app/inspection.js';
import { clockTime, timelineStyle } from '../../../app/timeWords.js';
import { resendMissedHint } from '../../../app/missedEvents.js';
import { remindersWords, scheduleWords } from '../../../app/signerReminders.js';
import { redactSecretLinks } from '../../../app/secretLinks.js';
import { bundleStateWord, signedFilesWord, signerStateWord } from '../../../domain/states.js';
import type { FileObject } from '../../../service/types.js';
import type { Factory } from '../../factory.js';
import {
  type Column,
  fieldColumns,
  fieldsOf,
  note,
  type Out,
  printList,
  printObject,
  printTogether,
  wrapWords,
  writeJson,
} from '../../output/print.js';
import { safeLine } from '../../../app/sanitize.js';
import { idVerb } from '../../verb.js';

export const inspect = idVerb({
  name: 'inspect',
  description:
    'The Bundle in words, its signers, one timeline (events, messages, webhooks) and its files; a packet id works too',
  examples: [
    'esign bundle inspect 9KwSrpJdyp',
    'esign bundle inspect Rw3pLk8sQe',
    'esign bundle inspect 9KwSrpJdyp --json',
  ],
  async fetch(service, id) {
    return inspectBundle(service, await getBundleOrPacketsBundle(service, id));
  },
  show: showInspection,
});

type Signer = Inspection['signers'][number];

async function showInspection(f: Factory, r: Inspection): Promise<void> {
  if (f.options.json) return writeJson(f, r);
  if (f.options.quiet) return void f.io.out.write(`${safeLine(r.bundle.id)}\n`);
  // One output: a terminal's pager opens at its top, on the facts.
  await printTogether(f, (o) => showParts(o, r));
  if (r.webhook_events_total > r.webhook_events.length)
    note(
      f,
      `The timeline holds the first ${r.webhook_events.length} of ${r.webhook_events_total} webhook events: esign webhook events --bundle ${r.bundle.id} --all lists every one.`,
    );
  if (r.links_note) note(f, r.links_note);
  else if (r.serving_url) note(f, `Links open on the running esign serve at ${r.serving_url}.`);
  if (r.console_url) note(f, `In the support console: ${r.console_url}`);
  if (f.io.out.isTTY && r.timeline.some((t) => t.facts.some((x) => x.label === 'link')))
    note(f, 'Signing links are cut short here (whoever holds one signs): --json shows them whole.');
  for (const u of r.unavailable) note(f, `Not offered by this backend: ${u}.`);
}

/** The facts first (state, signers with their order, waits and reminders, a decline, files), then webhooks and the timeline. */
async function showParts(f: Out, r: Inspection): Promise<void> {
  const tty = f.io.out.isTTY;
  const now = f.now?.() ?? Date.now();
  const when = (iso: string) => (tty ? clockTime(iso, now) : iso);
  const word = (w: (c: string) => string, code: string) => (tty ? w(code) : code);
  const b = r.bundle;
  const section = (title: string) => f.io.out.write(`\n${tty ? title : `# ${title}`}\n`);
  const line = (text: string) => {
    const one = safeLine(text);
    // Wrapped at spaces on a terminal: a time, an address or an id is never cut in two.
    f.io.out.write(`${tty ? wrapWords(one, f.io.out.columns, '  ').trimStart() : one}\n`);
  };
  const declined = r.signers.filter((s) => s.declined_at);
  const reasons = r.timeline.filter((t) => t.code === 'pd');
  await printObject(f, b, [
    ...fieldsOf(b, ['id', 'label']),
    ['status', word(bundleStateWord, b.status)],
    ...declined.map((s): [string, unknown] => [
      'declined',
      `${s.name}${reasons.find((t) => t.signer === s.name)?.facts[0] ? `: ${reasons.find((t) => t.signer === s.name)!.facts[0]!.value}` : ''}`,
    ]),
    ['documents', b.documents.map((d) => d.name).join(', ')],
    ['signed files', tty ? signedFilesWord(b) : b.doc_status],
    ...fieldsOf(b, ['created', 'sent']),
    ['completed', b.completed_at],
    ['expires', b.expires],
    ['reminders', b.send_reminders ? `on: ${scheduleWords(b)}` : 'off'],
    ['test', b.is_test],
    ['custom_key', b.custom_key],
    ...b.errors.map((e, i): [string, unknown] => [`error ${i + 1}`, e.message]),
  ]);
  section(b.in_order ? 'Signers (in order)' : 'Signers');
  const places = [...new Set(r.signers.map((s) => s.order))].sort((x, y) => x - y);
  await printList(
    f,
    r.signers,
    [
      // The place in the order, from 1 (orders may be any numbers; signers of one order sign together).
      ...(b.in_order ? [{ header: '#', value: (s: Signer) => places.indexOf(s.order) + 1 }] : []),
      { header: 'NAME', value: (s) => s.name, priority: 1 },
      // Never cut: too long for its column, it goes whole on a line under its row.
      {
        header: 'ADDRESS',
        value: (s) => s.address,
        priority: -1,
        overflow: (s) => ({ head: '', lines: [`${s.deliver_via}: ${s.address ?? ''}`] }),
      },
      { header: 'VIA', value: (s) => s.deliver_via, priority: -3 },
      { header: 'STATUS', value: (s) => (tty ? signerStateWord(s.status, b.status) : s.status), priority: 1 },
      { header: 'LAST VIEWED', value: (s) => s.last_viewed, kind: 'time' },
      { header: 'FINISHED', value: (s) => s.completed_at ?? s.declined_at, kind: 'time' },
      { header: 'PACKET', value: (s) => s.id, kind: 'id' },
    ] satisfies Column<Signer>[],
    (s) => s.id,
  );
  // Who waits for whom, in words (once per group waiting for the same signers).
  const said = new Set<string>();
  for (const s of r.signers) {
    if (!s.waits_for.length) continue;
    const words = waitsForWords(s.waits_for, when);
    const waiting = r.signers.filter((o) => waitsForWords(o.waits_for) === waitsForWords(s.waits_for));
    if (said.has(words)) continue;
    said.add(words);
    line(`${waiting.map((o) => o.name).join(', ')}: ${words}`);
  }
  // Each signer still to act: reminders sent, and when the next may go (times in the local zone).
  for (const s of r.signers) if (s.reminders) line(`${s.name}: ${remindersWords(s.reminders, now, when)}`);
  section('Files');
  if (r.files) {
    await printList(
      f,
      r.files,
      [
        ...fieldColumns<FileObject>(['kind', 'name']),
        { header: 'BYTES', value: (x) => x.size },
        { header: 'SHA256', value: (x) => x.sha256, kind: 'id' },
        { header: 'URL', value: (x) => x.file_url },
      ],
      (x) => x.file_url,
    );
  } else line(r.files_note ?? '');
  if (r.webhooks.length) {
    section('Webhooks');
    await printList(
      f,
      r.webhooks,
      [
        { header: 'WEBHOOK', value: (w) => w.name },
        { header: 'STATE', value: (w) => (w.enabled ? 'enabled' : 'disabled') },
        {
          header: 'OUTCOME',
          value: (w) => (tty ? outcomeWords(w, when) : w.outcome),
          // Too long for the row: the counts stay, the words follow whole on a line of their own.
          overflow: (w) => ({
            head: `${w.delivered} delivered, ${w.not_delivered + w.not_sent} not`,
            lines: [outcomeWords(w, when)],
          }),
        },
        { header: 'ID', value: (w) => w.id, kind: 'id', priority: -2 },
      ] satisfies Column<WebhookSubscription>[],
      (w) => w.id,
    );
    // The way to send what a webhook missed while disabled, whole (an id to copy).
    for (const w of r.webhooks) if (w.missed) line(`${w.name}: ${w.missed} missed, ${resendMissedHint(w)}`);
  }
  section(`Timeline (${r.timeline.length} ${r.timeline.length === 1 ? 'entry' : 'entries'}, oldest first)`);
  // On a terminal the facts (a reason, the event id for `webhook resend`, an address) follow the
  // entry's words, or go on lines of their own, whole, when the entry does not fit; a signing link
  // is cut short (whoever holds it signs).
  const fact = (x: TimelineFact) =>
    `${x.label}: ${x.time ? clockTime(x.value, now) : x.label === 'link' ? redactSecretLinks(x.value) : x.value}`;
  await printList(
    f,
    r.timeline,
    [
      // A timeline of several days (in this terminal's zone) dates every row.
      { header: 'TIME', value: (t) => t.at, kind: timelineStyle(r.timeline.map((t) => t.at)), priority: 2 },
      { header: 'SOURCE', value: (t) => t.source, priority: 1 },
      // The code repeats what the words say: on a narrow terminal it goes first.
      { header: 'CODE', value: (t) => t.code, priority: -2 },
      { header: 'SIGNER', value: (t) => t.signer },
      {
        header: 'WHAT',
        value: (t) => (tty ? [t.head, ...t.facts.map(fact)].join(' · ') : t.what),
        overflow: (t) => ({ head: t.head, lines: t.facts.map(fact) }),
      },
    ],
    (t) => t.at,
  );
}
