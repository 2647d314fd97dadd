// The esign program: commander with every noun registered; command bodies load what they need lazily.
import { Command, CommanderError } from 'commander';
import { registerBundle } from './commands/bundle.js';
import { registerEnvelopeTemplate } from './commands/envelopeTemplate.js';
import { registerLocal } from './commands/local.js';
import { registerPacket } from './commands/packet.js';
import { registerPerson } from './commands/person.js';
import { registerProfile } from './commands/profile.js';
import { registerServe } from './commands/serve.js';
import { registerTemplate } from './commands/template.js';
import { register as registerVerify } from './commands/verify/verify.js';
import { registerWebhook } from './commands/webhook.js';
import { EXIT, EXIT_TABLE } from './exitCodes.js';
import { Factory, type MakeFactory, type Prompter } from './factory.js';
import { type IO, processIO } from './io.js';
import { type ExitSink, makeAction } from './run.js';

export function buildProgram(version: string, io: IO, makeFactory: MakeFactory, exit: ExitSink): Command {
  const action = makeAction(makeFactory, exit);
  const program = new Command('esign')
    .description('Send and manage electronic-signature Bundles (API v2), on the embedded local engine or a remote server')
    .version(version, '-V, --version')
    .option('--json', 'print the API object as JSON')
    .option('-q, --quiet', 'print ids only, one per line')
    .option('-p, --profile <name>', 'use this profile (env ESIGN_PROFILE; see esign profile)')
    .option('--data-dir <dir>', 'data directory of the local engine (env ESIGN_DATA_DIR)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (t) => io.out.write(t), writeErr: (t) => io.err.write(t) });

  registerBundle(program, action);
  registerPacket(program, action);
  registerTemplate(program, action);
  registerEnvelopeTemplate(program, action);
  registerPerson(program, action);
  registerWebhook(program, action);
  registerLocal(program, action);
  registerProfile(program, action);
  registerServe(program, action);
  registerVerify(program, action);

  program
    .command('help-exit-codes', { hidden: true })
    .action(() => printExitCodes(io));
  program.addHelpCommand(false);
  program
    .command('help [topic...]')
    .description('Help on a command, or "exit-codes", or "states" (every status and event code in words)')
    .action(async (topic: string[] = []) => {
      if (topic[0] === 'exit-codes') return printExitCodes(io);
      if (topic[0] === 'states') return (await import('./commands/help/states.js')).printStates(io);
      const target = topic.reduce<Command | undefined>((c, name) => c?.commands.find((x) => x.name() === name), program);
      if (!target) {
        io.err.write(`esign: no help on "${topic.join(' ')}": not a command (try esign --help).\n`);
        exit.code = EXIT.USAGE;
        return;
      }
      target.outputHelp();
    });
  return program;
}

function printExitCodes(io: IO): void {
  io.out.write(EXIT_TABLE.map(([code, text]) => `${String(code).padStart(2)}  ${text}\n`).join(''));
}

export interface RunOptions {
  io: IO;
  prompter?: Prompter;
  version?: string;
}

/**
 * Runs one command line (argv without the node and script names) and returns its exit code.
 * Tests call this in-process with a captured IO; `main` calls it with the process's streams.
 */
export async function runCli(args: string[], o: RunOptions): Promise<number> {
  const exit: ExitSink = { code: EXIT.OK };
  const program = buildProgram(o.version ?? '0.0.0', o.io, (options) => new Factory(options, o.io, o.prompter), exit);
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      return e.exitCode === 0 || e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? EXIT.OK : EXIT.USAGE;
    }
    throw e;
  }
  return exit.code;
}

export async function main(argv: string[], version: string): Promise<void> {
  process.exitCode = await runCli(argv.slice(2), { io: processIO(), version });
}
