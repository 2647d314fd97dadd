// One live line per Bundle on a terminal's stderr, rewritten in place as states change.
import { bundleStateWord, docStateWord } from '../../domain/states.js';
import type { Bundle } from '../../service/types.js';
import type { IO } from '../io.js';
import { fitLine } from '../output/fit.js';
import { safeLine } from '../../app/sanitize.js';

function describe(b: Bundle): string {
  const signed = b.packets.filter((p) => p.status === 'co').length;
  const docs = b.status === 'co' ? `, files ${docStateWord(b.doc_status)}` : '';
  return `${safeLine(b.id)}  ${safeLine(bundleStateWord(b.status))}  ${signed}/${b.packets.length} signed${docs}`;
}

export function liveLines(err: IO['err'], target: string) {
  const started = Date.now();
  let drawn = 0;
  let last: Bundle[] = [];
  let note: (() => string) | undefined;
  const draw = () => {
    const secs = Math.round((Date.now() - started) / 1000);
    // One terminal line each, never wrapped: a wrapped line would break the cursor-up redraw.
    // The label last: on a narrow terminal it is what gets cut, not the state or the seconds.
    const lines = last.map((b) => {
      const label = safeLine(b.label);
      return fitLine(`${describe(b)}  (waiting for ${target}, ${secs} s)${label ? `  ${label}` : ''}`, err.columns - 1);
    });
    // What the wait is waiting through (an outage), under the Bundles; an empty line once it is over.
    if (note !== undefined || drawn > lines.length) lines.push(fitLine(note?.() ?? '', err.columns - 1));
    err.write(`${drawn ? `\x1b[${drawn}A` : ''}${lines.map((l) => `\r${l}\x1b[K\n`).join('')}`);
    drawn = lines.length;
  };
  const tick = setInterval(() => (last.length || note) && draw(), 1000);
  return {
    /** A line under the Bundles, drawn again each second (it may count down); undefined clears it. */
    status: (line: (() => string) | undefined) => {
      note = line;
      draw();
    },
    update: (bundles: Bundle[]) => {
      last = bundles;
      draw();
    },
    done: () => {
      clearInterval(tick);
      if (last.length) draw();
    },
  };
}
