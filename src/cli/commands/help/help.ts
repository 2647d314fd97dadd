// esign help [TOPIC...]: help on a command, the exit codes, or every state in words.
import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import { describeEnvironment } from '../../../app/environment.js';
import { CliError, EXIT, EXIT_TABLE } from '../../exitCodes.js';
import type { IO } from '../../io.js';
import type { Action } from '../../run.js';
import { type Parent, defineVerb } from '../../verb.js';
import { printStates } from './states.js';

function printExitCodes(io: IO): void {
  io.out.write(EXIT_TABLE.map(([code, text]) => `${String(code).padStart(2)}  ${text}\n`).join(''));
}

/** `help` answers about the commands of `program`, which it hangs under. */
const helpVerb = (program: Parent) =>
  defineVerb(
    'help [topic...]',
    'Help on a command, or "exit-codes", "states" (every status and event code in words) or "environment"',
    {
      examples: ['esign help bundle create', 'esign help exit-codes', 'esign help environment'],
      async run(f, _o, topic = []) {
        if (topic[0] === 'exit-codes') return printExitCodes(f.io);
        if (topic[0] === 'states') return printStates(f.io);
        if (topic[0] === 'environment') return void f.io.out.write(describeEnvironment());
        const target = topic.reduce<CommandUnknownOpts | undefined>(
          (c, name) => c?.commands.find((x) => x.name() === name),
          program,
        );
        if (!target)
          throw new CliError(`no help on "${topic.join(' ')}": not a command (try esign --help).`, EXIT.USAGE);
        target.outputHelp();
      },
    },
  );

export function register(program: Command, action: Action): void {
  program.command('help-exit-codes', { hidden: true }).action(action(async (f) => printExitCodes(f.io)));
  program.addHelpCommand(false);
  helpVerb(program).register(program, action);
}
