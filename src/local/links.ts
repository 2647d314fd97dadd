// Tokenised links (signing pages, files): only a hash of each token is stored.
import { sql } from './db.js';
import { createHash } from 'node:crypto';
import type { EngineContext } from './context.js';
import { token } from './ids.js';

export type LinkKind = 'sign' | 'file';

/** Records a link to `target` that expires after `ttlMs`, and returns its URL path and expiry. */
export function createLink(ctx: EngineContext, kind: LinkKind, target: string, ttlMs: number, suffix = ''): { url: string; expires: string } {
  const t = token();
  const expires = new Date(ctx.clock.nowMs() + ttlMs).toISOString();
  sql(ctx.db, 'INSERT INTO links (token_hash, kind, target, created, expires) VALUES (?, ?, ?, ?, ?)')
    .run(createHash('sha256').update(t).digest('hex'), kind, target, ctx.clock.now(), expires);
  const path = kind === 'sign' ? `/sign/${t}` : `/files/${t}${suffix}`;
  return { url: `${ctx.publicUrl()}${path}`, expires };
}
