// A verb: how it is declared on the command line, its examples, and the body that runs it.
// The option and argument types of `run` are inferred from the declaration (commander's
// extra-typings), so flags and types cannot drift; a test calls `verb.run(f, opts, ...args)`
// with a Factory of its own, without parsing a command line.
import type {
  Command,
  CommandOptions,
  CommandUnknownOpts,
  InferCommandArguments,
  OptionValues,
} from '@commander-js/extra-typings';
import { setExamples } from './examples.js';
import type { EsignService } from '../service/service.js';
import type { Page, PageQuery } from '../service/types.js';
import type { Factory } from './factory.js';
import { type Column, printDeleted, printList } from './output/print.js';
import { addPageOptions, fetchPages } from './paging.js';
import { type Action, confirm } from './run.js';

/** What a verb hangs under: a noun, or the program itself. */
export type Parent = CommandUnknownOpts;

/** A verb's body and its examples, with how its command is declared under a parent (`customVerb`). */
export interface VerbSpec<A extends unknown[], O extends OptionValues> {
  command: (parent: Parent) => Command<A, O, OptionValues>;
  /** Two or three lines, each starting `esign <its command path>`, ending its help. */
  examples: string[];
  run: (f: Factory, opts: O, ...args: A) => Promise<void>;
}

export interface Verb<A extends unknown[], O extends OptionValues> extends VerbSpec<A, O> {
  register(parent: Parent, action: Action): void;
}

/** A command before its flags, as commander's types write it. */
// biome-ignore lint/complexity/noBannedTypes: extra-typings' own type for "no options yet"
type NoOptions = {};

/** The positional arguments a usage such as `get <slug> [more...]` declares, as commander types them. */
type ArgsOf<U extends string> = [...InferCommandArguments<U>];

/**
 * A verb: its usage (`cancel <slugs...>`: name and arguments), description, flags, examples and body.
 * `flags` adds the options to the declared command (`(c) => c.option('-y, --yes', '...')`); `run`'s
 * argument and option types are inferred from the usage and the flags.
 */
export function defineVerb<const U extends string, O extends OptionValues = NoOptions>(
  usage: U,
  description: string,
  spec: {
    flags?: (command: Command<ArgsOf<U>, NoOptions, OptionValues>) => Command<ArgsOf<U>, O, OptionValues>;
    /** Commander's settings of the command itself (`isDefault`, `hidden`). */
    commandOptions?: CommandOptions;
    examples: string[];
    run: (f: Factory, opts: O, ...args: ArgsOf<U>) => Promise<void>;
  },
): Verb<ArgsOf<U>, O> {
  return customVerb({
    command: (parent) => {
      const declared = parent.command(usage, spec.commandOptions).description(description) as unknown as Command<
        ArgsOf<U>,
        NoOptions,
        OptionValues
      >;
      return spec.flags ? spec.flags(declared) : (declared as unknown as Command<ArgsOf<U>, O, OptionValues>);
    },
    examples: spec.examples,
    run: spec.run,
  });
}

/** A verb's body, as the module holding it exports it: typed by the verb's declaration. */
export type Run<V> = V extends Declared<infer A, infer O> ? (f: Factory, opts: O, ...args: A) => Promise<void> : never;

/** A verb declared without its body: the body's module imports its types from here, and nothing back. */
export interface Declared<A extends unknown[], O extends OptionValues> {
  command: (parent: Parent) => Command<A, O, OptionValues>;
  examples: string[];
  /**
   * The verb, its body loaded from `load` when it runs (the noun's index holds the `import()`, so the
   * body's module has its imports at its top and loads only for its own command).
   */
  loads(load: () => Promise<{ run: (f: Factory, opts: O, ...args: A) => Promise<void> }>): Verb<A, O>;
}

/** A verb's usage, description, flags and examples, its body in a module of its own (`Declared.loads`). */
export function declareVerb<const U extends string, O extends OptionValues = NoOptions>(
  usage: U,
  description: string,
  spec: Omit<Parameters<typeof defineVerb<U, O>>[2], 'run'>,
): Declared<ArgsOf<U>, O> {
  const { command, examples } = defineVerb<U, O>(usage, description, { ...spec, run: async () => {} });
  return {
    command,
    examples,
    loads: (load) =>
      customVerb({ command, examples, run: async (f, opts, ...args) => (await load()).run(f, opts, ...args) }),
  };
}

/** A verb whose command is declared at run time (a maker's name): its types are the caller's word. */
export function customVerb<A extends unknown[], O extends OptionValues>(spec: VerbSpec<A, O>): Verb<A, O> {
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
// biome-ignore lint/suspicious/noExplicitAny: matches a verb (or a declaration) whatever its arguments
export type OptionsOf<V> = V extends { command: (parent: Parent) => Command<any, infer O, OptionValues> } ? O : never;

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
  return customVerb({
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

/**
 * A verb `delete <id>` (or `remove <headerId>`, ...): asks first (or takes -y/--yes), deletes, and
 * says so (`printDeleted`). The question reads "Delete person ID?".
 */
export function deleteVerb(spec: {
  /** The verb's name, also the question's first word (default `delete`). */
  name?: string;
  /** The argument's name in the help (default `id`). */
  arg?: string;
  /** What is deleted, as the question and the note name it: `person`, `webhook header`. */
  what: string;
  description: string;
  examples: string[];
  remove: (service: EsignService, id: string) => Promise<unknown>;
}): Verb<[string], { yes?: true }> {
  const name = spec.name ?? 'delete';
  return customVerb({
    command: (parent) =>
      parent
        .command(`${name} <${spec.arg ?? 'id'}>`)
        .description(spec.description)
        .option('-y, --yes', 'do not ask for confirmation') as Command<[string], { yes?: true }, OptionValues>,
    examples: spec.examples,
    async run(f, o, id) {
      await confirm(f, `${name[0]!.toUpperCase()}${name.slice(1)} ${spec.what} ${id}?`, o.yes);
      await spec.remove(await f.service(), id);
      printDeleted(f, spec.what, id);
    },
  });
}

/** The flags `addPageOptions` declares, as commander types them. */
type PageOptions = { page?: string; perPage?: string; limit?: string; all?: true };

/**
 * A verb listing objects a page at a time: the flags `command` declares, then the paging flags
 * (--page, --per-page, --limit, --all); the rows shown as `columns`, or their ids with -q.
 */
export function listVerb<O extends OptionValues, T>(
  name: string,
  description: string,
  spec: {
    /** The filters (the paging flags are added after them). */
    flags?: (command: Command<[], NoOptions, OptionValues>) => Command<[], O, OptionValues>;
    examples: string[];
    /** Checks the flags, before the service is asked for, and says how one page is fetched. */
    pages: (o: O) => (service: EsignService, q: PageQuery) => Promise<Page<T>>;
    columns: Column<T>[];
    id: (row: T) => string;
  },
): Verb<[], O & PageOptions> {
  return customVerb({
    command: (parent) => {
      const declared = parent.command(name).description(description) as unknown as Command<[], NoOptions, OptionValues>;
      const filtered = spec.flags ? spec.flags(declared) : (declared as unknown as Command<[], O, OptionValues>);
      // The paging flags' types, merged into a generic O, are written out once here.
      return addPageOptions(filtered) as unknown as Command<[], O & PageOptions, OptionValues>;
    },
    examples: spec.examples,
    async run(f, o) {
      const page = spec.pages(o);
      const service = await f.service();
      await printList(f, await fetchPages(f, (q) => page(service, q), o), spec.columns, spec.id);
    },
  });
}
