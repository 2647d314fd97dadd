// What `esign local info` and `run-due` report about a data directory: counts, not API objects.
import type { LocalInfo, PendingWork } from '../../service/localAdmin.js';
import type { Clock } from './clock.js';
import type { Db } from './db.js';

const count = (db: Db, q: string) => (db.prepare(q).get() as { n: number }).n;

export function localInfo(db: Db, dataDir: string, clock: Clock): LocalInfo {
  const rows = (table: string) => count(db, `SELECT count(*) AS n FROM ${table}`);
  return {
    data_dir: dataDir,
    database: db.name,
    bundles: rows('bundles'),
    packets: rows('packets'),
    documents: rows('blobs'),
    outbox: rows('outbox'),
    clock: clock.now(),
  };
}

/** Work left for the background: documents to process and evidence to produce. */
export function pendingWork(db: Db): PendingWork {
  return {
    pending_documents: count(db, `SELECT count(*) AS n FROM documents WHERE state = 'pending'`),
    pending_evidence: count(db, `SELECT count(*) AS n FROM bundles WHERE doc_status = 'pe'`),
  };
}
