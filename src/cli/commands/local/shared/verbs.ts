// Verb makers for the shapes the `local` groups repeat: a default `list` of what the engine holds
// (unpaged; `listVerb` in verb.ts pages through the service),
// and a pair of verbs that switch something on and off.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Factory, LocalBackend } from '../../../factory.js';
import { type Column, printList } from '../../../output/print.js';
import { type Parent, type Verb, customVerb, defineVerb } from '../../../verb.js';

/** `list`, the group's default verb: rows the engine holds, as a table. */
export function engineList<T>(spec: {
  description?: string;
  examples: string[];
  rows: (engine: LocalBackend) => T[] | Promise<T[]>;
  columns: Column<T>[];
  id: (row: T) => string;
}) {
  return defineVerb('list', spec.description ?? '', {
    commandOptions: { isDefault: true },
    examples: spec.examples,
    run: async (f) => printList(f, await spec.rows(await f.localEngine()), spec.columns, spec.id),
  });
}

/** Two verbs told apart only by `on` (`enable`/`disable`, `verify`/`unverify`): names, descriptions, examples. */
export function switchVerbs<A extends unknown[], O extends OptionValues>(spec: {
  names: [on: string, off: string];
  descriptions: [on: string, off: string];
  examples: [on: string[], off: string[]];
  /** The verb under `parent` by `name`, with its arguments. */
  command: (parent: Parent, name: string) => Command<A, O, OptionValues>;
  run: (f: Factory, on: boolean, opts: O, ...args: A) => Promise<void>;
}): [on: Verb<A, O>, off: Verb<A, O>] {
  const make = (i: 0 | 1) =>
    customVerb({
      command: (parent: Parent) => spec.command(parent, spec.names[i]).description(spec.descriptions[i]),
      examples: spec.examples[i],
      run: (f, o, ...args) => spec.run(f, i === 0, o, ...args),
    });
  return [make(0), make(1)];
}
