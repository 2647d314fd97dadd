// The Factory: what every command gets, created lazily. Commands take everything from it (io,
// service, prompter, settings), so a test runs a command in-process with a captured IO and a real
// engine on a temp directory.
import type { LocalBackend } from '../service/localAdmin.js';
import type { EsignService } from '../service/service.js';
import type { SandboxManager } from '../service/sandboxes.js';
import type { Backends, EngineOptions, RemoteSettings } from './backends.js';
import { CliError, EXIT } from './exitCodes.js';
import type { IO } from './io.js';
import type { OutputOptions } from './output/print.js';
import { environment } from '../app/environment.js';
import { requireLive } from '../app/liveGuard.js';
import { stripControl } from '../app/sanitize.js';
import { type Profile, openProfilesIfAny } from './profiles.js';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadEnvPaths, loadPrompts } from '../lazyImport.js';
import type { Transport } from './commands/api/transport.js';

export interface GlobalOptions extends OutputOptions {
  dataDir?: string;
  profile?: string;
  yes?: boolean;
}

/** Where commands go, resolved once: flags beat environment, environment beats the profile. */
export interface Settings {
  profile?: string;
  /** Set for a remote backend; unset means the embedded engine. */
  baseUrl?: string;
  apiKey?: string;
  /** The profile that supplied the base URL is marked live. */
  live: boolean;
  dataDir?: string;
  /** Where the base URL came from (unset with the embedded engine). */
  urlFrom?: 'ESIGN_BASE_URL' | 'profile';
  /** Where the API key came from; unset: no key. */
  keyFrom?: 'ESIGN_API_KEY' | 'profile';
}

/** A remote server to run against, and what to show it. */
export interface RemoteChoice {
  baseUrl: string;
  apiKey?: string;
  live: boolean;
}

/** Questions asked on a terminal. Only called when `io.interactive`; tests supply answers. */
export interface Prompter {
  confirm(message: string, defaultValue: boolean): Promise<boolean>;
  password(message: string): Promise<string>;
}

/** Prompts by @inquirer/prompts, loaded on first use; Ctrl-C at a prompt exits 130. */
const inquirerPrompter: Prompter = {
  async confirm(message, defaultValue) {
    const { confirm } = await loadPrompts();
    return confirm({ message, default: defaultValue }).catch(interrupted);
  },
  async password(message) {
    const { password } = await loadPrompts();
    return password({ message, mask: true }).catch(interrupted);
  },
};

function interrupted(e: unknown): never {
  if ((e as Error)?.name === 'ExitPromptError') throw new CliError('Interrupted.', EXIT.INTERRUPTED);
  throw e;
}

/** The embedded engine as `esign local ...` and `esign serve` see it: interfaces, never the class. */
export type { LocalBackend };

/** A database that cannot be opened names its file and says what to do. */
function openFailure(e: unknown, file: string): unknown {
  const code = (e as { code?: string })?.code ?? '';
  if (code === 'ENOENT' || code === 'EACCES' || code === 'EROFS')
    return new CliError(`Data directory ${dirname(file)} cannot be made: ${(e as Error).message}.`, EXIT.USAGE);
  if (code === 'ENOTDIR' || code === 'EEXIST')
    return new CliError(
      `Data directory ${dirname(file)}: a file is in the way (it, or a folder above it, is not a directory); nothing was changed.`,
      EXIT.USAGE,
    );
  if (code === 'ENOTESIGN')
    return new CliError(
      `Data directory ${dirname(file)} is not esign's: ${(e as Error).message}; nothing was changed. Give a new or empty directory, or one that holds an esign database.`,
      EXIT.USAGE,
    );
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT')
    return new CliError(
      `${file} is damaged or not an esign database (${(e as Error).message}): restore it from a backup, or use another --data-dir.`,
      EXIT.FAILURE,
    );
  return e;
}

/** Timings a test shortens instead of waiting them out; a real run uses the defaults. */
export interface CliTiming {
  /** The first backoff step of a wait polling a remote server (default 1 s). */
  waitFirstStepMs?: number;
}

/** How a program run makes its Factory: the process's own IO, or a test's. */
export type MakeFactory = (options: GlobalOptions) => Factory;

export class Factory {
  private engine: LocalBackend | undefined;
  private remote: EsignService | undefined;
  private injected: EsignService | undefined;
  private resolved: Promise<Settings> | undefined;
  private readonly throttleListeners = new Set<(untilMs: number) => void>();
  /** Where the remote backend's retry notes go instead of stderr, while a command says them its own way. */
  private retryNotes: ((line: string) => void) | undefined;
  constructor(
    readonly options: GlobalOptions,
    readonly io: IO,
    readonly prompter: Prompter = inquirerPrompter,
    readonly timing: CliTiming = {},
    private readonly backends?: Backends,
  ) {}

  /**
   * A Factory whose commands talk to `service` (a test's, or a host's, which closes it); `backends`
   * only for what opens something more (`esign api` on the engine runs esign serve's routes).
   */
  static withService(
    service: EsignService,
    io: IO,
    options: GlobalOptions = {},
    prompter?: Prompter,
    backends?: Backends,
  ): Factory {
    const f = new Factory(options, io, prompter, {}, backends);
    f.injected = service;
    return f;
  }

  /** A Factory whose commands, `esign local ...` included, use `engine` (a test's, which closes it). */
  static withEngine(
    engine: LocalBackend,
    io: IO,
    options: GlobalOptions = {},
    prompter?: Prompter,
    backends?: Backends,
  ): Factory {
    const f = Factory.withService(engine, io, options, prompter, backends);
    f.engine = engine;
    return f;
  }

  /** What builds the backends (src/wiring); a Factory made around a test's service has none. */
  private wired(): Backends {
    if (!this.backends) throw new Error('This Factory was given a service, not the means to open a backend.');
    return this.backends;
  }

  get env(): NodeJS.ProcessEnv {
    return this.io.env;
  }

  settings(): Promise<Settings> {
    return (this.resolved ??= this.resolve());
  }

  private async resolve(): Promise<Settings> {
    const env = environment(this.env);
    const named = this.options.profile ?? env.profile;
    const store = await openProfilesIfAny(this.env);
    if (named && !store)
      throw new CliError(`No profile named "${named}": no profiles yet (see esign profile add --help).`, EXIT.USAGE);
    const name = named ?? store?.current();
    const p: Profile = name && store ? store.get(name) : {};
    const baseUrl = env.baseUrl || p.baseUrl;
    if (baseUrl && !isHttpUrl(baseUrl)) {
      const from = env.baseUrl ? 'ESIGN_BASE_URL' : `The base URL of profile "${name}"`;
      throw new CliError(
        `${from} "${baseUrl}" is not an http(s) URL (for example https://esign.example.com/api/v2).`,
        EXIT.USAGE,
      );
    }
    // A stored key goes only to its own profile's server.
    const stored = baseUrl === p.baseUrl ? p.apiKey : undefined;
    return {
      profile: name,
      baseUrl,
      apiKey: env.apiKey || stored,
      urlFrom: env.baseUrl ? 'ESIGN_BASE_URL' : baseUrl ? 'profile' : undefined,
      keyFrom: env.apiKey ? 'ESIGN_API_KEY' : stored ? 'profile' : undefined,
      live: Boolean(p.live && p.baseUrl && baseUrl === p.baseUrl),
      dataDir: this.options.dataDir ?? (env.dataDir || p.dataDir),
    };
  }

  /** The embedded engine's directory: flag, ESIGN_DATA_DIR, profile, then the user's data directory. */
  async dataDir(): Promise<string> {
    const { dataDir } = await this.settings();
    if (dataDir) return dataDir;
    const { default: envPaths } = await loadEnvPaths();
    return envPaths('esign', { suffix: '' }).data;
  }

  /**
   * The backend every command talks to: a remote API v2 server when a base URL is set, else the
   * embedded engine (opened with `o` when this is the first to ask for it).
   */
  async service(o: EngineOptions = {}): Promise<EsignService> {
    if (this.injected) return this.injected;
    const s = await this.settings();
    if (!s.baseUrl) return this.local(o);
    this.remote ??= await this.wired().remote(this.remoteOptions(s.baseUrl, s.apiKey));
    return this.remote;
  }

  /** The backend's clock, that times in words are read against (this machine's until a backend is made). */
  now(): number {
    const s = this.injected ?? this.engine ?? this.remote;
    return s?.clockMs ? s.clockMs() : Date.now();
  }

  /** A remote server as this run reaches it: its notes on stderr, its 429 waits told, ESIGN_DEBUG=api. */
  private remoteOptions(baseUrl: string, apiKey: string | undefined): RemoteSettings {
    return {
      baseUrl,
      apiKey,
      note: (line) => this.io.err.write(`${stripControl(line)}\n`),
      retryNote: (line) => (this.retryNotes ?? ((l) => this.io.err.write(`${stripControl(l)}\n`)))(line),
      onThrottle: (until) => this.throttleListeners.forEach((l) => l(until)),
      debug: environment(this.env).debug.words.includes('api'),
    };
  }

  /** A remote backend of its own (a profile's key checked), which the caller closes. */
  remoteFor(o: RemoteSettings): Promise<EsignService> {
    return this.wired().remote(o);
  }

  /**
   * Sends the remote backend's retry notes to `sink` instead of stderr (a wait says in one line what
   * it waits through); returns the undo.
   */
  divertRetryNotes(sink: (line: string) => void): () => void {
    this.retryNotes = sink;
    return () => {
      if (this.retryNotes === sink) this.retryNotes = undefined;
    };
  }

  /** Calls `listener` whenever the backend waits out a 429, with when it sends again; returns the unsubscribe. */
  onThrottle(listener: (untilMs: number) => void): () => void {
    this.throttleListeners.add(listener);
    return () => this.throttleListeners.delete(listener);
  }

  /**
   * Where commands go, as text for records and messages: `local`, or the remote server's base URL.
   * Commands never branch on it: what differs between backends is asked of the port or of the
   * Factory's methods below (the Factory, which builds the backend, is the one place that knows).
   */
  async backendLabel(): Promise<string> {
    return (await this.settings()).baseUrl ?? 'local';
  }

  /** Where batch journals live: the engine's data directory, or per remote profile a directory under it. */
  async journalDir(): Promise<string> {
    const s = await this.settings();
    const base = await this.dataDir();
    // Journals are not written into someone else's directory either.
    try {
      await this.wired().refuseForeignDir(base);
    } catch (e) {
      throw openFailure(e, join(base, 'esign.db'));
    }
    if (!s.baseUrl) return join(base, 'batches');
    const who = s.profile ?? createHash('sha256').update(s.baseUrl).digest('hex').slice(0, 12);
    return join(base, 'remote', who.replace(/[^A-Za-z0-9_.-]/g, '_'), 'batches');
  }

  /** How `esign api` reaches API v2: HTTP to the remote server, or esign serve's routes in-process. */
  async apiTransport(): Promise<Transport> {
    const s = await this.settings();
    if (!s.baseUrl) return this.wired().inProcessApi(await this.local());
    return this.wired().remoteApi(this.remoteOptions(s.baseUrl, s.apiKey));
  }

  /**
   * The service when asking it is cheap and creates nothing (shell completion): the embedded engine
   * when it is the backend and its database exists; undefined otherwise.
   */
  async serviceIfCheap(): Promise<EsignService | undefined> {
    if ((await this.settings()).baseUrl || !(await this.hasLocalData())) return undefined;
    return this.local();
  }

  /**
   * Sending to real people is deliberate: on a remote backend a non-test Bundle goes out only
   * with --live or from a profile marked live.
   */
  async requireLive(
    isTest: boolean | (() => Promise<boolean>),
    liveFlag: boolean | undefined,
    what: string,
  ): Promise<void> {
    const s = await this.settings();
    await requireLive(await this.service(), Boolean(liveFlag || s.live), isTest, () => {
      const target = s.profile ? `profile "${s.profile}" (${s.baseUrl})` : (s.baseUrl ?? 'this server');
      return new CliError(
        `Refusing to ${what} a non-test Bundle on ${target}: real people would receive it. ` +
          `Pass --live, mark the profile live (esign profile add ${s.profile ?? 'NAME'} --live ...), or use --test.`,
        EXIT.USAGE,
      );
    });
  }

  /** Whether the embedded engine has a database yet (so asking it something creates nothing). */
  async hasLocalData(): Promise<boolean> {
    return existsSync(await this.wired().databasePath(await this.dataDir()));
  }

  /**
   * The embedded engine for an `esign local` command: only when it is the backend the user selected.
   * With a remote backend selected the command would act on a data directory the user did not
   * choose (or make one), so it is refused, naming the backend.
   */
  async localEngine(): Promise<LocalBackend> {
    const s = await this.settings();
    if (s.baseUrl && !this.engine)
      throw new CliError(
        `This esign local command acts on the embedded engine, but the backend selected is ${this.selected(s)}: ` +
          'nothing was done. Unset ESIGN_BASE_URL or use a profile without a base URL to manage the local engine.',
        EXIT.USAGE,
      );
    return this.local();
  }

  /**
   * The selected backend, for an `esign local` command its sandbox serves (the clock, the outbox):
   * the engine, or a remote server that says it has that part (esign serve); any other (the hosted
   * service) is refused, naming it, and nothing is done.
   */
  async sandbox(part: 'clock' | 'outbox'): Promise<EsignService> {
    const service = await this.service();
    if ((await service.describeSandbox())[part]) return service;
    throw new CliError(
      `The backend selected, ${this.selected(await this.settings())}, has no sandbox ${part}: nothing was done.`,
      EXIT.USAGE,
    );
  }

  /** The remote backend selected and where it was chosen: `http://... (ESIGN_BASE_URL)`. */
  private selected(s: Settings): string {
    return `${s.baseUrl} (${this.urlSource(s)})`;
  }

  /** Where the base URL came from: `ESIGN_BASE_URL` or `profile "prod"`. */
  private urlSource(s: Settings): string {
    return s.urlFrom === 'ESIGN_BASE_URL' ? 'ESIGN_BASE_URL' : `profile "${s.profile}"`;
  }

  /** The backend in words for a message: `http://... (profile "prod")`, or `the local engine (DIR)`. */
  async where(): Promise<string> {
    const s = await this.settings();
    return s.baseUrl ? this.selected(s) : `the local engine (${await this.dataDir()})`;
  }

  /**
   * The embedded engine itself, for `esign local ...` administration and `esign serve` (which
   * passes its options on first use). This is the one place the CLI constructs the engine.
   */
  async local(o: EngineOptions = {}): Promise<LocalBackend> {
    if (!this.engine) {
      const backends = this.wired();
      const dataDir = await this.dataDir();
      try {
        const report = (line: string) => void this.io.err.write(`${line}\n`);
        this.engine = await backends.engine({ dataDir, report, env: this.env, ...o });
      } catch (e) {
        throw openFailure(e, await backends.databasePath(dataDir));
      }
    }
    return this.engine;
  }

  /**
   * An embedded engine of its own on `dataDir`, which the caller closes (esign scenario run: a fresh
   * engine for each file; esign serve: one per sandbox). Nothing of the user's own data directory is touched.
   */
  async freshEngine(dataDir: string, o: EngineOptions = {}): Promise<LocalBackend> {
    const report = (line: string) => void this.io.err.write(`${stripControl(line)}\n`);
    return this.wired().engine({ dataDir, report, env: this.env, ...o });
  }

  /**
   * The remote server a run was pointed at on purpose: `url` when given, else a profile or
   * ESIGN_BASE_URL named for it (not the profile made current with `profile use`). Undefined: the
   * run is the embedded engine's.
   */
  async chosenRemote(url?: string): Promise<RemoteChoice | undefined> {
    const env = environment(this.env);
    if (url) return { baseUrl: url, apiKey: env.apiKey, live: false };
    if (!(this.options.profile || env.profile || env.baseUrl)) return undefined;
    return this.remoteSettings();
  }

  /** The remote server of the settings (a profile or ESIGN_BASE_URL); undefined with the embedded engine. */
  async remoteSettings(): Promise<RemoteChoice | undefined> {
    const s = await this.settings();
    return s.baseUrl ? { baseUrl: s.baseUrl, apiKey: s.apiKey, live: s.live } : undefined;
  }

  /**
   * The sandboxes of the server `url` names (an API base URL), else of the remote backend selected;
   * the caller closes it. The embedded engine hosts none: it is refused, saying how to name a server.
   */
  async sandboxes(url?: string, apiKey?: string): Promise<{ manager: SandboxManager; server: string }> {
    const chosen = url ? { baseUrl: url, apiKey: apiKey ?? environment(this.env).apiKey } : await this.remoteSettings();
    if (!chosen)
      throw new CliError(
        'Sandboxes live on an esign serve: name its API base URL with --backend (or ESIGN_BASE_URL, or a profile), ' +
          'and its key with ESIGN_API_KEY. The embedded engine needs none: each data directory is a sandbox of its own.',
        EXIT.USAGE,
      );
    if (!isHttpUrl(chosen.baseUrl))
      throw new CliError(
        `"${chosen.baseUrl}" is not an http(s) URL (for example http://127.0.0.1:8787/api/v2).`,
        EXIT.USAGE,
      );
    const manager = await this.wired().sandboxes(this.remoteOptions(chosen.baseUrl, chosen.apiKey));
    return { manager, server: chosen.baseUrl };
  }

  /** A remote API v2 server of the caller's choosing (esign scenario run --backend), which the caller closes. */
  async remoteService(baseUrl: string, apiKey: string | undefined): Promise<EsignService> {
    if (!isHttpUrl(baseUrl))
      throw new CliError(`"${baseUrl}" is not an http(s) URL (for example http://127.0.0.1:8787/api/v2).`, EXIT.USAGE);
    return this.wired().remote(this.remoteOptions(baseUrl, apiKey));
  }

  async close(): Promise<void> {
    // An injected backend is its owner's to close.
    if (this.engine !== this.injected) await this.engine?.close();
    await this.remote?.close();
  }
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
