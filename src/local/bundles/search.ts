// The search index (migration 10): one row per Bundle in `bundle_search`, rowid = the Bundle's seq.
import { type Db, sql } from '../store/db.js';

/** Ends each field in a search row; a search containing it cannot use the index. */
export const FIELD_SEPARATOR = '\u001f';

/** Writes a new Bundle's row, once its signers are in; triggers keep it in step after that. */
export function indexBundleForSearch(db: Db, seq: number): void {
  sql(db, 'INSERT INTO bundle_search (rowid, text) SELECT seq, text FROM bundle_search_rows WHERE seq = ?').run(seq);
}

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Two-character searches read the index's terms when they start with it in at most this many rows. */
const SHORT_SEARCH_MAX_ROWS = 20_000;
const SHORT_SEARCH_MAX_TERMS = 200;

/**
 * How a search is answered. `index`: a condition on `bundle_search` rows, whose rowids are the
 * matching Bundles. `columns`: the search text holds the separator, so only the tables can say.
 * `none`: no Bundle can match.
 *
 * `search` is a case-insensitive substring of the slug, label, custom_key, or a signer's name, email
 * or phone. Three characters or more are a phrase of trigrams (trigrams at consecutive offsets are
 * exactly a substring). Every character of a field starts a trigram (each field ends with the
 * separator), so two ASCII characters are exactly the trigrams that start with them: when those are
 * few, any of them is looked up. Other short searches scan the index's text, which is far smaller
 * than the tables. SQLite's LIKE folds ASCII letters only; other letters are folded by the engine's
 * own function.
 */
export type SearchPlan = { kind: 'index'; where: string } | { kind: 'columns' } | { kind: 'none' };

export function planSearch(db: Db, search: string, bind: (v: unknown) => string): SearchPlan {
  if (search.includes(FIELD_SEPARATOR)) return { kind: 'columns' };
  const phrase = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const index = (where: string): SearchPlan => ({ kind: 'index', where });
  if ([...search].length >= 3) return index(`bundle_search MATCH ${bind(phrase(search))}`);
  // eslint-disable-next-line no-control-regex
  const ascii = /^[\x00-\x7f]*$/.test(search);
  if (ascii && search.length === 2) {
    const from = search.toLowerCase();
    const to = from[0] + String.fromCharCode(from.charCodeAt(1) + 1);
    const terms = sql(db, 'SELECT term, doc FROM bundle_search_terms WHERE term >= ? AND term < ?').all(from, to) as { term: string; doc: number }[];
    if (!terms.length) return { kind: 'none' };
    if (terms.length <= SHORT_SEARCH_MAX_TERMS && terms.reduce((n, t) => n + t.doc, 0) <= SHORT_SEARCH_MAX_ROWS)
      return index(`bundle_search MATCH ${bind(terms.map((t) => phrase(t.term)).join(' OR '))}`);
  }
  return index(ascii ? `text LIKE ${bind(`%${escapeLike(search)}%`)} ESCAPE '\\'` : `instr(esign_lower(text), ${bind(search.toLowerCase())}) > 0`);
}
