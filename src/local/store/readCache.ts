// A read-through cache that stays exact across processes: an entry is served only while the
// database is unchanged, by this connection (total_changes) and by any other connection
// (data_version). Entries are deep-frozen because every caller shares them.
import { type Db, sql } from './db.js';

export class ReadCache<T> {
  private readonly entries = new Map<string, T>();
  private generation = '';

  constructor(
    private readonly db: Db,
    private readonly maxEntries = 1000,
  ) {}

  get(key: string, load: () => T): T {
    return this.peek(key) ?? this.keep(key, load());
  }

  /** Keeps a value read now (not inside a write transaction, which may roll back). */
  keep(key: string, value: T): T {
    const frozen = deepFreeze(value);
    if (writing.has(this.db)) return frozen;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, frozen);
    return frozen;
  }

  /** The entry, if there is one for the database as it is now. */
  peek(key: string): T | undefined {
    const generation = databaseGeneration(this.db);
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    return this.entries.get(key);
  }
}

/**
 * Changes whenever anything is written to the database, by this connection (total_changes) or any
 * other (data_version). One statement: reading data_version takes a read transaction, the cost of
 * asking (about 2 µs), so a hot path asks once.
 */
export function databaseGeneration(db: Db): string {
  const [changes, version] = sql(db, 'SELECT total_changes(), (SELECT data_version FROM pragma_data_version)')
    .raw()
    .get() as [number, number];
  return `${changes}:${version}`;
}

const writing = new WeakSet<Db>();

/**
 * Runs the body of a write transaction: nothing read meanwhile is kept, as the transaction may yet
 * roll back, and `total_changes()` does not go back down when it does.
 */
export function whileWriting<T>(db: Db, fn: () => T): T {
  if (writing.has(db)) return fn();
  writing.add(db);
  try {
    return fn();
  } finally {
    writing.delete(db);
  }
}

function deepFreeze<T>(value: T): T {
  if (ArrayBuffer.isView(value)) return value;
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Lists kept whole (`listOnce`), and the longest kept: at most 16 MB of keys. */
const MAX_LISTS = 16;
export const MAX_LIST_KEYS = 250_000;

const caches = new WeakMap<Db, { totals: ReadCache<number>; lists: ReadCache<Int32Array> }>();
const cachesOf = (db: Db) => {
  let c = caches.get(db);
  if (!c)
    caches.set(db, (c = { totals: new ReadCache<number>(db, 1000), lists: new ReadCache<Int32Array>(db, MAX_LISTS) }));
  return c;
};

type Params = unknown[] | Record<string, unknown>;
const keyOf = (text: string, params: Params) => `${text}\n${JSON.stringify(params)}`;

/**
 * A total counted by visiting every match (a search, a set with other filters), kept while the
 * database is unchanged: a client paging through such a list pays for its count once. `text` is
 * a SELECT of one number.
 */
export const countOnce = (db: Db, text: string, params: Params): number =>
  cachesOf(db).totals.get(keyOf(text, params), () => {
    const count = sql(db, text).pluck();
    return (Array.isArray(params) ? count.get(...params) : count.get(params)) as number;
  });

/** The total if `countOnce` has it for the database as it is now. */
export const countKnown = (db: Db, text: string, params: Params): number | undefined =>
  cachesOf(db).totals.peek(keyOf(text, params));

/**
 * A list's keys in order, read whole and kept while the database is unchanged, so that each of
 * its pages is a slice; for lists whose total can only be had by reading every match anyway.
 * `text` and `params` name the list; `read` returns undefined when it is longer than `MAX_LIST_KEYS`.
 */
export const listOnce = (
  db: Db,
  text: string,
  params: Params,
  read: () => Int32Array | undefined,
): Int32Array | undefined => {
  const lists = cachesOf(db).lists;
  const key = keyOf(text, params);
  const kept = lists.peek(key);
  if (kept) return kept;
  const keys = read();
  return keys && lists.keep(key, keys);
};
