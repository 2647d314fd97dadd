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
import { registerVerify } from './commands/verify.js';
import { registerWebhook } from './commands/webhook.js';
import { EXIT, EXIT_TABLE } from './exitCodes.js';
import { action } from './run.js';

export function buildProgram(version: string): Command {
  const program = new Command('esign')
    .description('Send and manage electronic-signature Bundles (API v2), on the embedded local engine or a remote server')
    .version(version, '-V, --version')
    .option('--json', 'print the API object as JSON')
    .option('-q, --quiet', 'print ids only, one per line')
    .option('-p, --profile <name>', 'use this profile (env ESIGN_PROFILE; see esign profile)')
    .option('--data-dir <dir>', 'data directory of the local engine (env ESIGN_DATA_DIR)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

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
    .action(() => printExitCodes());
  program.addHelpCommand(false);
  program
    .command('help [topic...]')
    .description('Help on a command, or "exit-codes"')
    .action((topic: string[] = []) => {
      if (topic[0] === 'exit-codes') return printExitCodes();
      const target = topic.reduce<Command | undefined>((c, name) => c?.commands.find((x) => x.name() === name), program);
      if (!target) {
        process.stderr.write(`esign: no help on "${topic.join(' ')}": not a command (try esign --help).\n`);
        process.exitCode = EXIT.USAGE;
        return;
      }
      target.outputHelp();
    });
  return program;
}

function printExitCodes(): void {
  process.stdout.write(EXIT_TABLE.map(([code, text]) => `${String(code).padStart(2)}  ${text}\n`).join(''));
}

export async function main(argv: string[], version: string): Promise<void> {
  const program = buildProgram(version);
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      process.exitCode = e.exitCode === 0 || e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? EXIT.OK : EXIT.USAGE;
      return;
    }
    throw e;
  }
}
