// What `esign local ...` asks of the embedded engine beyond API v2: administration that only a
// backend owning its own store can answer (the remote adapter has none of it).

/** Where the local data lives and how much it holds. */
export interface LocalInfo {
  data_dir: string;
  database: string;
  bundles: number;
  packets: number;
  documents: number;
  outbox: number;
  clock: string;
}

/** Work a stopped process may have left: documents still to process, evidence still to produce. */
export interface PendingWork {
  pending_documents: number;
  pending_evidence: number;
}

export interface LocalAdmin {
  info(): LocalInfo;
  pendingWork(): PendingWork;
}
