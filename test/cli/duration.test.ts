// One grammar of durations for every flag that takes one (bundle wait --timeout, bundle create --wait,
// local clock advance).
import { describe, expect, it } from 'vitest';
import { durationArg, formatDuration, parseDuration } from '../../src/cli/duration.js';

describe('durations', () => {
  it('reads bare seconds, units alone and together, and decimals', () => {
    const cases: [string, number][] = [
      ['90', 90_000],
      ['0', 0],
      ['1.5', 1_500],
      ['500ms', 500],
      ['90s', 90_000],
      ['15m', 900_000],
      ['2h', 7_200_000],
      ['3d', 259_200_000],
      ['1w', 604_800_000],
      ['1d12h', 129_600_000],
      ['1h30m', 5_400_000],
      ['1.5h', 5_400_000],
      ['2m500ms', 120_500],
    ];
    for (const [text, ms] of cases) expect(parseDuration(text), text).toBe(ms);
  });

  it('refuses what is not one, naming the flag', () => {
    for (const text of ['', 'abc', '10x', '-5', '5 m', 'm', '1h-', '0x10'])
      expect(parseDuration(text), text).toBeUndefined();
    expect(() => durationArg('soon', '--timeout')).toThrow(
      /^--timeout expects a duration such as 90, 90s, 15m, 2h, 1d12h, got "soon"\.$/,
    );
  });

  it('says a duration for people', () => {
    expect(formatDuration(1000)).toBe('1 s');
    expect(formatDuration(90_000)).toBe('90 s');
    expect(formatDuration(250)).toBe('250 ms');
  });
});
