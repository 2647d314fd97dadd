// How `esign api` reaches API v2: a remote server over HTTP, or the local engine through the very
// routes of `esign serve`, injected in-process (fastify inject: no port is opened).
import { randomBytes } from 'node:crypto';
import type { LocalBackend } from '../../factory.js';

export interface RawRequest {
  method: string;
  /** Path from the API root (`/bundles/?page=2`), or from the server root when `fromRoot`. */
  path: string;
  fromRoot: boolean;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
}

export type Send = (r: RawRequest) => Promise<RawResponse>;

export interface Transport {
  send: Send;
  close(): Promise<void>;
}

export async function remoteTransport(baseUrl: string, apiKey: string | undefined): Promise<Transport> {
  const { request } = await import('undici');
  const apiRoot = baseUrl.replace(/\/+$/, '');
  const serverRoot = apiRoot.replace(/\/api\/v2$/, '');
  return {
    async send(r) {
      const headers: Record<string, string> = {
        ...(apiKey ? { authorization: `Token ${apiKey}` } : {}),
        ...lower(r.headers),
      };
      const res = await request(`${r.fromRoot ? serverRoot : apiRoot}${r.path}`, {
        method: r.method as 'GET',
        headers,
        body: r.body,
      });
      return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
    },
    close: async () => {},
  };
}

/**
 * The local engine behind the server of `esign serve`, called in-process. The server still checks
 * a key: this run's own random key, known only to this process, opens it; stored keys work too.
 */
export async function inProcessTransport(engine: LocalBackend): Promise<Transport> {
  const { buildServer, API_PREFIX } = await import('../../../server/app.js');
  const inProcessKey = randomBytes(24).toString('base64url');
  const app = await buildServer({
    service: engine,
    local: engine,
    authenticate: (key) => (key === inProcessKey ? 'in-process' : engine.keys.authenticate(key)),
  });
  return {
    async send(r) {
      const res = await app.inject({
        method: r.method as 'GET',
        url: r.fromRoot ? r.path : `${API_PREFIX}${r.path}`,
        headers: { authorization: `Token ${inProcessKey}`, ...lower(r.headers) },
        ...(r.body ? { payload: r.body } : {}),
      });
      return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
    },
    close: () => app.close(),
  };
}

const lower = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
