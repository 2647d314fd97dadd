// esign bundle inspect ID: everything support needs about one Bundle in one view (a packet id
// leads to its Bundle where the backend can tell).
import type { Command } from '@commander-js/extra-typings';
import { bundleStateWord, docStateWord, signerStateWord } from '../../../service/states.js';
import type { Factory } from '../../factory.js';
import { note, printList, printObject, writeJson } from '../../output/print.js';
import type { Action } from '../../run.js';
import { safeLine } from '../../sanitize.js';

export interface InspectOptions {
  id: string;
}

export function register(parent: Command, action: Action): void {
  parent
    .command('inspect <id>')
    .description(
      'The Bundle in words, its signers, one timeline (events, messages, webhooks) and its files; a packet id works too',
    )
    .action(action(async (f, _o: object, id: string) => run(f, { id })));
}

export async function run(f: Factory, o: InspectOptions): Promise<void> {
  const [{ getBundleOrPacketsBundle }, { inspectBundle }] = await Promise.all([
    import('../../../service/bundleRef.js'),
    import('../../../service/inspection.js'),
  ]);
  const service = await f.service();
  const bundle = await getBundleOrPacketsBundle(service, o.id);
  const r = await inspectBundle(service, bundle);
  if (f.options.json) return writeJson(f, r);
  if (f.options.quiet) return void f.io.out.write(`${safeLine(bundle.id)}\n`);
  const tty = f.io.out.isTTY;
  const word = (w: (c: string) => string, code: string) => (tty ? w(code) : code);
  const b = r.bundle;
  const section = (title: string) => f.io.out.write(`\n${tty ? title : `# ${title}`}\n`);
  await printObject(f, b, [
    ['id', b.id],
    ['label', b.label],
    ['status', word(bundleStateWord, b.status)],
    ['documents', b.documents.map((d) => d.name).join(', ')],
    ['signed files', word(docStateWord, b.doc_status)],
    ['created', b.created],
    ['sent', b.sent],
    ['completed', b.completed_at],
    ['expires', b.expires],
    ['reminders', reminders(b)],
    ['test', b.is_test],
    ['custom_key', b.custom_key],
    ...b.errors.map((e, i): [string, unknown] => [`error ${i + 1}`, e.message]),
  ]);
  section('Signers');
  await printList(
    f,
    r.signers,
    [
      { header: 'NAME', value: (s) => s.name },
      { header: 'ADDRESS', value: (s) => s.address },
      { header: 'VIA', value: (s) => s.deliver_via },
      { header: 'STATUS', value: (s) => (tty ? signerStateWord(s.status, b.status) : s.status) },
      { header: 'LAST VIEWED', value: (s) => s.last_viewed, kind: 'time' },
      { header: 'FINISHED', value: (s) => s.completed_at ?? s.declined_at, kind: 'time' },
      { header: 'PACKET', value: (s) => s.id, kind: 'id' },
    ],
    (s) => s.id,
  );
  section('Timeline');
  await printList(
    f,
    r.timeline,
    [
      { header: 'TIME', value: (t) => t.at, kind: 'clock' },
      { header: 'SOURCE', value: (t) => t.source },
      { header: 'CODE', value: (t) => t.code },
      { header: 'SIGNER', value: (t) => t.signer },
      { header: 'WHAT', value: (t) => t.what },
    ],
    (t) => t.at,
  );
  section('Files');
  if (r.files) {
    await printList(
      f,
      r.files,
      [
        { header: 'KIND', value: (x) => x.kind },
        { header: 'NAME', value: (x) => x.name },
        { header: 'BYTES', value: (x) => x.size },
        { header: 'SHA256', value: (x) => x.sha256, kind: 'id' },
        { header: 'URL', value: (x) => x.file_url },
      ],
      (x) => x.file_url,
    );
  } else f.io.out.write(`${safeLine(r.files_note)}\n`);
  if (r.links_note) note(f, r.links_note);
  else if (r.serving_url) note(f, `Links open on the running esign serve at ${r.serving_url}.`);
  for (const u of r.unavailable) note(f, `Not offered by this backend: ${u}.`);
}

function reminders(b: {
  send_reminders: boolean;
  reminder_offset: number | null;
  reminder_interval: number | null;
  reminder_expires: number | null;
}): string {
  if (!b.send_reminders) return 'off';
  const parts = [
    b.reminder_offset !== null ? `first after ${b.reminder_offset} d` : '',
    b.reminder_interval !== null ? `every ${b.reminder_interval} d` : '',
    b.reminder_expires !== null ? `${b.reminder_expires} d before expiry` : '',
  ].filter(Boolean);
  return parts.length ? `on (${parts.join(', ')})` : 'on';
}
