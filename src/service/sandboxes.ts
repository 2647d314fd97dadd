// The sandboxes an esign serve hosts (docs/sandboxes.md): each an API v2 server of its own under
// the server's address, made, listed and deleted with the server's own keys. Not an operation of
// API v2 (the hosted service has none): `esign sandbox` and `esign scenario run` use it.

/** Where a sandbox's routes are on its server: `/sandboxes/{id}/` then the API and the sandbox's own. */
export const SANDBOXES_PATH = '/sandboxes';

export interface Sandbox {
  id: string;
  name: string;
  created_at: string;
  expires_at: string;
  /** The id of the server's API key that made it. */
  created_by: string;
  /** What an API v2 client points at: the server's address, `/sandboxes/{id}`, then `/api/v2`. */
  base_url: string;
  /** Disk it held when last measured (its SQLite file and documents). */
  size_bytes: number;
  /** Disk it may hold: past it, its writes are refused. */
  max_bytes: number;
}

/** A sandbox just made: its key, shown this once. */
export interface SandboxMade extends Sandbox {
  api_key: string;
}

interface SandboxRequest {
  name?: string;
  ttl_seconds?: number;
}

export interface SandboxManager {
  create(r: SandboxRequest): Promise<SandboxMade>;
  list(): Promise<Sandbox[]>;
  get(id: string): Promise<Sandbox>;
  delete(id: string): Promise<void>;
  close(): Promise<void>;
}
