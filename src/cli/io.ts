// The streams a command talks through. Commands never touch process.stdout/stderr/stdin/env
// directly: they use the IO the Factory hands out, so a test runs a command in-process with a
// captured IO, and the closed-pipe rule lives here once.
import { Readable } from 'node:stream';

export interface OutStream {
  write(text: string): void;
  /** A terminal: tables, colour, relative times; otherwise tab-separated rows and ISO times. */
  readonly isTTY: boolean;
  /** Terminal width in columns (80 when unknown). */
  readonly columns: number;
}

export interface IO {
  out: OutStream;
  err: OutStream;
  stdin: Readable;
  stdinIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  /** stdin and stdout are terminals and CI is unset: prompts may be shown. */
  readonly interactive: boolean;
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
      write: (text) => {
        if (!closed) stream.write(text);
      },
      get isTTY() {
        return stream.isTTY === true;
      },
      get columns() {
        return stream.columns || 80;
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
      return process.stdin.isTTY === true && process.stdout.isTTY === true && !process.env.CI;
    },
  };
}

export interface CapturedIO extends IO {
  stdout(): string;
  stderr(): string;
}

/** An IO for in-process tests: output is collected; terminal-ness, width, stdin and env are given. */
export function captureIO(o: { tty?: boolean; columns?: number; stdin?: string | Buffer; env?: NodeJS.ProcessEnv; interactive?: boolean } = {}): CapturedIO {
  const chunks = { out: [] as string[], err: [] as string[] };
  const stream = (into: string[]): OutStream => ({ write: (t) => void into.push(t), isTTY: o.tty ?? false, columns: o.columns ?? 80 });
  return {
    out: stream(chunks.out),
    err: stream(chunks.err),
    stdin: Readable.from(o.stdin === undefined ? [] : [Buffer.from(o.stdin)]),
    stdinIsTTY: o.tty ?? false,
    env: o.env ?? {},
    interactive: o.interactive ?? false,
    stdout: () => chunks.out.join(''),
    stderr: () => chunks.err.join(''),
  };
}

/** Reads all of stdin as UTF-8. */
export async function readAll(input: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of input) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
