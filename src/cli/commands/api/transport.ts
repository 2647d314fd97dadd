// How `esign api` reaches API v2: a remote server over HTTP, or the local engine through the very
// routes of `esign serve`, injected in-process (src/wiring/inProcessApi.ts: no port is opened).

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

export const lower = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
