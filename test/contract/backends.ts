// The backends the contract suite runs on: the engine in-process, and the remote adapter talking
// to `esign serve` (the same engine behind fastify) over real HTTP on 127.0.0.1.
import type { AddressInfo } from 'node:net';
import type { LocalEngine } from '../../src/local/engine.js';
import { RemoteService } from '../../src/remote/remote.js';
import { buildServer } from '../../src/server/app.js';
import type { EsignService } from '../../src/service/service.js';
import { newEngine } from '../helpers.js';

export interface Backend {
  service: EsignService;
  /** The engine behind it, for setup a client cannot do (features, users, clock). */
  engine: LocalEngine;
  close(): Promise<void>;
}

export const BACKENDS: { name: string; make: () => Promise<Backend> }[] = [
  {
    name: 'local engine in-process',
    make: async () => {
      const engine = newEngine();
      return { service: engine, engine, close: () => engine.dispose() };
    },
  },
  {
    name: 'remote adapter over HTTP to esign serve',
    make: async () => {
      const engine = newEngine();
      const key = engine.keys.create('contract').key;
      const app = await buildServer({ service: engine, authenticate: (k) => engine.keys.authenticate(k) });
      await app.listen({ host: '127.0.0.1', port: 0 });
      const port = (app.server.address() as AddressInfo).port;
      const service = new RemoteService({ baseUrl: `http://127.0.0.1:${port}/api/v2`, apiKey: key, maxRetries: 0 });
      return {
        service,
        engine,
        close: async () => {
          await service.close();
          await app.close();
          await engine.dispose();
        },
      };
    },
  },
];
