// The esign program: commander with every noun registered; command bodies load what they need lazily.
// src/wiring/main.ts runs it with the backends and the commands that start another door (serve, console, mcp, scenario).
import { Command, CommanderError } from '@commander-js/extra-typings';
import { api } from './commands/api/api.js';
import * as auth from './commands/auth/index.js';
import * as batch from './commands/batch/batch.js';
import * as bundle from './commands/bundle/index.js';
import * as completion from './commands/completion/completion.js';
import * as envelopeTemplate from './commands/envelope-template/index.js';
import * as help from './commands/help/help.js';
import * as local from './commands/local/index.js';
import * as logs from './commands/logs/index.js';
import * as packet from './commands/packet/index.js';
import * as person from './commands/person/index.js';
import * as profile from './commands/profile/index.js';
import { schema } from './commands/schema/schema.js';
import * as template from './commands/template/index.js';
import { verify } from './commands/verify/verify.js';
import * as webhook from './commands/webhook/index.js';
import * as sandbox from './commands/sandbox/index.js';
import { addExamples } from './examples.js';
import { EXIT } from './exitCodes.js';
import type { Backends } from './backends.js';
import { type CliTiming, Factory, type MakeFactory, type Prompter } from './factory.js';
import type { IO } from './io.js';
import { type Action, type ExitSink, makeAction } from './run.js';
import { loadTerminalWidth } from './output/fit.js';
import type { Parent } from './verb.js';

/** A noun or verb the program registers. */
interface Registrable {
  register(parent: Parent, action: Action): void;
}

/** The commands that start another door (src/wiring declares them), each at its place in the help. */
export interface DoorVerbs {
  serve: Registrable;
  console: Registrable;
  mcp: Registrable;
  scenario: Registrable;
}

/** What src/wiring hands the program: the backends, and the commands that start another door. */
export interface Wiring {
  backends: Backends;
  doorVerbs: DoorVerbs;
}

/**
 * The program. `args` (the command line, when known) only decides how a usage error is written:
 * one `esign:` line, or with --json the same JSON error object as any other failure.
 */
export function buildProgram(
  version: string,
  io: IO,
  makeFactory: MakeFactory,
  exit: ExitSink,
  args: string[] = [],
  doorVerbs?: DoorVerbs,
): Command {
  const action = makeAction(makeFactory, exit);
  const end = args.indexOf('--');
  const json = (end < 0 ? args : args.slice(0, end)).includes('--json');
  const program = new Command('esign')
    .description(
      'Send and manage electronic-signature Bundles (API v2), on the embedded local engine or a remote server',
    )
    .version(version, '-V, --version')
    .option('--json', 'print the API object as JSON')
    .option('-q, --quiet', 'print ids only, one per line')
    .option('-p, --profile <name>', 'use this profile (env ESIGN_PROFILE; see esign profile)')
    .option('--data-dir <dir>', 'data directory of the local engine (env ESIGN_DATA_DIR)')
    .option('--no-pager', 'never page long lists on a terminal (env ESIGN_PAGER, PAGER; default less)')
    .showHelpAfterError(json ? false : '(run with --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (t) => io.out.write(t),
      writeErr: (t) => io.err.write(t),
      outputError: (t, write) => write(usageLine(t.replace(/^error: /, '').trimEnd(), json)),
    });

  // In the order of the help. A command line that names a noun builds that noun alone: the others'
  // commands and options would be made for nothing (a tenth of `esign bundle list`'s start-up).
  const nouns: [string, Registrable | undefined][] = [
    ['bundle', bundle],
    ['packet', packet],
    ['template', template],
    ['envelope-template', envelopeTemplate],
    ['person', person],
    ['webhook', webhook],
    ['local', local],
    ['logs', logs],
    ['profile', profile],
    ['auth', auth],
    ['serve', doorVerbs?.serve],
    ['console', doorVerbs?.console],
    ['mcp', doorVerbs?.mcp],
    ['verify', verify],
    ['batch', batch],
    ['scenario', doorVerbs?.scenario],
    ['sandbox', sandbox],
    ['api', api],
    ['schema', schema.loads(() => import('./commands/schema/schema.run.js'))],
    ['completion', completion],
  ];
  const named = nounOf(args, new Set(nouns.map(([name]) => name)));
  for (const [name, noun] of nouns) if (named === undefined || name === named) noun?.register(program, action);
  if (named === undefined) help.register(program, action);
  addExamples(program);
  return program;
}

/** Global options that take a value (`-p NAME`), so that NAME is not taken for a noun. */
const VALUED_GLOBALS = new Set(['-p', '--profile', '--data-dir']);

/**
 * The noun a command line names (its first word that is not a global option), when it is one of
 * `nouns`; undefined otherwise (no noun, `help`, a word the program may suggest a noun for): then
 * every noun is built. Completion lists every command, so it is built whole too.
 */
export function nounOf(args: string[], nouns: Set<string>): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return undefined;
    if (VALUED_GLOBALS.has(a)) i++;
    else if (!a.startsWith('-')) return nouns.has(a) && a !== 'completion' ? a : undefined;
  }
  return undefined;
}

function usageLine(message: string, json: boolean): string {
  return json ? `${JSON.stringify({ code: 'usage', message, exit_code: EXIT.USAGE })}\n` : `esign: ${message}\n`;
}

export interface RunOptions {
  io: IO;
  prompter?: Prompter;
  version?: string;
  timing?: CliTiming;
  wiring: Wiring;
}

/**
 * Runs one command line (argv without the node and script names) and returns its exit code.
 * Tests call this in-process with a captured IO; `main` (src/wiring/main.ts) with the process's streams.
 */
export async function runCli(args: string[], o: RunOptions): Promise<number> {
  const exit: ExitSink = { code: EXIT.OK };
  const program = buildProgram(
    o.version ?? '0.0.0',
    o.io,
    (options) => new Factory(options, o.io, o.prompter, o.timing, o.wiring.backends),
    exit,
    args,
    o.wiring.doorVerbs,
  );
  if (o.io.out.isTTY || o.io.err.isTTY) await loadTerminalWidth();
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      return e.exitCode === 0 || e.code === 'commander.helpDisplayed' || e.code === 'commander.version'
        ? EXIT.OK
        : EXIT.USAGE;
    }
    throw e;
  }
  return exit.code;
}
