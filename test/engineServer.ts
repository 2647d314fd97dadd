// `esign serve` in-process over a test's engine, on 127.0.0.1 (port 0), and the CLI's environment for
// either backend: what the contract, CLI and security tests each used to build by hand.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { LocalEngine } from '../src/local/engine.js';
import { buildServer, type ServerOptions } from '../src/server/app.js';
import { serverDoors } from '../src/wiring/doors.js';

export interface ServedEngine {
  app: FastifyInstance;
  /** An API key made for this server. */
  key: string;
  /** http://127.0.0.1:PORT, also the engine's public URL (links in Bundles point here). */
  origin: string;
  port: number;
  close(): Promise<void>;
}

export async function serveEngine(
  engine: LocalEngine,
  opts: Partial<ServerOptions> = {},
  keyName = 'test',
): Promise<ServedEngine> {
  const key = engine.keys.create(keyName).key;
  // As esign serve makes it by default: every door open, the support console too.
  const app = await buildServer({
    service: engine,
    local: engine,
    authenticate: (k) => engine.keys.authenticate(k),
    keyIsLive: (id) => engine.keys.isLive(id),
    console: {},
    doors: serverDoors,
    ...opts,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  engine.setPublicUrl(origin);
  return { app, key, origin, port, close: () => app.close() };
}

/** The CLI's environment for the local engine in `dataDir` (no remote settings leak in). */
export const localEnv = (dataDir: string) => ({ ESIGN_DATA_DIR: dataDir, ESIGN_BASE_URL: '', ESIGN_API_KEY: '' });

/** The CLI's environment for a remote backend at `origin` (its own data directory, or none). */
export const remoteEnv = (origin: string, key: string, dataDir = '') => ({
  ESIGN_BASE_URL: `${origin}/api/v2`,
  ESIGN_API_KEY: key,
  ESIGN_DATA_DIR: dataDir,
});

/** A fetch to `origin` with the API key (or `auth`, or none when null) and an optional JSON body. */
export const apiCaller =
  (origin: string, key: string) =>
  (path: string, init: RequestInit & { json?: unknown; auth?: string | null } = {}) => {
    const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
    if (init.auth !== null) headers.authorization = `Token ${init.auth ?? key}`;
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${origin}${path}`, {
      ...init,
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    });
  };
