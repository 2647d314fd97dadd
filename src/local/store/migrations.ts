// Numbered, forward-only schema migrations. A migration is never edited once released:
// a change to the schema is a new entry at the end (test/engine/migrations-released.test.ts holds
// each released one by its hash).
/**
 * A table of counts kept by triggers (for migration 11 on; the text of released migrations never
 * changes): the rows of `source` counted per value of `key`, column by column, among the rows where
 * `when` holds. In `key` and `when`, `$` stands for the row (`new.`, `old.`, or nothing in the
 * backfill). The update trigger moves a row's count when a `watched` column changes.
 */
function keptCounts(
  name: string,
  o: { counts: string; source: string; key: Record<string, string>; when?: string; watched: string[] },
): string {
  const row = (r: 'new.' | 'old.' | '') => (sql: string) => sql.replace(/\$/g, r);
  const columns = Object.keys(o.key).join(', ');
  const values = (r: 'new.' | 'old.' | '') => Object.values(o.key).map(row(r)).join(', ');
  const when = (r: 'new.' | 'old.' | '') => (o.when ? row(r)(o.when) : 'true');
  const add = `INSERT INTO ${o.counts} (${columns}, n) SELECT ${values('new.')}, 1 WHERE ${when('new.')} ON CONFLICT DO UPDATE SET n = n + 1;`;
  const take = `UPDATE ${o.counts} SET n = n - 1 WHERE ${Object.entries(o.key)
    .map(([c, v]) => `${c} = ${row('old.')(v)}`)
    .join(' AND ')} AND ${when('old.')};`;
  return `
  INSERT INTO ${o.counts} (${columns}, n) SELECT ${values('')}, count(*) FROM ${o.source} WHERE ${when('')} GROUP BY ${Object.keys(
    o.key,
  )
    .map((_, i) => i + 1)
    .join(', ')};
  CREATE TRIGGER ${name}_insert AFTER INSERT ON ${o.source} BEGIN ${add} END;
  CREATE TRIGGER ${name}_delete AFTER DELETE ON ${o.source} BEGIN ${take} END;
  CREATE TRIGGER ${name}_update AFTER UPDATE OF ${o.watched.join(', ')} ON ${o.source}
  WHEN ${o.watched.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ')} BEGIN ${take} ${add} END;`;
}

/** A Bundle's search text (migrations 10 and 13): its slug, label, custom_key, then each signer's name, email and phone, each ended by U+001F. */
const SEARCH_TEXT = `b.id || char(31) || b.label || char(31) || coalesce(b.custom_key, '') || char(31) || coalesce((
      SELECT group_concat(p.name || char(31) || coalesce(p.email, '') || char(31) || coalesce(p.phone, '') || char(31), '' ORDER BY p.idx)
      FROM packets p WHERE p.bundle_seq = b.seq), '')`;

/** SEARCH_TEXT since migration 22: each signer's phone also in its E.164 form, as phone search reads it. */
const SEARCH_TEXT_PHONES = `b.id || char(31) || b.label || char(31) || coalesce(b.custom_key, '') || char(31) || coalesce((
      SELECT group_concat(p.name || char(31) || coalesce(p.email, '') || char(31) || coalesce(p.phone, '') || char(31)
        || coalesce(esign_phone(p.phone) || char(31), ''), '' ORDER BY p.idx)
      FROM packets p WHERE p.bundle_seq = b.seq), '')`;

/** The triggers migration 15 merges (one per table of counts and event on `bundles` and `bundle_tags`). */
const DROPPED_TRIGGERS = [
  'bundle_counts_insert',
  'bundle_counts_delete',
  'bundle_counts_update',
  'bundle_search_update',
  'bundle_search_delete',
  'bundles_out_of_order',
  'bundles_created_changed',
  'bundle_day_counts_created_insert',
  'bundle_day_counts_created_delete',
  'bundle_day_counts_created_update',
  'bundle_day_counts_sent_insert',
  'bundle_day_counts_sent_delete',
  'bundle_day_counts_sent_update',
  'bundle_day_counts_completed_at_insert',
  'bundle_day_counts_completed_at_delete',
  'bundle_day_counts_completed_at_update',
  'bundles_dated_before_created',
  'bundles_dated_before_created_update',
  'bundle_tag_day_counts_created',
  'bundle_tag_day_counts_sent',
  'bundle_tag_day_counts_completed_at',
  'bundle_search_status',
  'bundle_date_pairs_sent_insert',
  'bundle_date_pairs_sent_delete',
  'bundle_date_pairs_sent_update',
  'bundle_date_pairs_completed_at_insert',
  'bundle_date_pairs_completed_at_delete',
  'bundle_date_pairs_completed_at_update',
  'bundle_tag_counts_insert',
  'bundle_tag_counts_delete',
  'bundle_tag_counts_update',
  'bundle_tag_pairs_off',
  'bundle_tag_pairs_insert',
  'bundle_tag_pairs_delete',
  'bundle_tag_pairs_update',
  'bundle_tag_day_counts_insert',
  'bundle_tag_day_counts_delete',
  'bundle_tag_day_counts_update',
] as const;

/**
 * Migration 15: the counts of `bundles` and `bundle_tags` kept by one trigger per table and event
 * instead of one per table of counts and event (38 triggers become 6, the tables and what they hold
 * unchanged). Each statement keeps its old trigger's condition as a WHERE: a change of the columns it
 * watches. A create runs one trigger program instead of eight.
 */
const DAY = (row: 'new' | 'old', col: string) => `substr(${row}.${col}, 1, 10)`;
const DATES = ['created', 'sent', 'completed_at'] as const;
const PAIRED = ['sent', 'completed_at'] as const;
/** The date is set: always for `created`. */
const dated = (row: 'new' | 'old', f: string) => (f === 'created' ? 'true' : `${row}.${f} IS NOT NULL`);
const changed = (...cols: string[]) => `(${cols.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ')})`;
const dayAdd = (f: string, when: string) => `INSERT INTO bundle_day_counts (field, day, status, n)
      SELECT '${f}', ${DAY('new', f)}, new.status, 1 WHERE ${dated('new', f)} AND ${when} ON CONFLICT DO UPDATE SET n = n + 1;`;
const dayTake = (f: string, when: string) => `UPDATE bundle_day_counts SET n = n - 1
      WHERE field = '${f}' AND day = ${DAY('old', f)} AND status = old.status AND ${dated('old', f)} AND ${when};`;
const pairAdd = (f: string, when: string) => `INSERT INTO bundle_date_pairs (field, day, created_day, status, n)
      SELECT '${f}', ${DAY('new', f)}, ${DAY('new', 'created')}, new.status, 1 WHERE new.${f} IS NOT NULL AND ${when} ON CONFLICT DO UPDATE SET n = n + 1;`;
const pairTake = (f: string, when: string) => `UPDATE bundle_date_pairs SET n = n - 1
      WHERE field = '${f}' AND day = ${DAY('old', f)} AND created_day = ${DAY('old', 'created')} AND status = old.status AND old.${f} IS NOT NULL AND ${when};`;
/** A tag's counts per day (migration 12) as a row of `bundle_tags` comes and goes (migrations 15, 16). */
const TAG_DAYS_ADD = `INSERT INTO bundle_tag_day_counts (tag, field, day, n) SELECT new.tag, field, day, 1 FROM bundle_days WHERE seq = new.bundle_seq
      ON CONFLICT DO UPDATE SET n = n + 1;`;
const TAG_DAYS_TAKE = `UPDATE bundle_tag_day_counts SET n = n - 1 WHERE (tag, field, day) IN (SELECT old.tag, field, day FROM bundle_days WHERE seq = old.bundle_seq);`;
/** The counts per day of a Bundle's tags, as its dates move (migrations 15, 16). */
const TAG_DAYS_MOVED = DATES.map(
  (f) => `UPDATE bundle_tag_day_counts SET n = n - 1
      WHERE field = '${f}' AND day = ${DAY('old', f)} AND tag IN (SELECT tag FROM bundle_tags WHERE bundle_seq = old.seq) AND ${changed(f)};
    INSERT INTO bundle_tag_day_counts (tag, field, day, n)
      SELECT tag, '${f}', ${DAY('new', f)}, 1 FROM bundle_tags WHERE bundle_seq = new.seq AND new.${f} IS NOT NULL AND ${changed(f)}
      ON CONFLICT DO UPDATE SET n = n + 1;`,
).join('\n    ');
/** What a Bundle's update does to the counts per status, the search index and the meta flags (migrations 15, 16). */
const BUNDLE_UPDATED = `UPDATE bundle_counts SET n = n - 1 WHERE status = old.status AND ${changed('status')};
    INSERT INTO bundle_counts (status, n) SELECT new.status, 1 WHERE ${changed('status')} ON CONFLICT (status) DO UPDATE SET n = n + 1;
    UPDATE bundle_search SET status = '_' || new.status WHERE rowid = new.seq AND ${changed('status')};
    UPDATE bundle_search SET text = (SELECT text FROM bundle_search_rows WHERE seq = new.seq)
      WHERE rowid = new.seq AND ${changed('id', 'label', 'custom_key')};
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'bundles_out_of_order' AND ${changed('created')};
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'bundles_dated_before_created'
      AND ${changed('created', 'sent', 'completed_at')} AND (new.sent < new.created OR new.completed_at < new.created);`;
const PAIRS_KEPT = `(SELECT value FROM meta WHERE key = 'bundle_tag_pairs_off') = '0'`;
const COUNTS_TRIGGERS = `
  ${[...DROPPED_TRIGGERS].map((t) => `DROP TRIGGER ${t};`).join(' ')}

  CREATE TRIGGER bundles_insert_counts AFTER INSERT ON bundles BEGIN
    INSERT INTO bundle_counts (status, n) VALUES (new.status, 1) ON CONFLICT (status) DO UPDATE SET n = n + 1;
    UPDATE meta SET value = CAST(value AS INTEGER) + 1
      WHERE key = 'bundles_out_of_order' AND new.created < (SELECT created FROM bundles WHERE seq < new.seq ORDER BY seq DESC LIMIT 1);
    UPDATE meta SET value = CAST(value AS INTEGER) + 1
      WHERE key = 'bundles_dated_before_created' AND (new.sent < new.created OR new.completed_at < new.created);
    ${DATES.map((f) => dayAdd(f, 'true')).join('\n    ')}
    ${PAIRED.map((f) => pairAdd(f, 'true')).join('\n    ')}
  END;
  CREATE TRIGGER bundles_delete_counts AFTER DELETE ON bundles BEGIN
    UPDATE bundle_counts SET n = n - 1 WHERE status = old.status;
    DELETE FROM bundle_search WHERE rowid = old.seq;
    DELETE FROM bundle_search_pending WHERE seq = old.seq;
    ${DATES.map((f) => dayTake(f, 'true')).join('\n    ')}
    ${PAIRED.map((f) => pairTake(f, 'true')).join('\n    ')}
  END;
  CREATE TRIGGER bundles_update_counts AFTER UPDATE OF status, created, sent, completed_at, id, label, custom_key ON bundles BEGIN
    ${BUNDLE_UPDATED}
    ${DATES.map((f) => `${dayTake(f, changed(f, 'status'))}\n    ${dayAdd(f, changed(f, 'status'))}`).join('\n    ')}
    ${PAIRED.map((f) => `${pairTake(f, changed(f, 'created', 'status'))}\n    ${pairAdd(f, changed(f, 'created', 'status'))}`).join('\n    ')}
    ${TAG_DAYS_MOVED}
  END;

  CREATE TRIGGER bundle_tags_insert_counts AFTER INSERT ON bundle_tags BEGIN
    INSERT INTO bundle_tag_counts (tag, n) VALUES (new.tag, 1) ON CONFLICT DO UPDATE SET n = n + 1;
    INSERT INTO bundle_tag_pairs (tag, other, n)
      SELECT min(new.tag, t.tag), max(new.tag, t.tag), 1 FROM bundle_tags t WHERE t.bundle_seq = new.bundle_seq AND t.tag <> new.tag AND ${PAIRS_KEPT}
      ON CONFLICT DO UPDATE SET n = n + 1;
    UPDATE meta SET value = '1' WHERE key = 'bundle_tag_pairs_off' AND (SELECT count(*) FROM bundle_tags WHERE bundle_seq = new.bundle_seq) > 16;
    ${TAG_DAYS_ADD}
  END;
  CREATE TRIGGER bundle_tags_delete_counts AFTER DELETE ON bundle_tags BEGIN
    UPDATE bundle_tag_counts SET n = n - 1 WHERE tag = old.tag;
    UPDATE bundle_tag_pairs SET n = n - 1 WHERE ${PAIRS_KEPT}
      AND (tag, other) IN (SELECT min(old.tag, t.tag), max(old.tag, t.tag) FROM bundle_tags t WHERE t.bundle_seq = old.bundle_seq AND t.tag <> old.tag);
    ${TAG_DAYS_TAKE}
  END;
  CREATE TRIGGER bundle_tags_update_counts AFTER UPDATE OF tag, bundle_seq ON bundle_tags BEGIN
    UPDATE bundle_tag_counts SET n = n - 1 WHERE tag = old.tag AND ${changed('tag')};
    INSERT INTO bundle_tag_counts (tag, n) SELECT new.tag, 1 WHERE ${changed('tag')} ON CONFLICT DO UPDATE SET n = n + 1;
    UPDATE bundle_tag_pairs SET n = n - 1 WHERE ${PAIRS_KEPT} AND (tag, other) IN (
      SELECT min(old.tag, t.tag), max(old.tag, t.tag) FROM bundle_tags t WHERE t.bundle_seq = old.bundle_seq AND t.tag <> old.tag AND t.rowid <> new.rowid);
    INSERT INTO bundle_tag_pairs (tag, other, n)
      SELECT min(new.tag, t.tag), max(new.tag, t.tag), 1 FROM bundle_tags t WHERE t.bundle_seq = new.bundle_seq AND t.tag <> new.tag AND ${PAIRS_KEPT}
      ON CONFLICT DO UPDATE SET n = n + 1;
    ${TAG_DAYS_TAKE}
    ${TAG_DAYS_ADD}
  END;
`;

/**
 * Migration 16: the counts per day and status (`bundle_day_counts`), per pair of days
 * (`bundle_date_pairs`) and per pair of tags (`bundle_tag_pairs`) are dropped, with what their triggers
 * did: measured at 1,000,000 Bundles, the lists they served meet their targets by counting in the
 * covering indexes (docs/benchmarks.md, Lists at scale). A tag's counts per day stay: without them, a deep page of a
 * tag in a date's order walks that date's index testing each Bundle for the tag (the last page of a tag
 * of a third of 100,000 Bundles, in `-sent` order: 35.6 ms of CPU, against 1.5 ms with them).
 */
const DAY_COUNTS_DROPPED = `
  DROP TRIGGER bundles_insert_counts;
  DROP TRIGGER bundles_delete_counts;
  DROP TRIGGER bundles_update_counts;
  DROP TRIGGER bundle_tags_insert_counts;
  DROP TRIGGER bundle_tags_delete_counts;
  DROP TRIGGER bundle_tags_update_counts;
  DROP TABLE bundle_day_counts;
  DROP TABLE bundle_date_pairs;
  DROP TABLE bundle_tag_pairs;
  DELETE FROM meta WHERE key = 'bundle_tag_pairs_off';

  CREATE TRIGGER bundles_insert_counts AFTER INSERT ON bundles BEGIN
    INSERT INTO bundle_counts (status, n) VALUES (new.status, 1) ON CONFLICT (status) DO UPDATE SET n = n + 1;
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'bundles_out_of_order'
      AND new.created < (SELECT created FROM bundles WHERE seq < new.seq ORDER BY seq DESC LIMIT 1);
    UPDATE meta SET value = CAST(value AS INTEGER) + 1
      WHERE key = 'bundles_dated_before_created' AND (new.sent < new.created OR new.completed_at < new.created);
  END;
  CREATE TRIGGER bundles_delete_counts AFTER DELETE ON bundles BEGIN
    UPDATE bundle_counts SET n = n - 1 WHERE status = old.status;
    DELETE FROM bundle_search WHERE rowid = old.seq;
    DELETE FROM bundle_search_pending WHERE seq = old.seq;
  END;
  CREATE TRIGGER bundles_update_counts AFTER UPDATE OF status, created, sent, completed_at, id, label, custom_key
  ON bundles BEGIN
    ${BUNDLE_UPDATED}
    ${TAG_DAYS_MOVED}
  END;

  CREATE TRIGGER bundle_tags_insert_counts AFTER INSERT ON bundle_tags BEGIN
    INSERT INTO bundle_tag_counts (tag, n) VALUES (new.tag, 1) ON CONFLICT DO UPDATE SET n = n + 1;
    ${TAG_DAYS_ADD}
  END;
  CREATE TRIGGER bundle_tags_delete_counts AFTER DELETE ON bundle_tags BEGIN
    UPDATE bundle_tag_counts SET n = n - 1 WHERE tag = old.tag;
    ${TAG_DAYS_TAKE}
  END;
  CREATE TRIGGER bundle_tags_update_counts AFTER UPDATE OF tag, bundle_seq ON bundle_tags BEGIN
    UPDATE bundle_tag_counts SET n = n - 1 WHERE tag = old.tag AND ${changed('tag')};
    INSERT INTO bundle_tag_counts (tag, n) SELECT new.tag, 1 WHERE ${changed('tag')} ON CONFLICT DO UPDATE SET n = n + 1;
    ${TAG_DAYS_TAKE}
    ${TAG_DAYS_ADD}
  END;
`;

export const MIGRATIONS: readonly string[] = [
  // 1: account, bundles, packets, documents, events, outbox
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE account (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    requester_name TEXT NOT NULL,
    requester_email TEXT NOT NULL,
    features TEXT NOT NULL,
    public_url TEXT NOT NULL
  );
  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name TEXT NOT NULL,
    verified INTEGER NOT NULL,
    is_admin INTEGER NOT NULL,
    created TEXT NOT NULL
  );
  CREATE TABLE teams (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    requester_name TEXT,
    requester_email TEXT,
    created TEXT NOT NULL
  );
  CREATE TABLE signing_brands (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    redirect_url TEXT,
    created TEXT NOT NULL
  );
  CREATE TABLE persons (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    metadata TEXT NOT NULL DEFAULT '{}',
    is_user INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL
  );
  CREATE TABLE person_channels (
    id TEXT PRIMARY KEY,
    person_id TEXT NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    email TEXT,
    phone TEXT
  );
  CREATE INDEX person_channels_person ON person_channels(person_id);

  CREATE TABLE blobs (
    sha256 TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    pages INTEGER NOT NULL,
    created TEXT NOT NULL
  );

  CREATE TABLE bundles (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    doc_status TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    custom_key TEXT,
    is_test INTEGER NOT NULL,
    in_order INTEGER NOT NULL,
    team TEXT,
    owner TEXT,
    signing_brand TEXT,
    template TEXT,
    created TEXT NOT NULL,
    sent TEXT,
    completed_at TEXT,
    expires TEXT,
    attrs TEXT NOT NULL,
    errors TEXT NOT NULL DEFAULT '[]'
  );
  CREATE INDEX bundles_created ON bundles(created);
  CREATE INDEX bundles_status ON bundles(status, created);
  CREATE INDEX bundles_custom_key ON bundles(custom_key);

  CREATE TABLE packets (
    id TEXT PRIMARY KEY,
    bundle_seq INTEGER NOT NULL REFERENCES bundles(seq) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    email TEXT,
    phone TEXT,
    person_id TEXT,
    deliver_via TEXT NOT NULL,
    ord INTEGER NOT NULL,
    status TEXT NOT NULL,
    completed_at TEXT,
    last_accessed_at TEXT,
    last_reminded_at TEXT,
    attrs TEXT NOT NULL
  );
  CREATE INDEX packets_bundle ON packets(bundle_seq, idx);

  CREATE TABLE documents (
    bundle_seq INTEGER NOT NULL REFERENCES bundles(seq) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    source_url TEXT,
    template_id TEXT,
    sha256 TEXT REFERENCES blobs(sha256),
    state TEXT NOT NULL,
    lease_until TEXT,
    spec TEXT NOT NULL,
    PRIMARY KEY (bundle_seq, idx)
  );
  CREATE INDEX documents_pending ON documents(state) WHERE state = 'pending';

  CREATE TABLE field_values (
    bundle_seq INTEGER NOT NULL REFERENCES bundles(seq) ON DELETE CASCADE,
    doc_key TEXT NOT NULL,
    field_key TEXT NOT NULL,
    value TEXT NOT NULL,
    filled_by TEXT NOT NULL,
    packet_id TEXT,
    PRIMARY KEY (bundle_seq, doc_key, field_key)
  );

  CREATE TABLE bundle_tags (
    bundle_seq INTEGER NOT NULL REFERENCES bundles(seq) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (bundle_seq, tag)
  );
  CREATE INDEX bundle_tags_tag ON bundle_tags(tag);

  CREATE TABLE bundle_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    bundle_seq INTEGER NOT NULL REFERENCES bundles(seq) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    description TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    packet_id TEXT
  );
  CREATE INDEX bundle_events_bundle ON bundle_events(bundle_seq, id);

  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    channel TEXT NOT NULL,
    kind TEXT NOT NULL,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    bundle_id TEXT,
    packet_id TEXT
  );
  CREATE INDEX outbox_bundle ON outbox(bundle_id);

  CREATE TABLE links (
    token_hash TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    created TEXT NOT NULL,
    expires TEXT NOT NULL,
    used_at TEXT
  );
  `,
  // 2: API keys for `esign serve` (only a hash of each key is kept)
  `
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    prefix TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at TEXT
  );
  `,
  // 3: signing, evidence and time: produced files, attachments, reminder bookkeeping, expiry index
  `
  ALTER TABLE packets ADD COLUMN notified_at TEXT;
  ALTER TABLE packets ADD COLUMN auto_reminders INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE packets ADD COLUMN next_reminder_at TEXT;
  CREATE INDEX packets_next_reminder ON packets(next_reminder_at) WHERE next_reminder_at IS NOT NULL;
  ALTER TABLE bundles ADD COLUMN evidence_lease TEXT;
  CREATE INDEX bundles_expires ON bundles(expires) WHERE expires IS NOT NULL;
  CREATE INDEX bundles_evidence ON bundles(doc_status) WHERE doc_status = 'pe';

  CREATE TABLE produced_files (
    bundle_seq INTEGER NOT NULL REFERENCES bundles(seq) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    ref TEXT NOT NULL,
    name TEXT NOT NULL,
    sha256 TEXT NOT NULL REFERENCES blobs(sha256),
    created TEXT NOT NULL,
    PRIMARY KEY (bundle_seq, kind, ref)
  );
  CREATE INDEX produced_files_sha256 ON produced_files(sha256);

  CREATE TABLE field_attachments (
    bundle_seq INTEGER NOT NULL REFERENCES bundles(seq) ON DELETE CASCADE,
    doc_key TEXT NOT NULL,
    field_key TEXT NOT NULL,
    num INTEGER NOT NULL,
    name TEXT NOT NULL,
    ext TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL REFERENCES blobs(sha256),
    PRIMARY KEY (bundle_seq, doc_key, field_key, num)
  );
  `,
  // 4: whether esign serve may fetch file_url documents from private and loopback addresses
  `
  ALTER TABLE account ADD COLUMN allow_private_urls INTEGER NOT NULL DEFAULT 0;
  `,
  // 5: Document Templates, Envelope Templates, webhooks and their outbox of events and delivery attempts
  `
  CREATE TABLE templates (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    is_shared INTEGER NOT NULL DEFAULT 0,
    library TEXT,
    sha256 TEXT NOT NULL REFERENCES blobs(sha256),
    filename TEXT NOT NULL,
    roles TEXT NOT NULL,
    fields TEXT NOT NULL,
    metadata TEXT NOT NULL DEFAULT '{}',
    teams TEXT NOT NULL DEFAULT '[]',
    created TEXT NOT NULL,
    updated TEXT NOT NULL
  );
  CREATE INDEX bundles_template ON bundles(template, created) WHERE template IS NOT NULL;

  CREATE TABLE envelope_templates (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    is_shared INTEGER NOT NULL DEFAULT 0,
    is_portal INTEGER NOT NULL DEFAULT 0,
    allow_direct_signing INTEGER NOT NULL DEFAULT 0,
    enabled INTEGER NOT NULL DEFAULT 1,
    spec TEXT NOT NULL,
    created TEXT NOT NULL
  );

  CREATE TABLE webhooks (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    enabled INTEGER NOT NULL DEFAULT 1,
    json INTEGER NOT NULL DEFAULT 1,
    event_types TEXT NOT NULL,
    failed_in_a_row INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL
  );
  CREATE TABLE webhook_headers (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    ord INTEGER NOT NULL DEFAULT 1,
    created TEXT NOT NULL
  );
  CREATE INDEX webhook_headers_webhook ON webhook_headers(webhook_id, ord, seq);

  CREATE TABLE webhook_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    pk TEXT NOT NULL UNIQUE,
    webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_type TEXT NOT NULL,
    created TEXT NOT NULL,
    payload TEXT NOT NULL,
    bundle_id TEXT,
    packet_id TEXT,
    status INTEGER NOT NULL DEFAULT 0,
    success INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    lease_until TEXT
  );
  CREATE INDEX webhook_events_due ON webhook_events(next_attempt_at) WHERE next_attempt_at IS NOT NULL;
  CREATE INDEX webhook_events_webhook ON webhook_events(webhook_id, seq);
  CREATE INDEX webhook_events_created ON webhook_events(created);

  CREATE TABLE webhook_deliveries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    pk TEXT NOT NULL UNIQUE,
    event_seq INTEGER NOT NULL REFERENCES webhook_events(seq) ON DELETE CASCADE,
    timestamp TEXT NOT NULL,
    status INTEGER NOT NULL,
    success INTEGER NOT NULL,
    message TEXT NOT NULL
  );
  CREATE INDEX webhook_deliveries_event ON webhook_deliveries(event_seq, seq);
  `,
  // 6: Bundles by any of their template documents (the `template` list filter)
  `
  CREATE INDEX documents_template ON documents(template_id) WHERE template_id IS NOT NULL;
  `,
  // 7: lists and search at scale. `bundle_search` is an FTS5 trigram index for substring search: one
  // row for a Bundle's slug, label and custom_key (rowid seq * 2^20) and one per signer with its name,
  // email and phone (rowid seq * 2^20 + idx + 1), each field followed by U+001F, so that every
  // character of a field starts a trigram and two-character searches can be found from the index's
  // terms (`bundle_search_terms`); triggers keep it in step with every write, each a single insert or
  // update. `bundle_counts` keeps the number of Bundles per status so that unfiltered and status-only
  // lists count without walking rows. The order indexes cover the filters (seq is the rowid) so that a
  // page is found in the index alone, walking it in order.
  `
  CREATE VIRTUAL TABLE bundle_search USING fts5(text, tokenize = 'trigram case_sensitive 0', columnsize = 0);
  CREATE VIRTUAL TABLE bundle_search_terms USING fts5vocab(bundle_search, row);
  INSERT INTO bundle_search (rowid, text)
    SELECT rowid, text FROM (
      SELECT seq * 1048576 AS rowid, id || char(31) || label || char(31) || coalesce(custom_key, '') || char(31) AS text FROM bundles
      UNION ALL
      SELECT bundle_seq * 1048576 + idx + 1, name || char(31) || coalesce(email, '') || char(31) || coalesce(phone, '') || char(31) FROM packets
    ) ORDER BY rowid;

  CREATE TRIGGER bundle_search_insert AFTER INSERT ON bundles BEGIN
    INSERT INTO bundle_search (rowid, text) VALUES (new.seq * 1048576, new.id || char(31) || new.label || char(31) || coalesce(new.custom_key, '') || char(31));
  END;
  CREATE TRIGGER bundle_search_update AFTER UPDATE OF id, label, custom_key ON bundles BEGIN
    UPDATE bundle_search SET text = new.id || char(31) || new.label || char(31) || coalesce(new.custom_key, '') || char(31) WHERE rowid = new.seq * 1048576;
  END;
  CREATE TRIGGER bundle_search_delete AFTER DELETE ON bundles BEGIN
    DELETE FROM bundle_search WHERE rowid >= old.seq * 1048576 AND rowid < (old.seq + 1) * 1048576;
  END;
  CREATE TRIGGER bundle_search_packet_insert AFTER INSERT ON packets BEGIN
    INSERT INTO bundle_search (rowid, text)
      VALUES (new.bundle_seq * 1048576 + new.idx + 1, new.name || char(31) || coalesce(new.email, '') || char(31) || coalesce(new.phone, '') || char(31));
  END;
  CREATE TRIGGER bundle_search_packet_update AFTER UPDATE OF name, email, phone, bundle_seq, idx ON packets BEGIN
    DELETE FROM bundle_search WHERE rowid = old.bundle_seq * 1048576 + old.idx + 1;
    INSERT INTO bundle_search (rowid, text)
      VALUES (new.bundle_seq * 1048576 + new.idx + 1, new.name || char(31) || coalesce(new.email, '') || char(31) || coalesce(new.phone, '') || char(31));
  END;
  CREATE TRIGGER bundle_search_packet_delete AFTER DELETE ON packets BEGIN
    DELETE FROM bundle_search WHERE rowid = old.bundle_seq * 1048576 + old.idx + 1;
  END;

  CREATE TABLE bundle_counts (status TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
  INSERT INTO bundle_counts (status, n) SELECT status, count(*) FROM bundles GROUP BY status;
  CREATE TRIGGER bundle_counts_insert AFTER INSERT ON bundles BEGIN
    INSERT INTO bundle_counts (status, n) VALUES (new.status, 1) ON CONFLICT (status) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER bundle_counts_delete AFTER DELETE ON bundles BEGIN
    UPDATE bundle_counts SET n = n - 1 WHERE status = old.status;
  END;
  CREATE TRIGGER bundle_counts_update AFTER UPDATE OF status ON bundles WHEN old.status <> new.status BEGIN
    UPDATE bundle_counts SET n = n - 1 WHERE status = old.status;
    INSERT INTO bundle_counts (status, n) VALUES (new.status, 1) ON CONFLICT (status) DO UPDATE SET n = n + 1;
  END;

  DROP INDEX bundles_created;
  CREATE INDEX bundles_created ON bundles(created, seq, status, sent, completed_at);
  CREATE INDEX bundles_sent ON bundles(sent, seq, status, created, completed_at);
  CREATE INDEX bundles_completed ON bundles(completed_at, seq, status, created, sent);
  CREATE INDEX bundle_tags_tag_bundle ON bundle_tags(tag, bundle_seq);
  DROP INDEX bundle_tags_tag;
  CREATE INDEX bundles_status_sent ON bundles(status, sent);
  CREATE INDEX bundles_status_completed ON bundles(status, completed_at);
  CREATE INDEX documents_template_bundle ON documents(template_id, bundle_seq) WHERE template_id IS NOT NULL;
  DROP INDEX documents_template;
  CREATE INDEX webhook_events_webhook_created ON webhook_events(webhook_id, created);
  CREATE INDEX webhook_events_type_created ON webhook_events(event_type, created);
  CREATE INDEX webhook_deliveries_timestamp ON webhook_deliveries(timestamp);
  CREATE INDEX persons_created ON persons(created);
  CREATE INDEX person_channels_email ON person_channels(email COLLATE NOCASE) WHERE email IS NOT NULL;
  `,
  // 8: a declining signer's packet is `ca`: `de` is not in the wire's packet enum.
  `
  UPDATE packets SET status = 'ca' WHERE status = 'de';
  `,
  // 9: webhook events and deliveries by Bundle (`--bundle`, bundle inspect): bundle_id is written with
  // each event; rows from before it was kept get it from their payload.
  `
  UPDATE webhook_events SET bundle_id = json_extract(payload, '$.payload.bundle_id') WHERE bundle_id IS NULL AND json_valid(payload);
  CREATE INDEX webhook_events_bundle ON webhook_events(bundle_id, seq) WHERE bundle_id IS NOT NULL;
  `,
  // 10: one search row per Bundle, its rowid the Bundle's seq: a search's matches are Bundles (counted
  // without DISTINCT) and come in seq order straight from the index. `bundle_search_rows` says what a
  // row holds: the slug, label and custom_key, then each signer's name, email and phone in order, each
  // field followed by U+001F. New Bundles wait in `bundle_search_pending` and are written to the index
  // in batches (`indexQueued`): one index write per batch, not per create; a search reads the
  // waiting ones from the tables. The triggers keep written rows in step with later writes, and do
  // nothing to a waiting Bundle, whose row is made from the tables when it is written.
  // `bundles_out_of_order` counts Bundles made with an earlier `created` than the one made before them
  // (a clock set back), or whose `created` changed: while it is 0, seq order is `created` order.
  // Persons, webhook events and delivery attempts get their indexes and counts below.
  `
  DROP TRIGGER bundle_search_insert;
  DROP TRIGGER bundle_search_update;
  DROP TRIGGER bundle_search_delete;
  DROP TRIGGER bundle_search_packet_insert;
  DROP TRIGGER bundle_search_packet_update;
  DROP TRIGGER bundle_search_packet_delete;
  DROP TABLE bundle_search_terms;
  DROP TABLE bundle_search;

  CREATE VIEW bundle_search_rows (seq, text) AS
    SELECT b.seq, ${SEARCH_TEXT}
    FROM bundles b;
  CREATE VIRTUAL TABLE bundle_search USING fts5(text, tokenize = 'trigram case_sensitive 0', columnsize = 0);
  CREATE VIRTUAL TABLE bundle_search_terms USING fts5vocab(bundle_search, row);
  INSERT INTO bundle_search (rowid, text) SELECT seq, text FROM bundle_search_rows ORDER BY seq;

  -- One status in \`sent\` or \`completed_at\` order walks that order's index (it covers status): two
  -- indexes fewer to write with every Bundle.
  DROP INDEX bundles_status_sent;
  DROP INDEX bundles_status_completed;

  CREATE TRIGGER bundle_search_update AFTER UPDATE OF id, label, custom_key ON bundles BEGIN
    UPDATE bundle_search SET text = (SELECT text FROM bundle_search_rows WHERE seq = new.seq) WHERE rowid = new.seq;
  END;
  CREATE TABLE bundle_search_pending (seq INTEGER PRIMARY KEY);
  CREATE TRIGGER bundle_search_delete AFTER DELETE ON bundles BEGIN
    DELETE FROM bundle_search WHERE rowid = old.seq;
    DELETE FROM bundle_search_pending WHERE seq = old.seq;
  END;
  CREATE TRIGGER bundle_search_packet_insert AFTER INSERT ON packets BEGIN
    UPDATE bundle_search SET text = (SELECT text FROM bundle_search_rows WHERE seq = new.bundle_seq) WHERE rowid = new.bundle_seq;
  END;
  CREATE TRIGGER bundle_search_packet_update AFTER UPDATE OF name, email, phone, idx ON packets BEGIN
    UPDATE bundle_search SET text = (SELECT text FROM bundle_search_rows WHERE seq = new.bundle_seq) WHERE rowid = new.bundle_seq;
  END;

  INSERT OR REPLACE INTO meta (key, value)
    SELECT 'bundles_out_of_order', count(*) FROM (SELECT created < lag(created) OVER (ORDER BY seq) AS back FROM bundles) WHERE back;
  CREATE TRIGGER bundles_out_of_order AFTER INSERT ON bundles
  WHEN new.created < (SELECT created FROM bundles WHERE seq < new.seq ORDER BY seq DESC LIMIT 1) BEGIN
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'bundles_out_of_order';
  END;
  CREATE TRIGGER bundles_created_changed AFTER UPDATE OF created ON bundles WHEN new.created IS NOT old.created BEGIN
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'bundles_out_of_order';
  END;

  -- Persons: a trigram index of a Person's name, emails and phones (\`text\`) and of its phones without
  -- punctuation (\`digits\`), rowid = the Person's rowid (the engine never runs VACUUM, which could
  -- renumber it); an index for \`phone=\`, which compares phones without punctuation.
  CREATE VIEW person_search_rows (person_rowid, text, digits) AS
    SELECT p.rowid, p.name || char(31) || coalesce((
      SELECT group_concat(coalesce(c.email, '') || char(31) || coalesce(c.phone, '') || char(31), '' ORDER BY c.rowid)
      FROM person_channels c WHERE c.person_id = p.id), ''), coalesce((
      SELECT group_concat(replace(replace(replace(replace(replace(c.phone, ' ', ''), '-', ''), '.', ''), '(', ''), ')', '') || char(31), '' ORDER BY c.rowid)
      FROM person_channels c WHERE c.person_id = p.id AND c.phone IS NOT NULL), '')
    FROM persons p;
  CREATE VIRTUAL TABLE person_search USING fts5(text, digits, tokenize = 'trigram case_sensitive 0', columnsize = 0);
  INSERT INTO person_search (rowid, text, digits) SELECT person_rowid, text, digits FROM person_search_rows ORDER BY person_rowid;
  CREATE TRIGGER person_search_insert AFTER INSERT ON persons BEGIN
    INSERT INTO person_search (rowid, text, digits) SELECT person_rowid, text, digits FROM person_search_rows WHERE person_rowid = new.rowid;
  END;
  CREATE TRIGGER person_search_update AFTER UPDATE OF name ON persons BEGIN
    UPDATE person_search SET (text, digits) = (SELECT text, digits FROM person_search_rows WHERE person_rowid = new.rowid) WHERE rowid = new.rowid;
  END;
  CREATE TRIGGER person_search_delete AFTER DELETE ON persons BEGIN
    DELETE FROM person_search WHERE rowid = old.rowid;
  END;
  CREATE TRIGGER person_search_channel_insert AFTER INSERT ON person_channels BEGIN
    UPDATE person_search SET (text, digits) = (SELECT text, digits FROM person_search_rows WHERE person_rowid = person_search.rowid)
      WHERE rowid = (SELECT rowid FROM persons WHERE id = new.person_id);
  END;
  CREATE TRIGGER person_search_channel_update AFTER UPDATE OF email, phone, person_id ON person_channels BEGIN
    UPDATE person_search SET (text, digits) = (SELECT text, digits FROM person_search_rows WHERE person_rowid = person_search.rowid)
      WHERE rowid IN (SELECT rowid FROM persons WHERE id IN (old.person_id, new.person_id));
  END;
  CREATE TRIGGER person_search_channel_delete AFTER DELETE ON person_channels BEGIN
    UPDATE person_search SET (text, digits) = (SELECT text, digits FROM person_search_rows WHERE person_rowid = person_search.rowid)
      WHERE rowid = (SELECT rowid FROM persons WHERE id = old.person_id);
  END;
  -- As for Bundles: while no Person was made with an earlier \`created\` than the one before it, rowid
  -- order is \`created\` order (the list's order).
  INSERT OR REPLACE INTO meta (key, value)
    SELECT 'persons_out_of_order', count(*) FROM (SELECT created < lag(created) OVER (ORDER BY rowid) AS back FROM persons) WHERE back;
  CREATE TRIGGER persons_out_of_order AFTER INSERT ON persons
  WHEN new.created < (SELECT created FROM persons WHERE rowid < new.rowid ORDER BY rowid DESC LIMIT 1) BEGIN
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'persons_out_of_order';
  END;
  CREATE TRIGGER persons_created_changed AFTER UPDATE OF created ON persons WHEN new.created IS NOT old.created BEGIN
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'persons_out_of_order';
  END;
  -- The number of Persons, for the unfiltered list's total.
  CREATE TABLE person_count (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
  INSERT INTO person_count (id, n) SELECT 1, count(*) FROM persons;
  CREATE TRIGGER person_count_insert AFTER INSERT ON persons BEGIN
    UPDATE person_count SET n = n + 1;
  END;
  CREATE TRIGGER person_count_delete AFTER DELETE ON persons BEGIN
    UPDATE person_count SET n = n - 1;
  END;
  CREATE INDEX person_channels_phone ON person_channels(replace(replace(replace(replace(replace(phone, ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''))
    WHERE phone IS NOT NULL;

  -- Webhook events and delivery attempts: counts kept by triggers (by success, by status) for the
  -- unfiltered and singly filtered lists, and indexes for those filters in list order.
  CREATE TABLE webhook_event_counts (success INTEGER PRIMARY KEY, n INTEGER NOT NULL);
  INSERT INTO webhook_event_counts (success, n) SELECT success, count(*) FROM webhook_events GROUP BY success;
  CREATE TRIGGER webhook_event_counts_insert AFTER INSERT ON webhook_events BEGIN
    INSERT INTO webhook_event_counts (success, n) VALUES (new.success, 1) ON CONFLICT (success) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER webhook_event_counts_delete AFTER DELETE ON webhook_events BEGIN
    UPDATE webhook_event_counts SET n = n - 1 WHERE success = old.success;
  END;
  CREATE TRIGGER webhook_event_counts_update AFTER UPDATE OF success ON webhook_events WHEN old.success IS NOT new.success BEGIN
    UPDATE webhook_event_counts SET n = n - 1 WHERE success = old.success;
    INSERT INTO webhook_event_counts (success, n) VALUES (new.success, 1) ON CONFLICT (success) DO UPDATE SET n = n + 1;
  END;
  CREATE INDEX webhook_events_success ON webhook_events(success, created);
  CREATE TABLE webhook_delivery_counts (status INTEGER PRIMARY KEY, n INTEGER NOT NULL);
  INSERT INTO webhook_delivery_counts (status, n) SELECT status, count(*) FROM webhook_deliveries GROUP BY status;
  CREATE TRIGGER webhook_delivery_counts_insert AFTER INSERT ON webhook_deliveries BEGIN
    INSERT INTO webhook_delivery_counts (status, n) VALUES (new.status, 1) ON CONFLICT (status) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER webhook_delivery_counts_delete AFTER DELETE ON webhook_deliveries BEGIN
    UPDATE webhook_delivery_counts SET n = n - 1 WHERE status = old.status;
  END;
  CREATE INDEX webhook_deliveries_status ON webhook_deliveries(status, timestamp);
  `,
  // 11: totals without walking the matches. `bundle_day_counts` keeps the number of Bundles per day of
  // `created`, `sent` and `completed_at` and per status: the list's date filters are whole days, so a
  // range's total is a sum of days (a stored date is in a range exactly when its first ten characters
  // are), and a deep page starts from the days before it. `bundle_tag_counts` and
  // `bundle_template_counts` keep the Bundles per tag and per template (a Bundle counted once however
  // many of its documents come from the template), `bundle_tag_pairs` those with both of two tags (a
  // union of two tags is counted from them; kept while no Bundle has more than 16 tags), `webhook_event_day_counts` the webhook events per
  // webhook, day and success. `bundles_dated_before_created` counts Bundles sent or completed before
  // they were made (a clock set back): while it is 0, a range of `sent` or `completed_at` bounds the
  // walk of the `created` index. The search indexes merge their segments when two of a level exist
  // instead of four (FTS5's `automerge`), and are merged into one here: a query reads each of its
  // terms in every segment.
  `
  CREATE TABLE bundle_day_counts (
    field TEXT NOT NULL, day TEXT NOT NULL, status TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (field, day, status)
  ) WITHOUT ROWID;
  ${keptCounts('bundle_day_counts_created', { counts: 'bundle_day_counts', source: 'bundles', key: { field: "'created'", day: 'substr($created, 1, 10)', status: '$status' }, watched: ['created', 'status'] })}
  ${keptCounts('bundle_day_counts_sent', { counts: 'bundle_day_counts', source: 'bundles', key: { field: "'sent'", day: 'substr($sent, 1, 10)', status: '$status' }, when: '$sent IS NOT NULL', watched: ['sent', 'status'] })}
  ${keptCounts('bundle_day_counts_completed_at', { counts: 'bundle_day_counts', source: 'bundles', key: { field: "'completed_at'", day: 'substr($completed_at, 1, 10)', status: '$status' }, when: '$completed_at IS NOT NULL', watched: ['completed_at', 'status'] })}

  INSERT OR REPLACE INTO meta (key, value)
    SELECT 'bundles_dated_before_created', count(*) FROM bundles WHERE sent < created OR completed_at < created;
  CREATE TRIGGER bundles_dated_before_created AFTER INSERT ON bundles WHEN new.sent < new.created OR new.completed_at < new.created BEGIN
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'bundles_dated_before_created';
  END;
  CREATE TRIGGER bundles_dated_before_created_update AFTER UPDATE OF created, sent, completed_at ON bundles
  WHEN new.sent < new.created OR new.completed_at < new.created BEGIN
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'bundles_dated_before_created';
  END;

  CREATE TABLE bundle_tag_counts (tag TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
  ${keptCounts('bundle_tag_counts', { counts: 'bundle_tag_counts', source: 'bundle_tags', key: { tag: '$tag' }, watched: ['tag'] })}

  -- A Bundle with k tags makes k(k-1)/2 pairs: they are kept while no Bundle has had more than 16 tags,
  -- after which \`bundle_tag_pairs_off\` is 1 for good and two tags are counted by their merge.
  INSERT OR REPLACE INTO meta (key, value)
    SELECT 'bundle_tag_pairs_off', EXISTS (SELECT 1 FROM bundle_tags GROUP BY bundle_seq HAVING count(*) > 16);
  CREATE TABLE bundle_tag_pairs (tag TEXT NOT NULL, other TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (tag, other)) WITHOUT ROWID;
  INSERT INTO bundle_tag_pairs (tag, other, n)
    SELECT a.tag, b.tag, count(*) FROM bundle_tags a JOIN bundle_tags b ON b.bundle_seq = a.bundle_seq AND a.tag < b.tag
    WHERE (SELECT value FROM meta WHERE key = 'bundle_tag_pairs_off') = '0' GROUP BY 1, 2;
  CREATE TRIGGER bundle_tag_pairs_off AFTER INSERT ON bundle_tags
  WHEN (SELECT count(*) FROM bundle_tags WHERE bundle_seq = new.bundle_seq) > 16 BEGIN
    UPDATE meta SET value = '1' WHERE key = 'bundle_tag_pairs_off';
  END;
  CREATE TRIGGER bundle_tag_pairs_insert AFTER INSERT ON bundle_tags WHEN (SELECT value FROM meta WHERE key = 'bundle_tag_pairs_off') = '0' BEGIN
    INSERT INTO bundle_tag_pairs (tag, other, n)
      SELECT min(new.tag, t.tag), max(new.tag, t.tag), 1 FROM bundle_tags t WHERE t.bundle_seq = new.bundle_seq AND t.tag <> new.tag
      ON CONFLICT DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER bundle_tag_pairs_delete AFTER DELETE ON bundle_tags WHEN (SELECT value FROM meta WHERE key = 'bundle_tag_pairs_off') = '0' BEGIN
    UPDATE bundle_tag_pairs SET n = n - 1
      WHERE (tag, other) IN (SELECT min(old.tag, t.tag), max(old.tag, t.tag) FROM bundle_tags t WHERE t.bundle_seq = old.bundle_seq AND t.tag <> old.tag);
  END;
  CREATE TRIGGER bundle_tag_pairs_update AFTER UPDATE OF tag, bundle_seq ON bundle_tags WHEN (SELECT value FROM meta WHERE key = 'bundle_tag_pairs_off') = '0' BEGIN
    UPDATE bundle_tag_pairs SET n = n - 1
      WHERE (tag, other) IN (SELECT min(old.tag, t.tag), max(old.tag, t.tag) FROM bundle_tags t WHERE t.bundle_seq = old.bundle_seq AND t.tag <> old.tag AND t.rowid <> new.rowid);
    INSERT INTO bundle_tag_pairs (tag, other, n)
      SELECT min(new.tag, t.tag), max(new.tag, t.tag), 1 FROM bundle_tags t WHERE t.bundle_seq = new.bundle_seq AND t.tag <> new.tag
      ON CONFLICT DO UPDATE SET n = n + 1;
  END;

  CREATE TABLE bundle_template_counts (template_id TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
  INSERT INTO bundle_template_counts (template_id, n)
    SELECT template_id, count(DISTINCT bundle_seq) FROM documents WHERE template_id IS NOT NULL GROUP BY template_id;
  CREATE TRIGGER bundle_template_counts_insert AFTER INSERT ON documents
  WHEN new.template_id IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM documents WHERE template_id = new.template_id AND bundle_seq = new.bundle_seq AND rowid <> new.rowid) BEGIN
    INSERT INTO bundle_template_counts (template_id, n) VALUES (new.template_id, 1) ON CONFLICT (template_id) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER bundle_template_counts_delete AFTER DELETE ON documents
  WHEN old.template_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM documents WHERE template_id = old.template_id AND bundle_seq = old.bundle_seq) BEGIN
    UPDATE bundle_template_counts SET n = n - 1 WHERE template_id = old.template_id;
  END;
  CREATE TRIGGER bundle_template_counts_update AFTER UPDATE OF template_id, bundle_seq ON documents
  WHEN old.template_id IS NOT new.template_id OR old.bundle_seq IS NOT new.bundle_seq BEGIN
    UPDATE bundle_template_counts SET n = n - 1 WHERE template_id = old.template_id
      AND NOT EXISTS (SELECT 1 FROM documents WHERE template_id = old.template_id AND bundle_seq = old.bundle_seq);
    INSERT INTO bundle_template_counts (template_id, n) SELECT new.template_id, 1 WHERE new.template_id IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM documents WHERE template_id = new.template_id AND bundle_seq = new.bundle_seq AND rowid <> new.rowid)
      ON CONFLICT (template_id) DO UPDATE SET n = n + 1;
  END;

  CREATE TABLE webhook_event_day_counts (
    webhook_id TEXT NOT NULL, day TEXT NOT NULL, success INTEGER NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (webhook_id, day, success)
  ) WITHOUT ROWID;
  ${keptCounts('webhook_event_day_counts', {
    counts: 'webhook_event_day_counts',
    source: 'webhook_events',
    key: { webhook_id: '$webhook_id', day: 'substr($created, 1, 10)', success: '$success' },
    watched: ['webhook_id', 'created', 'success'],
  })}

  INSERT INTO bundle_search (bundle_search, rank) VALUES ('automerge', 2);
  INSERT INTO bundle_search (bundle_search) VALUES ('optimize');
  INSERT INTO person_search (person_search, rank) VALUES ('automerge', 2);
  INSERT INTO person_search (person_search) VALUES ('optimize');
  `,
  // 12: `bundle_tag_day_counts` keeps the Bundles of each tag per day of `created`, `sent` and
  // `completed_at`, as `bundle_day_counts` does per status: a tag with a range of one date is counted
  // from it, and a deep page of a tag in a date's order starts from the days before it. `bundle_days`
  // is each Bundle's days. A Bundle's counts go before it does (the cascade to its tags finds it gone).
  `
  CREATE VIEW bundle_days AS
    SELECT seq, 'created' AS field, substr(created, 1, 10) AS day FROM bundles
    UNION ALL SELECT seq, 'sent', substr(sent, 1, 10) FROM bundles WHERE sent IS NOT NULL
    UNION ALL SELECT seq, 'completed_at', substr(completed_at, 1, 10) FROM bundles WHERE completed_at IS NOT NULL;
  CREATE TABLE bundle_tag_day_counts (
    tag TEXT NOT NULL, field TEXT NOT NULL, day TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (tag, field, day)
  ) WITHOUT ROWID;
  INSERT INTO bundle_tag_day_counts (tag, field, day, n)
    SELECT t.tag, d.field, d.day, count(*) FROM bundle_tags t JOIN bundle_days d ON d.seq = t.bundle_seq GROUP BY 1, 2, 3;
  CREATE TRIGGER bundle_tag_day_counts_insert AFTER INSERT ON bundle_tags BEGIN
    INSERT INTO bundle_tag_day_counts (tag, field, day, n) SELECT new.tag, field, day, 1 FROM bundle_days WHERE seq = new.bundle_seq
      ON CONFLICT DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER bundle_tag_day_counts_delete AFTER DELETE ON bundle_tags BEGIN
    UPDATE bundle_tag_day_counts SET n = n - 1 WHERE (tag, field, day) IN (SELECT old.tag, field, day FROM bundle_days WHERE seq = old.bundle_seq);
  END;
  CREATE TRIGGER bundle_tag_day_counts_update AFTER UPDATE OF tag, bundle_seq ON bundle_tags BEGIN
    UPDATE bundle_tag_day_counts SET n = n - 1 WHERE (tag, field, day) IN (SELECT old.tag, field, day FROM bundle_days WHERE seq = old.bundle_seq);
    INSERT INTO bundle_tag_day_counts (tag, field, day, n) SELECT new.tag, field, day, 1 FROM bundle_days WHERE seq = new.bundle_seq
      ON CONFLICT DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER bundle_tag_day_counts_bundle_delete BEFORE DELETE ON bundles BEGIN
    UPDATE bundle_tag_day_counts SET n = n - 1
      WHERE (tag, field, day) IN (SELECT t.tag, d.field, d.day FROM bundle_tags t JOIN bundle_days d ON d.seq = t.bundle_seq WHERE t.bundle_seq = old.seq);
  END;
  ${['created', 'sent', 'completed_at']
    .map(
      (f) => `
  CREATE TRIGGER bundle_tag_day_counts_${f} AFTER UPDATE OF ${f} ON bundles WHEN old.${f} IS NOT new.${f} BEGIN
    UPDATE bundle_tag_day_counts SET n = n - 1
      WHERE field = '${f}' AND day = substr(old.${f}, 1, 10) AND tag IN (SELECT tag FROM bundle_tags WHERE bundle_seq = old.seq);
    INSERT INTO bundle_tag_day_counts (tag, field, day, n)
      SELECT tag, '${f}', substr(new.${f}, 1, 10), 1 FROM bundle_tags WHERE bundle_seq = new.seq AND new.${f} IS NOT NULL
      ON CONFLICT DO UPDATE SET n = n + 1;
  END;`,
    )
    .join('')}
  `,
  // 13: the search index holds each Bundle's status (a second column: `_` and the status, one
  // trigram), so that statuses and a search are one query of the index, counted there, instead of a
  // walk of every match. The index is built again; a status change rewrites the Bundle's index row
  // (the Bundles still waiting for the index take their status when they are written to it).
  `
  DROP VIEW bundle_search_rows;
  CREATE VIEW bundle_search_rows (seq, text, status) AS
    SELECT b.seq, ${SEARCH_TEXT}, '_' || b.status
    FROM bundles b;
  DROP TABLE bundle_search;
  CREATE VIRTUAL TABLE bundle_search USING fts5(text, status, tokenize = 'trigram case_sensitive 0', columnsize = 0);
  -- The terms per column: a two-character search looks up the text's terms, not the statuses'.
  DROP TABLE bundle_search_terms;
  CREATE VIRTUAL TABLE bundle_search_terms USING fts5vocab(bundle_search, col);
  INSERT INTO bundle_search (bundle_search, rank) VALUES ('automerge', 2);
  INSERT INTO bundle_search (rowid, text, status)
    SELECT seq, text, status FROM bundle_search_rows WHERE seq NOT IN (SELECT seq FROM bundle_search_pending) ORDER BY seq;
  INSERT INTO bundle_search (bundle_search) VALUES ('optimize');
  CREATE TRIGGER bundle_search_status AFTER UPDATE OF status ON bundles WHEN old.status IS NOT new.status BEGIN
    UPDATE bundle_search SET status = '_' || new.status WHERE rowid = new.seq;
  END;
  `,
  // 14: `bundle_date_pairs` keeps the Bundles per day of `sent` (or `completed_at`), day of `created`
  // and status: in `created` order, a deep page of a range of the other date starts from the days of
  // `created` wholly before it. A Bundle is sent or completed within days of being made, so the pairs
  // are a few per day (at most one per Bundle).
  `
  CREATE TABLE bundle_date_pairs (
    field TEXT NOT NULL, day TEXT NOT NULL, created_day TEXT NOT NULL, status TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (field, day, created_day, status)
  ) WITHOUT ROWID;
  ${(['sent', 'completed_at'] as const)
    .map((f) =>
      keptCounts(`bundle_date_pairs_${f}`, {
        counts: 'bundle_date_pairs',
        source: 'bundles',
        key: {
          field: `'${f}'`,
          day: `substr($${f}, 1, 10)`,
          created_day: 'substr($created, 1, 10)',
          status: '$status',
        },
        when: `$${f} IS NOT NULL`,
        watched: [f, 'created', 'status'],
      }),
    )
    .join('')}
  `,
  // 15: the counts of `bundles` and `bundle_tags` kept by one trigger per table and event (above).
  COUNTS_TRIGGERS,
  // 16: the counts per day and status, per pair of days and per pair of tags dropped (above).
  DAY_COUNTS_DROPPED,
  // 17: a search finds letters with or without their accents ("jose" finds "José"): the index's
  // trigrams are made without diacritics (FTS5's remove_diacritics), and the index is built again.
  `
  DROP TABLE bundle_search_terms;
  DROP TABLE bundle_search;
  CREATE VIRTUAL TABLE bundle_search USING fts5(text, status, tokenize = 'trigram case_sensitive 0 remove_diacritics 1', columnsize = 0);
  CREATE VIRTUAL TABLE bundle_search_terms USING fts5vocab(bundle_search, col);
  INSERT INTO bundle_search (bundle_search, rank) VALUES ('automerge', 2);
  INSERT INTO bundle_search (rowid, text, status)
    SELECT seq, text, status FROM bundle_search_rows WHERE seq NOT IN (SELECT seq FROM bundle_search_pending) ORDER BY seq;
  INSERT INTO bundle_search (bundle_search) VALUES ('optimize');
  `,
  // 18: a deep page of the outbox skips ids in an index of ids alone, not rows with their bodies
  // (the table's own order is its rows): page 8,000 of 433,000 messages read in 3 ms, not 250 ms.
  `CREATE INDEX outbox_by_id ON outbox(id);`,
  // 19: a new Bundle's signers no longer touch the search index: it waits in bundle_search_pending
  // (its row is written whole, signers included, with the next batch), so only a packet added to a
  // Bundle already indexed rewrites its row. The index's update for each signer of a create made it
  // part of the transaction, flushed at every statement's savepoint.
  `
  DROP TRIGGER bundle_search_packet_insert;
  CREATE TRIGGER bundle_search_packet_insert AFTER INSERT ON packets
  WHEN NOT EXISTS (SELECT 1 FROM bundle_search_pending WHERE seq = new.bundle_seq) BEGIN
    UPDATE bundle_search SET text = (SELECT text FROM bundle_search_rows WHERE seq = new.bundle_seq) WHERE rowid = new.bundle_seq;
  END;
  `,
  // 20: phones are taken as people type them ("505 555 5555", "+1 505-555-5555"); a Person's phone
  // channels are matched by their E.164 form, kept beside the number as written.
  `
  ALTER TABLE person_channels ADD COLUMN phone_key TEXT;
  UPDATE person_channels SET phone_key = esign_phone(phone) WHERE phone IS NOT NULL;
  CREATE INDEX person_channels_phone_key ON person_channels(phone_key) WHERE phone_key IS NOT NULL;
  `,
  // 21: when and why a webhook was disabled (after how many events given up in a row, or null when
  // a person disabled it), so support sees a disabled webhook's story and not a stale retry time.
  `
  ALTER TABLE webhooks ADD COLUMN disabled_at TEXT;
  ALTER TABLE webhooks ADD COLUMN disabled_after INTEGER;
  `,
  // 22 (phone search): a Bundle's search text holds each signer's phone as written and in E.164
  // form, so a search for a phone as people type it ("(505) 555-5555", "+1 505 555 5555") finds
  // it whichever way it was written (local/bundles/search.ts searches the number's digits too).
  `
  DROP VIEW bundle_search_rows;
  CREATE VIEW bundle_search_rows (seq, text, status) AS
    SELECT b.seq, ${SEARCH_TEXT_PHONES}, '_' || b.status
    FROM bundles b;
  UPDATE bundle_search SET text = (SELECT text FROM bundle_search_rows WHERE seq = bundle_search.rowid)
    WHERE rowid IN (SELECT bundle_seq FROM packets WHERE phone IS NOT NULL);
  `,
  // 23: the occurrences a webhook missed while disabled (it was enabled once, then disabled by its
  // failures or by a person), kept until support sends them (esign webhook resend-missed), once each.
  `
  CREATE TABLE webhook_missed (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_type TEXT NOT NULL,
    created TEXT NOT NULL,
    payload TEXT NOT NULL,
    bundle_id TEXT,
    packet_id TEXT
  );
  CREATE INDEX webhook_missed_webhook ON webhook_missed(webhook_id, seq);
  CREATE INDEX webhook_missed_bundle ON webhook_missed(bundle_id, webhook_id) WHERE bundle_id IS NOT NULL;
  `,
  // 24 (missed events capped): a disabled webhook keeps at most its newest MISSED_KEPT missed events
  // (webhooks/queue.ts); how many older ones were dropped to stay within it is counted here, and said
  // wherever the missed events are shown, until they are sent.
  `ALTER TABLE webhooks ADD COLUMN missed_dropped INTEGER NOT NULL DEFAULT 0;`,
];
