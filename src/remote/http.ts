// HTTP for the remote backend: one undici keep-alive pool per base URL, Token auth, timeouts, and
// retries with exponential backoff and jitter for what is safe to repeat.
import { Agent, FormData, request } from 'undici';
import { ApiError } from '../service/errors.js';

export interface HttpOptions {
  baseUrl: string;
  apiKey?: string;
  /** Per request, for headers and for the body (ms). */
  timeoutMs?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /** First backoff step (ms); it doubles each attempt, capped at maxDelayMs, with full jitter. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A server asking to wait longer than this (Retry-After) gets its error back at once. */
  maxRetryAfterMs?: number;
  /** Where retry notes and ESIGN_DEBUG=api lines go. */
  note?: (line: string) => void;
  debug?: boolean;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** The server could not be reached, or the connection broke, after every retry. */
export class TransportError extends Error {
  constructor(message: string, readonly causeCode?: string) {
    super(message);
    this.name = 'TransportError';
  }
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** An answer that may be different if asked again (throttled, or a gateway or the service briefly down). */
export const isTransientStatus = (status: number): boolean => RETRY_STATUSES.has(status);
const RETRY_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CLOSED',
]);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export interface RequestSpec {
  method: string;
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  form?: FormData;
  /** May be repeated after a failure whose outcome is unknown (defaults to the method's idempotence). */
  retry?: boolean;
  /** Skip the API key (POST /verify/ is public). */
  anonymous?: boolean;
  /** The path is relative to the server's root, not to the API's base URL (esign serve's /sandbox/). */
  fromRoot?: boolean;
}

export class HttpClient {
  private readonly agent: Agent;
  private readonly o: Required<Omit<HttpOptions, 'apiKey' | 'note'>> & Pick<HttpOptions, 'apiKey' | 'note'>;

  constructor(opts: HttpOptions) {
    this.o = { timeoutMs: 30_000, maxRetries: 4, baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 60_000, debug: false, ...opts, baseUrl: opts.baseUrl.replace(/\/+$/, '') };
    this.agent = new Agent({ keepAliveTimeout: 10_000, connections: 16 });
  }

  url(spec: Pick<RequestSpec, 'path' | 'query' | 'fromRoot'>): string {
    const base = spec.fromRoot ? this.o.baseUrl.replace(/\/api\/v2$/, '') : this.o.baseUrl;
    const u = new URL(`${base}${spec.path}`);
    for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined && v !== '') u.searchParams.set(k, String(v));
    return u.toString();
  }

  /** One call with retries; a non-2xx answer becomes an ApiError, an unreachable server a TransportError. */
  async send(spec: RequestSpec): Promise<HttpResponse> {
    const retry = spec.retry ?? IDEMPOTENT.has(spec.method);
    for (let attempt = 0; ; attempt++) {
      let wait: number | undefined;
      try {
        const res = await this.once(spec);
        if (res.status < 400) return res;
        const err = ApiError.fromWire(res.status, res.body);
        // Kept for callers that pace themselves (batch send): when the server allows the next try.
        const ra = Number(res.headers['retry-after']);
        if (Number.isFinite(ra) && ra > 0) Object.assign(err, { retryAfterSeconds: ra });
        if (!retry || !isTransientStatus(res.status) || attempt >= this.o.maxRetries) throw err;
        wait = this.delay(attempt, res.headers['retry-after']);
        if (wait > this.o.maxRetryAfterMs) throw err;
        this.o.note?.(`esign: HTTP ${res.status} from ${spec.method} ${spec.path}; retrying in ${(wait / 1000).toFixed(1)} s (retry ${attempt + 1} of ${this.o.maxRetries})`);
      } catch (e) {
        if (e instanceof ApiError) throw e;
        const code = (e as { code?: string }).code ?? '';
        const message = `${spec.method} ${this.o.baseUrl}${spec.path} failed: ${(e as Error).message}${code ? ` (${code})` : ''}`;
        if (!retry || !RETRY_CODES.has(code) || attempt >= this.o.maxRetries)
          throw new TransportError(attempt ? `${message}, after ${attempt + 1} attempts` : message, code);
        wait = this.delay(attempt);
        this.o.note?.(`esign: ${code} on ${spec.method} ${spec.path}; retrying in ${(wait / 1000).toFixed(1)} s (retry ${attempt + 1} of ${this.o.maxRetries})`);
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** Full jitter over an exponential step; a server's Retry-After (seconds) is honoured when longer. */
  private delay(attempt: number, retryAfter?: string | string[]): number {
    const step = Math.min(this.o.maxDelayMs, this.o.baseDelayMs * 2 ** attempt);
    const jittered = step / 2 + Math.random() * (step / 2);
    const ra = Number(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
    return Number.isFinite(ra) && ra > 0 ? Math.max(jittered, ra * 1000) : jittered;
  }

  private async once(spec: RequestSpec): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'esign-cli' };
    if (this.o.apiKey && !spec.anonymous) headers.authorization = `Token ${this.o.apiKey}`;
    let body: string | FormData | undefined;
    if (spec.form) body = spec.form;
    else if (spec.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(spec.json);
    }
    const started = Date.now();
    const res = await request(this.url(spec), {
      method: spec.method as 'GET',
      headers,
      body,
      dispatcher: this.agent,
      headersTimeout: this.o.timeoutMs,
      bodyTimeout: this.o.timeoutMs,
    });
    const text = await res.body.text();
    if (this.o.debug)
      this.o.note?.(`api: ${spec.method} ${this.url(spec)} -> ${res.statusCode} in ${Date.now() - started} ms (authorization: ${headers.authorization ? 'Token [redacted]' : 'none'})`);
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = { code: 'error', message: `HTTP ${res.statusCode}: ${text.slice(0, 200)}` };
      }
    }
    return { status: res.statusCode, headers: res.headers, body: parsed };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

export { FormData };
