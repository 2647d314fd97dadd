// The local account: requester defaults, feature switches, users, teams and signing brands.
import { ACCOUNT_FEATURES, type AccountFeature } from '../../domain/enums.js';
import { ApiError } from '../../domain/errors.js';
import { type Db, sql } from '../store/db.js';
import { uuid } from '../store/ids.js';
import type { AccountAdmin, AccountSettings, SigningBrand, Team, User } from '../../service/localAdmin.js';

export type { AccountSettings, SigningBrand, Team, User };

/** Reminders are on by default, as on a hosted account; every other gated feature starts off. */
const DEFAULT_FEATURES: AccountFeature[] = ['reminders'];
/**
 * A reserved example domain (RFC 2606) that strict validators accept, as the service's Python client
 * uses one; `.local` is refused by it. Databases made before keep `owner@esign.local` (no migration
 * renames a user that scripts may name).
 */
const DEFAULT_OWNER_EMAIL = 'owner@example.com';

/** The account's first admin, who owns every Bundle no PATCH gave an owner (the owner of a new account). */
export const FIRST_ADMIN_SQL = 'SELECT id FROM users WHERE is_admin = 1 ORDER BY created, rowid LIMIT 1';

export class AccountStore implements AccountAdmin {
  constructor(
    private readonly db: Db,
    private readonly now: () => string,
  ) {}

  /** The owner of a Bundle without one of its own: the account's first admin (the owner of a new account). */
  defaultOwner(): { owner_name: string; owner_email: string } {
    const u = sql(this.db, `SELECT name, email FROM users WHERE id = (${FIRST_ADMIN_SQL})`).get() as
      | { name: string; email: string }
      | undefined;
    return Object.freeze({ owner_name: u?.name ?? '', owner_email: u?.email ?? '' });
  }

  /** Creates the account and its first (admin, verified) user on a new database. */
  ensure(): void {
    const exists = sql(this.db, 'SELECT 1 FROM account WHERE id = 1').get();
    if (exists) return;
    this.db
      .transaction(() => {
        const r = sql(
          this.db,
          'INSERT OR IGNORE INTO account (id, name, requester_name, requester_email, features, public_url) VALUES (1, ?, ?, ?, ?, ?)',
        ).run(
          'Local account',
          'esign local',
          DEFAULT_OWNER_EMAIL,
          JSON.stringify(DEFAULT_FEATURES),
          'http://127.0.0.1:8787',
        );
        if (r.changes) this.addUser({ email: DEFAULT_OWNER_EMAIL, name: 'Account owner', admin: true, verified: true });
      })
      .immediate();
  }

  settings(): AccountSettings {
    const row = sql(
      this.db,
      'SELECT name, requester_name, requester_email, features, public_url, allow_private_urls FROM account WHERE id = 1',
    ).get() as
      | (Omit<AccountSettings, 'features' | 'allow_private_urls'> & { features: string; allow_private_urls: number })
      | undefined;
    if (!row) throw new Error('The local account is missing: the database was not initialised.');
    const features = Object.freeze(JSON.parse(row.features)) as AccountSettings['features'];
    return Object.freeze({ ...row, features, allow_private_urls: row.allow_private_urls === 1 });
  }

  update(patch: Partial<Omit<AccountSettings, 'features'>>): AccountSettings {
    return this.db.transaction(() => this.updateIn(patch)).immediate();
  }

  private updateIn(patch: Partial<Omit<AccountSettings, 'features'>>): AccountSettings {
    const cur = this.settings();
    const next = { ...cur, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
    sql(
      this.db,
      'UPDATE account SET name = ?, requester_name = ?, requester_email = ?, public_url = ?, allow_private_urls = ? WHERE id = 1',
    ).run(next.name, next.requester_name, next.requester_email, next.public_url, next.allow_private_urls ? 1 : 0);
    return this.settings();
  }

  has(feature: AccountFeature): boolean {
    return this.settings().features.includes(feature);
  }

  setFeatures(names: string[], on: boolean): AccountFeature[] {
    const unknown = names.filter((n) => !(ACCOUNT_FEATURES as readonly string[]).includes(n));
    if (unknown.length)
      throw new ApiError(
        400,
        'invalid',
        `Unknown feature(s): ${unknown.join(', ')}. Features: ${ACCOUNT_FEATURES.join(', ')}.`,
      );
    return this.db
      .transaction(() => {
        const set = new Set(this.settings().features);
        for (const n of names as AccountFeature[]) on ? set.add(n) : set.delete(n);
        const features = ACCOUNT_FEATURES.filter((f) => set.has(f));
        sql(this.db, 'UPDATE account SET features = ? WHERE id = 1').run(JSON.stringify(features));
        return features;
      })
      .immediate();
  }

  users(): User[] {
    return (sql(this.db, 'SELECT * FROM users ORDER BY created, email').all() as Record<string, unknown>[]).map(toUser);
  }

  user(id: string): User | undefined {
    const row = sql(this.db, 'SELECT * FROM users WHERE id = ?').get(id) as Record<string, unknown> | undefined;
    return row && toUser(row);
  }

  userByEmail(email: string): User | undefined {
    const row = sql(this.db, 'SELECT * FROM users WHERE email = ?').get(email) as Record<string, unknown> | undefined;
    return row && toUser(row);
  }

  addUser(u: { email: string; name?: string; admin?: boolean; verified?: boolean }): User {
    if (!/^[^@\s]+@[^@\s]+$/.test(u.email) || u.email.length > 254)
      throw new ApiError(400, 'invalid', `"${u.email}" is not a valid email address.`);
    const id = uuid();
    const r = sql(
      this.db,
      'INSERT OR IGNORE INTO users (id, email, name, verified, is_admin, created) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(id, u.email, u.name ?? u.email.split('@')[0], u.verified === false ? 0 : 1, u.admin ? 1 : 0, this.now());
    if (!r.changes) throw new ApiError(409, 'conflict', `A user with email ${u.email} already exists.`);
    return this.user(id)!;
  }

  setUserVerified(email: string, verified: boolean): User {
    const u = this.userByEmail(email);
    if (!u) throw new ApiError(404, 'not_found', `No user with email ${email}.`);
    sql(this.db, 'UPDATE users SET verified = ? WHERE id = ?').run(verified ? 1 : 0, u.id);
    return this.user(u.id)!;
  }

  removeUser(email: string): void {
    const r = sql(this.db, 'DELETE FROM users WHERE email = ?').run(email);
    if (!r.changes) throw new ApiError(404, 'not_found', `No user with email ${email}.`);
  }

  /** True when `email` is the verified address of an account user: the only place a test Bundle may go. */
  isVerifiedAddress(email: string): boolean {
    return !!sql(this.db, 'SELECT 1 FROM users WHERE email = ? AND verified = 1').get(email);
  }

  teams(): Team[] {
    return sql(this.db, 'SELECT * FROM teams ORDER BY created, name').all() as Team[];
  }

  team(id: string): Team | undefined {
    return sql(this.db, 'SELECT * FROM teams WHERE id = ?').get(id) as Team | undefined;
  }

  addTeam(t: { name: string; requester_name?: string; requester_email?: string }): Team {
    const id = uuid();
    sql(this.db, 'INSERT INTO teams (id, name, requester_name, requester_email, created) VALUES (?, ?, ?, ?, ?)').run(
      id,
      t.name,
      t.requester_name ?? null,
      t.requester_email ?? null,
      this.now(),
    );
    return this.team(id)!;
  }

  brands(): SigningBrand[] {
    return sql(this.db, 'SELECT * FROM signing_brands ORDER BY created, name').all() as SigningBrand[];
  }

  brand(id: string): SigningBrand | undefined {
    return sql(this.db, 'SELECT * FROM signing_brands WHERE id = ?').get(id) as SigningBrand | undefined;
  }

  addBrand(b: { name: string; redirect_url?: string }): SigningBrand {
    const id = uuid();
    sql(this.db, 'INSERT INTO signing_brands (id, name, redirect_url, created) VALUES (?, ?, ?, ?)').run(
      id,
      b.name,
      b.redirect_url ?? null,
      this.now(),
    );
    return this.brand(id)!;
  }
}

function toUser(r: Record<string, unknown>): User {
  return {
    id: String(r.id),
    email: String(r.email),
    name: String(r.name),
    verified: r.verified === 1,
    is_admin: r.is_admin === 1,
    created: String(r.created),
  };
}
