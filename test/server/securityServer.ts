// esign serve in-process on 127.0.0.1 for the security tests: the engine with the outbound-address
// policy on (as `esign serve` runs it), a key, and raw sockets for what fetch cannot send.
import { type AddressInfo, connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { LocalEngine } from '../../src/local/engine.js';
import { buildServer, type ServerOptions } from '../../src/server/app.js';
import { tempDir } from '../helpers.js';

export interface SecureServer {
  engine: LocalEngine;
  app: FastifyInstance;
  origin: string;
  port: number;
  key: string;
  call(path: string, init?: RequestInit & { json?: unknown; auth?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

export async function startServer(opts: Partial<ServerOptions> & { guardUrls?: boolean } = {}): Promise<SecureServer> {
  const { dir, cleanup } = tempDir();
  const engine = new LocalEngine({ dataDir: dir, guardUrls: opts.guardUrls ?? true });
  const key = engine.keys.create('security').key;
  const app = await buildServer({
    service: engine,
    local: engine,
    authenticate: (k) => engine.keys.authenticate(k),
    ...opts,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  engine.setPublicUrl(origin);
  const call = (path: string, init: RequestInit & { json?: unknown; auth?: string | null } = {}) => {
    const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
    if (init.auth !== null) headers.authorization = `Token ${init.auth ?? key}`;
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${origin}${path}`, {
      ...init,
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    });
  };
  return {
    engine,
    app,
    origin,
    port,
    key,
    call,
    close: async () => {
      app.server.closeAllConnections();
      await app.close();
      await engine.close();
      cleanup();
    },
  };
}

/** A raw connection that sends `head` (and whatever else the test writes), collecting what comes back. */
export function rawSocket(
  port: number,
  head: string,
): Promise<Socket & { received: () => string; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port }) as Socket & { received: () => string; ended: Promise<void> };
    let got = '';
    s.on('data', (d) => (got += d.toString('latin1')));
    s.on('error', () => {});
    s.received = () => got;
    s.ended = new Promise((r) => s.once('close', () => r()));
    s.once('connect', () => {
      s.write(head);
      resolve(s);
    });
    s.once('error', reject);
  });
}
