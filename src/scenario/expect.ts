// What a step's answer must hold: `expect` maps paths into the answer to what is expected there, a
// value (an object matches when each member given matches; a list item for item) or a matcher.
// A failed expectation says where, what was expected and what was there.
import { isDeepStrictEqual } from 'node:util';
import { valueAt } from './refs.js';

export const MATCHERS = [
  'equals',
  'not',
  'matches',
  'exists',
  'length',
  'contains',
  'in_order',
  'gte',
  'lte',
  'one_of',
] as const;
type Matcher = (typeof MATCHERS)[number];

/** A step's expectation that did not hold. */
export class AssertionFailed extends Error {
  /** The step's answer, when it had one (an expectation on it failed). */
  answer?: unknown;
  constructor(
    message: string,
    readonly expected: unknown,
    readonly actual: unknown,
  ) {
    super(message);
    this.name = 'AssertionFailed';
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An object whose members are all matcher names: `{ length: 2 }`, `{ gte: 1, lte: 3 }`. */
const isMatcher = (v: unknown): v is Partial<Record<Matcher, unknown>> =>
  isObject(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => (MATCHERS as readonly string[]).includes(k));

const show = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));

/** Why `actual` does not match `expected`, or undefined when it does. */
export function mismatch(expected: unknown, actual: unknown): string | undefined {
  if (isMatcher(expected)) {
    for (const [name, arg] of Object.entries(expected)) {
      const why = applyMatcher(name as Matcher, arg, actual);
      if (why) return why;
    }
    return undefined;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `expected a list, got ${show(actual)}`;
    if (actual.length !== expected.length) return `expected ${expected.length} items, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const why = mismatch(expected[i], actual[i]);
      if (why) return `[${i}]: ${why}`;
    }
    return undefined;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return `expected an object, got ${show(actual)}`;
    for (const [k, v] of Object.entries(expected)) {
      const why = mismatch(v, actual[k]);
      if (why) return `${k}: ${why}`;
    }
    return undefined;
  }
  return isDeepStrictEqual(expected, actual) ? undefined : `expected ${show(expected)}, got ${show(actual)}`;
}

const size = (v: unknown) => (Array.isArray(v) || typeof v === 'string' ? v.length : undefined);
const num = (v: unknown) => (typeof v === 'number' ? v : undefined);

function applyMatcher(name: Matcher, arg: unknown, actual: unknown): string | undefined {
  switch (name) {
    case 'equals':
      return isDeepStrictEqual(arg, actual) ? undefined : `expected exactly ${show(arg)}, got ${show(actual)}`;
    case 'not':
      return mismatch(arg, actual) === undefined ? `expected anything but ${show(arg)}` : undefined;
    case 'matches':
      return typeof actual === 'string' && new RegExp(String(arg)).test(actual)
        ? undefined
        : `expected text matching /${String(arg)}/, got ${show(actual)}`;
    case 'exists':
      return (actual !== undefined) === Boolean(arg)
        ? undefined
        : arg
          ? 'expected a value, got nothing'
          : `expected nothing, got ${show(actual)}`;
    case 'length': {
      const n = size(actual);
      if (n === undefined) return `expected a list or text, got ${show(actual)}`;
      const why = mismatch(arg, n);
      return why ? `length: ${why}` : undefined;
    }
    case 'contains':
      if (typeof actual === 'string')
        return actual.includes(String(arg)) ? undefined : `expected text containing ${show(arg)}, got ${show(actual)}`;
      if (!Array.isArray(actual)) return `expected a list, got ${show(actual)}`;
      return actual.some((item) => mismatch(arg, item) === undefined)
        ? undefined
        : `expected an item matching ${show(arg)} in ${show(actual)}`;
    case 'in_order':
      return inOrder(arg, actual);
    case 'gte':
    case 'lte': {
      const a = num(actual);
      const b = num(arg);
      if (a === undefined || b === undefined) return `expected a number, got ${show(actual)}`;
      return (name === 'gte' ? a >= b : a <= b) ? undefined : `expected ${name === 'gte' ? '>=' : '<='} ${b}, got ${a}`;
    }
    case 'one_of':
      return Array.isArray(arg) && arg.some((v) => mismatch(v, actual) === undefined)
        ? undefined
        : `expected one of ${show(arg)}, got ${show(actual)}`;
  }
}

/** The items of `wanted` appear in `actual` in this order (others may come between). */
function inOrder(wanted: unknown, actual: unknown): string | undefined {
  if (!Array.isArray(wanted) || !Array.isArray(actual)) return `expected a list, got ${show(actual)}`;
  let at = 0;
  for (const [i, w] of wanted.entries()) {
    while (at < actual.length && mismatch(w, actual[at]) !== undefined) at++;
    if (at >= actual.length)
      return `expected ${show(wanted)} in this order: ${show(w)} (item ${i + 1}) is missing${i ? ` after ${show(wanted[i - 1])}` : ''} in ${show(actual)}`;
    at++;
  }
  return undefined;
}

/** Checks every path of an `expect`; throws AssertionFailed at the first that does not hold. */
export function checkExpect(expect: Record<string, unknown>, answer: unknown): void {
  for (const [path, expected] of Object.entries(expect)) {
    const at = valueAt(answer, path);
    const actual = at.found ? at.value : undefined;
    const why = mismatch(expected, actual);
    if (why) {
      const failed = new AssertionFailed(`${path || 'the answer'}: ${why}`, expected, actual);
      failed.answer = answer;
      throw failed;
    }
  }
}
