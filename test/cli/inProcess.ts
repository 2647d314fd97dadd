// Runs an esign command line in-process, as the spawned binary would, through the same program
// (runCli) with a captured IO: the result looks like execa's (exitCode, stdout, stderr with the
// final newline stripped), so a test reads the same either way.
import { buildProgram, runCli } from '../../src/cli/main.js';
import { wiring } from '../../src/wiring/wiring.js';
import type { CliTiming, Prompter } from '../../src/cli/factory.js';
import { captureIO } from '../../src/cli/io.js';

/** The program a command line builds (`args` picks a noun built alone), never run: its commands and help. */
export const programFor = (args: string[] = []) =>
  buildProgram(
    '0',
    captureIO(),
    () => {
      throw new Error('a program built to be read is not run');
    },
    { code: 0 },
    args,
    wiring.doorVerbs,
  );

export interface InProcessResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  /** Pretend stdout/stderr are a terminal of this width. */
  tty?: boolean;
  columns?: number;
  /** Answers for prompts; giving any makes the run interactive. */
  answers?: { confirm?: boolean[]; password?: string[] };
  /** Shorter waits than a real run's. */
  timing?: CliTiming;
}

const stripFinalNewline = (s: string) => s.replace(/\r?\n$/, '');

export async function esignIn(args: string[], o: InProcessOptions = {}): Promise<InProcessResult> {
  const io = captureIO({
    tty: o.tty,
    columns: o.columns,
    stdin: o.input,
    env: { ...process.env, NO_COLOR: '1', ...o.env },
    interactive: o.answers !== undefined,
  });
  const answers = { confirm: [...(o.answers?.confirm ?? [])], password: [...(o.answers?.password ?? [])] };
  const prompter: Prompter = {
    confirm: async (message) => {
      const a = answers.confirm.shift();
      if (a === undefined) throw new Error(`unexpected prompt: ${message}`);
      return a;
    },
    password: async (message) => {
      const a = answers.password.shift();
      if (a === undefined) throw new Error(`unexpected prompt: ${message}`);
      return a;
    },
  };
  const exitCode = await runCli(args, { io, prompter, version: '0.0.0-test', timing: o.timing, wiring });
  return { exitCode, stdout: stripFinalNewline(io.stdout()), stderr: stripFinalNewline(io.stderr()) };
}
