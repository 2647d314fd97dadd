// The progress bar of batch send, on stderr when it is a terminal (cli-progress).
import type { OutStream } from '../io.js';
import type { Counts } from './runner.js';

export interface Progress {
  update(c: Counts, next?: string): void;
  stop(): void;
}

export async function startProgress(err: OutStream, total: number): Promise<Progress> {
  const { SingleBar } = (await import('cli-progress')).default;
  const bar = new SingleBar({
    // cli-progress needs only write, isTTY and columns of its stream.
    stream: err as unknown as NodeJS.WritableStream,
    format: 'Sending {bar} {value}/{total} | created {created} skipped {skipped} failed {failed} | {rate}/s | ETA {eta_formatted}{next}',
    hideCursor: true,
    etaBuffer: 50,
    fps: 5,
  });
  const started = Date.now();
  bar.start(total, 0, { created: 0, skipped: 0, failed: 0, rate: '0.0', next: '' });
  return {
    update(c, next) {
      const rate = c.created / Math.max(0.001, (Date.now() - started) / 1000);
      // Skipped: not sent because already there (this batch's earlier run, or a Bundle with the key).
      const shown = { created: c.created, skipped: c.skipped + c.exists, failed: c.failed + c.incomplete };
      bar.update(c.done, { ...shown, rate: rate.toFixed(1), next: next ? ` | ${next}` : '' });
    },
    stop: () => bar.stop(),
  };
}
