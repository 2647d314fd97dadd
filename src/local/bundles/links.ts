// Tokenised links (signing pages, signing sessions, files): only a hash of each token is stored.
import { sql } from '../store/db.js';
import { createHash } from 'node:crypto';
import type { EngineContext } from '../store/context.js';
import { token } from '../store/ids.js';
import { type LinkKind, linkPath } from '../../service/linkPaths.js';

/**
 * `sign`: a signing link in a message, reusable until it expires. `embed`: an embedded signing URL,
 * single use. `session`: the signing page's own follow-up requests. `file`: a file download.
 * `prepare`: a preparation session URL (template authoring or Bundle preparation), single use.
 * `prepare_session`: the preparation page's own follow-up requests.
 */
export type { LinkKind };

export interface LinkRow {
  kind: LinkKind;
  target: string;
  expires: string;
  used_at: string | null;
}

const hashToken = (t: string) => createHash('sha256').update(t).digest('hex');

/** Records a link to `target` that expires after `ttlMs`, and returns its URL and expiry. */
export function createLink(
  ctx: EngineContext,
  kind: LinkKind,
  target: string,
  ttlMs: number,
  suffix = '',
): { url: string; expires: string; token: string } {
  const t = token();
  const expires = new Date(ctx.clock.nowMs() + ttlMs).toISOString();
  sql(ctx.db, 'INSERT INTO links (token_hash, kind, target, created, expires) VALUES (?, ?, ?, ?, ?)').run(
    hashToken(t),
    kind,
    target,
    ctx.clock.now(),
    expires,
  );
  return { url: `${ctx.publicUrl()}${linkPath(kind, t, suffix)}`, expires, token: t };
}

/** Files (documents, produced PDFs, attachments) are downloadable for an hour from their link. */
const FILE_LINK_TTL_MS = 60 * 60 * 1000;

/** An expiring link to a stored file, named for the download. */
export function fileLink(ctx: EngineContext, sha256: string, name: string): { url: string; expires: string } {
  const { url, expires } = createLink(ctx, 'file', sha256, FILE_LINK_TTL_MS, `/${encodeURIComponent(name)}`);
  return { url, expires };
}

/** The stored link behind a token, whatever its kind and even when expired or used. */
export function findLink(ctx: EngineContext, t: string): LinkRow | undefined {
  return sql(ctx.db, 'SELECT kind, target, expires, used_at FROM links WHERE token_hash = ?').get(hashToken(t)) as
    | LinkRow
    | undefined;
}

export const linkExpired = (ctx: EngineContext, link: Pick<LinkRow, 'expires'>) =>
  Date.parse(link.expires) <= ctx.clock.nowMs();

/** Marks a link used; false when it already was (the compare-and-set makes single use race-free). */
export function markLinkUsed(ctx: EngineContext, t: string): boolean {
  return (
    sql(ctx.db, 'UPDATE links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL').run(
      ctx.clock.now(),
      hashToken(t),
    ).changes === 1
  );
}

/** The target of a live link of this kind, or undefined (unknown, expired, or a different kind). */
export function resolveLink(
  ctx: EngineContext,
  kind: LinkKind,
  t: string,
): { target: string; expires: string; used_at: string | null } | undefined {
  const row = findLink(ctx, t);
  if (!row || row.kind !== kind || linkExpired(ctx, row)) return undefined;
  return { target: row.target, expires: row.expires, used_at: row.used_at };
}

/** The token of a file link (`.../files/<token>/<name>`, wherever the public URL puts it), if `url` is one. */
export function fileLinkToken(url: string): string | undefined {
  const path = URL.canParse(url) ? new URL(url).pathname.split('/') : [];
  const [kind, token] = path.slice(-3);
  return kind === 'files' && token ? token : undefined;
}
