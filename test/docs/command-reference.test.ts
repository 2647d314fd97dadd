// docs/commands.md is the program's own help, command by command: a command added, renamed or
// reworded without `npm run docs:commands` fails here, naming the first command that differs.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

it('docs/commands.md is every command of the built program, as its --help says', async () => {
  const { render } = (await import(new URL('../../scripts/command-reference.mjs', import.meta.url).href)) as {
    render: () => Promise<string>;
  };
  const want = await render();
  const have = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8');
  const [w, h] = [want, have].map((text) => text.split(/\n(?=## )/));
  const at = w.findIndex((s, i) => s !== h![i]);
  const stale = at === -1 ? '' : `${(w[at] ?? '').split('\n')[0]}: run npm run build && npm run docs:commands`;
  expect(have, stale).toBe(want);
});
