// "Copy as esign command": what the page shows, as the CLI lines that do or show the same.
import type { Inspection } from '../../app/inspection.js';
import { isInProgress, isPacketDone } from '../../domain/states.js';

export interface Command {
  what: string;
  line: string;
}

/** One shell word: left bare when it is plainly safe, else in single quotes (a quote inside closed and escaped). */
const shellWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

const esign = (...words: string[]) => ['esign', ...words.map(shellWord)].join(' ');

export function commandsFor(r: Inspection, readOnly: boolean): Command[] {
  const b = r.bundle;
  const out: Command[] = [
    { what: 'This story in a terminal', line: esign('bundle', 'inspect', b.id) },
    { what: 'Wait until it ends', line: esign('bundle', 'wait', b.id, '--until', 'ended') },
  ];
  if (r.files?.length) out.push({ what: 'Download its files', line: esign('bundle', 'files', b.id) });
  if (readOnly) return out;
  if (isInProgress(b.status) || b.status === 'dr')
    out.push({ what: 'Cancel it', line: esign('bundle', 'cancel', b.id) });
  for (const p of b.packets)
    if (isInProgress(b.status) && !isPacketDone(p.status) && p.status !== 'ne')
      out.push({ what: `Remind ${p.name}`, line: esign('packet', 'remind', p.id) });
  for (const e of r.webhook_events)
    if (!e.success) out.push({ what: `Resend ${e.event_type}`, line: esign('webhook', 'resend', e.pk) });
  return out;
}
