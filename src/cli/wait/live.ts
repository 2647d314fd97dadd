// One live line per Bundle on a terminal's stderr, rewritten in place as states change.
import { bundleStateWord, docStateWord } from '../../service/states.js';
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
  const draw = () => {
    const secs = Math.round((Date.now() - started) / 1000);
    // One terminal line each, never wrapped: a wrapped line would break the cursor-up redraw.
    // The label last: on a narrow terminal it is what gets cut, not the state or the seconds.
    const lines = last.map((b) => {
      const label = safeLine(b.label);
      return fitLine(`${describe(b)}  (waiting for ${target}, ${secs} s)${label ? `  ${label}` : ''}`, err.columns - 1);
    });
    err.write(`${drawn ? `\x1b[${drawn}A` : ''}${lines.map((l) => `\r${l}\x1b[K\n`).join('')}`);
    drawn = lines.length;
  };
  const tick = setInterval(() => last.length && draw(), 1000);
  return {
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
