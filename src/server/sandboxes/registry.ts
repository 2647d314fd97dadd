// The sandboxes one esign serve hosts: each an engine of its own on a data directory of its own
// (`<data dir>/sandboxes/<id>/data`: its SQLite file, documents, clock, outbox, keys and webhooks),
// with a record beside it (`sandbox.json`: name, creator, life). Engines open on first use and stay
// open until the sandbox is deleted, expires, or the server stops; the records outlive a restart.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../../domain/errors.js';
import type { LocalBackend } from '../../service/localAdmin.js';
import type { Sandbox, SandboxMade } from '../../service/sandboxes.js';
import { DEFAULT_SANDBOX_LIMITS, NAME_MAX, type SandboxLimits } from './limits.js';

/** What is kept of a sandbox beside its data (`sandbox.json`). */
type SandboxRecord = Pick<Sandbox, 'id' | 'name' | 'created_at' | 'expires_at' | 'created_by'>;

/** The engine of one sandbox and whatever serves it (its server, closed before the engine). */
export interface OpenSandbox<App> {
  engine: LocalBackend;
  app: App;
}

export interface RegistryOptions<App> {
  /** `<data dir>/sandboxes` */
  dir: string;
  /** An engine on a sandbox's own data directory (the wiring builds it as esign serve's own). */
  openEngine: (dataDir: string) => Promise<LocalBackend>;
  /** What serves a sandbox once its engine is open, and how it is closed. */
  serve: (engine: LocalBackend, id: string) => Promise<App>;
  closeApp: (app: App) => Promise<void>;
  limits?: Partial<SandboxLimits>;
  /** Wall time in ms (tests move it instead of waiting). */
  now?: () => number;
  report?: (line: string) => void;
}

const ID = /^sbx_[0-9a-f]{20}$/;
const DUE_WORK_INTERVAL_MS = 5_000;

export class SandboxRegistry<App> {
  readonly limits: SandboxLimits;
  private readonly records = new Map<string, SandboxRecord>();
  private readonly open = new Map<string, Promise<OpenSandbox<App>>>();
  /** Bytes last measured, plus what write requests declared since. */
  private readonly sizes = new Map<string, { measured: number; since: number }>();
  private readonly now: () => number;
  private timers: NodeJS.Timeout[] = [];
  private sweeping: Promise<void> | undefined;

  constructor(private readonly o: RegistryOptions<App>) {
    this.limits = { ...DEFAULT_SANDBOX_LIMITS, ...o.limits };
    this.now = o.now ?? Date.now;
  }

  /** Reads the records left by an earlier run and starts the sweeps; expired ones go at once. */
  async start(): Promise<void> {
    await mkdir(this.o.dir, { recursive: true, mode: 0o700 });
    for (const id of await readdir(this.o.dir)) {
      if (!ID.test(id)) continue;
      try {
        const r = JSON.parse(await readFile(join(this.o.dir, id, 'sandbox.json'), 'utf8')) as SandboxRecord;
        if (r.id === id) this.records.set(id, r);
      } catch {
        // A sandbox whose record never got written (the server stopped mid-create) is removed.
        await rm(join(this.o.dir, id), { recursive: true, force: true });
      }
    }
    await this.sweep();
    this.timers = [
      setInterval(() => void this.sweep(), this.limits.sweepMs),
      setInterval(() => this.runDue(), DUE_WORK_INTERVAL_MS),
    ];
    for (const t of this.timers) t.unref();
  }

  async create(by: string, body: unknown, baseOf: (id: string) => string): Promise<SandboxMade> {
    const { name, ttl } = this.parse(body);
    // Expired ones not yet swept count no more: they are gone for every request already.
    if ([...this.records.values()].filter((r) => !this.expired(r)).length >= this.limits.max)
      throw new ApiError(
        409,
        'conflict',
        `This server holds at most ${this.limits.max} sandboxes at once: delete one (esign sandbox delete) or wait for one to expire.`,
      );
    const id = `sbx_${randomBytes(10).toString('hex')}`;
    const at = this.now();
    const record: SandboxRecord = {
      id,
      name: name ?? id,
      created_at: new Date(at).toISOString(),
      expires_at: new Date(at + ttl * 1000).toISOString(),
      created_by: by,
    };
    // Counted from now: a burst of creates cannot pass the cap while engines open.
    this.records.set(id, record);
    try {
      await mkdir(join(this.o.dir, id), { mode: 0o700 });
      const { engine } = await this.openSandbox(id);
      const { key } = engine.keys.create('sandbox');
      await writeFile(join(this.o.dir, id, 'sandbox.json'), JSON.stringify(record), { mode: 0o600 });
      return { ...this.view(record, baseOf), api_key: key };
    } catch (e) {
      await this.remove(id);
      throw e;
    }
  }

  list(baseOf: (id: string) => string): Sandbox[] {
    return [...this.records.values()].filter((r) => !this.expired(r)).map((r) => this.view(r, baseOf));
  }

  get(id: string, baseOf: (id: string) => string): Sandbox {
    return this.view(this.known(id), baseOf);
  }

  async delete(id: string): Promise<void> {
    this.known(id);
    await this.remove(id);
  }

  /** The open sandbox of `id`, opening it on first use; undefined when there is none (or it expired). */
  async lookup(id: string): Promise<OpenSandbox<App> | undefined> {
    const r = ID.test(id) ? this.records.get(id) : undefined;
    if (!r || this.expired(r)) return undefined;
    return this.openSandbox(id);
  }

  /** Whether a write of `bytes` more would take the sandbox past its disk (counted when it is not). */
  wouldOverflow(id: string, bytes: number): boolean {
    const s = this.sizes.get(id) ?? { measured: 0, since: 0 };
    if (s.measured + s.since >= this.limits.maxBytes) return true;
    this.sizes.set(id, { measured: s.measured, since: s.since + bytes });
    return false;
  }

  /** Deletes expired sandboxes and measures the rest (one sweep at a time). */
  sweep(): Promise<void> {
    if (this.sweeping) return this.sweeping;
    const run = (async () => {
      for (const r of [...this.records.values()])
        if (this.expired(r)) await this.remove(r.id);
        else this.sizes.set(r.id, { measured: await sizeOf(join(this.o.dir, r.id)), since: 0 });
    })();
    this.sweeping = run
      .catch((e: unknown) => this.o.report?.(`sandboxes: a sweep failed: ${(e as Error).message}`))
      .finally(() => {
        this.sweeping = undefined;
      });
    return this.sweeping;
  }

  /** Stops the sweeps and closes every open sandbox; their data stays for the next run. */
  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await Promise.all([...this.open.keys()].map((id) => this.shut(id)));
  }

  private runDue(): void {
    for (const opening of this.open.values())
      void opening.then(
        ({ engine }) => engine.runDue(),
        () => undefined,
      );
  }

  private openSandbox(id: string): Promise<OpenSandbox<App>> {
    let opening = this.open.get(id);
    if (!opening) {
      opening = (async () => {
        const engine = await this.o.openEngine(join(this.o.dir, id, 'data'));
        try {
          const app = await this.o.serve(engine, id);
          await engine.startWebhookDelivery();
          return { engine, app };
        } catch (e) {
          await engine.close();
          throw e;
        }
      })();
      this.open.set(id, opening);
      opening.catch(() => this.open.delete(id));
    }
    return opening;
  }

  private async shut(id: string): Promise<void> {
    const opening = this.open.get(id);
    this.open.delete(id);
    const sandbox = await opening?.catch(() => undefined);
    if (!sandbox) return;
    await this.o.closeApp(sandbox.app).catch(() => undefined);
    await sandbox.engine.close().catch((e: unknown) => this.o.report?.(`sandbox ${id}: ${(e as Error).message}`));
  }

  private async remove(id: string): Promise<void> {
    this.records.delete(id);
    this.sizes.delete(id);
    await this.shut(id);
    await rm(join(this.o.dir, id), { recursive: true, force: true });
  }

  private known(id: string): SandboxRecord {
    const r = ID.test(id) ? this.records.get(id) : undefined;
    if (!r || this.expired(r)) throw new ApiError(404, 'not_found', 'No such sandbox.');
    return r;
  }

  private expired(r: SandboxRecord): boolean {
    return Date.parse(r.expires_at) <= this.now();
  }

  private view(r: SandboxRecord, baseOf: (id: string) => string): Sandbox {
    const s = this.sizes.get(r.id);
    return {
      ...r,
      base_url: baseOf(r.id),
      size_bytes: s ? s.measured : 0,
      max_bytes: this.limits.maxBytes,
    };
  }

  private parse(body: unknown): { name?: string; ttl: number } {
    const b = (body ?? {}) as Record<string, unknown>;
    if (typeof b !== 'object' || Array.isArray(b)) throw invalid('non_field_errors', 'Expected an object.');
    for (const k of Object.keys(b))
      if (k !== 'name' && k !== 'ttl_seconds') throw invalid(k, 'Not a field of a sandbox (name, ttl_seconds).');
    const { name, ttl_seconds } = b;
    if (name !== undefined && (typeof name !== 'string' || name.length > NAME_MAX || !/^[\x20-\x7e]+$/.test(name)))
      throw invalid('name', `Give 1 to ${NAME_MAX} printable ASCII characters.`);
    const ttl = ttl_seconds ?? this.limits.defaultTtlSeconds;
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1 || ttl > this.limits.maxTtlSeconds)
      throw invalid('ttl_seconds', `Give a whole number of seconds from 1 to ${this.limits.maxTtlSeconds}.`);
    return { name: name as string | undefined, ttl };
  }
}

const invalid = (field: string, message: string) =>
  new ApiError(400, 'invalid', `${field}: ${message}`, [{ field, message }]);

/** Bytes of the files under `dir` (a sandbox's database, its WAL and its documents). */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const e of entries)
    if (e.isFile())
      total += await stat(join(e.parentPath ?? (e as { path: string }).path, e.name)).then(
        (s) => s.size,
        () => 0,
      );
  return total;
}
