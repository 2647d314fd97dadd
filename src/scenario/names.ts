// The names a scenario file spells: operations and matchers. A name that is not one gets the
// nearest that is, and a matcher misspelled in the usual ways (letters swapped, dropped or doubled:
// `contians`, `contain`, `equalls`) is refused rather than read as a member of the answer. One
// list, so the JSON Schema for editors and `esign scenario check` refuse the same keys.
import { closest, distance } from 'fastest-levenshtein';
import { OPERATIONS } from '../service/operations.js';
import { MATCHERS } from './expect.js';

export const OPERATION_NAMES: readonly string[] = OPERATIONS.map((o) => o.name as string);

/** The candidate nearest `name`, when it is near enough to be what was meant. */
export function nearest(name: string, candidates: readonly string[]): string | undefined {
  if (!candidates.length) return undefined;
  const best = closest(name.toLowerCase(), candidates.map((c) => c.toLowerCase()) as string[]);
  const i = candidates.findIndex((c) => c.toLowerCase() === best);
  return distance(name.toLowerCase(), best) <= Math.max(2, Math.floor(best.length / 3)) ? candidates[i] : undefined;
}

/** Spellings a hand slips into: one letter dropped, two neighbours swapped, one letter doubled. */
function slips(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) {
    out.push(word.slice(0, i) + word.slice(i + 1));
    out.push(word.slice(0, i + 1) + word[i] + word.slice(i + 1));
    if (i + 1 < word.length) out.push(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  }
  return out;
}

/** Other spellings people reach for. */
const ALSO: Record<string, (typeof MATCHERS)[number]> = {
  match: 'matches',
  equal: 'equals',
  contain: 'contains',
  oneof: 'one_of',
  'one-of': 'one_of',
  inorder: 'in_order',
  'in-order': 'in_order',
};

/** Each misspelling of a matcher, with the matcher meant. */
export const MATCHER_TYPOS: ReadonlyMap<string, string> = (() => {
  const typos = new Map<string, string>(Object.entries(ALSO));
  for (const m of MATCHERS)
    for (const s of slips(m)) if (s.length > 1 && !(MATCHERS as readonly string[]).includes(s)) typos.set(s, m);
  return typos;
})();

/** Every member of an expected value (deeply) that is a misspelt matcher, with its path below the value. */
export function matcherTypos(
  expected: unknown,
  at: (string | number)[] = [],
): { at: (string | number)[]; typo: string; meant: string }[] {
  if (Array.isArray(expected)) return expected.flatMap((v, i) => matcherTypos(v, [...at, i]));
  if (!expected || typeof expected !== 'object') return [];
  return Object.entries(expected).flatMap(([k, v]) => {
    const meant = MATCHER_TYPOS.get(k);
    return [...(meant ? [{ at: [...at, k], typo: k, meant }] : []), ...matcherTypos(v, [...at, k])];
  });
}
