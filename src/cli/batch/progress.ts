// The progress bar of batch send, on stderr when it is a terminal: one live line drawn from its own
// state each time (`\r`, the line, erase to its end), fitted to the terminal's width, never by moving
// the cursor back to a saved place. A 429 being waited out and the backend's retry notes are said in
// the bar's note slot, not on lines of their own; whatever else is written to stderr meanwhile goes
// on its own line above it, and the bar is drawn again below (the stream's live line, io.ts).
// However the process ends (a second Ctrl-C exits at once), the cursor comes back and the rows are
// counted as the journal holds them.
import { fitLine } from '../output/fit.js';
import type { Counts } from '../../app/batch/runner.js';

export interface Progress {
  update(c: Counts, next?: string): void;
  /** Says `text` in the bar's note slot (a function: drawn again each second) for `forMs`, over `next`. */
  note(text: string | (() => string), forMs: number): void;
  stop(): void;
}

/** What the journal holds of a batch's rows right now: sent (by any run), failed, in flight. */
export interface JournalCounts {
  sent: number;
  failed: number;
  inFlight: number;
}

/** The bar's text: parts in order of importance, the bar itself shrunk first. */
export function barLine(
  p: {
    bar: (size: number) => string;
    value: number;
    total: number;
    counts: string;
    rate: string;
    eta: string;
    next: string;
  },
  columns: number,
): string {
  const max = Math.max(10, columns - 1);
  const head = `Sending`;
  // The note (a 429's wait, the next slot) before the rate and the time to go: it is what changed.
  const tail = [`${p.value}/${p.total}`, p.counts, p.next, `${p.rate}/s`, `ETA ${p.eta}`].filter(Boolean);
  for (let keep = tail.length; keep >= 1; keep--) {
    const text = tail.slice(0, keep).join(' | ');
    const room = max - head.length - text.length - 2;
    if (room >= 10) return `${head} ${p.bar(Math.min(40, room))} ${text}`;
  }
  return fitLine(`${head} ${tail.join(' | ')}`, max);
}

const blocks = (done: number, total: number) => (size: number) => {
  const full = total ? Math.round((size * Math.min(done, total)) / total) : 0;
  return '\u2588'.repeat(full) + '\u2591'.repeat(size - full);
};

/** Seconds as people read them: `37s`, `4m05s`, `1h02m`. */
function eta(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

// Skipped: not sent because already there (this batch's earlier run, or a Bundle with the key).
const countsText = (c: Counts) =>
  `created ${c.created} skipped ${c.skipped + c.exists} failed ${c.failed + c.incomplete}`;

/** The line said when the process ends before the batch does: the journal's counts, not the bar's. */
function interruptedLine(total: number, j: JournalCounts): string {
  const more = [j.failed ? `${j.failed} failed` : '', j.inFlight ? `${j.inFlight} in flight` : '']
    .filter(Boolean)
    .join(', ');
  return `Interrupted: ${j.sent} of ${total} rows sent${more ? ` (${more})` : ''}; run the same command again to resume.`;
}

/** Where the bar is drawn: the IO's stderr (io.ts OutStream: its write, width and live line). */
export interface BarStream {
  write(text: string): void;
  readonly columns: number;
  live?(draw?: () => string): void;
}

export function startProgress(err: BarStream, total: number, journal: () => JournalCounts): Progress {
  const started = Date.now();
  let state = { counts: { done: 0, created: 0, skipped: 0, exists: 0, incomplete: 0, failed: 0 } as Counts, next: '' };
  let stopped = false;
  let drawnAt = 0;
  let said: { text: string | (() => string); until: number } | undefined;
  const draw = () => {
    const { counts: c } = state;
    const noted = said && Date.now() < said.until ? said.text : undefined;
    const next = noted === undefined ? state.next : typeof noted === 'string' ? noted : noted();
    const seconds = (Date.now() - started) / 1000;
    const rate = c.created / Math.max(0.001, seconds);
    const perRow = c.done ? seconds / c.done : Number.NaN;
    return barLine(
      {
        bar: blocks(c.done, total),
        value: c.done,
        total,
        counts: countsText(c),
        rate: rate.toFixed(1),
        eta: eta(perRow * (total - c.done)),
        next,
      },
      err.columns,
    );
  };
  // A hard exit (a second Ctrl-C exits 130 at once) skips stop(): give the cursor back and say what the journal holds.
  const onExit = () => {
    if (stopped) return;
    err.live?.();
    err.write(`\x1b[?25h${interruptedLine(total, journal())}\n`);
  };
  process.once('exit', onExit);
  err.write('\x1b[?25l');
  err.live?.(draw);
  // The rate and the time to go change between rows too (a paced batch may wait minutes for a slot).
  const tick = setInterval(() => err.live?.(draw), 1000);
  tick.unref();
  return {
    update(c, next) {
      state = { counts: { ...c }, next: next ?? '' };
      // At most ten draws a second (a local batch finishes a thousand rows a second); the tick draws the rest.
      if (Date.now() - drawnAt < 100) return;
      drawnAt = Date.now();
      err.live?.(draw);
    },
    note(text, forMs) {
      said = { text, until: Date.now() + forMs };
      err.live?.(draw);
    },
    stop: () => {
      if (stopped) return;
      stopped = true;
      clearInterval(tick);
      process.removeListener('exit', onExit);
      err.live?.(draw);
      err.live?.();
      err.write('\x1b[?25h');
    },
  };
}
