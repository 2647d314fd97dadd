// esign completion bash|zsh|fish: a completion script; the hidden `esign __complete` answers it.
import { Argument, type Command } from '@commander-js/extra-typings';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Action } from '../../run.js';
import { type Parent, customVerb } from '../../verb.js';
import { candidateLines, complete, linked } from './complete.js';
import { programSources } from './programSources.js';
import { treeOf } from './tree.js';
import { SCRIPTS } from './scripts.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

const INSTALL_TEXT = `
Install:
  bash  echo 'source <(esign completion bash)' >> ~/.bashrc
  zsh   esign completion zsh > "\${fpath[1]}/_esign"   (then restart zsh; needs compinit)
  fish  esign completion fish > ~/.config/fish/completions/esign.fish`;

export const completion = customVerb({
  command: (program: Parent) =>
    program
      .command('completion')
      .addArgument(new Argument('<shell>').choices(SHELLS))
      .description('Print the shell completion script for bash, zsh or fish')
      .addHelpText('after', () => INSTALL_TEXT),
  examples: [
    'esign completion bash > ~/.local/share/bash-completion/completions/esign',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh parameter, shown as typed
    'esign completion zsh > "${fpath[1]}/_esign"',
    'esign completion fish > ~/.config/fish/completions/esign.fish',
  ],
  async run(f, _o, shell) {
    if (!(shell in SCRIPTS)) throw new CliError(`No completion for "${shell}": bash, zsh or fish.`, EXIT.USAGE);
    f.io.out.write(SCRIPTS[shell]);
  },
});

export function register(program: Command, action: Action): void {
  completion.register(program, action);
  program
    .command('__complete', { hidden: true })
    .argument('[words...]')
    .allowUnknownOption()
    .helpOption(false)
    .action(
      action(async (f, _o, words: string[] = []) => {
        const found = await complete(programSources(f), linked(treeOf(program)), words.length ? words : ['']);
        f.io.out.write(candidateLines(found));
      }),
    );
}
