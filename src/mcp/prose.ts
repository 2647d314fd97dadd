// The prose of an answer, the words that tell an agent what happened and what to do next, holds
// no text from outside (labels, names, emails, messages, file names, response bodies): those travel
// only as data. `say` is the one way prose is written: an interpolated string must be one token
// (an id, a code, a number) or words the program wrote (`ours`); anything else is replaced.
export class Ours {
  constructor(readonly text: string) {}
}

/** Words this program wrote (a state word, a sentence of its own): allowed in prose as they are. */
export const ours = (text: string) => new Ours(text);

const TOKEN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

function token(v: string | number | Ours): string {
  if (v instanceof Ours) return v.text;
  if (typeof v === 'number') return String(v);
  return TOKEN.test(v) ? v : '(see the data)';
}

export function say(strings: TemplateStringsArray, ...values: (string | number | Ours)[]): string {
  return strings.reduce((out, s, i) => out + s + (i < values.length ? token(values[i]!) : ''), '');
}

/** `1 Bundle`, `2 Bundles`. */
export const count = (n: number, noun: string, plural = `${noun}s`) => ours(`${n} ${n === 1 ? noun : plural}`);
