// HTTP for the remote backend: one undici keep-alive pool per base URL, Token auth, timeouts, and
// the one retry policy (retryPolicy.ts) for every request.
import type { Readable } from 'node:stream';
import { Agent, type Dispatcher, FormData, request } from 'undici';
import { ApiError, TransportError } from '../domain/errors.js';
import { serverRootOf } from '../service/operationTable.js';
import { DEFAULT_RETRY_POLICY, type Failure, type RetryPolicy, nextWait } from './retryPolicy.js';

export { isTransientStatus } from './retryPolicy.js';

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
  /** Where ESIGN_DEBUG=api lines go, and retry notes unless `retryNote` is given. */
  note?: (line: string) => void;
  /** Where the one line per retry goes (a wait that says what it waits through keeps them to itself). */
  retryNote?: (line: string) => void;
  debug?: boolean;
  /** How waits between attempts are spent (a test injects time). */
  sleep?: (ms: number) => Promise<void>;
  /** Told when a 429 is being waited out, and until when (retryPolicy.ts). */
  onThrottle?: (untilMs: number) => void;
  /** Carries the requests instead of a keep-alive pool of its own (a proxy, a test reading every response); its owner closes it. */
  dispatcher?: Dispatcher;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export { TransportError };

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export interface RequestSpec {
  method: string;
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  form?: FormData;
  /**
   * Safe to send again after a failure whose outcome is unknown (defaults to the method's idempotence).
   * A throttled request (429) was not processed, so it is waited out and sent again either way.
   */
  retry?: boolean;
  /** Skip the API key (POST /verify/ is public). */
  anonymous?: boolean;
  /** The path is relative to the server's root, not to the API's base URL (esign serve's /sandbox/). */
  fromRoot?: boolean;
}

/** A request as `esign api` writes it: the path with its query, the caller's headers, the body's bytes. */
export interface RawRequestSpec {
  method: string;
  path: string;
  fromRoot?: boolean;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const lowerCased = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

export class HttpClient {
  private readonly agent: Dispatcher;
  private readonly ownAgent?: Agent;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly debug: boolean;
  private readonly apiKey?: string;
  private readonly note?: (line: string) => void;
  readonly policy: RetryPolicy;

  constructor(opts: HttpOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.debug = opts.debug ?? false;
    this.apiKey = opts.apiKey;
    this.note = opts.note;
    const d = DEFAULT_RETRY_POLICY;
    this.policy = {
      maxRetries: opts.maxRetries ?? d.maxRetries,
      baseDelayMs: opts.baseDelayMs ?? d.baseDelayMs,
      maxDelayMs: opts.maxDelayMs ?? d.maxDelayMs,
      maxRetryAfterMs: opts.maxRetryAfterMs ?? d.maxRetryAfterMs,
      sleep: opts.sleep ?? d.sleep,
      note: opts.retryNote ?? opts.note,
      onThrottle: opts.onThrottle,
    };
    this.ownAgent = opts.dispatcher ? undefined : new Agent({ keepAliveTimeout: 10_000, connections: 16 });
    this.agent = opts.dispatcher ?? this.ownAgent!;
  }

  url(spec: Pick<RequestSpec, 'path' | 'query' | 'fromRoot'>): string {
    const base = spec.fromRoot ? serverRootOf(this.baseUrl) : this.baseUrl;
    const u = new URL(`${base}${spec.path}`);
    for (const [k, v] of Object.entries(spec.query ?? {}))
      if (v !== undefined && v !== '') u.searchParams.set(k, String(v));
    return u.toString();
  }

  /** One call under the retry policy; a non-2xx answer becomes an ApiError, an unreachable server a TransportError. */
  async send(spec: RequestSpec): Promise<HttpResponse> {
    const res = await this.retrying(spec, spec.retry ?? IDEMPOTENT.has(spec.method), () => this.once(spec));
    if (res.status < 400) return res;
    const error = ApiError.fromWire(res.status, res.body);
    // Kept for callers that pace themselves (batch send): when the server allows the next try.
    const ra = Number(res.headers['retry-after']);
    if (Number.isFinite(ra) && ra > 0) Object.assign(error, { retryAfterSeconds: ra });
    throw error;
  }

  /**
   * One exchange as the caller wrote it (`esign api`): its headers and bytes out, the server's
   * status, headers and bytes back whatever the status, under the same retry policy and timeouts
   * (a method that is not idempotent is not sent again when its outcome is unknown).
   */
  async sendRaw(spec: RawRequestSpec): Promise<RawResponse> {
    return this.retrying(spec, IDEMPOTENT.has(spec.method), async () => {
      const res = await this.dispatch(spec, { accept: 'application/json', ...spec.headers }, spec.body);
      return { status: res.status, headers: res.headers, body: Buffer.from(await res.raw.arrayBuffer()) };
    });
  }

  /**
   * A pre-signed link (a file's `file_url`), fetched without the API key, under the retry policy
   * and the timeouts; anything but 200 is an error naming the link.
   */
  async openLink(url: string): Promise<Readable> {
    const res = await this.retrying({ method: 'GET', path: url, url }, true, async () => {
      const r = await request(url, {
        dispatcher: this.agent,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      if (r.statusCode !== 200) await r.body.dump();
      return { status: r.statusCode, headers: r.headers, body: r.body };
    });
    if (res.status !== 200) throw new Error(`Downloading ${url} failed: HTTP ${res.status}.`);
    return res.body;
  }

  /** Attempts until an answer the policy does not send again; a connection that fails every time is a TransportError. */
  private async retrying<R extends { status: number; headers: HttpResponse['headers'] }>(
    spec: { method: string; path: string; url?: string },
    safe: boolean,
    attemptOnce: () => Promise<R>,
  ): Promise<R> {
    for (let attempt = 0; ; attempt++) {
      let failure: Failure;
      let answer: R | undefined;
      let error: Error | undefined;
      try {
        answer = await attemptOnce();
        if (answer.status < 400) return answer;
        failure = { status: answer.status, retryAfter: answer.headers['retry-after'] };
      } catch (e) {
        const code = (e as { code?: string }).code ?? '';
        const target = spec.url ?? `${this.baseUrl}${spec.path}`;
        const message = `${spec.method} ${target} failed: ${(e as Error).message}${code ? ` (${code})` : ''}`;
        error = new TransportError(attempt ? `${message}, after ${attempt + 1} attempts` : message, code, target);
        failure = { code };
      }
      const wait = nextWait(this.policy, failure, attempt, safe);
      if (wait === undefined) {
        if (answer) return answer;
        throw error;
      }
      if ('status' in failure && failure.status === 429) this.policy.onThrottle?.(Date.now() + wait);
      const what = 'status' in failure ? `HTTP ${failure.status} from` : `${failure.code} on`;
      const retry = `retry ${attempt + 1} of ${this.policy.maxRetries}`;
      this.policy.note?.(
        `esign: ${what} ${spec.method} ${spec.path}; retrying in ${(wait / 1000).toFixed(1)} s (${retry})`,
      );
      await this.policy.sleep(wait);
    }
  }

  /**
   * A GET whose answer is read as it comes (a live stream), with no body timeout: the body once the
   * status is 2xx; else the ApiError. Not retried: the caller decides whether to follow again.
   */
  async stream(spec: Pick<RequestSpec, 'path' | 'query' | 'fromRoot'>, signal?: AbortSignal): Promise<Readable> {
    const headers: Record<string, string> = { accept: 'application/x-ndjson', 'user-agent': 'esign-cli' };
    if (this.apiKey) headers.authorization = `Token ${this.apiKey}`;
    const res = await request(this.url(spec), {
      method: 'GET',
      headers,
      dispatcher: this.agent,
      headersTimeout: this.timeoutMs,
      bodyTimeout: 0,
      signal,
    }).catch((e: Error & { code?: string }) => {
      if (e.name === 'AbortError') throw e;
      throw new TransportError(
        `GET ${this.url(spec)} failed: ${e.message}${e.code ? ` (${e.code})` : ''}`,
        e.code,
        this.url(spec),
      );
    });
    if (res.statusCode < 400) return res.body;
    const text = await res.body.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = { code: 'error', message: `HTTP ${res.statusCode}: ${text.slice(0, 200)}` };
    }
    throw ApiError.fromWire(res.statusCode, body);
  }

  /** The request itself: the key unless anonymous (or the caller's own Authorization), the timeouts, the debug line. */
  private async dispatch(
    spec: Pick<RequestSpec, 'method' | 'path' | 'query' | 'fromRoot' | 'anonymous'>,
    given: Record<string, string>,
    body: string | FormData | Buffer | undefined,
  ) {
    const headers: Record<string, string> = { 'user-agent': 'esign-cli', ...lowerCased(given) };
    if (this.apiKey && !spec.anonymous && !headers.authorization) headers.authorization = `Token ${this.apiKey}`;
    const started = Date.now();
    const res = await request(this.url(spec), {
      method: spec.method as 'GET',
      headers,
      body,
      dispatcher: this.agent,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
    if (this.debug)
      this.note?.(
        `api: ${spec.method} ${this.url(spec)} -> ${res.statusCode} in ${Date.now() - started} ms (authorization: ${headers.authorization ? 'Token [redacted]' : 'none'})`,
      );
    return { status: res.statusCode, headers: res.headers, raw: res.body };
  }

  private async once(spec: RequestSpec): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: 'application/json' };
    let body: string | FormData | undefined;
    if (spec.form) body = spec.form;
    else if (spec.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(spec.json);
    }
    const res = await this.dispatch(spec, headers, body);
    const text = await res.raw.text();
    let parsed: unknown;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = { code: 'error', message: `HTTP ${res.status}: ${text.slice(0, 200)}` };
      }
    }
    return { status: res.status, headers: res.headers, body: parsed };
  }

  async close(): Promise<void> {
    await this.ownAgent?.close();
  }
}

export { FormData };
