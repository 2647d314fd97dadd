// esign help states: every Bundle, packet, document and event code in words (from states.ts).
import {
  BUNDLE_STATE_WORDS,
  DOC_STATE_WORDS,
  ENDED,
  EVENT_WORDS,
  IN_PROGRESS,
  PACKET_STATE_WORDS,
  TERMINAL,
  WAIT_TARGETS,
} from '../../../domain/states.js';
import type { IO } from '../../io.js';

function statesText(): string {
  const lines: string[] = [];
  const table = (title: string, rows: [string, string, string?][]) => {
    lines.push(title);
    for (const [code, word, meaning] of rows)
      lines.push(`  ${code.padEnd(3)} ${word.padEnd(13)}${meaning ? ` ${meaning}` : ''}`.trimEnd());
    lines.push('');
  };
  const words = (t: Record<string, { word: string; meaning: string }>) =>
    Object.entries(t).map(([c, w]): [string, string, string] => [c, w.word, w.meaning]);
  table('Bundle status (status):', words(BUNDLE_STATE_WORDS));
  lines.push(`  In progress: ${IN_PROGRESS.join(', ')}. Ended (no signer acts any more): ${ENDED.join(', ')}.`);
  lines.push(
    `  Terminal (cannot be cancelled, expired or get interim files): ${TERMINAL.join(', ')}; a declined Bundle still can.`,
    '',
  );
  table('Signer packet status (packets[].status):', words(PACKET_STATE_WORDS));
  table('Document status (doc_status):', words(DOC_STATE_WORDS));
  table(
    'Bundle events (bundle events, kind):',
    Object.entries(EVENT_WORDS).map(([c, w]): [string, string] => [c, w]),
  );
  lines.push(`bundle wait --until: ${WAIT_TARGETS.join(', ')} (docs-ready: complete with the final files).`);
  lines.push('Terminals show the words; --json and piped output keep the codes.');
  return `${lines.join('\n')}\n`;
}

export const printStates = (io: IO) => io.out.write(statesText());
