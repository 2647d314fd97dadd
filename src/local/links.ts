// Tokenised links (signing pages, files): only a hash of each token is stored.
import { sql } from './db.js';
import { createHash } from 'node:crypto';
import type { EngineContext } from './context.js';
import { token } from './ids.js';

export type LinkKind = 'sign' | 'file';

const hashToken = (t: string) => createHash('sha256').update(t).digest('hex');

/** Records a link to `target` that expires after `ttlMs`, and returns its URL path and expiry. */
export function createLink(ctx: EngineContext, kind: LinkKind, target: string, ttlMs: number, suffix = ''): { url: string; expires: string } {
  const t = token();
  const expires = new Date(ctx.clock.nowMs() + ttlMs).toISOString();
  sql(ctx.db, 'INSERT INTO links (token_hash, kind, target, created, expires) VALUES (?, ?, ?, ?, ?)')
    .run(hashToken(t), kind, target, ctx.clock.now(), expires);
  const path = kind === 'sign' ? `/sign/${t}` : `/files/${t}${suffix}`;
  return { url: `${ctx.publicUrl()}${path}`, expires };
}

/** The target of a live link of this kind, or undefined (unknown, expired, or a different kind). */
export function resolveLink(ctx: EngineContext, kind: LinkKind, t: string): { target: string; expires: string; used_at: string | null } | undefined {
  const row = sql(ctx.db, 'SELECT kind, target, expires, used_at FROM links WHERE token_hash = ?').get(hashToken(t)) as
    { kind: LinkKind; target: string; expires: string; used_at: string | null } | undefined;
  if (!row || row.kind !== kind || Date.parse(row.expires) <= ctx.clock.nowMs()) return undefined;
  return row;
}
