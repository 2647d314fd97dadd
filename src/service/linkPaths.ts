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
