// Links that carry a live token (signing, files, preparation: service/linkPaths.ts) are secrets:
// whoever holds one acts as its signer or reads its file. A page shows them only cut short.
import { LINK_BASES } from '../service/linkPaths.js';

/** The tokenised paths, longest base first (`/sign/session` before `/sign`). */
const BASES = [...new Set(Object.values(LINK_BASES))].sort((a, b) => b.length - a.length);
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const TOKENISED = new RegExp(`(https?://[^\\s/<>"']+)(${BASES.map(literal).join('|')})/([A-Za-z0-9_-]{8,})(\\S*)`, 'g');
/** Characters of a token left in a shortened link: enough to tell two links apart, far too few to use. */
const KEPT = 4;

/** The text with every tokenised link cut after the first characters of its token: ".../sign/R8HN…". */
export const redactSecretLinks = (text: string): string =>
  text.replace(
    TOKENISED,
    (_m, origin: string, base: string, token: string) => `${origin}${base}/${token.slice(0, KEPT)}…`,
  );

/** The first signing link in a text (a signing request or a reminder), whole. */
export function signingLinkIn(text: string): string | undefined {
  for (const m of text.matchAll(TOKENISED)) if (m[2] === LINK_BASES.sign) return m[0];
  return undefined;
}
