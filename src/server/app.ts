// `esign serve`: any EsignService as API v2 over HTTP, the wire of the hosted service.
// A thin translation: HTTP in, one service call, HTTP out. Validation and rules live in the service.
// This file assembles the server from its plugins, in this order: the body intake's rules and
// parsers, the connection guard's bookkeeping, the key and rate guard, pagination and logging (all
// of the server, not of a scope), then the doors, each a plugin in a scope of its own (doors.ts).
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HostedEngine } from '../service/hosting.js';
import { redactTokens } from '../service/linkPaths.js';
import type { LocalBackend } from '../service/localAdmin.js';
import type { EsignService } from '../service/service.js';
import type { RateLimit } from '../service/types.js';
import { apiDoor } from './apiDoor.js';
import { BodyBudget, bodyIntake } from './bodyIntake.js';
import { bodyParsers } from './bodyParsers.js';
import { connectionUse } from './connectionUse.js';
import { type ConnectionGuard, guardConnections } from './connections.js';
import { type Door, newServer, openDoors } from './doors.js';
import { hostCheck } from './hostNames.js';
import { keyGuard } from './keyGuard.js';
import { DEFAULT_LIMITS, type ServerLimits } from './limits.js';
import { pagination } from './pagination.js';
import { DEFAULT_RATE_LIMITS, type RateLimitConfig, RateLimiter } from './rateLimit.js';
import { apiRefusalLimits } from './refusals.js';
import { requestLogging } from './requestLogging.js';
import { sandboxDoor } from './sandboxDoor.js';
import type { SandboxLimits } from './sandboxes/limits.js';
import type { SandboxRegistry } from './sandboxes/registry.js';

export interface ServerOptions {
  service: EsignService;
  /** Returns the id of the live API key, or undefined. */
  authenticate: (key: string) => string | undefined;
  /** Whether the key of this id is still live: a console session signed in with it ends when it is not. */
  keyIsLive?: (id: string) => boolean;
  rateLimits?: Partial<RateLimitConfig>;
  /** One line per request (method, path, status, ms); never the key. */
  log?: (line: string) => void;
  /** Sizes, timeouts and connection bounds (limits.ts); `maxUploadBytes` is `limits.uploadFileBytes`. */
  limits?: Partial<ServerLimits>;
  maxUploadBytes?: number;
  /** Base of the URLs in Link headers (esign serve --public-url); else the listening address. */
  publicUrl?: string;
  /** The embedded engine, when it is the service: adds file links, the sandbox and the signing page. */
  local?: HostedEngine;
  /**
   * The support console at /console/ over the same service (signed in with an API key); it answers
   * the server's own names only, and `hosts` (DNS rebinding).
   */
  console?: { readOnly?: boolean; hosts?: string[] };
  /** Keep each request in the engine's request log (default true when the engine is the service). */
  requestLog?: boolean;
  /** Other doors served beside the API (esign serve: MCP at /mcp), each behind the API's own guard. */
  doors?: readonly DoorMount[];
  /** Sandboxes hosted at /sandboxes/{id}/, each this same server on an engine of its own (sandboxes/). */
  sandboxes?: SandboxHosting;
  /** A sandbox's server: the connection guard and body budgets of the server that hands it requests. */
  within?: HostGuards;
  /**
   * Serve the fixture operations (PATCH /sandbox/account/, POST /sandbox/templates/...): a sandbox's
   * server, or `esign api` on the user's own engine; elsewhere they are a 403, their body unread.
   */
  fixtures?: boolean;
  /** Where a door keeps batch journals (MCP's send_batch), and the backend as they name it. */
  batches?: { dir: string; backend: string };
}

export interface SandboxHosting {
  /** Where their data directories go: `<data dir>/sandboxes`. */
  dir: string;
  openEngine: (dataDir: string) => Promise<LocalBackend>;
  limits?: Partial<SandboxLimits>;
  /** Wall time in ms (tests move it). */
  now?: () => number;
}

interface HostGuards {
  connections: ConnectionGuard;
  keyedBodies: BodyBudget;
  publicBodies: BodyBudget;
}

/** What the server lends a door it hosts: the service, and the API's key check and rate counting. */
export interface DoorHost {
  service: EsignService;
  /** Authenticates and counts the request before its body is read (the API's own guard). */
  authorize: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** The largest request body (a create with documents in base64). */
  bodyLimit: number;
  /** Takes one create from the key's create limit, or throws the API's 429 (a Bundle about to be made). */
  countCreate: (req: FastifyRequest, reply: FastifyReply) => void;
  /** Takes `n` calls from the key's limit at once, or throws the API's 429 (a batch of calls). */
  countCalls: (req: FastifyRequest, reply: FastifyReply, n: number) => void;
  /** The key's rate limit as GET /rate_limit/ answers it: the server's one counter. */
  rateLimit: (req: FastifyRequest, reply: FastifyReply) => RateLimit;
  /** A connection with no traffic for this long is closed (a door that answers slowly keeps it talking). */
  idleTimeoutMs: number;
  /** Where batch journals live; absent: the server keeps none. */
  batches?: { dir: string; backend: string };
}

/** A door the server hosts (src/wiring names them: the server imports no other door). */
export type DoorMount = (host: DoorHost) => Door | Promise<Door>;

/** What a hosted door may use of the server. */
function hostOf(app: FastifyInstance, opts: ServerOptions, limits: ServerLimits): DoorHost {
  return {
    service: opts.service,
    authorize: async (req, reply) => void app.guard(req, reply, 'call'),
    bodyLimit: limits.documentJsonBytes,
    countCreate: (req, reply) => void app.guard(req, reply, 'create'),
    countCalls: (req, reply, n) => void app.guard(req, reply, 'call', n),
    rateLimit: (req, reply) => app.rateLimitOf(req, reply),
    idleTimeoutMs: limits.idleTimeoutMs,
    batches: opts.batches,
  };
}

/** The doors this server opens, in the order given to fastify (any order answers alike). */
async function doorsOf(
  app: FastifyInstance,
  opts: ServerOptions,
  limits: ServerLimits,
  registry: SandboxRegistry<FastifyInstance> | undefined,
  root: () => string,
): Promise<Door[]> {
  const { service, local } = opts;
  const host = hostOf(app, opts, limits);
  const doors = [apiDoor({ service, local, limits }), ...(await Promise.all((opts.doors ?? []).map((m) => m(host))))];
  if (local) {
    const { filesDoor, pagesDoor } = await import('./localRoutes.js');
    doors.push(
      sandboxDoor({ service, local, limits, fixtures: opts.fixtures === true }),
      filesDoor(local, { keyed: (req) => app.keyed(req), maxPublicDownloads: limits.publicDownloads }),
      pagesDoor(local),
    );
  }
  if (registry)
    doors.push(
      (await import('./sandboxes/door.js')).sandboxesDoor({
        registry,
        authorize: (req, reply) => app.guard(req, reply, 'call'),
        root,
        refusals: apiRefusalLimits(limits),
      }),
    );
  if (opts.console) {
    const hosts = opts.console.hosts;
    // The Host names the console answers (hostNames.ts): the server's own, and `hosts`.
    const consoleHost = hostCheck(() => {
      const listening = app.addresses().filter((a) => typeof a !== 'string');
      return { port: listening[0]?.port ?? 0, addresses: listening.map((a) => a.address), publicUrl: opts.publicUrl };
    }, hosts);
    doors.push(
      (await import('./console/index.js')).consoleDoor({
        service,
        authenticateKey: opts.authenticate,
        keyIsLive: opts.keyIsLive,
        backend: 'this server',
        readOnly: opts.console.readOnly,
        allowedHost: consoleHost,
      }).door,
    );
  }
  return doors;
}

/**
 * `esign serve`'s app. `arrange` orders the doors (a test opens them in another order: the
 * answers must not change).
 */
export async function buildServer(
  opts: ServerOptions,
  arrange: (doors: Door[]) => Door[] = (doors) => doors,
): Promise<FastifyInstance> {
  const limits: ServerLimits = {
    ...DEFAULT_LIMITS,
    ...(opts.maxUploadBytes ? { uploadFileBytes: opts.maxUploadBytes } : {}),
    ...opts.limits,
  };
  const out = opts.log;
  const log = out ? (line: string) => out(redactTokens(line)) : () => {};
  const root = () => opts.publicUrl ?? app.listeningOrigin;
  const registry = opts.sandboxes ? await hostSandboxes(opts, opts.sandboxes, () => guards, root) : undefined;
  const app = newServer(
    {
      ...(registry ? { serverFactory: (await import('./sandboxes/door.js')).sandboxServerFactory(registry) } : {}),
      logger: false,
      routerOptions: { ignoreTrailingSlash: true, querystringParser: parseQuery },
      bodyLimit: limits.jsonBytes,
      requestTimeout: limits.requestTimeoutMs,
      connectionTimeout: limits.idleTimeoutMs,
      http: {
        headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
        connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
      },
    },
    log,
  );
  // A sandbox's server shares the guards of the server that hands it requests (the same sockets).
  const guards: HostGuards = opts.within ?? {
    connections: guardConnections(app.server, {
      perAddress: limits.connectionsPerAddress,
      max: limits.maxConnections,
      readFloorBytes: limits.readFloorBytes,
      readWindowMs: limits.readWindowMs,
    }),
    keyedBodies: new BodyBudget(limits.keyedBodyMemoryBytes),
    publicBodies: new BodyBudget(limits.publicBodyMemoryBytes),
  };
  const { connections, keyedBodies, publicBodies } = guards;
  if (!opts.within) app.addHook('onClose', async () => connections.stop());
  if (registry) {
    await registry.start();
    app.addHook('onClose', async () => registry.close());
  }
  bodyIntake(app, {
    freeBytes: limits.jsonBytes,
    budgetOf: (req) => (connections.trusted(req.raw.socket) ? keyedBodies : publicBodies),
    lingerMs: limits.unreadLingerMs,
  });
  await app.register(bodyParsers, { limits });
  await app.register(connectionUse, { connections });
  await app.register(keyGuard, {
    authenticate: opts.authenticate,
    limiter: new RateLimiter({ ...DEFAULT_RATE_LIMITS, ...opts.rateLimits }),
    connections,
  });
  await app.register(pagination, {
    linkBase: () => opts.publicUrl ?? (app.addresses().length ? app.listeningOrigin : undefined),
  });
  await app.register(requestLogging, { log, record: opts.requestLog !== false ? opts.local : undefined });
  await openDoors(app, arrange(await doorsOf(app, opts, limits, registry, root)));
  return app;
}

/** Repeated query parameters arrive as one comma-separated value (as `String(list)` always made them). */
function parseQuery(text: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [k, v] of new URLSearchParams(text)) out[k] = k in out ? `${out[k]},${v}` : v;
  return out;
}

/** The sandboxes a server hosts: each served by this same server, built on the sandbox's engine. */
async function hostSandboxes(
  opts: ServerOptions,
  h: SandboxHosting,
  guards: () => HostGuards,
  root: () => string,
): Promise<SandboxRegistry<FastifyInstance>> {
  const [{ SandboxRegistry }, { sandboxRoot }] = await Promise.all([
    import('./sandboxes/registry.js'),
    import('./sandboxes/door.js'),
  ]);
  const log = opts.log;
  return new SandboxRegistry<FastifyInstance>({
    dir: h.dir,
    openEngine: h.openEngine,
    limits: h.limits,
    now: h.now,
    report: log,
    serve: async (engine, id) => {
      const url = sandboxRoot(root(), id);
      engine.setPublicUrl(url);
      const app = await buildServer({
        service: engine,
        local: engine,
        authenticate: (key) => engine.keys.authenticate(key),
        keyIsLive: (keyId) => engine.keys.isLive(keyId),
        rateLimits: opts.rateLimits,
        log: log && ((line) => log(`${id}: ${line}`)),
        limits: opts.limits,
        maxUploadBytes: opts.maxUploadBytes,
        publicUrl: url,
        requestLog: opts.requestLog,
        doors: opts.doors,
        // Its MCP batches journal inside it, gone with it.
        batches: opts.batches && { dir: join(h.dir, id, 'batches'), backend: `${opts.batches.backend} sandbox ${id}` },
        within: guards(),
        fixtures: true,
      });
      await app.ready();
      return app;
    },
    closeApp: (app) => app.close(),
  });
}
