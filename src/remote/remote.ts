// ADAPTER 1: EsignService over HTTP to any API v2 server (the hosted service, or `esign serve`).
import type { Readable } from 'node:stream';
import { OPERATION_TABLE, type OperationRow, fillPath, operationRow } from '../service/operationTable.js';
import type { BackendCapabilities, Body, EsignService, Operations, SignInput } from '../service/service.js';
import type {
  AttachedFile,
  Bundle,
  Packet,
  FollowRequests,
  Page,
  RequestLogEntry,
  SandboxInfo,
  WebhookDeliveryListQuery,
  WebhookDeliveryRecord,
  WebhookEvent,
  WebhookEventListQuery,
} from '../service/types.js';
import { FormData, HttpClient, type HttpOptions, type HttpResponse, type RequestSpec } from './http.js';
import { searchByCustomKey } from './customKey.js';
import { createWithKey } from './retryPolicy.js';
import { ofBundle } from '../service/webhookEvents.js';
import { ApiError } from '../domain/errors.js';
import { entryOf, REQUEST_LOG_PATH } from '../service/requestLog.js';

const NO_SANDBOX: SandboxInfo = {
  signer_actions: false,
  clock: false,
  outbox: false,
  webhook_tools: false,
  request_log: false,
  fixtures: false,
};

type Query = RequestSpec['query'];

/** `X-Blueink-Pagination: page,total_pages,per_page,total`; a server without it gives one page. */
function toPage<T>(res: HttpResponse): Page<T> {
  const items = (Array.isArray(res.body) ? res.body : []) as T[];
  const header = res.headers['x-blueink-pagination'];
  const parts = String(Array.isArray(header) ? header[0] : (header ?? ''))
    .split(',')
    .map(Number);
  if (parts.length === 4 && parts.every(Number.isFinite)) {
    const [page, total_pages, per_page, total] = parts;
    return { items, page, total_pages, per_page, total };
  }
  return { items, page: 1, total_pages: 1, per_page: items.length, total: items.length };
}

/**
 * The request of one operation: each argument placed where the table says (path, query, body or a
 * member of it); a deepObject parameter (`metadata`) as `metadata[KEY]=VALUE`.
 */
function requestOf(op: OperationRow, args: readonly unknown[]): RequestSpec {
  const params: Record<string, string> = {};
  const query: NonNullable<Query> = {};
  let json: unknown;
  op.args.forEach((a, i) => {
    const v = args[i];
    if (a.in === 'path') params[a.name] = String(v);
    else if (a.in === 'query' && 'name' in a) query[a.name] = v as string | undefined;
    else if (a.in === 'query') Object.assign(query, wireQuery(op, (v ?? {}) as Record<string, unknown>));
    else if (a.in === 'body' && 'name' in a) {
      json ??= {};
      if (v !== undefined) (json as Record<string, unknown>)[a.name] = v;
    } else if (a.in === 'body') json = v;
  });
  return {
    method: op.method,
    path: fillPath(op.path, params),
    query,
    json,
    retry: op.idempotent,
    anonymous: op.public,
    fromRoot: op.fromRoot,
  };
}

function wireQuery(op: OperationRow, q: Record<string, unknown>): NonNullable<Query> {
  const out: NonNullable<Query> = {};
  for (const [k, v] of Object.entries(q)) {
    if (op.query?.some((p) => p.name === k && p.style === 'deepObject'))
      for (const [key, value] of Object.entries((v ?? {}) as Record<string, string>)) out[`${k}[${key}]`] = value;
    else out[k] = v as string | number | boolean | undefined;
  }
  return out;
}

/**
 * Every operation of the table as a member of the instance, each a call of its row through
 * `invoke`: an operation added to the table is on the remote adapter with nothing written here.
 * A member the subclass writes itself (a method, or a field, set after this) wins.
 */
abstract class TableCalls {
  protected abstract invoke(op: OperationRow, args: readonly unknown[]): Promise<unknown>;
  constructor() {
    for (const row of OPERATION_TABLE)
      if (!(row.name in this))
        Object.defineProperty(this, row.name, {
          value: (...args: unknown[]) => this.invoke(row, args),
          writable: true,
          enumerable: true,
          configurable: true,
        });
  }
}
const OperationsOverHttp = TableCalls as unknown as abstract new () => TableCalls & Operations;

export class RemoteService extends OperationsOverHttp implements EsignService {
  readonly http: HttpClient;
  /**
   * A remote server may be the hosted service, whose messages reach real people; its sandbox
   * routes exist only if it is `esign serve` (the hosted service answers 404, which is reported).
   */
  readonly capabilities: BackendCapabilities = {
    sandbox: false,
    sendsForReal: true,
    rateLimited: true,
    checksInProcess: false,
  };
  constructor(opts: HttpOptions) {
    super();
    this.http = new HttpClient(opts);
  }

  /** File links are pre-signed: fetched without the API key, under the retry policy and timeouts. */
  openFileLink(url: string): Promise<Readable> {
    return this.http.openLink(url);
  }

  /** One operation of the table: its arguments placed where the table says, its answer read as it says. */
  protected async invoke(op: OperationRow, args: readonly unknown[]): Promise<unknown> {
    const res = await this.http.send(requestOf(op, args));
    if ('page' in op.reply) return toPage(res);
    return 'none' in op.reply ? undefined : res.body;
  }

  private call<T>(name: keyof EsignService & string, ...args: unknown[]): Promise<T> {
    return this.invoke(operationRow(name)!, args) as Promise<T>;
  }

  /**
   * A create is never sent again blind (retryPolicy.ts): only with a custom_key, and only after one
   * lookup of that key finds no Bundle the failed attempt may have made.
   */
  override createBundle = async (body: Body<unknown>, files: AttachedFile[] = []): Promise<Bundle> => {
    const row = operationRow('createBundle')!;
    const b = body as Record<string, unknown>;
    const customKey = typeof b.custom_key === 'string' && b.custom_key ? b.custom_key : undefined;
    const post = async (): Promise<Bundle> => {
      if (!files.length) return (await this.http.send(requestOf(row, [body]))).body as Bundle;
      const form = new FormData();
      for (const f of files) {
        const blob = new Blob([new Uint8Array(f.data)], { type: f.contentType ?? 'application/octet-stream' });
        form.append('files', blob, f.filename);
      }
      form.append('bundle_request', JSON.stringify(body));
      return (await this.http.send({ method: row.method, path: row.path, form, retry: false })).body as Bundle;
    };
    if (!customKey) return post();
    return createWithKey(this.http.policy, post, () => this.findBundleByCustomKey(customKey), 'the Bundle');
  };

  findBundleByCustomKey(key: string): Promise<Bundle | undefined> {
    return searchByCustomKey(this.listBundles, key);
  }

  /** `bundle` is esign serve's filter; the hosted service ignores it, so items are also filtered here by payload. */
  override listWebhookEvents = async (q: WebhookEventListQuery = {}) =>
    ofBundle(await this.call<Page<WebhookEvent>>('listWebhookEvents', q), q.bundle);
  override listWebhookDeliveries = async (q: WebhookDeliveryListQuery = {}) =>
    ofBundle(await this.call<Page<WebhookDeliveryRecord>>('listWebhookDeliveries', q), q.bundle);

  /** The wire form of sign input (`PacketSignRequest`): attachments as base64. */
  override signPacket = (id: string, input: SignInput) => {
    const attachments = Object.fromEntries(
      Object.entries(input.attachments ?? {}).map(([k, list]) => [
        k,
        list.map((a) => ({ name: a.name, b64: Buffer.from(a.data).toString('base64') })),
      ]),
    );
    return this.call<Packet>('signPacket', id, { values: input.values ?? {}, attachments });
  };

  /** A server without a sandbox (the hosted service) answers 404: it offers none of it. */
  override describeSandbox = async (): Promise<SandboxInfo> => {
    try {
      return await this.call<SandboxInfo>('describeSandbox');
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return NO_SANDBOX;
      throw e;
    }
  };

  /** The server's request log as a stream of JSON lines (GET /sandbox/requests/), read line by line. */
  async followRequests(o: FollowRequests, onEntry: (e: RequestLogEntry) => void): Promise<void> {
    const query = { ...o.filter, backlog: o.backlog, follow: o.follow === false ? 'false' : undefined };
    let body: Readable;
    try {
      body = await this.http.stream({ path: REQUEST_LOG_PATH, query, fromRoot: true }, o.signal);
    } catch (e) {
      if ((e as Error).name === 'AbortError') return;
      throw e;
    }
    const { createInterface } = await import('node:readline');
    const lines = createInterface({ input: body, crlfDelay: Number.POSITIVE_INFINITY });
    const stop = () => body.destroy();
    o.signal?.addEventListener('abort', stop, { once: true });
    try {
      for await (const line of lines) {
        const e = line ? entryOf(line) : undefined;
        if (e) onEntry(e);
      }
    } catch (e) {
      if (!o.signal?.aborted) throw e;
    } finally {
      o.signal?.removeEventListener('abort', stop);
    }
  }

  async close(): Promise<void> {
    await this.http.close();
  }
}
