// A read-through cache for API objects that stays exact across processes: an entry is served
// only while the database is unchanged, by this connection (total_changes) and by any other
// connection (data_version). Entries are deep-frozen because every caller shares them.
import { type Db, sql } from './db.js';

const MAX_ENTRIES = 1000;

export class ReadCache<T extends object> {
  private readonly entries = new Map<string, T>();
  private generation = '';

  constructor(private readonly db: Db) {}

  get(key: string, load: () => T): T {
    const [changes, version] = sql(this.db, 'SELECT total_changes(), (SELECT data_version FROM pragma_data_version)').raw().get() as [number, number];
    const generation = `${changes}:${version}`;
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    let value = this.entries.get(key);
    if (!value) {
      value = deepFreeze(load());
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
