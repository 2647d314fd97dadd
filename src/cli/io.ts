// The streams a command talks through, and what is drawn on them (as gh's IOStreams): colour,
// the spinner, the progress bar, the pager. Commands never touch process.stdout/stderr/stdin/env
// directly: they use the IO the Factory hands out, so a test runs a command in-process with a
// captured IO, and the closed-pipe rule lives here once.
import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import type { ChalkInstance } from 'chalk';
import { environment } from '../app/environment.js';
import { loadOra } from '../lazyImport.js';
import { type JournalCounts, type Progress, startProgress } from './batch/progress.js';
import { colourFor } from './output/colour.js';

interface OutStream {
  write(text: string): void;
  /** Writes bytes (a file sent to stdout), resolving once the stream takes more. */
  writeBytes(chunk: Uint8Array): Promise<void>;
  /** A terminal: tables, colour, relative times; otherwise tab-separated rows and ISO times. */
  readonly isTTY: boolean;
  /** Terminal width in columns (80 when unknown). */
  readonly columns: number;
  /** Terminal height in rows, when known (a list longer than this goes through the pager). */
  readonly rows?: number;
  /**
   * Keeps `draw()` as the live last line of a terminal (a progress bar), drawn now and again at each
   * call: text written meanwhile goes on its own lines above it, and the line is drawn again below.
   * Without an argument the live line ends where it is. Drawn from its own state, never by moving
   * the cursor back to a saved place (which points at another row once the screen has scrolled).
   */
  live?(draw?: () => string): void;
}

/** A stream's writes with a live last line kept below them (OutStream.live). */
function liveLine(raw: (text: string) => void): Pick<OutStream, 'write' | 'live'> {
  let draw: (() => string) | undefined;
  // Whether the cursor is on the live line (drawn), and whether other text left it mid-line.
  let drawn = false;
  let midLine = false;
  return {
    write(text) {
      if (!draw) return raw(text);
      const clear = drawn ? '\r\x1b[K' : '';
      drawn = false;
      midLine = !text.endsWith('\n') && (midLine || text !== '');
      if (midLine) return raw(`${clear}${text}`);
      raw(`${clear}${text}${draw()}\x1b[K`);
      drawn = true;
    },
    live(next) {
      if (next) {
        draw = next;
        raw(`${midLine ? '\n' : '\r'}${next()}\x1b[K`);
        drawn = true;
        midLine = false;
        return;
      }
      if (draw && drawn) raw('\n');
      draw = undefined;
      drawn = false;
    },
  };
}

export interface IO {
  out: OutStream;
  err: OutStream;
  stdin: Readable;
  stdinIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  /** stdin and stdout are terminals and CI is unset: prompts may be shown. */
  readonly interactive: boolean;
  /** Shows `text` through the pager `command` (a shell command line); resolves when it has ended. */
  page?(text: string, command: string): Promise<void>;
  /** The one decision on colour for `stream` (output/colour.ts: NO_COLOR, FORCE_COLOR, a terminal). */
  colour(stream: 'out' | 'err'): Promise<ChalkInstance>;
  /** A spinner on stderr while `text` is under way, on a terminal only (nothing otherwise); stop() clears it. */
  spinner(text: string): Promise<Spinner>;
  /** The progress bar of `total` rows on stderr (batch send), on a terminal; `journal` counts the rows sent. */
  progress(total: number, journal: () => JournalCounts): Promise<Progress>;
}

interface Spinner {
  stop(): void;
}

const NO_SPINNER: Spinner = { stop: () => {} };

/** What an IO draws, over its streams and environment. */
function drawing(io: Pick<IO, 'out' | 'err' | 'env'>): Pick<IO, 'colour' | 'progress'> {
  return {
    colour: (stream) => colourFor(io.env, io[stream]),
    progress: async (total, journal) => startProgress(io.err, total, journal),
  };
}

/**
 * The process's own streams. A reader that closes the pipe early (`esign bundle list | head`)
 * ends the output quietly: further writes are dropped, no trace is printed, and the command ends
 * with its own exit code (0 when it succeeded; a failure stays a failure).
 */
export function processIO(): IO {
  const wrap = (stream: NodeJS.WriteStream): OutStream => {
    let closed = false;
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
      // Nothing on the other end wants more output.
      closed = true;
    });
    return {
      ...liveLine((text) => {
        if (!closed) stream.write(text);
      }),
      async writeBytes(chunk) {
        if (closed || stream.write(chunk)) return;
        await new Promise<void>((resolve) => {
          stream.once('drain', resolve);
          stream.once('error', () => resolve());
        });
      },
      get isTTY() {
        return stream.isTTY === true;
      },
      get columns() {
        return stream.columns || 80;
      },
      get rows() {
        return stream.rows || undefined;
      },
    };
  };
  const out = wrap(process.stdout);
  const err = wrap(process.stderr);
  return {
    out,
    err,
    stdin: process.stdin,
    stdinIsTTY: process.stdin.isTTY === true,
    env: process.env,
    get interactive() {
      return process.stdin.isTTY === true && process.stdout.isTTY === true && !environment(process.env).ci;
    },
    page: pageThrough,
    ...drawing({ out, err, env: process.env }),
    async spinner(text) {
      if (!err.isTTY) return NO_SPINNER;
      const ora = (await loadOra()).default;
      const s = ora({ text, stream: process.stderr }).start();
      return { stop: () => void s.stop() };
    },
  };
}

/** Like gh: the pager gets the text on its stdin and the terminal for the rest; less is told -FRX. */
async function pageThrough(text: string, command: string): Promise<void> {
  const child = spawn(command, {
    shell: true,
    stdio: ['pipe', 'inherit', 'inherit'],
    env: { LESS: 'FRX', LV: '-c', ...process.env },
  });
  // A pager that quits early (q in less) closes its stdin: that is not an error.
  child.stdin.on('error', () => {});
  child.stdin.end(text);
  const code = await new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(-1));
    child.on('close', resolve);
  });
  if (code === -1) process.stdout.write(text);
}

/** The pager for long lists on a terminal: ESIGN_PAGER, then PAGER, else less; empty or `cat` means none. */
export function pagerCommand(env: NodeJS.ProcessEnv): string | undefined {
  const cmd = (environment(env).pager ?? 'less').trim();
  return cmd && cmd !== 'cat' ? cmd : undefined;
}

export interface CapturedIO extends IO {
  stdout(): string;
  stderr(): string;
  /** What was written as bytes (to either stream). */
  bytes(): Buffer;
}

/** An IO for in-process tests: output is collected; terminal-ness, width, stdin and env are given. */
export function captureIO(
  o: {
    tty?: boolean;
    columns?: number;
    rows?: number;
    stdin?: string | Buffer;
    env?: NodeJS.ProcessEnv;
    interactive?: boolean;
    page?: IO['page'];
  } = {},
): CapturedIO {
  const chunks = { out: [] as string[], err: [] as string[] };
  const bytes: Buffer[] = [];
  const stream = (into: string[]): OutStream => ({
    ...liveLine((t) => void into.push(t)),
    writeBytes: async (chunk) => void bytes.push(Buffer.from(chunk)),
    isTTY: o.tty ?? false,
    columns: o.columns ?? 80,
    rows: o.rows,
  });
  const out = stream(chunks.out);
  const err = stream(chunks.err);
  const env = o.env ?? {};
  return {
    out,
    err,
    stdin: Readable.from(o.stdin === undefined ? [] : [Buffer.from(o.stdin)]),
    stdinIsTTY: o.tty ?? false,
    env,
    interactive: o.interactive ?? false,
    page: o.page,
    ...drawing({ out, err, env }),
    // A captured terminal has no cursor to animate: the spinner's text is written once, as it starts.
    async spinner(text) {
      if (err.isTTY) err.write(`${text}\n`);
      return NO_SPINNER;
    },
    stdout: () => chunks.out.join(''),
    stderr: () => chunks.err.join(''),
    bytes: () => Buffer.concat(bytes),
  };
}

/** Reads all of stdin as UTF-8. */
export async function readAll(input: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of input) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
