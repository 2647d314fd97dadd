// Noticing commits by other processes on the same database: data_version moves when another
// connection commits (one cheap pragma), so a watcher polls it instead of re-reading data.
import { type Db, sql } from './db.js';

/** How often a watcher looks for commits by other processes. */
const CHANGE_POLL_MS = 100;

/** Calls `onChange` after each commit by another connection; returns the function that stops watching. */
export function watchCommits(db: Db, onChange: () => void, pollMs = CHANGE_POLL_MS): () => void {
  const generation = () => sql(db, 'SELECT data_version FROM pragma_data_version').pluck().get() as number;
  let seen = generation();
  const timer = setInterval(() => {
    if (!db.open) return;
    const now = generation();
    if (now !== seen) {
      seen = now;
      onChange();
    }
  }, pollMs);
  return () => clearInterval(timer);
}
