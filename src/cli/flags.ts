// Flags whose values are checked when the command line is read: a bad value is a usage error (exit 2)
// naming the flag, before anything is asked of a backend; their choices also feed shell completion.
import { type Command, InvalidArgumentError, Option, type OptionValues } from '@commander-js/extra-typings';
import { isDay } from '../service/listQuery.js';

/** A flag taking one of `values`. */
export const choiceOption = <F extends string, const V extends readonly string[]>(
  flags: F,
  description: string,
  values: V,
) => new Option(flags, description).choices(values);

/** Options taking a comma-separated list of choices: completion offers a choice after each comma. */
export const LIST_OPTIONS = new WeakSet<object>();

/** A flag taking a comma-separated list of `values` (kept as written, each item checked). */
export function choiceListOption<F extends string>(flags: F, description: string, values: readonly string[]) {
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

/** A host name as a Host header carries it (a name or address, and a port or not); repeatable. */
export function hostArg(v: string, previous: string[] = []): string[] {
  const host = v.trim().toLowerCase();
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/.test(host))
    throw new InvalidArgumentError('Expected a host name, with a port or not (for example sign.example.com:8443).');
  return [...previous, host];
}

type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
const optionKey = (field: string) => field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** A pair of flags per boolean field (`auth_sms`: `--auth-sms`, `--no-auth-sms`); unset when neither is given. */
export function toggles<
  A extends unknown[],
  O extends OptionValues,
  G extends OptionValues,
  const F extends readonly string[],
>(cmd: Command<A, O, G>, fields: F) {
  for (const field of fields) {
    const flag = field.replace(/_/g, '-');
    cmd.option(`--${flag}`).option(`--no-${flag}`);
  }
  return cmd as Command<A, O & { [K in F[number] as Camel<K>]?: boolean }, G>;
}

/** The fields `toggles` flags were given for, by field name. */
export function toggled(opts: object, fields: readonly string[]): Record<string, boolean> {
  const given = opts as Record<string, unknown>;
  return Object.fromEntries(
    fields
      .filter((field) => typeof given[optionKey(field)] === 'boolean')
      .map((f) => [f, given[optionKey(f)] as boolean]),
  );
}

/** How a download that found its file already there says to replace it. */
export const CLOBBER = 'pass --clobber to replace it';
