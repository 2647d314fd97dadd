// The counts kept beside `bundles` and `bundle_tags` (migrations 7-14) are kept by one trigger per
// table and event since migration 15, and without the counts per day and status, per pair of days and
// per pair of tags since migration 16: a database upgraded with counts in it keeps them exact, and the
// lists those counts served equal a scan.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { explainBundles } from '../../src/local/bundles/list.js';
import { migrate } from '../../src/local/store/db.js';
import { MIGRATIONS } from '../../src/local/store/migrations.js';
import { parseBundleListQuery } from '../../src/service/listQuery.js';
import type { BundleListQuery } from '../../src/service/types.js';

let db: Database.Database;
afterEach(() => db?.close());

const all = (q: string) => db.prepare(q).all();
const DAYS = `SELECT 'created' AS field, substr(created, 1, 10) AS day, seq FROM bundles
  UNION ALL SELECT 'sent', substr(sent, 1, 10), seq FROM bundles WHERE sent IS NOT NULL
  UNION ALL SELECT 'completed_at', substr(completed_at, 1, 10), seq FROM bundles WHERE completed_at IS NOT NULL`;

/** Every table of counts equals a scan of the rows it counts. */
function expectExact(): void {
  expect(all('SELECT status, n FROM bundle_counts WHERE n <> 0 ORDER BY 1')).toEqual(
    all('SELECT status, count(*) AS n FROM bundles GROUP BY 1 ORDER BY 1'),
  );
  expect(all('SELECT tag, n FROM bundle_tag_counts WHERE n <> 0 ORDER BY 1')).toEqual(
    all('SELECT tag, count(*) AS n FROM bundle_tags GROUP BY 1 ORDER BY 1'),
  );
  expect(all('SELECT tag, field, day, n FROM bundle_tag_day_counts WHERE n <> 0 ORDER BY 1, 2, 3')).toEqual(
    all(
      `SELECT t.tag, d.field, d.day, count(*) AS n FROM bundle_tags t JOIN (${DAYS}) d ON d.seq = t.bundle_seq GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    ),
  );
  expect(
    all(
      `SELECT seq, '_' || status AS status FROM bundles WHERE seq NOT IN (SELECT seq FROM bundle_search_pending) ORDER BY 1`,
    ),
  ).toEqual(all('SELECT rowid AS seq, status FROM bundle_search ORDER BY 1'));
}

/**
 * The lists that the counts per day, per pair of days and per pair of tags served before migration 16
 * (date ranges, statuses with a range, two tags): their pages and totals equal a scan.
 */
function expectListsOfScan(): void {
  const cases: [BundleListQuery, string][] = [
    [{ ordering: 'created', created_after: '2024-03-02' }, `created >= '2024-03-02' ORDER BY created, seq`],
    [{ ordering: '-sent', sent_before: '2024-03-03' }, `sent < '2024-03-04' ORDER BY sent DESC, seq DESC`],
    [{ ordering: 'created', completed_after: '2024-03-01' }, `completed_at >= '2024-03-01' ORDER BY created, seq`],
    [
      { ordering: '-created', status__in: 'se,st,dr', created_before: '2024-03-02' },
      `status IN ('se', 'st', 'dr') AND created < '2024-03-03' ORDER BY created DESC, seq DESC`,
    ],
    [
      { ordering: 'created', tag__in: 'ci,dev' },
      `seq IN (SELECT bundle_seq FROM bundle_tags WHERE tag IN ('ci', 'dev')) ORDER BY created, seq`,
    ],
    [
      { ordering: '-sent', tag: 'dev', sent_after: '2024-03-01' },
      `seq IN (SELECT bundle_seq FROM bundle_tags WHERE tag = 'dev') AND sent >= '2024-03-01' ORDER BY sent DESC, seq DESC`,
    ],
  ];
  for (const [q, where] of cases) {
    const want = db.prepare(`SELECT id FROM bundles WHERE ${where}`).pluck().all();
    expect(want.length, `the Bundles have matches for ${JSON.stringify(q)}`).toBeGreaterThan(0);
    const { page } = explainBundles(db, parseBundleListQuery({ ...q, per_page: 100 }));
    expect(
      page.items.map((b) => b.id),
      JSON.stringify(q),
    ).toEqual(want);
    expect(page.total, JSON.stringify(q)).toBe(want.length);
  }
}

const bundle = (i: number, status: string, created: string, sent: string | null) =>
  db
    .prepare(
      `INSERT INTO bundles (id, status, doc_status, label, is_test, in_order, created, sent, attrs) VALUES (?, ?, 'no', ?, 0, 0, ?, ?, '{}')`,
    )
    .run(`b${i}`, status, `Label ${i}`, created, sent);

describe('counts kept by one trigger per table and event (migrations 15 and 16)', () => {
  it('stay exact over an upgrade and every kind of write after it', () => {
    db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    for (const m of MIGRATIONS.slice(0, 14)) db.exec(m);
    db.pragma('user_version = 14');
    bundle(1, 'se', '2024-03-01T10:00:00Z', '2024-03-02T10:00:00Z');
    bundle(2, 'dr', '2024-03-02T10:00:00Z', null);
    db.exec(`INSERT INTO bundle_search (rowid, text, status) SELECT seq, text, status FROM bundle_search_rows`);
    db.exec(`INSERT INTO bundle_tags (bundle_seq, tag) VALUES (1, 'ci'), (1, 'dev'), (2, 'ci')`);
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expectExact();

    bundle(3, 'se', '2024-03-03T10:00:00Z', '2024-03-03T11:00:00Z');
    db.exec('INSERT INTO bundle_search_pending (seq) VALUES (3)'); // as a create leaves it: waiting for the index
    db.exec(`INSERT INTO bundle_tags (bundle_seq, tag) VALUES (3, 'dev'), (3, 'release'), (2, 'dev')`);
    db.exec(`UPDATE bundles SET status = 'co', completed_at = '2024-03-05T10:00:00Z' WHERE seq = 1`);
    db.exec(`UPDATE bundles SET created = '2024-02-28T10:00:00Z', label = 'Moved' WHERE seq = 2`);
    db.exec(`UPDATE bundles SET sent = '2024-03-04T09:00:00Z', status = 'st' WHERE seq = 3`);
    db.exec(`UPDATE bundle_tags SET tag = 'nightly' WHERE bundle_seq = 1 AND tag = 'ci'`);
    db.exec(`DELETE FROM bundle_tags WHERE bundle_seq = 3 AND tag = 'dev'`);
    expectExact();
    expectListsOfScan();
    db.exec(`DELETE FROM bundles WHERE seq = 1`);
    expectExact();
    // A Bundle whose `created` goes back, and one sent before it was made: the flags the planner reads.
    expect(db.prepare(`SELECT value FROM meta WHERE key = 'bundles_out_of_order'`).pluck().get()).not.toBe('0');
    expect(db.prepare(`SELECT value FROM meta WHERE key = 'bundles_dated_before_created'`).pluck().get()).toBe('0');
    db.exec(`UPDATE bundles SET sent = '2024-02-01T00:00:00Z' WHERE seq = 3`);
    expect(db.prepare(`SELECT value FROM meta WHERE key = 'bundles_dated_before_created'`).pluck().get()).not.toBe('0');
  });

  it('are kept by at most 34 triggers, 7 of them on bundles and bundle_tags', () => {
    db = new Database(':memory:');
    migrate(db);
    const triggers = all(`SELECT tbl_name AS t FROM sqlite_schema WHERE type = 'trigger'`) as { t: string }[];
    expect(triggers.length).toBeLessThanOrEqual(34);
    expect(triggers.filter(({ t }) => t === 'bundles' || t === 'bundle_tags')).toHaveLength(7);
  });
});
