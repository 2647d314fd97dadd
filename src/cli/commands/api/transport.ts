// How `esign api` reaches API v2: a remote server through the remote adapter's HTTP client (its
// raw mode: retry policy and timeouts included), or the local engine through the very routes of
// `esign serve`, injected in-process (src/wiring/inProcessApi.ts: no port is opened).

interface RawRequest {
  method: string;
  /** Path from the API root (`/bundles/?page=2`), or from the server root when `fromRoot`. */
  path: string;
  fromRoot: boolean;
  headers: Record<string, string>;
  body?: Buffer;
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
}

type Send = (r: RawRequest) => Promise<RawResponse>;

export interface Transport {
  send: Send;
  close(): Promise<void>;
}
