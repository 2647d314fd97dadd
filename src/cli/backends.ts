// What the CLI needs built outside itself: the backends, and esign serve's routes for `esign api`
// on the embedded engine. src/wiring builds them; the CLI names what it needs in its own types and
// the port's, and never imports an adapter or another door.
import type { LocalBackend } from '../service/localAdmin.js';
import type { EsignService } from '../service/service.js';
import type { SandboxManager } from '../service/sandboxes.js';
import type { Transport } from './commands/api/transport.js';

/** What a command may set when the engine is opened (esign serve: where links point, the URL guard). */
export interface EngineOptions {
  /** Overrides the account's `public_url` for links. */
  publicUrl?: string;
  /** Refuse `file_url` addresses in private ranges unless the account allows them. */
  guardUrls?: boolean;
  /** With guardUrls, still allow loopback addresses (esign serve listening on loopback only). */
  loopbackUrls?: boolean;
  /**
   * A client waits for each answer on a wire, with a timeout of its own (esign serve, console, mcp):
   * a create's document checks starved of CPU answer busy in time. Unset, a command waits for them.
   */
  answersClients?: boolean;
}

interface EngineSettings extends EngineOptions {
  dataDir: string;
  /** Where the engine's lines for people go (the CLI: stderr). */
  report: (line: string) => void;
  /** The process's environment: a spawned engine takes ESIGN_DEBUG=sql from it (src/wiring/engineTuning.ts). */
  env: NodeJS.ProcessEnv;
}

export interface RemoteSettings {
  baseUrl: string;
  apiKey?: string;
  /** Lines for the person at the terminal (ESIGN_DEBUG=api), and retry notes unless `retryNote` is given. */
  note?: (line: string) => void;
  /** One line per retry (a 429 being waited out, a refused connection tried again). */
  retryNote?: (line: string) => void;
  /** Told whenever a 429 is waited out, with when the next request goes. */
  onThrottle?: (untilMs: number) => void;
  /** ESIGN_DEBUG=api: each request and answer on stderr. */
  debug?: boolean;
  maxRetries?: number;
  timeoutMs?: number;
}

export interface Backends {
  /** The embedded engine on `dataDir` (its database is made on first use). */
  engine(o: EngineSettings): Promise<LocalBackend>;
  /** Throws when `dir` holds files that are not an engine's (nothing in it is touched then). */
  refuseForeignDir(dir: string): Promise<void>;
  /** The engine's database file under `dataDir`: whether it exists says whether asking creates anything. */
  databasePath(dataDir: string): Promise<string>;
  /** API v2 on a remote server, through the remote adapter. */
  remote(o: RemoteSettings): Promise<EsignService>;
  /** `esign api` on a remote server: the remote adapter's HTTP client in its raw mode. */
  remoteApi(o: RemoteSettings): Promise<Transport>;
  /** The sandboxes of a remote esign serve (esign sandbox, esign scenario run). */
  sandboxes(o: RemoteSettings): Promise<SandboxManager>;
  /** esign serve's routes over `engine`, called in-process (esign api on the embedded engine). */
  inProcessApi(engine: LocalBackend): Promise<Transport>;
}
