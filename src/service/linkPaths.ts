// Where the engine's tokenised links point, in one table that the engine (which makes the links)
// and esign serve (which answers them) share: change a path here and both follow.

/** The path before a link's token, per kind of link (`sign` and `embed` open the same page). */
export const LINK_BASES = {
  sign: '/sign',
  embed: '/sign',
  session: '/sign/session',
  file: '/files',
  prepare: '/prepare',
  prepare_session: '/prepare/session',
} as const;

export type LinkKind = keyof typeof LINK_BASES;

/** A link's path: its kind's base, the token, and (file links) `/<name>`. */
export const linkPath = (kind: LinkKind, token: string, suffix = ''): string => `${LINK_BASES[kind]}/${token}${suffix}`;

/** A link's route for the server's router, with `:param` in place of the token. */
export const linkRoute = (kind: LinkKind, param: string): string => `${LINK_BASES[kind]}/:${param}`;

/** The tokenised bases, longest first (`/sign/session` before `/sign`). */
const TOKEN_BASES = [...new Set(Object.values(LINK_BASES))].sort((a, b) => b.length - a.length);
const TOKEN_IN_TEXT = new RegExp(
  `(^|[\\s"'(=]|https?://[^\\s/"'<>]+)(${TOKEN_BASES.map((b) => b.replace(/[/]/g, '\\/')).join('|')})/(?!session(?:[/?#\\s"']|$))([^\\s/?#"'<>]+)`,
  'g',
);
/** Characters of a token kept in a log: enough to tell two requests apart, far too few to use. */
const TOKEN_KEPT = 4;

/**
 * A path or a line of log with each link token cut short (`/sign/R8HN…`, `/files/x2Qa…/signed.pdf`):
 * a token in a path is a live signing, preparation or file link. Every log line the server writes
 * (its stderr and requests.log) goes through this one function.
 */
export const redactTokens = (text: string): string =>
  text.replace(
    TOKEN_IN_TEXT,
    (_m, before: string, base: string, token: string) => `${before}${base}/${token.slice(0, TOKEN_KEPT)}…`,
  );
