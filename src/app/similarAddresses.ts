// A recipient that finds no message in the outbox, and the addresses messages did go to a typo away
// from it ("exmaple.com" for "example.com"): what support checks first when someone never got an
// email. The terminal's outbox and the console's say the same.
import leven from 'leven';

/** Edits (insertions, deletions, substitutions) an address may be from the one asked for. */
const MOST_EDITS = 2;

/** The addresses of `seen` a few edits from `wanted` (case aside), nearest first, at most `most`. */
export function similarAddresses(wanted: string, seen: Iterable<string>, most = 3): string[] {
  const w = wanted.trim().toLowerCase();
  const near = new Map<string, number>();
  for (const address of seen) {
    const a = address.toLowerCase();
    if (a === w || near.has(address)) continue;
    const d = leven(w, a, { maxDistance: MOST_EDITS + 1 });
    if (d <= MOST_EDITS) near.set(address, d);
  }
  return [...near]
    .sort(([a, x], [b, y]) => x - y || a.localeCompare(b))
    .slice(0, most)
    .map(([a]) => a);
}

/** "No message to <wanted>. Messages went to a similar address:", the list to follow (the console links each). */
export const similarAddressLead = (wanted: string, count: number) =>
  `No message to ${wanted}. Messages went to ${count === 1 ? 'a similar address' : 'similar addresses'}:`;

/** The lead and the addresses in one line, or nothing when none is near. */
export const similarAddressWords = (wanted: string, similar: string[]): string | undefined =>
  similar.length ? `${similarAddressLead(wanted, similar.length)} ${similar.join(', ')}.` : undefined;
