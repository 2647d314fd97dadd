// API keys for `esign serve`: shown once at creation, stored as SHA-256 hashes, revocable.
import { createHash, randomBytes } from 'node:crypto';
import { ApiError } from '../../domain/errors.js';
import { type Db, sql } from '../store/db.js';
import { uuid } from '../store/ids.js';
import { databaseGeneration } from '../store/readCache.js';
import type { ApiKey, KeyAdmin } from '../../service/localAdmin.js';

export type { ApiKey };

/** A key found live is asked about again after this long at the latest, even with no write anywhere. */
const RECHECK_MS = 60_000;

const hash = (key: string) => createHash('sha256').update(key).digest('hex');

export class ApiKeyStore implements KeyAdmin {
  /** `wallMs`: the wall clock of the key cache and of last use (tests move it instead of waiting). */
  constructor(
    private readonly db: Db,
    private readonly now: () => string,
    private readonly wallMs: () => number = Date.now,
  ) {}

  /** Returns the new key's record and the key itself, which is never retrievable again. */
  create(name: string): { record: ApiKey; key: string } {
    const key = `esk_${randomBytes(24).toString('base64url')}`;
    const id = uuid();
    sql(this.db, 'INSERT INTO api_keys (id, name, prefix, hash, created) VALUES (?, ?, ?, ?, ?)').run(
      id,
      name,
      key.slice(0, 10),
      hash(key),
      this.now(),
    );
    return { record: this.get(id), key };
  }

  list(): ApiKey[] {
    return sql(
      this.db,
      'SELECT id, name, prefix, created, last_used_at, revoked_at FROM api_keys ORDER BY created',
    ).all() as ApiKey[];
  }

  /** A key by its id, its prefix, or the whole key (as `esign local keys create` printed it). */
  get(id: string): ApiKey {
    const row = sql(
      this.db,
      'SELECT id, name, prefix, created, last_used_at, revoked_at FROM api_keys WHERE id = ? OR prefix = ? OR hash = ?',
    ).get(id, id, hash(id)) as ApiKey | undefined;
    // A whole key given is not repeated (to a terminal's scrollback, a log).
    const given = id.startsWith('esk_') && id.length > 10 ? 'with that value' : `"${id}"`;
    if (!row) throw new ApiError(404, 'not_found', `No API key ${given}.`);
    return row;
  }

  revoke(idOrPrefix: string): ApiKey {
    const k = this.get(idOrPrefix);
    sql(this.db, 'UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?').run(this.now(), k.id);
    return this.get(k.id);
  }

  /**
   * The id of the live key, or undefined. A key found live is not looked up again until the
   * database changes: a write by this connection (total_changes) or a commit by any other
   * connection or process (PRAGMA data_version), so a revocation anywhere counts at the next
   * request. Last use is recorded to the minute.
   */
  authenticate(key: string): string | undefined {
    const now = this.wallMs(); // wall time: when the key was really used
    const generation = databaseGeneration(this.db);
    let entry = this.live.get(key);
    if (!entry || entry.version !== generation || now - entry.checked >= RECHECK_MS) {
      this.live.delete(key);
      const row = sql(this.db, 'SELECT id FROM api_keys WHERE hash = ? AND revoked_at IS NULL').get(hash(key)) as
        | { id: string }
        | undefined;
      if (!row) return undefined;
      if (this.live.size >= 1000) this.live.clear();
      entry = { id: row.id, checked: now, version: '', recorded: entry?.recorded ?? 0 };
      this.live.set(key, entry);
    }
    entry.version = generation;
    if (now - entry.recorded >= 60_000) {
      sql(this.db, 'UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(new Date(now).toISOString(), entry.id);
      entry.recorded = now;
      entry.version = databaseGeneration(this.db); // this write is not a reason to look the key up again
    }
    return entry.id;
  }

  isLive(id: string): boolean {
    return sql(this.db, 'SELECT 1 FROM api_keys WHERE id = ? AND revoked_at IS NULL').get(id) !== undefined;
  }

  private readonly live = new Map<string, { id: string; checked: number; version: string; recorded: number }>();
}
