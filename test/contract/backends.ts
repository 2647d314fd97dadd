// The backends the contract suite runs on: the engine in-process, and the remote adapter talking
// to `esign serve` (the same engine behind fastify) over real HTTP on 127.0.0.1, every response of
// which is checked against the operations table as it arrives (wireHook.ts): a scenario whose wire
// differs fails when its backend closes.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach } from 'vitest';
import type { LocalEngine } from '../../src/local/engine.js';
import { RemoteService } from '../../src/remote/remote.js';
import type { EsignService } from '../../src/service/service.js';
import { serveEngine } from '../engineServer.js';
import { newEngine } from '../helpers.js';
import { watchWire } from './wireHook.js';

export interface Backend {
  service: EsignService;
  /** The engine behind it, for setup a client cannot do (features, users, clock). */
  engine: LocalEngine;
  /** Waits for the engine's background work (files and evidence after the last signature). */
  settle(): Promise<void>;
  /** The bytes behind a file link, fetched the way a client would. */
  download(url: string): Promise<Buffer>;
  close(): Promise<void>;
}

export const BACKENDS: { name: string; make: () => Promise<Backend> }[] = [
  {
    name: 'local engine in-process',
    make: async () => {
      const engine = newEngine();
      const download = async (url: string) => {
        const link = engine.resolveLink(new URL(url).pathname.split('/')[2]!, 'file');
        if (!link) throw new Error(`no live file link ${url}`);
        return readFileSync(engine.blobPath(link.target));
      };
      return { service: engine, engine, settle: () => engine.settle(), download, close: () => engine.dispose() };
    },
  },
  {
    name: 'remote adapter over HTTP to esign serve',
    make: async () => {
      const engine = newEngine();
      const { key, origin, close } = await serveEngine(engine, {}, 'contract');
      // Every response the adapter receives is read raw and held to the operations table.
      const wire = watchWire();
      const service = new RemoteService({
        baseUrl: `${origin}/api/v2`,
        apiKey: key,
        maxRetries: 0,
        dispatcher: wire.dispatcher,
      });
      const download = async (url: string) => {
        const r = await fetch(url);
        if (r.status !== 200) throw new Error(`GET ${url}: ${r.status}`);
        return Buffer.from(await r.arrayBuffer());
      };
      return {
        service,
        engine,
        settle: () => engine.settle(),
        download,
        close: async () => {
          await service.close();
          await wire.dispatcher.close();
          await close();
          await engine.dispose();
          wire.assertClean();
        },
      };
    },
  },
];

/** The backend `make` gives, fresh for every test of the calling suite and closed after each. */
export function useBackend(make: () => Promise<Backend>): Backend {
  let current: Backend | undefined;
  beforeEach(async () => {
    current = await make();
  });
  afterEach(async () => current?.close());
  const now = () => {
    if (!current) throw new Error('useBackend: the backend is made in beforeEach');
    return current;
  };
  return {
    get service() {
      return now().service;
    },
    get engine() {
      return now().engine;
    },
    settle: () => now().settle(),
    download: (url) => now().download(url),
    close: () => now().close(),
  };
}
