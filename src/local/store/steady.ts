// Values read many times per write and changed rarely (the clock's offset, the account's settings) are
// read once per write transaction. While this connection holds the write lock no other process can
// change them; this connection's own writes `forget` them, and a write rolled back inside a longer
// transaction (a group commit's savepoint) starts a new hold. Outside a write transaction each read
// goes to the database, so another process's change is seen at once.
import type { Db } from './db.js';

/** The write transaction in progress on each connection, by a number never used twice. */
const holds = new WeakMap<Db, number>();
let lastHold = 0;

/** Runs a write transaction's body with steady values held for its length. */
export function holdingSteady<T>(db: Db, body: () => T): T {
  if (holds.has(db)) return body();
  holds.set(db, ++lastHold);
  try {
    return body();
  } finally {
    holds.delete(db);
  }
}

/** Drops what this write transaction holds (part of it was rolled back): the next reads go to the database. */
export function renewHold(db: Db): void {
  if (holds.has(db)) holds.set(db, ++lastHold);
}

export class Steady<T> {
  private held: { hold: number; value: T } | undefined;

  constructor(
    private readonly db: Db,
    private readonly read: () => T,
  ) {}

  get(): T {
    const hold = holds.get(this.db);
    if (hold === undefined) return this.read();
    if (this.held?.hold !== hold) this.held = { hold, value: this.read() };
    return this.held.value;
  }

  /** After this connection writes the value (or tried to): the next read goes to the database. */
  forget(): void {
    this.held = undefined;
  }
}
