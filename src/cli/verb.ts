// A verb: how it is declared on the command line, its examples, and the body that runs it.
// The option and argument types of `run` are inferred from the declaration (commander's
// extra-typings), so flags and types cannot drift; a test calls `verb.run(f, opts, ...args)`
// with a Factory of its own, without parsing a command line.
import type { Command, CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import { setExamples } from './examples.js';
import type { EsignService } from '../service/service.js';
import type { Factory } from './factory.js';
import type { Action } from './run.js';

/** What a verb hangs under: a noun, or the program itself. */
export type Parent = CommandUnknownOpts;

export interface VerbSpec<A extends unknown[], O extends OptionValues> {
  /**
   * Declares the command under `parent`: name, arguments, description, flags. Write the parent's
   * type (`(packet: Parent) => ...`): TypeScript infers `run`'s types from here only then.
   */
  command: (parent: Parent) => Command<A, O, OptionValues>;
  /** Two or three lines, each starting `esign <its command path>`, ending its help. */
  examples: string[];
  run: (f: Factory, opts: O, ...args: A) => Promise<void>;
}

export interface Verb<A extends unknown[], O extends OptionValues> extends VerbSpec<A, O> {
  register(parent: Parent, action: Action): void;
}

export function defineVerb<A extends unknown[], O extends OptionValues>(spec: VerbSpec<A, O>): Verb<A, O> {
  return {
    ...spec,
    register(parent, action) {
      const cmd = spec.command(parent);
      setExamples(cmd, spec.examples);
      cmd.action(action(spec.run) as () => Promise<void>);
    },
  };
}

/** The options a verb's `run` takes, as its flags declare them. */
// biome-ignore lint/suspicious/noExplicitAny: matches a verb whatever its arguments
export type OptionsOf<V> = V extends Verb<any, infer O> ? O : never;

/** Registers a noun's verbs under it. */
// biome-ignore lint/suspicious/noExplicitAny: a list of verbs of different shapes
export function registerVerbs(noun: Parent, action: Action, verbs: Verb<any, any>[]): void {
  for (const v of verbs) v.register(noun, action);
}

/** A verb `<name> <id>` that asks the service for one object by its id and shows it. */
export function idVerb<T>(spec: {
  name: string;
  /** What the argument is called in the help (`id` unless told). */
  arg?: string;
  description: string;
  examples: string[];
  fetch: (service: EsignService, id: string) => Promise<T>;
  show: (f: Factory, item: T) => Promise<void>;
}): Verb<[string], OptionValues> {
  return defineVerb({
    // A name known only at run time hides the argument from the type inference: it is one id.
    command: (parent) =>
      parent.command(`${spec.name} <${spec.arg ?? 'id'}>`).description(spec.description) as Command<
        [string],
        OptionValues,
        OptionValues
      >,
    examples: spec.examples,
    run: async (f, _o, id) => spec.show(f, await spec.fetch(await f.service(), id)),
  });
}
