// The command tree as completion reads it: names, flags, arguments and their choices. Made from
// commander's program, and written by the build into dist/completion.json, so that a Tab is answered
// from that file without loading the program (fast.ts); both come from the same walk.
import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { LIST_OPTIONS } from '../../flags.js';

export interface TreeOption {
  long?: string;
  short?: string;
  description: string;
  takesValue: boolean;
  choices?: readonly string[];
  /** A comma-separated list of choices: offered again after each comma. */
  list?: boolean;
}

export interface TreeNode {
  name: string;
  aliases: string[];
  description: string;
  options: TreeOption[];
  args: { name: string; choices?: readonly string[] }[];
  commands: TreeNode[];
  parent?: TreeNode;
}

const hidden = (c: CommandUnknownOpts) => (c as unknown as { _hidden?: boolean })._hidden === true;

function optionOf(o: Option): TreeOption {
  return {
    ...(o.long ? { long: o.long } : {}),
    ...(o.short ? { short: o.short } : {}),
    description: o.description,
    takesValue: Boolean(o.required || o.optional),
    ...(o.argChoices ? { choices: o.argChoices } : {}),
    ...(LIST_OPTIONS.has(o) ? { list: true } : {}),
  };
}

/** The visible commands under `cmd`, with their flags and arguments (no parent links: see linked). */
export function treeOf(cmd: CommandUnknownOpts): TreeNode {
  return {
    name: cmd.name(),
    aliases: cmd.aliases(),
    description: cmd.description(),
    options: cmd.options.filter((o) => !o.hidden).map(optionOf),
    args: cmd.registeredArguments.map((a) => ({
      name: a.name(),
      ...(a.argChoices ? { choices: a.argChoices } : {}),
    })),
    commands: cmd.commands.filter((c) => !hidden(c)).map(treeOf),
  };
}
