// API keys for `esign serve`: shown once at creation, stored as SHA-256 hashes, revocable.
import { createHash, randomBytes } from 'node:crypto';
import { ApiError } from '../service/errors.js';
import { type Db, sql } from './db.js';
import { uuid } from './ids.js';

export interface ApiKey {
  id: string;
  name: string;
  /** The first characters of the key, enough to recognise it in a list. */
  prefix: string;
  created: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const hash = (key: string) => createHash('sha256').update(key).digest('hex');

export class ApiKeyStore {
  constructor(private readonly db: Db, private readonly now: () => string) {}

  /** Returns the new key's record and the key itself, which is never retrievable again. */
  create(name: string): { record: ApiKey; key: string } {
    const key = `esk_${randomBytes(24).toString('base64url')}`;
    const id = uuid();
    sql(this.db, 'INSERT INTO api_keys (id, name, prefix, hash, created) VALUES (?, ?, ?, ?, ?)')
      .run(id, name, key.slice(0, 10), hash(key), this.now());
    return { record: this.get(id), key };
  }

  list(): ApiKey[] {
    return sql(this.db, 'SELECT id, name, prefix, created, last_used_at, revoked_at FROM api_keys ORDER BY created').all() as ApiKey[];
  }

  get(id: string): ApiKey {
    const row = sql(this.db, 'SELECT id, name, prefix, created, last_used_at, revoked_at FROM api_keys WHERE id = ? OR prefix = ?').get(id, id) as ApiKey | undefined;
    if (!row) throw new ApiError(404, 'not_found', `No API key "${id}".`);
    return row;
  }

  revoke(idOrPrefix: string): ApiKey {
    const k = this.get(idOrPrefix);
    sql(this.db, 'UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?').run(this.now(), k.id);
    return this.get(k.id);
  }

  /** The id of the live key, or undefined. Records when it was last used (to the minute). */
  authenticate(key: string): string | undefined {
    const row = sql(this.db, 'SELECT id, last_used_at FROM api_keys WHERE hash = ? AND revoked_at IS NULL').get(hash(key)) as
      | { id: string; last_used_at: string | null }
      | undefined;
    if (!row) return undefined;
    const now = new Date().toISOString(); // wall time: when the key was really used
    if (!row.last_used_at || row.last_used_at.slice(0, 16) !== now.slice(0, 16))
      sql(this.db, 'UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(now, row.id);
    return row.id;
  }
}
