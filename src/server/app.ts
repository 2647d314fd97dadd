// `esign serve`: any EsignService as API v2 over HTTP, the wire of the hosted service.
// A thin translation: HTTP in, one service call, HTTP out. Validation and rules live in the service.
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { ApiError } from '../service/errors.js';
import type { HostedEngine } from '../service/hosting.js';
import type { EsignService } from '../service/service.js';
import type { AttachedFile, Page, RateLimit } from '../service/types.js';
import { DEFAULT_LIMITS, DOCUMENT_JSON_ROUTES, nestedDeeperThan, type ServerLimits } from './limits.js';
import { DEFAULT_RATE_LIMITS, type RateLimitConfig, RateLimiter } from './rateLimit.js';
import { redactTokens } from '../service/linkPaths.js';
import { API_ROOT, operationRow, routePattern } from '../service/operationTable.js';
import { apiRoutes, type Handler, type Result, type Route } from './apiRoutes.js';
import { bodyOf, parseForm } from './formBody.js';
import { BodyBudget, bodyIntake } from './bodyIntake.js';
import { type ConnectionGuard, guardConnections } from './connections.js';
import type { LocalBackend } from '../service/localAdmin.js';
import type { SandboxLimits } from './sandboxes/limits.js';
import type { SandboxRegistry } from './sandboxes/registry.js';
import { hostCheck } from './hostNames.js';
import { receiveForm } from './multipartForm.js';
import { apiRefusalLimits } from './refusals.js';
import { type Door, errorObject, newServer, openDoors } from './doors.js';

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

const ok = (body: unknown, status = 200): Result => ({ status, body });

/** JSON text as a value: prototype keys and nesting deeper than the API uses are a parse_error. */
function parseJson(text: string, maxDepth: number, what = 'Malformed JSON'): unknown {
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (e) {
    throw new ApiError(400, 'parse_error', `${what}: ${(e as Error).message}`);
  }
  if (nestedDeeperThan(value, maxDepth))
    throw new ApiError(400, 'parse_error', `${what}: nested deeper than ${maxDepth} levels.`);
  return value;
}

/**
 * Multipart Bundle creation: `files` parts plus a `bundle_request` part holding the JSON, received
 * within the upload limits (multipartForm.ts); the caller cleans up once the Bundle is made.
 */
async function multipartCreate(
  req: FastifyRequest,
  limits: ServerLimits,
): Promise<{ body: unknown; files: AttachedFile[]; cleanup: () => Promise<void> }> {
  const form = await receiveForm(
    req,
    {
      files: limits.uploadFiles,
      fileBytes: limits.uploadFileBytes,
      totalFileBytes: limits.uploadRequestBytes,
      fields: 100,
      fieldBytes: limits.jsonBytes,
      totalFieldBytes: limits.jsonBytes + 100 * 1024,
    },
    { refusal: apiRefusalLimits(limits) },
  );
  try {
    const spec = form.fields.find(([name]) => name === 'bundle_request');
    if (spec === undefined)
      throw new ApiError(400, 'invalid', 'bundle_request: This field is required.', [
        { field: 'bundle_request', message: 'This field is required.' },
      ]);
    const body = parseJson(spec[1], limits.maxDepth, 'bundle_request is not valid JSON');
    // Only the files a document refers to are read into memory; the others keep their place (and
    // name) empty: 600 MB of parts no document named were held whole for the create.
    const documents = (body as { documents?: unknown } | null)?.documents;
    const referred = new Set(
      (Array.isArray(documents) ? documents : []).map((d) => (d as { file_index?: unknown } | null)?.file_index),
    );
    const files = await Promise.all(
      form.files.map(async (f, i) => ({
        filename: f.filename,
        contentType: f.contentType,
        data: referred.has(i) ? await f.read() : Buffer.alloc(0),
      })),
    );
    return { body, files, cleanup: form.cleanup };
  } catch (e) {
    await form.cleanup();
    throw e;
  }
}

/** Every route of the operations table, with the multipart-or-JSON Bundle create written here. */
function routes(s: EsignService, limits: ServerLimits, local?: HostedEngine): Route[] {
  const createBundle: Handler = async (req) => {
    if (req.isMultipart()) {
      const { body, files, cleanup } = await multipartCreate(req, limits);
      try {
        return ok(await s.createBundle(body as Record<string, unknown>, files), 201);
      } finally {
        await cleanup();
      }
    }
    // Which create the body stands for is the port's to decide (the engine, or the server behind the remote adapter).
    return ok(await s.createBundle(bodyOf(req)), 201);
  };
  return apiRoutes({ service: s, local, own: { createBundle }, skip: ['getRateLimit'] });
}

/** `X-Blueink-Pagination: page,total_pages,per_page,total` and an RFC 5988 Link header. */
function paginationHeaders(
  req: FastifyRequest,
  reply: FastifyReply,
  page: Page<unknown>,
  base: string | undefined,
): void {
  reply.header('X-Blueink-Pagination', `${page.page},${page.total_pages},${page.per_page},${page.total}`);
  // From the configured or listening address: the Host header is the client's to choose. Served
  // in-process (esign api on the local engine) there is neither, and the links are relative.
  const url = new URL(`${(base ?? 'http://in-process').replace(/\/+$/, '')}${req.url}`);
  const link = (n: number, rel: string) => {
    url.searchParams.set('page', String(n));
    return `<${base ? url.toString() : `${url.pathname}${url.search}`}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page.page > 1) links.push(link(page.page - 1, 'prev'));
  if (page.page < page.total_pages) links.push(link(page.page + 1, 'next'));
  links.push(link(page.total_pages, 'last'));
  reply.header('Link', links.join(', '));
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Repeated query parameters arrive as one comma-separated value (as `String(list)` always made them). */
function parseQuery(text: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [k, v] of new URLSearchParams(text)) out[k] = k in out ? `${out[k]},${v}` : v;
  return out;
}

type GuardKind = 'call' | 'create' | 'public' | 'status';

/** The id of the API key each request was made with (the request log names it, never the key). */
const keyIds = new WeakMap<FastifyRequest, string>();
type Guard = (req: FastifyRequest, reply: FastifyReply, kind: GuardKind, n?: number) => string;

/** A route of the operations table: the guard as soon as the headers are in, then the one call. */
function tableRoute(
  app: FastifyInstance,
  { op, url, handler }: Route,
  limits: ServerLimits,
  guard: Guard,
  linkBase: () => string | undefined,
) {
  const kind = op.public ? 'public' : (op.throttle ?? 'call');
  app.route({
    method: op.method,
    url: op.fromRoot ? url : `${API_ROOT}${url}`,
    config: { operation: op.name },
    ...(op.documentBody ? { bodyLimit: limits.documentJsonBytes } : {}),
    // The key is checked as soon as the headers are in: a body is read only for a key holder.
    onRequest: async (req, reply) => void guard(req, reply, kind),
    handler: async (req, reply) => {
      const r = await handler(req);
      if (r.page) {
        paginationHeaders(req, reply, r.page, linkBase());
        return reply.code(200).send(r.page.items);
      }
      if (r.status === 204) return reply.code(204).send();
      const json = frozenJson(r.body);
      if (json !== undefined)
        return reply
          .code(r.status ?? 200)
          .type('application/json; charset=utf-8')
          .send(json);
      return reply.code(r.status ?? 200).send(r.body);
    },
  });
}

interface DoorContext {
  opts: ServerOptions;
  limits: ServerLimits;
  guard: Guard;
  limiter: RateLimiter;
  /** Base of the Link headers: the configured address, else the listening one. */
  linkBase: () => string | undefined;
  /** The Host names the console answers (hostNames.ts). */
  consoleHost: (host: string) => boolean;
  keyed: (req: FastifyRequest) => boolean;
  registry?: SandboxRegistry<FastifyInstance>;
  /** The server's root as clients reach it. */
  root: () => string;
}

/**
 * API v2: the routes of the operations table, the rate-limit status, the OpenAPI document, and a
 * 405 naming the allowed methods on every API path.
 */
function apiDoor(c: DoorContext): Door {
  const { opts, limits, guard, limiter } = c;
  const register = async (app: FastifyInstance) => {
    const methodsByPath = new Map<string, string[]>();
    for (const route of routes(opts.service, limits, opts.local)) {
      if (route.op.fromRoot) continue;
      methodsByPath.set(route.url, [...(methodsByPath.get(route.url) ?? []), route.op.method]);
      tableRoute(app, route, limits, guard, c.linkBase);
    }
    const rateLimit = routePattern(operationRow('getRateLimit')!.path);
    app.route({
      method: 'GET',
      url: `${API_ROOT}${rateLimit}`,
      config: { operation: 'getRateLimit' },
      onRequest: async (req, reply) => void guard(req, reply, 'status'),
      handler: async (req, reply) => {
        return limiter.peek(guard(req, reply, 'status'));
      },
    });
    methodsByPath.set(rateLimit, ['GET']);
    // The other methods of every known path are a 405 that names the allowed ones.
    for (const [path, allowed] of methodsByPath) {
      const others = METHODS.filter((m) => !allowed.includes(m));
      if (others.length)
        app.route({
          method: others,
          url: `${API_ROOT}${path}`,
          // Refused as soon as the headers are in: a body sent with it is never read.
          onRequest: async (req, reply) => {
            reply.header('Allow', allowed.join(', '));
            throw new ApiError(405, 'method_not_allowed', `Method "${req.method}" not allowed.`);
          },
          handler: async () => undefined,
        });
    }
    (await import('./openapiRoute.js')).registerOpenApi(app, API_ROOT);
  };
  return { name: 'api', paths: [API_ROOT], answer: errorObject, refusals: apiRefusalLimits(limits), register };
}

/**
 * The sandbox's operations (signer activity, webhook test tools, the clock and the outbox) and the
 * request log's stream, outside /api/v2, when the engine is the service.
 */
function sandboxDoor(c: DoorContext): Door {
  const register = async (app: FastifyInstance) => {
    for (const route of routes(c.opts.service, c.limits, c.opts.local))
      if (route.op.fromRoot) tableRoute(app, route, c.limits, c.guard, c.linkBase);
    (await import('./requestLogRoute.js')).registerRequestLog(app, c.opts.local!, (req, reply) =>
      c.guard(req, reply, 'call'),
    );
  };
  return { name: 'sandbox', paths: ['/sandbox'], answer: errorObject, refusals: apiRefusalLimits(c.limits), register };
}

/** What a hosted door may use of the server. */
function hostOf({ opts, limits, guard, limiter }: DoorContext): DoorHost {
  return {
    service: opts.service,
    authorize: async (req, reply) => void guard(req, reply, 'call'),
    bodyLimit: limits.documentJsonBytes,
    countCreate: (req, reply) => void guard(req, reply, 'create'),
    countCalls: (req, reply, n) => void guard(req, reply, 'call', n),
    rateLimit: (req, reply) => limiter.peek(guard(req, reply, 'status')),
    idleTimeoutMs: limits.idleTimeoutMs,
    batches: opts.batches,
  };
}

/**
 * Authenticates and counts the request; `/verify/` is public and limited per client address, and
 * the rate-limit status itself uses no request.
 */
function requestGuard(
  opts: ServerOptions,
  limiter: RateLimiter,
  connections: ReturnType<typeof guardConnections>,
): Guard {
  return (req, reply, kind, n = 1) => {
    let who: string;
    if (kind === 'public') who = `ip:${req.ip}`;
    else {
      const header = req.headers.authorization;
      const m = header ? /^Token\s+(\S+)\s*$/i.exec(header) : null;
      if (!header) {
        reply.header('WWW-Authenticate', 'Token');
        throw new ApiError(401, 'not_authenticated', 'Authentication credentials were not provided.');
      }
      const id = m ? opts.authenticate(m[1]) : undefined;
      if (!id) {
        reply.header('WWW-Authenticate', 'Token');
        throw new ApiError(401, 'authentication_failed', 'Invalid token.');
      }
      connections.trust(req.raw.socket);
      keyIds.set(req, id);
      who = `key:${id}`;
    }
    if (kind === 'status') return who;
    const taken = limiter.take(who, kind === 'create' ? 'create' : 'call', n);
    if (!taken.ok) {
      reply.header('Retry-After', String(taken.retryAfter));
      throw new ApiError(429, 'throttled', `Request was throttled. Expected available in ${taken.retryAfter} seconds.`);
    }
    return who;
  };
}

function registerBodyParsers(app: FastifyInstance, limits: ServerLimits) {
  // An empty JSON body is no body (clients send Content-Type on PUT .../cancel/); bad JSON is a parse_error.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    if (!String(text).trim()) return done(null, undefined);
    try {
      done(null, parseJson(String(text), limits.maxDepth));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, text, done) =>
    done(null, parseForm(String(text))),
  );
}

/** The doors this server opens, in the order given to fastify (any order answers alike). */
async function doorsOf(c: DoorContext): Promise<Door[]> {
  const doors = [apiDoor(c), ...(await Promise.all((c.opts.doors ?? []).map((mount) => mount(hostOf(c)))))];
  if (c.opts.local) {
    const { filesDoor, pagesDoor } = await import('./localRoutes.js');
    doors.push(
      sandboxDoor(c),
      filesDoor(c.opts.local, { keyed: c.keyed, maxPublicDownloads: c.limits.publicDownloads }),
      pagesDoor(c.opts.local),
    );
  }
  if (c.registry)
    doors.push(
      (await import('./sandboxes/door.js')).sandboxesDoor({
        registry: c.registry,
        authorize: (req, reply) => c.guard(req, reply, 'call'),
        root: c.root,
        refusals: apiRefusalLimits(c.limits),
      }),
    );
  if (c.opts.console)
    doors.push(
      (await import('./console/index.js')).consoleDoor({
        service: c.opts.service,
        authenticateKey: c.opts.authenticate,
        keyIsLive: c.opts.keyIsLive,
        backend: 'this server',
        readOnly: c.opts.console.readOnly,
        allowedHost: c.consoleHost,
      }).door,
    );
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
  const limiter = new RateLimiter({ ...DEFAULT_RATE_LIMITS, ...opts.rateLimits });
  await app.register((await import('@fastify/multipart')).default, {
    limits: {
      fileSize: limits.uploadFileBytes,
      files: limits.uploadFiles,
      fieldSize: limits.jsonBytes,
      parts: limits.uploadFiles + 1000,
    },
  });
  app.addHook('onRoute', (route) => {
    if (route.bodyLimit === undefined && DOCUMENT_JSON_ROUTES.some((r) => r.test(route.url ?? '')))
      route.bodyLimit = limits.documentJsonBytes;
  });
  // A request is being answered once its body is in: the connection guard leaves it alone until the answer is out.
  app.addHook('preHandler', (req, _reply, done) => {
    connections.busy(req.raw.socket);
    done();
  });

  registerBodyParsers(app, limits);

  app.addHook('onResponse', answered(opts, connections, log));

  const guard = requestGuard(opts, limiter, connections);
  const linkBase = () => opts.publicUrl ?? (app.addresses().length ? app.listeningOrigin : undefined);
  const consoleHost = hostCheck(() => {
    const listening = app.addresses().filter((a) => typeof a !== 'string');
    return { port: listening[0]?.port ?? 0, addresses: listening.map((a) => a.address), publicUrl: opts.publicUrl };
  }, opts.console?.hosts);
  /** Whether a request shows a live key, trusting its connection when it does (a file link's download). */
  const keyed = (req: FastifyRequest) => {
    const m = /^Token\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!m || !opts.authenticate(m[1]!)) return connections.trusted(req.raw.socket);
    connections.trust(req.raw.socket);
    return true;
  };
  await openDoors(
    app,
    arrange(await doorsOf({ opts, limits, guard, limiter, linkBase, consoleHost, keyed, registry, root })),
  );
  return app;
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
      });
      await app.ready();
      return app;
    },
    closeApp: (app) => app.close(),
  });
}

/** When a request has been answered: its connection is idle again, and it is logged (one line, and the request log). */
function answered(opts: ServerOptions, connections: ReturnType<typeof guardConnections>, log: (line: string) => void) {
  const record = opts.requestLog !== false ? opts.local : undefined;
  return (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    connections.idle(req.raw.socket);
    const path = redactTokens(req.url.split('?')[0]!);
    log(`${req.method} ${path} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`);
    record?.recordRequest({
      time: new Date().toISOString(),
      method: req.method,
      path,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      key_id: keyIds.get(req) ?? null,
      operation: (req.routeOptions.config as { operation?: string } | undefined)?.operation ?? null,
    });
    done();
  };
}

const serializedFrozen = new WeakMap<object, string>();

/** The engine hands out frozen objects from its read cache: their JSON never changes, so it is made once. */
function frozenJson(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || !Object.isFrozen(body)) return undefined;
  let json = serializedFrozen.get(body);
  if (json === undefined) serializedFrozen.set(body, (json = JSON.stringify(body)));
  return json;
}
