// esign serve in-process on 127.0.0.1 for the security tests: the engine with the outbound-address
// policy on (as `esign serve` runs it), a key, and raw sockets for what fetch cannot send.
import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { LocalEngine } from '../../src/local/engine.js';
import type { ServerOptions } from '../../src/server/app.js';
import { apiCaller, serveEngine } from '../engineServer.js';
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

export async function startServer(
  opts: Partial<ServerOptions> & { guardUrls?: boolean; loopbackUrls?: boolean } = {},
): Promise<SecureServer> {
  const { dir, cleanup } = tempDir();
  const engine = new LocalEngine({ dataDir: dir, guardUrls: opts.guardUrls ?? true, loopbackUrls: opts.loopbackUrls });
  const served = await serveEngine(engine, opts, 'security');
  return {
    engine,
    ...served,
    call: apiCaller(served.origin, served.key),
    close: async () => {
      served.app.server.closeAllConnections();
      await served.close();
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
