// The `meta` table: single values the engine keeps beside its tables.
import { type Db, sql } from './db.js';

export const metaValue = (db: Db, key: string): string | undefined =>
  sql(db, 'SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;

/**
 * Whether every row of the table was made with a `created` no earlier than the one made before it
 * (counted by triggers, migration 10): then rowid order is `created` order, the lists' order.
 */
export const madeInCreatedOrder = (db: Db, table: 'bundles' | 'persons'): boolean =>
  metaValue(db, `${table}_out_of_order`) === '0';

/**
 * Whether no Bundle was ever sent or completed before it was made (counted by triggers, migration 11;
 * only a clock set back can do it): then a Bundle sent or completed before a day was made before it.
 */
export const datedAfterCreated = (db: Db): boolean => metaValue(db, 'bundles_dated_before_created') === '0';
