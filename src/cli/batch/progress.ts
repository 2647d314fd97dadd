// The progress bar of batch send, on stderr when it is a terminal (cli-progress). The line is fitted
// to the terminal's width (the least useful parts go first, never a wrap), and however the process
// ends (Ctrl-C twice, an exit on the way) the cursor and line wrap come back and the counts are said.
import type { OutStream } from '../io.js';
import { fitLine } from '../output/fit.js';
import type { Counts } from '../../app/batch/runner.js';

export interface Progress {
  update(c: Counts, next?: string): void;
  stop(): void;
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
  const tail = [`${p.value}/${p.total}`, p.counts, `${p.rate}/s`, `ETA ${p.eta}`, p.next].filter(Boolean);
  for (let keep = tail.length; keep >= 1; keep--) {
    const text = tail.slice(0, keep).join(' | ');
    const room = max - head.length - text.length - 2;
    if (room >= 10) return `${head} ${p.bar(Math.min(40, room))} ${text}`;
  }
  return fitLine(`${head} ${tail.join(' | ')}`, max);
}

export async function startProgress(err: OutStream, total: number): Promise<Progress> {
  const cliProgress = (await import('cli-progress')).default;
  let last: Counts = { done: 0, created: 0, skipped: 0, exists: 0, incomplete: 0, failed: 0 } as Counts;
  let stopped = false;
  const bar = new cliProgress.SingleBar({
    // cli-progress needs only write, isTTY and columns of its stream.
    stream: err as unknown as NodeJS.WritableStream,
    format: (options, params, payload: { counts: string; rate: string; next: string }) =>
      barLine(
        {
          bar: (size) => cliProgress.Format.BarFormat(params.progress, { ...options, barsize: size }),
          value: params.value,
          total: params.total,
          counts: payload.counts,
          rate: payload.rate,
          eta: cliProgress.Format.TimeFormat(params.eta, options, 5),
          next: payload.next,
        },
        err.columns,
      ),
    hideCursor: true,
    etaBuffer: 50,
    fps: 5,
  });
  const started = Date.now();
  // Skipped: not sent because already there (this batch's earlier run, or a Bundle with the key).
  const counts = (c: Counts) =>
    `created ${c.created} skipped ${c.skipped + c.exists} failed ${c.failed + c.incomplete}`;
  // A hard exit (a second Ctrl-C exits 130 at once) skips stop(): give the terminal back anyway.
  const onExit = () => {
    if (stopped) return;
    err.write(
      `\x1b[?25h\x1b[?7h\nInterrupted: ${last.done} of ${total} rows done (${counts(last)}); run the same command again to resume.\n`,
    );
  };
  process.once('exit', onExit);
  bar.start(total, 0, { counts: counts(last), rate: '0.0', next: '' });
  return {
    update(c, next) {
      last = c;
      const rate = c.created / Math.max(0.001, (Date.now() - started) / 1000);
      bar.update(c.done, { counts: counts(c), rate: rate.toFixed(1), next: next ?? '' });
    },
    stop: () => {
      stopped = true;
      process.removeListener('exit', onExit);
      bar.stop();
    },
  };
}
