// Every command's help ends with real examples (declared beside each verb), and subcommand help
// shows the global options.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { examplesByPath } from '../../src/cli/examples.js';
import { esignIn, programFor } from './inProcess.js';

function leaves(cmd: CommandUnknownOpts, prefix: string[] = []): string[] {
  return cmd.commands.flatMap((c) => {
    if ((c as unknown as { _hidden?: boolean })._hidden) return [];
    const path = [...prefix, c.name()];
    return c.commands.length ? leaves(c, path) : [path.join(' ')];
  });
}

const program = () => programFor();

const EXAMPLES = examplesByPath(program());

describe('help', () => {
  it('every leaf command has two or three examples, and every example names a real command', () => {
    const all = leaves(program());
    const missing = all.filter((p) => !EXAMPLES[p]);
    expect(missing).toEqual([]);
    for (const p of all) expect(EXAMPLES[p].length, p).toBeGreaterThanOrEqual(2);
    for (const p of all) expect(EXAMPLES[p].length, p).toBeLessThanOrEqual(3);
    expect(Object.keys(EXAMPLES).filter((k) => !all.includes(k))).toEqual([]);
    for (const [p, list] of Object.entries(EXAMPLES))
      for (const e of list) expect(e.includes(`esign ${p}`), e).toBe(true);
  });

  it('examples name Bundles and Packets by ids of their real shape (10 characters of the slug alphabet, not UUIDs)', () => {
    const SLUG = /^[A-HJ-NP-Za-km-z2-9]{10}$/;
    const takesSlug =
      /^(bundle (get|update|send|cancel|validate|events|files|data|remind|wait|inspect|tags add|tags remove)|packet \S+|local (view|sign|decline|reassign))$/;
    for (const [p, list] of Object.entries(EXAMPLES)) {
      if (!takesSlug.test(p)) continue;
      for (const e of list.filter((x) => x.startsWith(`esign ${p} `))) {
        const first = e.slice(`esign ${p} `.length).split(' ')[0]!;
        if (first === '-' || first.startsWith('-')) continue;
        expect(first, e).toMatch(SLUG);
      }
    }
  });

  it('help ends with the examples and shows the global options', async () => {
    const r = await esignIn(['bundle', 'list', '--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/Global Options:[\s\S]*--json[\s\S]*-q, --quiet/);
    expect(r.stdout.trimEnd().endsWith(EXAMPLES['bundle list'].at(-1)!)).toBe(true);
    expect(r.stdout).toContain('Examples:');
  });
});
