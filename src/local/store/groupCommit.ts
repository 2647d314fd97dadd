// Writes that arrive together commit together. A create's transaction body is queued; on the next
// turn of the event loop every queued body runs in one IMMEDIATE transaction. When none throws, that
// is all. When one does, the whole group is rolled back and run again with each body in a savepoint of
// its own, so a body that throws rolls back alone and only its caller gets the error. (A savepoint
// copies each page its body changes first into a statement journal, which past 64 KB goes to a
// temporary file: a fifth of a create's CPU, paid only when a body fails.) So a body may run twice:
// it writes nothing but the database. Callers are answered after the commit: nothing is reported
// written before it is. A lone write (one create at a time) is a transaction of its own as before;
// creates in flight together (a batch, a server under load) share one commit, which is most of what
// a small write costs.
import { type EngineContext, inTransaction, transactionOf } from './context.js';
import type { Db } from './db.js';

interface Queued {
  body: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/** At most this many writes share a commit: a bound on how long the write lock is held at once. */
const MAX_GROUP = 64;

const queues = new WeakMap<Db, Queued[]>();

/** Runs `body` in a transaction shared with the other writes queued in this turn of the event loop. */
export function inGroupedTransaction<T>(ctx: EngineContext, body: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let queue = queues.get(ctx.db);
    if (!queue) {
      queues.set(ctx.db, (queue = []));
      setImmediate(() => commitQueued(ctx));
    }
    queue.push({ body, resolve: resolve as (v: unknown) => void, reject });
  });
}

function commitQueued(ctx: EngineContext): void {
  const all = queues.get(ctx.db) ?? [];
  queues.delete(ctx.db);
  for (let i = 0; i < all.length; i += MAX_GROUP) commitGroup(ctx, all.slice(i, i + MAX_GROUP));
}

function commitGroup(ctx: EngineContext, group: Queued[]): void {
  if (group.length === 1 || !commitTogether(ctx, group)) commitEachAlone(ctx, group);
}

/** Every body in one transaction, no savepoints; false (nothing written, no one answered) when a body throws. */
function commitTogether(ctx: EngineContext, group: Queued[]): boolean {
  const values: unknown[] = [];
  let bodyThrew = false;
  try {
    inTransaction(ctx, () => {
      for (const q of group)
        try {
          values.push(q.body());
        } catch (e) {
          bodyThrew = true;
          throw e;
        }
    });
  } catch (e) {
    if (bodyThrew) return false;
    // The group's transaction itself failed (the lock not had in time, the commit): nothing was written.
    for (const q of group) q.reject(e);
    return true;
  }
  group.forEach((q, i) => q.resolve(values[i]));
  return true;
}

/** Each body in a savepoint of its own inside the group's transaction. */
function commitEachAlone(ctx: EngineContext, group: Queued[]): void {
  if (group.length === 1) {
    const [one] = group;
    try {
      one.resolve(inTransaction(ctx, one.body));
    } catch (e) {
      one.reject(e);
    }
    return;
  }
  const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
  try {
    inTransaction(ctx, () => {
      for (const q of group) {
        try {
          // Nested: a savepoint, released into the group's transaction or rolled back alone.
          outcomes.push({ ok: true, value: transactionOf(ctx.db)(q.body) });
        } catch (error) {
          outcomes.push({ ok: false, error });
        }
      }
    });
  } catch (e) {
    // The group's transaction itself failed (the lock not had in time, the commit): nothing was written.
    for (const q of group) q.reject(e);
    return;
  }
  group.forEach((q, i) => {
    const o = outcomes[i];
    if (o.ok) q.resolve(o.value);
    else q.reject(o.error);
  });
}
