// The examples at the end of every command's help, declared beside each verb (src/cli/verb.ts).
// Each starts with `esign <its command path>`; a test checks every leaf command has two or three.

const declared = new WeakMap<object, string[]>();

/** Records a command's examples, declared beside its verb. */
export function setExamples(cmd: object, list: string[]): void {
  declared.set(cmd, list);
}

interface Named {
  name(): string;
  readonly commands: readonly Named[];
  addHelpText(position: 'after', text: string): unknown;
}

function* descendants(cmd: Named, path: string[] = []): Generator<[string, Named]> {
  for (const c of cmd.commands) {
    const p = [...path, c.name()];
    yield [p.join(' '), c];
    yield* descendants(c, p);
  }
}

/** Every command's examples by command path. */
export function examplesByPath(program: Named): Record<string, string[]> {
  const all: Record<string, string[]> = {};
  for (const [path, c] of descendants(program)) {
    const list = declared.get(c);
    if (list) all[path] = list;
  }
  return all;
}

/** Ends every command's help with its examples. */
export function addExamples(program: Named): void {
  for (const [, c] of descendants(program)) {
    const list = declared.get(c);
    if (list) c.addHelpText('after', examplesHelp(list));
  }
}

/** The help text that ends a command's help. */
const examplesHelp = (list: string[]) => `\nExamples:\n${list.map((e) => `  $ ${e}`).join('\n')}\n`;
