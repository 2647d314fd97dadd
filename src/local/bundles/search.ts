// The search index (migration 10): one row per Bundle in `bundle_search`, rowid = the Bundle's seq;
// new Bundles wait in `bundle_search_pending` until a batch of them is written.
import { phoneSearchDigits } from '../../domain/phone.js';
import { type Db, foldForSearch, sql } from '../store/db.js';

/** Ends each field in a search row; a search containing it cannot use the index. */
const FIELD_SEPARATOR = '\u001f';

/** New Bundles written to the index at once: the index's cost per create is one write per batch. */
const PENDING_BATCH = 64;

/**
 * Queues a new Bundle for the index, before its signers are written (so that they do not touch the
 * index one by one: migration 19); `indexQueued` once they are in.
 */
export function queueForSearch(db: Db, seq: number): void {
  sql(db, 'INSERT INTO bundle_search_pending (seq) VALUES (?)').run(seq);
}

/** A full queue is written to the index, each Bundle's row whole. */
export function indexQueued(db: Db): void {
  if ((sql(db, 'SELECT count(*) FROM bundle_search_pending').pluck().get() as number) >= PENDING_BATCH)
    writePendingSearchRows(db);
}

export function writePendingSearchRows(db: Db): void {
  sql(
    db,
    'INSERT INTO bundle_search (rowid, text, status) SELECT seq, text, status FROM bundle_search_rows WHERE seq IN (SELECT seq FROM bundle_search_pending) ORDER BY seq',
  ).run();
  sql(db, 'DELETE FROM bundle_search_pending').run();
}

/** Two-character searches read the index's terms when they start with it in at most this many rows. */
const SHORT_SEARCH_MAX_ROWS = 20_000;
const SHORT_SEARCH_MAX_TERMS = 200;

/**
 * How a search, perhaps with statuses, is answered. `index`: `matches` is a SELECT of the matching
 * Bundles' seq, from the index and from the Bundles still waiting for it (`parts`: each of the two),
 * and `count` a SELECT of their number. `columns`: the search text holds the separator or a NUL, so
 * only the tables can say.
 *
 * `search` is words, each a case- and accent-insensitive substring of the slug, label, custom_key,
 * or a signer's name, email or phone; a Bundle matches when every word does ("falcon jane"). A word
 * of three characters or more is a phrase of trigrams (trigrams at consecutive offsets are exactly a
 * substring; the index makes them without accents, migration 17). Every character of a field starts
 * a trigram (each field ends with the separator), so two ASCII characters are exactly the trigrams
 * that start with them: when those are few, any of them is looked up. Other short words scan the
 * index's text (far smaller than the tables), folded by the engine's function as the trigrams are.
 */
export type SearchPlan = { kind: 'index'; matches: string; count: string; parts: string[] } | { kind: 'columns' };

/** The words of a search (all of them must match); a search of spaces alone is itself. */
export const searchWords = (search: string): string[] => {
  const words = search.split(/\s+/).filter(Boolean);
  return words.length ? words : [search];
};

const phrase = (s: string) => `"${s.replace(/"/g, '""')}"`;
// eslint-disable-next-line no-control-regex
const isAscii = (s: string) => /^[\x00-\x7f]*$/.test(s);

/** A short word: the index terms it starts (an FTS5 expression), none (`false`: nothing matches), or a scan. */
function shortWord(db: Db, word: string): string | false | undefined {
  if (!isAscii(word) || word.length !== 2) return undefined;
  const from = word.toLowerCase();
  const to = from[0] + String.fromCharCode(from.charCodeAt(1) + 1);
  const terms = sql(db, `SELECT term, doc FROM bundle_search_terms WHERE term >= ? AND term < ? AND col = 'text'`).all(
    from,
    to,
  ) as { term: string; doc: number }[];
  if (!terms.length) return false;
  if (terms.length <= SHORT_SEARCH_MAX_TERMS && terms.reduce((n, t) => n + t.doc, 0) <= SHORT_SEARCH_MAX_ROWS)
    return `(${terms.map((t) => phrase(t.term)).join(' OR ')})`;
  return undefined;
}

/** Digits, and what people type between them in a phone number: at least this many digits make one. */
const PHONE_LIKE = /^\+?[\d\s().-]+$/;
const PHONE_DIGITS = 7;

/**
 * The digits a search that reads as a phone number also looks for (phone.ts's one rule: the national
 * number), found in the E.164 form the index keeps beside each phone as written (migration 22); none
 * when the search is not one, or is those digits already.
 */
export function phoneAlternative(search: string): string | undefined {
  const s = search.trim();
  if (!PHONE_LIKE.test(s) || s.replace(/\D/g, '').length < PHONE_DIGITS) return undefined;
  const digits = phoneSearchDigits(s);
  return digits && digits !== s ? digits : undefined;
}

export function planSearch(db: Db, search: string, bind: (v: unknown) => string, statuses?: string[]): SearchPlan {
  // The separator is in every row; a NUL would end the FTS5 query text.
  if (search.includes(FIELD_SEPARATOR) || search.includes('\u0000')) return { kind: 'columns' };
  const folded = (w: string) => `instr(esign_fold(text), ${bind(foldForSearch(w))}) > 0`;
  // A phone as typed matches as written or by its digits (a date like 2026-11-02 still matches as written).
  const phone = phoneAlternative(search);
  if (phone) return phonePlan(search.trim(), phone, bind, folded, statuses);
  const words = searchWords(search);
  // Statuses are the index's second column (migration 13): `_` and the status, one trigram each.
  const inStatuses = statuses
    ? ` AND status IN (SELECT '_' || value FROM json_each(${bind(JSON.stringify(statuses))}))`
    : '';
  const matchStatuses = statuses ? ` AND status : (${statuses.map((s) => phrase(`_${s}`)).join(' OR ')})` : '';
  const waiting = `SELECT seq FROM bundle_search_rows WHERE seq IN (SELECT seq FROM bundle_search_pending) AND ${words.map(folded).join(' AND ')}${inStatuses}`;
  const expressions: string[] = [];
  const scans: string[] = [];
  let none = false;
  for (const w of words) {
    if ([...w].length >= 3) expressions.push(phrase(w));
    else {
      const terms = shortWord(db, w);
      if (terms === false) none = true;
      else if (terms) expressions.push(terms);
      else scans.push(folded(w));
    }
  }
  if (none) return { kind: 'index', matches: waiting, count: `SELECT count(*) FROM (${waiting})`, parts: [waiting] };
  const where = [
    ...(expressions.length
      ? [`bundle_search MATCH ${bind(`text : (${expressions.join(' AND ')})${matchStatuses}`)}`]
      : []),
    ...scans,
  ].join(' AND ');
  // Counted apart: an FTS5 count read through the UNION costs a third more.
  return {
    kind: 'index',
    matches: `SELECT rowid AS seq FROM bundle_search WHERE ${where}${expressions.length ? '' : inStatuses} UNION ALL ${waiting}`,
    count: `SELECT (SELECT count(*) FROM bundle_search WHERE ${where}${expressions.length ? '' : inStatuses}) + (SELECT count(*) FROM (${waiting}))`,
    parts: [`SELECT rowid FROM bundle_search WHERE ${where}${expressions.length ? '' : inStatuses}`, waiting],
  };
}

/** A phone search: the text as typed, or the number's digits, each a substring (trigram phrases). */
function phonePlan(
  typed: string,
  digits: string,
  bind: (v: unknown) => string,
  folded: (w: string) => string,
  statuses?: string[],
): SearchPlan {
  const inStatuses = statuses
    ? ` AND status IN (SELECT '_' || value FROM json_each(${bind(JSON.stringify(statuses))}))`
    : '';
  const matchStatuses = statuses ? ` AND status : (${statuses.map((s) => phrase(`_${s}`)).join(' OR ')})` : '';
  const waiting = `SELECT seq FROM bundle_search_rows WHERE seq IN (SELECT seq FROM bundle_search_pending) AND (${folded(typed)} OR ${folded(digits)})${inStatuses}`;
  const where = `bundle_search MATCH ${bind(`text : (${phrase(typed)} OR ${phrase(digits)})${matchStatuses}`)}`;
  return {
    kind: 'index',
    matches: `SELECT rowid AS seq FROM bundle_search WHERE ${where} UNION ALL ${waiting}`,
    count: `SELECT (SELECT count(*) FROM bundle_search WHERE ${where}) + (SELECT count(*) FROM (${waiting}))`,
    parts: [`SELECT rowid FROM bundle_search WHERE ${where}`, waiting],
  };
}
