// Tables on a terminal: fitted to its width. Columns lose width by priority (lowest first, then
// the widest, then the rightmost) down to a few characters, cut with an ellipsis; id columns are
// never cut. A column empty in every row is left out first; when even that does not fit, the
// lowest-priority columns are left out (and counted). Widths are terminal columns (string-width),
// the measure print.ts cuts and pads the cells by.
import { loadStringWidth } from '../../lazyImport.js';

export interface FitColumn {
  header: string;
  /** Ids are never truncated. */
  fixed: boolean;
  /** Higher keeps its width longer; default 0. -2 or less: left out before others are cut. */
  priority: number;
}

const GAP = 2;
const MIN = 6;

let measure: ((s: string) => number) | undefined;

/**
 * Loads the terminal's measure, before anything is drawn on a terminal (runCli). string-width compiles
 * Unicode-property patterns as it loads, 20-30 ms of a command's start: piped output, which never
 * measures, goes without it.
 */
export async function loadTerminalWidth(): Promise<void> {
  measure ??= (await loadStringWidth()).default;
}

/** Columns a string takes on a terminal: a CJK character two, a combining mark none (code points until loaded). */
export const width = (s: string) => (measure ? measure(s) : [...s].length);

/** The width of each column (0: left out) so that the rows fit in `total` terminal columns. */
export function fitWidths(columns: FitColumn[], cells: string[][], total: number): number[] {
  const natural = columns.map((c, i) => Math.max(width(c.header), ...cells.map((r) => width(r[i]))));
  const widths = [...natural];
  const shown = () => widths.map((w, i) => [w, i]).filter(([w]) => w > 0);
  const used = () => shown().reduce((n, [w]) => n + w, 0) + GAP * Math.max(0, shown().length - 1);
  // A column with nothing in any row says nothing: it goes first, before any other is cut.
  if (used() > total)
    columns.forEach((_, i) => {
      if (i > 0 && cells.length && cells.every((r) => !r[i]?.trim())) widths[i] = 0;
    });
  const floor = (i: number) =>
    columns[i].fixed ? natural[i] : Math.min(natural[i], Math.max(MIN, width(columns[i].header)));
  while (used() > total) {
    let pick = -1;
    for (let i = 0; i < widths.length; i++) {
      if (widths[i] === 0 || widths[i] <= floor(i)) continue;
      if (pick < 0) {
        pick = i;
        continue;
      }
      const [a, b] = [columns[i], columns[pick]];
      if (a.priority < b.priority || (a.priority === b.priority && widths[i] >= widths[pick])) pick = i;
    }
    // A column of priority -2 or less is left out before any column of priority 0 or more is cut.
    const expendable = shown()
      .map(([, i]) => i)
      .filter((i) => columns[i].priority <= -2);
    if (pick >= 0 && (columns[pick].priority < 0 || !expendable.length)) {
      widths[pick]--;
      continue;
    }
    // Nothing left to cut: leave out the least important column that is not the first (unless the
    // first is marked less important than the rest), and give the others their natural width back
    // before cutting again (what was cut for it is not lost).
    const candidates = expendable.length
      ? expendable
      : shown()
          .map(([, i]) => i)
          .filter((i) => i > 0 || columns[i].priority < 0);
    if (!candidates.length) break;
    const drop = candidates.reduce((d, i) => (columns[i].priority <= columns[d].priority ? i : d));
    widths.forEach((w, i) => {
      if (w > 0) widths[i] = natural[i];
    });
    widths[drop] = 0;
  }
  return widths;
}

export { isIsoTime, shortTime, timeIn } from '../../app/timeWords.js';

/** A path cut from the left to `w` columns, so that its file name stays: "…/signed/contract.pdf". */
export function cutLeft(s: string, w: number): string {
  return width(s) <= w
    ? s
    : `…${within(graphemes(s).reverse(), w - 1)
        .reverse()
        .join('')}`;
}

/** One line cut to `w` columns (an ellipsis last), for live lines that must never wrap. */
export function fitLine(s: string, w: number): string {
  return width(s) <= w ? s : `${within(graphemes(s), w - 1).join('')}…`;
}

let segmenter: Intl.Segmenter | undefined;
const graphemes = (s: string) =>
  [...(segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' })).segment(s)].map((g) => g.segment);

/** The leading graphemes of `list` that fit in `w` columns. */
function within(list: string[], w: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (const g of list) {
    used += width(g);
    if (used > w) break;
    out.push(g);
  }
  return out;
}
