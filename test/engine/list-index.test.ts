// The indexed list queries (migrations 7 and 10-16) give what a plain scan over every Bundle gives:
// search through the trigram index (with the statuses) and its short-text fallback, counts kept by
// triggers (per status, tag and template, a tag's per day, webhook events per webhook and day), totals
// counted in the indexes, deep pages of a tag started from its counts per day, totals and lists kept
// while the database is unchanged, split orderings, and a database made before migration 7 upgraded in place.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { deepPages } from '../../src/local/bundles/list.js';
import { writePendingSearchRows } from '../../src/local/bundles/search.js';
import { MIGRATIONS } from '../../src/local/store/migrations.js';
import { fewKeys } from '../../src/local/store/paging.js';
import type { Bundle } from '../../src/service/types.js';
import { CONTRACT_B64, CONTRACT_PDF, bundleRequest, expectApiError, tempDir } from '../helpers.js';
import { forceStatus } from './support.js';

type Query = Record<string, string | number>;
const FEW_KEYS_DEFAULT = fewKeys.max;
const DEEP_FROM_DEFAULT = deepPages.from;

const SIGNERS = [
  { name: 'José Ñúñez', email: 'jose@ecoles.test', phone: '+1 (555) 010-2030' },
  { name: 'RENÉE Zoë', email: 'renee_z@example.com' },
  { name: 'Ada 50% Lovelace', email: 'ada+x@example.com', phone: '+1 555.010.9999' },
  { name: 'Bob a_b', email: 'bob@example.com' },
];
const LABELS = ['Lease ÉCOLE', 'lease école 50%', 'NDA a_b', 'Offer', '%_\\', 'Straße', 'quote "x"', ''];

/**
 * Bundles with accents, case, `%`, `_` and punctuated phones; some drafts, cancelled, tagged, with dates.
 * `inOrder`: `created` grows with the order the Bundles were made, as when they were made as time went
 * by (the lists then read sets in seq order); otherwise it is shuffled, as after a clock set back.
 */
async function seed(e: LocalEngine, inOrder = false): Promise<void> {
  // A Document Template: some Bundles have a document from it, some two (counted once).
  const tpl = await e.importTemplate({
    name: 'Seeded template',
    pdf: CONTRACT_PDF,
    roles: [{ key: 'a' }, { key: 'b' }],
  });
  const fromTemplate = (key: string) => ({
    key,
    template_id: tpl.id,
    assignments: [
      { role: 'a', signer: 'a' },
      { role: 'b', signer: 'b' },
    ],
  });
  for (let i = 0; i < 24; i++) {
    const a = SIGNERS[i % SIGNERS.length];
    const b = SIGNERS[(i + 1) % SIGNERS.length];
    const body = bundleRequest({
      label: LABELS[i % LABELS.length],
      ...(i % 3 ? { custom_key: `ck_${i}%` } : {}),
      ...(i % 5 === 0 ? { is_draft: true } : {}),
      ...(i % 4 === 1
        ? {
            documents: [
              { key: 'contract', file_b64: CONTRACT_B64 },
              fromTemplate('t1'),
              ...(i % 8 === 1 ? [fromTemplate('t2')] : []),
            ],
          }
        : {}),
      packets: [
        { key: 'a', name: a.name, email: a.email, ...(a.phone ? { phone: a.phone } : {}) },
        { key: 'b', name: `${b.name} ${i}`, email: b.email },
      ],
    });
    const made = await e.createBundle(body);
    // Two thirds are in the search index, the rest wait for the next batch.
    if (i === 15) writePendingSearchRows(e.db);
    if (i % 4 === 0) await e.addBundleTags(made.id, ['ci', `t${i % 3}`]);
    if (i % 7 === 3) await e.cancelBundle(made.id);
    // Spread the dates over days, with some never sent or completed.
    const day = (d: number) => `2024-03-${String(1 + d).padStart(2, '0')}T10:00:00.000Z`;
    forceStatus(e as never, made.id, i % 6 === 1 ? 'co' : (await e.getBundle(made.id)).status, {
      created: inOrder ? day(Math.floor(i / 3)).replace('10:00', `10:${String(i).padStart(2, '0')}`) : day(i % 9),
      // In order, as time went by: sent the same day or later, after being made.
      sent:
        i % 5 === 0 ? null : inOrder ? day(Math.floor(i / 3) + (i % 4)).replace('10:00', '11:00') : day((i * 2) % 11),
      completed_at: i % 6 === 1 ? day(12 + (i % 4)) : null,
    });
  }
  // A signer changes address: the index follows the packet.
  const first = await e.getBundle(e.db.prepare('SELECT id FROM bundles ORDER BY seq LIMIT 1').pluck().get() as string);
  await e.updatePacket(first.packets[1].id, { email: 'moved@new.test' });
  // The dates were written over; say whether they are in seq order as the engine's own count would.
  e.db
    .prepare(`UPDATE meta SET value = (SELECT count(*) FROM (SELECT created < lag(created) OVER (ORDER BY seq) AS back FROM bundles) WHERE back)
    WHERE key = 'bundles_out_of_order'`)
    .run();
  expect(e.db.prepare(`SELECT value FROM meta WHERE key = 'bundles_out_of_order'`).pluck().get() === '0').toBe(inOrder);
  expect(e.db.prepare(`SELECT value FROM meta WHERE key = 'bundles_dated_before_created'`).pluck().get() === '0').toBe(
    inOrder,
  );
}

/** The counts kept by triggers (per status, tag and template, a tag's per day) and the search index's statuses equal a scan of the rows. */
function expectCountsOfScan(e: LocalEngine): void {
  const all = (q: string) => e.db.prepare(q).all();
  // n <> 0: a count taken away twice would show as a -1 where the scan has no row.
  expect(all('SELECT status, n FROM bundle_counts WHERE n <> 0 ORDER BY 1')).toEqual(
    all('SELECT status, count(*) AS n FROM bundles GROUP BY 1 ORDER BY 1'),
  );
  expect(all('SELECT tag, n FROM bundle_tag_counts WHERE n <> 0 ORDER BY 1')).toEqual(
    all('SELECT tag, count(*) AS n FROM bundle_tags GROUP BY 1 ORDER BY 1'),
  );
  expect(all('SELECT tag, field, day, n FROM bundle_tag_day_counts WHERE n <> 0 ORDER BY 1, 2, 3')).toEqual(
    all(`
    SELECT t.tag, d.field, d.day, count(*) AS n FROM bundle_tags t JOIN (
      SELECT seq, 'created' AS field, substr(created, 1, 10) AS day FROM bundles
      UNION ALL SELECT seq, 'sent', substr(sent, 1, 10) FROM bundles WHERE sent IS NOT NULL
      UNION ALL SELECT seq, 'completed_at', substr(completed_at, 1, 10) FROM bundles WHERE completed_at IS NOT NULL) d ON d.seq = t.bundle_seq
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
  );
  // The search index holds every Bundle not waiting for it, with its status.
  expect(all('SELECT rowid AS seq, status FROM bundle_search ORDER BY 1')).toEqual(
    all(
      `SELECT seq, '_' || status AS status FROM bundles WHERE seq NOT IN (SELECT seq FROM bundle_search_pending) ORDER BY 1`,
    ),
  );
  expect(all('SELECT template_id, n FROM bundle_template_counts WHERE n <> 0 ORDER BY 1')).toEqual(
    all(
      'SELECT template_id, count(DISTINCT bundle_seq) AS n FROM documents WHERE template_id IS NOT NULL GROUP BY 1 ORDER BY 1',
    ),
  );
}

/** Every Bundle, read one by one, then filtered and ordered in JavaScript: the plain scan. */
async function plainScan(e: LocalEngine, q: Query): Promise<string[]> {
  const all: Bundle[] = [];
  for (const id of e.db.prepare('SELECT id FROM bundles').pluck().all() as string[]) all.push(await e.getBundle(id));
  const seq = new Map(
    (e.db.prepare('SELECT id, seq FROM bundles').all() as { id: string; seq: number }[]).map((r) => [r.id, r.seq]),
  );
  // Every word of the search in some field, letters compared without case or accents.
  const fold = (v: string) =>
    v
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase();
  const words = q.search === undefined ? undefined : String(q.search).split(/\s+/).filter(Boolean).map(fold);
  const s = words && (words.length ? words : [fold(String(q.search))]);
  const has = (b: Bundle, w: string) =>
    [b.id, b.label, b.custom_key, ...b.packets.flatMap((p) => [p.name, p.email, p.phone])].some(
      (v) => v !== null && v !== undefined && fold(v).includes(w),
    );
  const day = (v: string | null) => (v ? v.slice(0, 10) : null);
  const inRange = (v: string | null, after?: string | number, before?: string | number) =>
    (after === undefined || (v !== null && day(v)! >= String(after))) &&
    (before === undefined || (v !== null && day(v)! <= String(before)));
  const statuses = q.status__in ? String(q.status__in).split(',') : undefined;
  const kept = all.filter(
    (b) =>
      (s === undefined || s.every((w) => has(b, w))) &&
      (q.status === undefined || b.status === q.status) &&
      (!statuses || statuses.includes(b.status)) &&
      (q.tag === undefined || b.tags.includes(String(q.tag))) &&
      (q.tag__in === undefined ||
        String(q.tag__in)
          .split(',')
          .some((t) => b.tags.includes(t))) &&
      (q.template === undefined || b.documents.some((d) => 'template_id' in d && d.template_id === q.template)) &&
      inRange(b.created, q.created_after, q.created_before) &&
      inRange(b.sent, q.sent_after, q.sent_before) &&
      inRange(b.completed_at, q.completed_after, q.completed_before),
  );
  const ordering = String(q.ordering ?? '-created');
  const col = ordering.replace(/^-/, '') as 'created' | 'sent' | 'completed_at';
  const sign = ordering.startsWith('-') ? -1 : 1;
  kept.sort((x, y) => {
    const [a, b] = [x[col], y[col]];
    if ((a === null) !== (b === null)) return a === null ? 1 : -1;
    if (a !== b) return (a! < b! ? -1 : 1) * sign;
    return (seq.get(x.id)! - seq.get(y.id)!) * sign;
  });
  return kept.map((b) => b.id);
}

/** Every page of the list, concatenated, and the total each page reported. */
async function listed(e: LocalEngine, q: Query, perPage = 4): Promise<{ ids: string[]; totals: Set<number> }> {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let page = 1; ; page++) {
    const p = await e.listBundles({ ...q, page, per_page: perPage });
    ids.push(...p.items.map((b) => b.id));
    totals.add(p.total);
    if (page >= p.total_pages) return { ids, totals };
  }
}

const SEARCHES = [
  // Without accents, and words in any order (every word must match).
  'jose',
  'ecole',
  'lease ada',
  'josé',
  'JOSÉ',
  'é',
  'É',
  'ÉCOLE',
  'école',
  'ñúñ',
  'zoë',
  'ZOË',
  'straße',
  'STRASSE',
  '%',
  '_',
  '50%',
  'a_b',
  '%_\\',
  '\\',
  '(555)',
  '555) 010',
  '010-2030',
  '555.010',
  '+1',
  'x',
  'zz',
  'ab',
  'ck_1',
  'ck_1%',
  '@example.com',
  'renee_z',
  'quote "x"',
  '"',
  'moved@new',
  'Ada 50% L',
  'lease',
  'LEASE ÉC',
  'nothing at all',
  ' ',
  'ee z',
  '\u001f',
  // Two characters, read from the trigram index's terms: at a field's end, across case, with quotes and wildcards.
  '30',
  'OM',
  'om',
  '5%',
  '_b',
  'e"',
  '"x',
  ' 1',
  'cK',
  '%\\',
  'ss',
  // Like the statuses' terms in the index's second column (`_se`), which no search reaches; a NUL.
  '_s',
  '_S',
  '_se',
  '\u0000',
  'a\u0000b',
  'jos\u0000',
];

describe('indexed lists equal a plain scan', () => {
  const dirs: (() => void)[] = [];
  afterEach(() => {
    dirs.splice(0).forEach((c) => c());
    fewKeys.max = FEW_KEYS_DEFAULT;
    deepPages.from = DEEP_FROM_DEFAULT;
  });

  const engineWithSeed = async (inOrder = false) => {
    const { dir, cleanup } = tempDir();
    dirs.push(cleanup);
    const e = new LocalEngine({ dataDir: dir });
    await seed(e, inOrder);
    return e;
  };

  // Both ways of a set's page (read whole when it is small, fewKeys.max, counted and sliced in its index
  // otherwise) and of a tag's deep page (started from its counts per day from deepPages.from).
  const ORDERS_AND_SIZES = [false, true].flatMap((inOrder) =>
    [FEW_KEYS_DEFAULT, 2].map((few) => [inOrder, few] as const),
  );
  const smallOrDefault = (few: number) => {
    fewKeys.max = few;
    deepPages.from = few === 2 ? 1 : DEEP_FROM_DEFAULT;
  };

  it.each(ORDERS_AND_SIZES)(
    'search on every field, with accents, case, % and _, and punctuated phones (created in seq order: %s; sets read whole up to %i)',
    async (inOrder, few) => {
      smallOrDefault(few);
      const e = await engineWithSeed(inOrder);
      const slug = e.db.prepare('SELECT id FROM bundles WHERE seq = 5').pluck().get() as string;
      for (const search of [...SEARCHES, slug, slug.slice(2, 7).toLowerCase(), slug.slice(0, 2)]) {
        const want = await plainScan(e, { search });
        const got = await listed(e, { search });
        expect(got.ids, `search=${JSON.stringify(search)}`).toEqual(want);
        expect([...got.totals], `total for ${JSON.stringify(search)}`).toEqual([want.length]);
      }
      await e.close();
    },
  );

  it.each(ORDERS_AND_SIZES)(
    'filters, orderings and their combinations, on every page (created in seq order: %s; sets read whole up to %i)',
    async (inOrder, few) => {
      smallOrDefault(few);
      const e = await engineWithSeed(inOrder);
      expectCountsOfScan(e);
      const template = e.db.prepare('SELECT id FROM templates').pluck().get() as string;
      const queries: Query[] = [
        // A template alone (its count kept by triggers), with a status, with a range.
        { template },
        { template, status: 'se' },
        { template, sent_before: '2024-03-06' },
        {},
        { status: 'se' },
        { status: 'dr' },
        { status__in: 'se,ca' },
        { status__in: 'co' },
        { tag: 'ci' },
        { tag__in: 't0,t2' },
        { created_after: '2024-03-03', created_before: '2024-03-06' },
        { sent_after: '2024-03-05' },
        { sent_before: '2024-03-04' },
        { completed_after: '2024-03-14' },
        { status: 'se', search: 'lease' },
        { tag: 'ci', search: 'é' },
        { status__in: 'se,co', sent_after: '2024-03-02' },
        // Sets (tags, search) with columns: counted by walking a column's index and testing the set.
        { status__in: 'se,ca', tag: 'ci' },
        { tag__in: 't0,t2', sent_after: '2024-03-03' },
        { status: 'se', search: 'ab' },
        // One set alone (read in seq order when that is created order), and statuses merged with a created range.
        { search: 'lease' },
        { search: 'é' },
        { search: 'ab' },
        { tag__in: 't0,ci,t0' },
        { status__in: 'se,ca,dr', created_after: '2024-03-02', created_before: '2024-03-05' },
        // Statuses of few Bundles, merged; ranges of sent or completed that bound the walk of `created`.
        { status__in: 'co,ex' },
        { status__in: 'co,dr', created_after: '2024-03-02' },
        { completed_before: '2024-03-14', status: 'co' },
        { tag: 'ci', sent_before: '2024-03-06' },
        { sent_before: '2024-03-07', completed_before: '2024-03-15' },
        // Statuses and a search: one query of the search index, which holds each Bundle's status (migration 13).
        { status__in: 'se,ca', search: 'é' },
        { status: 'co', search: 'ab' },
        { status__in: 'ca,co', search: 'L' },
        // A tag with a range of one date: counted, and its deep pages started, from the tag's counts per day.
        { tag: 'ci', created_after: '2024-03-03' },
        { tag: 't0', sent_after: '2024-03-02', sent_before: '2024-03-08' },
        { tag: 't1', created_before: '2024-03-06' },
      ];
      for (const base of queries)
        for (const ordering of ['created', '-created', 'sent', '-sent', 'completed_at', '-completed_at']) {
          const q = { ...base, ordering };
          const want = await plainScan(e, q);
          const got = await listed(e, q, 3);
          if (base.tag || base.tag__in || base.status__in || base.template)
            expect(want.length, `seed has matches for ${JSON.stringify(q)}`).toBeGreaterThan(0);
          expect(got.ids, JSON.stringify(q)).toEqual(want);
          expect([...got.totals], JSON.stringify(q)).toEqual([want.length]);
        }
      await e.close();
    },
  );

  it('keeps status counts and the search index in step with cancels, deletes and packet changes', async () => {
    const e = await engineWithSeed();
    const draft = (await e.listBundles({ status: 'dr', per_page: 1 })).items[0];
    await e.deleteBundle(draft.id);
    // A tagged draft: its tag's counts go with it.
    await e.deleteBundle((await e.listBundles({ status: 'dr', tag: 'ci', per_page: 1 })).items[0].id);
    expectCountsOfScan(e);
    for (const q of [
      {},
      { status: 'dr' },
      { status__in: 'dr,se,ca' },
      { search: draft.id },
      { search: 'moved@' },
    ] as Query[])
      expect((await listed(e, q)).ids, JSON.stringify(q)).toEqual(await plainScan(e, q));
    // A signer of a Bundle still waiting for the index moves: found by the new address before and after the batch is written.
    const waiting = await e.getBundle(
      e.db
        .prepare('SELECT id FROM bundles WHERE seq = (SELECT max(seq) FROM bundle_search_pending)')
        .pluck()
        .get() as string,
    );
    await e.updatePacket(waiting.packets[0].id, { email: 'waiting@moved.test' });
    for (const flush of [false, true]) {
      if (flush) writePendingSearchRows(e.db);
      for (const q of [{ search: 'waiting@moved' }, { search: waiting.packets[0].email! }, { search: 'ng' }] as Query[])
        expect((await listed(e, q)).ids, JSON.stringify({ ...q, flush })).toEqual(await plainScan(e, q));
    }
    expect((await listed(e, { search: 'waiting@moved' })).ids).toEqual([waiting.id]);
    // A full batch is written by the create that fills it. The labels hold a 0, which no ID does: a search for
    // letters alone can also match a random ID (one CI run in about thirty).
    const made: string[] = [];
    for (let i = 0; i < 64; i++) made.push((await e.createBundle(bundleRequest({ label: `Batch ${i} q0z` }))).id);
    expect(e.db.prepare('SELECT count(*) FROM bundle_search_pending').pluck().get()).toBeLessThan(64);
    expect(
      e.db.prepare('SELECT count(*) FROM bundle_search WHERE bundle_search MATCH ?').pluck().get('"q0z"'),
    ).toBeGreaterThan(0);
    expect((await listed(e, { search: 'Q0Z' }, 100)).ids).toEqual([...made].reverse());
    // A signer added to a Bundle already indexed is found at once; one added to a Bundle still
    // waiting leaves the index alone (migration 19) and is found from the tables, then in the batch.
    const addSigner = (id: string, name: string) =>
      e.db
        .prepare(
          `INSERT INTO packets (id, bundle_seq, idx, key, name, email, deliver_via, ord, status, attrs)
           SELECT ?, seq, 9, 'added', ?, NULL, 'embed', 9, 'ne', '{}' FROM bundles WHERE id = ?`,
        )
        .run(`${id}x`, name, id);
    const indexed = made[0];
    const pending = (await e.createBundle(bundleRequest({ label: 'Still waiting' }))).id;
    addSigner(indexed, 'Zebediah Indexed');
    addSigner(pending, 'Zebediah Waiting');
    const indexText = () =>
      e.db.prepare('SELECT count(*) FROM bundle_search WHERE bundle_search MATCH ?').pluck().get('"zebediah"');
    expect(indexText()).toBe(1);
    for (const flush of [false, true]) {
      if (flush) writePendingSearchRows(e.db);
      expect((await listed(e, { search: 'zebediah' })).ids, `flush ${flush}`).toEqual([pending, indexed]);
    }
    expect(indexText()).toBe(2);
    expectCountsOfScan(e);
    // Tags removed, a Bundle's dates and status moved: the counts follow.
    const tagged = (await e.listBundles({ tag: 'ci', per_page: 1 })).items[0];
    await e.removeBundleTags(tagged.id, ['ci']);
    forceStatus(e as never, tagged.id, 'ex', {
      created: '2024-05-01T00:00:00.000Z',
      sent: null,
      completed_at: '2024-05-02T23:59:59.999Z',
    });
    expectCountsOfScan(e);
    const sameAsScan = async (qs: Query[]) => {
      for (const q of qs) {
        const got = await listed(e, q);
        expect(got.ids, JSON.stringify(q)).toEqual(await plainScan(e, q));
        expect([...got.totals], JSON.stringify(q)).toEqual([got.ids.length]);
      }
    };
    await sameAsScan([
      { tag: 'ci' },
      { status: 'ex', search: tagged.id },
      { status: 'ex' },
      { created_after: '2024-04-30' },
      { completed_before: '2024-05-02', status: 'ex' },
      { sent_after: '2024-03-01' },
      // The last day there is, and lists of commas alone (no status or tag: no Bundle).
      { created_before: '9999-12-31' },
      { sent_before: '9999-12-31', ordering: 'sent' },
      { tag__in: ',' },
      { status__in: ', ,' },
    ]);
    await expectApiError(e.listBundles({ tag__in: ',', page: 2 }), 404);
    // A Bundle with many tags: two tags are counted by their merge, whatever their number.
    const many = (await e.listBundles({ tag: 't1', per_page: 1 })).items[0];
    await e.addBundleTags(
      many.id,
      Array.from({ length: 17 }, (_, i) => `many${i}`),
    );
    await e.addBundleTags(many.id, ['late']);
    expectCountsOfScan(e);
    await sameAsScan([
      { tag__in: 'ci,t1' },
      { tag__in: 'many3,t1' },
      { tag__in: 'late,t1' },
      { tag__in: 'late,ci', ordering: '-sent' },
    ]);
    await e.close();
  });
});

describe('totals counted by visiting every match', () => {
  afterEach(() => {
    fewKeys.max = FEW_KEYS_DEFAULT;
  });

  it('are kept only while the database is unchanged, by this process or by another', async () => {
    const { dir, cleanup } = tempDir();
    const e = new LocalEngine({ dataDir: dir });
    const other = new LocalEngine({ dataDir: dir });
    try {
      await seed(e, true);
      // Counted, not read whole: more matches than the first pass reads.
      fewKeys.max = 2;
      const queries: Query[] = [
        { search: 'lease' },
        { status: 'se', search: 'lease' },
        { tag: 'ci', search: 'é' },
        { status__in: 'se,ca', tag: 'ci', ordering: '-sent' },
      ];
      const sameAsScan = async () => {
        for (const q of queries) {
          const got = await listed(e, q, 2);
          expect(got.ids, JSON.stringify(q)).toEqual(await plainScan(e, q));
          expect([...got.totals], JSON.stringify(q)).toEqual([got.ids.length]);
        }
      };
      await sameAsScan();
      const lease = async () => (await e.listBundles({ search: 'lease', status: 'se' })).total;
      const before = await lease();
      // Another process makes a Bundle that matches (it waits for the search index), then this one.
      const made = await other.createBundle(bundleRequest({ label: 'Lease from elsewhere' }));
      expect(await lease()).toBe(before + 1);
      await e.createBundle(bundleRequest({ label: 'LEASE here' }));
      expect(await lease()).toBe(before + 2);
      await other.cancelBundle(made.id);
      expect(await lease()).toBe(before + 1);
      await other.addBundleTags(made.id, ['ci']);
      await sameAsScan();
      // A Bundle already in the search index is cancelled: found with its new status, not its old one.
      writePendingSearchRows(e.db);
      const sent = (await e.listBundles({ status: 'se', per_page: 1 })).items[0];
      await other.cancelBundle(sent.id);
      expect((await e.listBundles({ status: 'ca', search: sent.id })).items.map((b) => b.id)).toEqual([sent.id]);
      expect((await e.listBundles({ status__in: 'se,dr', search: sent.id })).total).toBe(0);
      await sameAsScan();
    } finally {
      await other.close();
      await e.close();
      cleanup();
    }
  });
});

describe('a database made by a newer esign', () => {
  it('is refused, and left as it was', async () => {
    const { dir, cleanup } = tempDir();
    try {
      await new LocalEngine({ dataDir: dir }).close();
      const db = new Database(`${dir}/esign.db`);
      db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
      db.close();
      expect(() => new LocalEngine({ dataDir: dir })).toThrow(/made by a newer esign/);
      const after = new Database(`${dir}/esign.db`, { readonly: true });
      expect(after.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length + 1);
      after.close();
    } finally {
      cleanup();
    }
  });
});

describe('upgrade of a database made before migration 7', () => {
  it('builds the search index and counts from the stored Bundles', async () => {
    const { dir, cleanup } = tempDir();
    try {
      // A data directory exactly as main makes it: migrations 1-6, then Bundles written through that schema.
      const old = new Database(`${dir}/esign.db`);
      for (const m of MIGRATIONS.slice(0, 6)) old.exec(m);
      old.pragma('user_version = 6');
      old.close();
      const e6 = new LocalEngine({ dataDir: dir });
      // A webhook, so that the Bundles' changes leave events to count (never delivered here).
      await e6.createWebhook({
        name: 'Before the upgrade',
        url: 'http://127.0.0.1:9/',
        event_types: ['bundle_sent', 'bundle_cancelled'],
        enabled: true,
      });
      await seed(e6);
      // The engine ran the later migrations; take the schema back to the old shape, keeping what was written.
      const v6 = new Database(':memory:');
      for (const m of MIGRATIONS.slice(0, 6)) v6.exec(m);
      const keep = new Set(v6.prepare('SELECT sql FROM sqlite_master WHERE sql IS NOT NULL').pluck().all() as string[]);
      // Every table, index, trigger and view the later migrations added (a virtual table's own tables go with it).
      const added = e6.db
        .prepare(`SELECT type, name, sql FROM sqlite_master m WHERE sql LIKE 'CREATE VIRTUAL%' OR NOT EXISTS (
        SELECT 1 FROM sqlite_master v, json_each('["data", "idx", "content", "docsize", "config"]') x
        WHERE v.sql LIKE 'CREATE VIRTUAL%' AND m.name = v.name || '_' || x.value)`)
        .all() as { type: string; name: string; sql: string | null }[];
      // Objects migration 7 added, or replaced under the same name (the covering order indexes); a
      // table of migrations 1-6 that a later one gave columns (ALTER TABLE ADD COLUMN) loses them
      // instead, keeping its rows.
      // Triggers first, tables last (an index on a column must go before the column).
      const rank = (type: string) => (type === 'trigger' ? 0 : type === 'table' ? 2 : 1);
      const v6Columns = (table: string) =>
        v6.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[];
      for (const o of added
        .filter((x) => x.sql !== null && !keep.has(x.sql))
        .sort((a, b) => rank(a.type) - rank(b.type))) {
        const before = o.type === 'table' ? v6Columns(o.name) : [];
        if (!before.length) e6.db.exec(`DROP ${o.type.toUpperCase()} IF EXISTS "${o.name}"`);
        else
          for (const c of e6.db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(o.name) as string[])
            if (!before.includes(c)) e6.db.exec(`ALTER TABLE "${o.name}" DROP COLUMN "${c}"`);
      }
      for (const sqlText of v6.prepare(`SELECT sql FROM sqlite_master WHERE sql IS NOT NULL`).pluck().all() as string[])
        if (!e6.db.prepare('SELECT 1 FROM sqlite_master WHERE sql = ?').get(sqlText)) e6.db.exec(sqlText);
      e6.db.pragma('user_version = 6');
      expect(e6.db.prepare(`SELECT count(*) FROM sqlite_master WHERE name LIKE 'bundle_search%'`).pluck().get()).toBe(
        0,
      );
      await e6.close();

      const e = new LocalEngine({ dataDir: dir });
      expect(e.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      for (const search of ['josé', 'É', '555) 010', 'a_b', '%', 'moved@new', 'nothing at all'])
        expect((await listed(e, { search })).ids, search).toEqual(await plainScan(e, { search }));
      expectCountsOfScan(e);
      expect(
        e.db
          .prepare('SELECT webhook_id, day, success, n FROM webhook_event_day_counts WHERE n <> 0 ORDER BY 1, 2, 3')
          .all(),
      ).toEqual(
        e.db
          .prepare(
            'SELECT webhook_id, substr(created, 1, 10) AS day, success, count(*) AS n FROM webhook_events GROUP BY 1, 2, 3 ORDER BY 1, 2, 3',
          )
          .all(),
      );
      expect(e.db.prepare('SELECT count(*) FROM webhook_events').pluck().get()).toBeGreaterThan(0);
      expect(e.db.prepare(`SELECT value FROM meta WHERE key = 'bundles_dated_before_created'`).pluck().get()).toBe(
        String(
          e.db.prepare('SELECT count(*) FROM bundles WHERE sent < created OR completed_at < created').pluck().get(),
        ),
      );
      for (const q of [
        {},
        { status: 'se' },
        { status__in: 'dr,ca' },
        { tag: 'ci' },
        { sent_after: '2024-03-05' },
        { status__in: 'se,co', created_before: '2024-03-04' },
      ] as Query[]) {
        const got = await listed(e, q);
        expect(got.ids).toEqual(await plainScan(e, q));
        expect([...got.totals]).toEqual([got.ids.length]);
      }
      // Writes after the upgrade are indexed too.
      const made = await e.createBundle(bundleRequest({ label: 'After the upgrade' }));
      expect((await e.listBundles({ search: 'AFTER THE' })).items.map((b) => b.id)).toEqual([made.id]);
      await e.close();
    } finally {
      cleanup();
    }
  });
});

describe('Persons search through its index', () => {
  it('equals a scan of names, emails and phones, and of the digits of phones, through changes', async () => {
    const { dir, cleanup } = tempDir();
    const e = new LocalEngine({ dataDir: dir });
    try {
      const people = [
        { name: 'José Ñúñez', channels: [{ email: 'jose@ecoles.test' }, { phone: '+1 (555) 010-2030' }] },
        { name: 'RENÉE Zoë', channels: [{ email: 'renee_z@example.com' }] },
        { name: 'Ada 50% Lovelace', channels: [{ phone: '+1 555.010.9999' }, { email: 'ada+x@example.com' }] },
        { name: 'Bob "Q" Byron', channels: [] },
      ];
      const made = [];
      for (const p of people) made.push(await e.createPerson(p));
      await e.updatePerson(made[3].id, { channels: [{ phone: '+44 20 7946 0018' }] });
      await e.updatePerson(made[1].id, { name: 'Renée Moved' });
      const gone = await e.createPerson({ name: 'Gone Person', channels: [{ email: 'gone@example.com' }] });
      await e.deletePerson(gone.id);
      const digits = (v: string) => (/^[+\d]+$/.test(v.replace(/[ \-.()]/g, '')) ? v.replace(/[ \-.()]/g, '') : '');
      // Made in order, the index pages in its own order; then one Person's date goes back, and lists sort.
      for (const inOrder of [true, false]) {
        if (!inOrder)
          e.db.prepare(`UPDATE persons SET created = '2020-01-01T00:00:00.000Z' WHERE id = ?`).run(made[2].id);
        expect(e.db.prepare(`SELECT value FROM meta WHERE key = 'persons_out_of_order'`).pluck().get() === '0').toBe(
          inOrder,
        );
        const all = (await e.listPersons({ per_page: 100 })).items;
        const scan = (s: string) =>
          all
            .filter((p) => {
              const l = s.toLowerCase();
              const fields = [p.name, ...p.channels.map((c) => c.email ?? c.phone ?? '')];
              return (
                fields.some((f) => f.toLowerCase().includes(l)) ||
                (digits(s) !== '' && p.channels.some((c) => c.phone?.replace(/[ \-.()]/g, '').includes(digits(s))))
              );
            })
            .map((p) => p.id);
        // Sets read whole in one pass, and (max 1) counted on from the first key, with pages beyond it read on their own.
        for (const few of [FEW_KEYS_DEFAULT, 1])
          for (const s of [
            'josé',
            'JOSÉ',
            'renée',
            'moved',
            'zoë',
            '50%',
            '(555)',
            '555) 010',
            '5550102',
            '010-2030',
            '7946 00',
            '79460018',
            '"q"',
            'example.com',
            'gone',
            'ada+x',
            'ÑÚÑ',
            'nobody here',
            'jo',
            'É',
            '\u0000',
            'jos\u0000é',
          ])
            for (const perPage of [100, 1]) {
              fewKeys.max = few;
              const got: string[] = [];
              for (let page = 1; ; page++) {
                const p = await e.listPersons({ search: s, per_page: perPage, page });
                got.push(...p.items.map((x) => x.id));
                expect(p.total, s).toBe(scan(s).length);
                if (page >= p.total_pages) break;
              }
              expect(got, `${s} (${perPage} a page)`).toEqual(scan(s));
            }
      }
      expect((await e.listPersons({})).total).toBe(e.db.prepare('SELECT count(*) FROM persons').pluck().get());
      expect((await e.listPersons({ phone: '+442079460018' })).items.map((p) => p.id)).toEqual([made[3].id]);
      expect((await e.listPersons({ email: 'JOSE@ecoles.test' })).items.map((p) => p.id)).toEqual([made[0].id]);
    } finally {
      fewKeys.max = FEW_KEYS_DEFAULT;
      await e.close();
      cleanup();
    }
  });
});

describe('webhook event and delivery lists', () => {
  it('count from their tables of counts and page from their own indexes, as a scan does, through deliveries and deletes', async () => {
    const { dir, cleanup } = tempDir();
    const e = new LocalEngine({ dataDir: dir });
    let posts = 0;
    const receiver = createServer((req, res) =>
      req.resume().on('end', () => res.writeHead(++posts % 3 ? 200 : 500).end()),
    );
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
      const hooks: { id: string }[] = [];
      for (const name of ['one', 'two'])
        hooks.push(
          await e.createWebhook({ name, url, event_types: ['bundle_sent', 'bundle_cancelled'], enabled: true }),
        );
      for (let i = 0; i < 7; i++) {
        const b = await e.createBundle(bundleRequest({ label: `W${i}` }));
        if (i % 2) await e.cancelBundle(b.id);
      }
      await e.deliverWebhooks();
      // Events spread over days (a trigger moves their counts), two of them on a range's last day.
      e.db
        .prepare(`UPDATE webhook_events SET created = CASE seq % 4 WHEN 0 THEN '2024-02-01T23:59:59.999Z' WHEN 1 THEN '2024-02-02T00:00:00.000Z'
        WHEN 2 THEN '2024-02-03T12:00:00.000Z' ELSE created END`)
        .run();
      const check = async () => {
        const events = e.db
          .prepare('SELECT pk, success, webhook_id, created FROM webhook_events ORDER BY created DESC, seq DESC')
          .all() as { pk: string; success: number; webhook_id: string; created: string }[];
        const attempts = e.db
          .prepare('SELECT pk, status FROM webhook_deliveries ORDER BY timestamp DESC, seq DESC')
          .all() as { pk: string; status: number }[];
        const all = async (op: 'listWebhookEvents' | 'listWebhookDeliveries', q: Record<string, unknown>) => {
          const out: string[] = [];
          for (let page = 1; ; page++) {
            const p = await e[op]({ ...q, page, per_page: 4 });
            out.push(...p.items.map((x) => x.pk));
            if (page >= p.total_pages) return { pks: out, total: p.total };
          }
        };
        for (const success of [undefined, true, false]) {
          const want = events.filter((x) => success === undefined || x.success === (success ? 1 : 0)).map((x) => x.pk);
          expect(
            await all('listWebhookEvents', success === undefined ? {} : { success }),
            `success=${success}`,
          ).toEqual({ pks: want, total: want.length });
        }
        // A webhook, success and dates, alone and together: counted from the counts per day.
        for (const webhook of [undefined, hooks[1].id])
          for (const success of [undefined, false])
            for (const [after, before] of [
              [undefined, undefined],
              ['2024-02-02', undefined],
              [undefined, '2024-02-02'],
              ['2024-02-02', '2024-02-03'],
            ]) {
              const q = { webhook, success, after_date: after, before_date: before };
              const want = events
                .filter(
                  (x) =>
                    (webhook === undefined || x.webhook_id === webhook) &&
                    (success === undefined || x.success === 0) &&
                    (!after || x.created.slice(0, 10) >= after) &&
                    (!before || x.created.slice(0, 10) <= before),
                )
                .map((x) => x.pk);
              expect(await all('listWebhookEvents', q), JSON.stringify(q)).toEqual({ pks: want, total: want.length });
            }
        for (const status of [undefined, 200, 500]) {
          const want = attempts.filter((x) => status === undefined || x.status === status).map((x) => x.pk);
          expect(
            await all('listWebhookDeliveries', status === undefined ? {} : { status }),
            `status=${status}`,
          ).toEqual({ pks: want, total: want.length });
        }
        return { events: events.length, attempts: attempts.length };
      };
      const before = await check();
      expect(before.attempts).toBeGreaterThan(0);
      // An hour on, the failed attempts are retried: some events change from failed to delivered.
      e.db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('clock_offset_ms', ?)`).run(String(3_600_000));
      await e.deliverWebhooks();
      expect((await check()).attempts).toBeGreaterThan(before.attempts);
      await e.deleteWebhook(hooks[0].id);
      const after = await check();
      expect(after.events).toBeLessThan(before.events);
    } finally {
      await e.close();
      await new Promise((r) => receiver.close(r));
      cleanup();
    }
  });
});
