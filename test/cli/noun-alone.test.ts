// A command line that names a noun builds that noun alone (start-up); any other builds them all.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { nounOf } from '../../src/cli/main.js';
import { esignIn, programFor } from './inProcess.js';

const program = programFor;

/** Every command by its words, options included: what a command line can reach. */
function shape(c: CommandUnknownOpts, path: string[] = []): string[] {
  return [
    `${path.join(' ')} [${c.options.map((o) => o.flags).join(', ')}]`,
    ...c.commands.flatMap((x) => shape(x, [...path, x.name()])),
  ];
}

describe('the program a command line builds', () => {
  const whole = program([]);
  // help (and its hidden topics) and completion (and its shell callback) list every command: built whole.
  const nouns = whole.commands
    .filter((c) => !(c as unknown as { _hidden?: boolean })._hidden)
    .map((c) => c.name())
    .filter((n) => n !== 'help' && n !== 'completion');

  it('for each noun: that noun alone, exactly as in the whole program', () => {
    expect(nouns.length).toBeGreaterThan(15);
    for (const noun of nouns) {
      const alone = program([noun, 'x']);
      expect(
        alone.commands.map((c) => c.name()),
        noun,
      ).toEqual([noun]);
      const full = whole.commands.find((c) => c.name() === noun)!;
      expect(shape(alone.commands[0], [noun]), noun).toEqual(shape(full, [noun]));
    }
  });

  it('finds the noun past global options and their values; otherwise builds every noun', () => {
    const known = new Set(nouns);
    expect(nounOf(['--json', '-p', 'bundle', 'packet', 'get'], known)).toBe('packet');
    expect(nounOf(['--data-dir', 'webhook', '-q', 'bundle', 'list'], known)).toBe('bundle');
    expect(nounOf(['--profile=x', 'bundle'], known)).toBe('bundle');
    for (const args of [
      [],
      ['--help'],
      ['help', 'bundle'],
      ['bundel', 'list'],
      ['completion', 'bash'],
      ['__complete', 'bundle'],
      ['--', 'bundle'],
    ])
      expect(nounOf(args, known), args.join(' ')).toBeUndefined();
    expect(program(['bundel', 'list']).commands.length).toBe(whole.commands.length);
  });

  it('a mistyped noun is still answered with the nouns it may mean', async () => {
    const r = await esignIn(['bundel', 'list']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/bundle/);
  });
});
