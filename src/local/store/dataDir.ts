// Whose a data directory is, decided before anything in it is touched (no SQLite here: the CLI asks
// this of a remote backend's journal directory too).
import { readdirSync } from 'node:fs';

/** What esign itself puts in a data directory besides the database (blobs, journals, serve's state). */
const OWN_ENTRIES = new Set([
  'blobs',
  'batches',
  'remote',
  'serve.json',
  'esign.db-wal',
  'esign.db-shm',
  'esign.db-journal',
]);
const isOwnEntry = (name: string) => OWN_ENTRIES.has(name) || name.startsWith('.serve.json.');

/**
 * A data directory is new, empty, or esign's (it holds the database, or only what esign puts there):
 * a directory of other files is someone else's, and is refused before anything in it is touched.
 */
export function refuseForeignDir(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // Missing (made next), or not a directory (said next): the opener's own errors.
  }
  if (names.includes('esign.db') || names.every(isOwnEntry)) return;
  const foreign = names.filter((n) => !isOwnEntry(n)).sort();
  const shown = `${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', ...' : ''}`;
  throw Object.assign(new Error(`it holds other files (${shown}) and no esign database`), {
    code: 'ENOTESIGN',
    path: dir,
  });
}
