// The backends the contract suite runs on: the engine in-process, and the remote adapter talking
// to `esign serve` (the same engine behind fastify) over real HTTP on 127.0.0.1.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { LocalEngine } from '../../src/local/engine.js';
import { RemoteService } from '../../src/remote/remote.js';
import { buildServer } from '../../src/server/app.js';
import { ApiError } from '../../src/service/errors.js';
import type { EsignService } from '../../src/service/service.js';
import type { Packet } from '../../src/service/types.js';
import { newEngine } from '../helpers.js';

/** What a signer does: in-process on the engine, or through the sandbox endpoints of esign serve. */
export interface SignerActions {
  view(packetId: string): Promise<Packet>;
  sign(packetId: string, input: { values?: Record<string, string>; attachments?: Record<string, { name: string; data: Buffer }[]> }): Promise<Packet>;
  decline(packetId: string, reason: string): Promise<Packet>;
}

export interface Backend {
  service: EsignService;
  /** The engine behind it, for setup a client cannot do (features, users, clock). */
  engine: LocalEngine;
  signer: SignerActions;
  /** The bytes behind a file link, fetched the way a client would. */
  download(url: string): Promise<Buffer>;
  close(): Promise<void>;
}

export const BACKENDS: { name: string; make: () => Promise<Backend> }[] = [
  {
    name: 'local engine in-process',
    make: async () => {
      const engine = newEngine();
      const signer: SignerActions = {
        view: (id) => engine.viewPacket(id),
        sign: async (id, input) => {
          const p = await engine.signPacket(id, input);
          await engine.settle();
          return p;
        },
        decline: (id, reason) => engine.declinePacket(id, reason),
      };
      const download = async (url: string) => {
        const link = engine.resolveLink(new URL(url).pathname.split('/')[2]!, 'file');
        if (!link) throw new Error(`no live file link ${url}`);
        return readFileSync(engine.blobPath(link.target));
      };
      return { service: engine, engine, signer, download, close: () => engine.dispose() };
    },
  },
  {
    name: 'remote adapter over HTTP to esign serve',
    make: async () => {
      const engine = newEngine();
      const key = engine.keys.create('contract').key;
      const app = await buildServer({ service: engine, local: engine, authenticate: (k) => engine.keys.authenticate(k) });
      await app.listen({ host: '127.0.0.1', port: 0 });
      const port = (app.server.address() as AddressInfo).port;
      const origin = `http://127.0.0.1:${port}`;
      engine.setPublicUrl(origin);
      const service = new RemoteService({ baseUrl: `${origin}/api/v2`, apiKey: key, maxRetries: 0 });
      const sandbox = async (id: string, verb: string, body: unknown): Promise<Packet> => {
        const r = await fetch(`${origin}/sandbox/packets/${id}/${verb}/`, {
          method: 'POST', headers: { authorization: `Token ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
        });
        const json = await r.json();
        if (!r.ok) throw ApiError.fromWire(r.status, json);
        return json as Packet;
      };
      const signer: SignerActions = {
        view: (id) => sandbox(id, 'view', {}),
        sign: async (id, input) => {
          const attachments = Object.fromEntries(Object.entries(input.attachments ?? {}).map(([k, list]) => [k, list.map((a) => ({ name: a.name, b64: a.data.toString('base64') }))]));
          const p = await sandbox(id, 'sign', { values: input.values ?? {}, attachments });
          await engine.settle();
          return p;
        },
        decline: (id, reason) => sandbox(id, 'decline', { reason }),
      };
      const download = async (url: string) => {
        const r = await fetch(url);
        if (r.status !== 200) throw new Error(`GET ${url}: ${r.status}`);
        return Buffer.from(await r.arrayBuffer());
      };
      return {
        service,
        engine,
        signer,
        download,
        close: async () => {
          await service.close();
          await app.close();
          await engine.dispose();
        },
      };
    },
  },
];
