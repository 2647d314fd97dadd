// One grammar of durations for every flag that takes one (bundle wait --timeout, bundle create --wait,
// local clock advance, and the flags named in seconds: --tolerance, --rate-window, --request-timeout,
// --poll-seconds).
import { describe, expect, it } from 'vitest';
import { durationArg, formatDuration, parseDuration, secondsArg } from '../../src/cli/duration.js';

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

  it('reads the flags named in seconds with it: bare seconds as before, units too, whole seconds only', () => {
    expect(secondsArg('300', '--tolerance')).toBe(300);
    expect(secondsArg('5m', '--tolerance')).toBe(300);
    expect(secondsArg('0', '--tolerance')).toBe(0);
    expect(secondsArg('1h', '--rate-window', 1)).toBe(3600);
    expect(secondsArg('2m30s', '--request-timeout', 1)).toBe(150);
    expect(() => secondsArg('1.5', '--rate-window', 1)).toThrow('--rate-window takes whole seconds, got "1.5".');
    expect(() => secondsArg('0', '--poll-seconds', 1)).toThrow('--poll-seconds must be at least 1 s, got "0".');
    expect(() => secondsArg('soon', '--tolerance')).toThrow(/^--tolerance expects a duration such as 90, 90s/);
  });

  it('says a duration for people', () => {
    expect(formatDuration(1000)).toBe('1 s');
    expect(formatDuration(90_000)).toBe('90 s');
    expect(formatDuration(250)).toBe('250 ms');
  });
});
