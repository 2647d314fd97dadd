// Flags whose values are checked when the command line is read: a bad value is a usage error (exit 2)
// naming the flag, before anything is asked of a backend; their choices also feed shell completion.
import { InvalidArgumentError, Option } from 'commander';
import { isDay } from '../service/listQuery.js';

/** A flag taking one of `values`. */
export const choiceOption = (flags: string, description: string, values: readonly string[]) =>
  new Option(flags, description).choices(values);

/** Options taking a comma-separated list of choices: completion offers a choice after each comma. */
export const LIST_OPTIONS = new WeakSet<Option>();

/** A flag taking a comma-separated list of `values` (kept as written, each item checked). */
export function choiceListOption(flags: string, description: string, values: readonly string[]): Option {
  const o = new Option(flags, description).choices(values).argParser((v: string) => {
    const bad = v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s && !values.includes(s));
    if (bad.length)
      throw new InvalidArgumentError(
        `${bad.map((b) => `"${b}"`).join(', ')} not allowed. Allowed: ${values.join(', ')}.`,
      );
    return v;
  });
  LIST_OPTIONS.add(o);
  return o;
}

/** A calendar day written YYYY-MM-DD, as the API's date filters take it. */
export function dayArg(v: string): string {
  if (!isDay(v)) throw new InvalidArgumentError('Expected a day written YYYY-MM-DD (for example 2026-01-31).');
  return v;
}

/** A SHA-256 written as 64 hexadecimal digits; repeatable. */
export function sha256Arg(v: string, previous: string[] = []): string[] {
  if (!/^[0-9a-f]{64}$/i.test(v.trim())) throw new InvalidArgumentError('Expected a SHA-256: 64 hexadecimal digits.');
  return [...previous, v.trim().toLowerCase()];
}
