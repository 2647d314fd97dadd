// ADAPTER 1: EsignService over HTTP to any API v2 server (the hosted service, or `esign serve`).
import type { Readable } from 'node:stream';
import { loadUndici } from '../lazyImport.js';
import type { BackendCapabilities, Body, EsignService, SignInput } from '../service/service.js';
import type {
  AttachedFile, Bundle, BundleDataItem, BundleEvent, BundleListQuery, CoeFile, DocumentTemplate, EmbedUrl,
  EnvelopeTemplate, FileObject, Packet, Page, PageQuery, Person, PersonListQuery, RateLimit, TemplateListQuery,
  ValidateResult, VerifyResult, Webhook, WebhookDeliveryListQuery, WebhookDeliveryRecord, WebhookEvent,
  WebhookEventListQuery, WebhookExtraHeader, WebhookHeaderListQuery, WebhookListQuery, WebhookSecret,
} from '../service/types.js';
import { FormData, HttpClient, type HttpOptions, type HttpResponse, type RequestSpec, isTransientStatus } from './http.js';

type Query = RequestSpec['query'];

/** `X-Blueink-Pagination: page,total_pages,per_page,total`; a server without it gives one page. */
function toPage<T>(res: HttpResponse): Page<T> {
  const items = (Array.isArray(res.body) ? res.body : []) as T[];
  const header = res.headers['x-blueink-pagination'];
  const parts = String(Array.isArray(header) ? header[0] : header ?? '').split(',').map(Number);
  if (parts.length === 4 && parts.every(Number.isFinite)) {
    const [page, total_pages, per_page, total] = parts;
    return { items, page, total_pages, per_page, total };
  }
  return { items, page: 1, total_pages: 1, per_page: items.length, total: items.length };
}

const enc = encodeURIComponent;

/** Keeps the items whose payload names the Bundle (the payload is a JSON string on the wire). */
function ofBundle<T extends { payload: string }>(page: Page<T>, bundle: string | undefined): Page<T> {
  if (!bundle) return page;
  const mine = (item: T) => {
    try {
      return (JSON.parse(item.payload) as { payload?: { bundle_id?: unknown } }).payload?.bundle_id === bundle;
    } catch {
      return false;
    }
  };
  return { ...page, items: page.items.filter(mine) };
}

export class RemoteService implements EsignService {
  readonly http: HttpClient;
  /**
   * A remote server may be the hosted service, whose messages reach real people; its sandbox
   * routes exist only if it is `esign serve` (the hosted service answers 404, which is reported).
   */
  readonly capabilities: BackendCapabilities = { sandbox: false, sendsForReal: true };
  constructor(opts: HttpOptions) {
    this.http = new HttpClient(opts);
  }

  /** File links are pre-signed: fetched without the API key. */
  async openFileLink(url: string): Promise<Readable> {
    const { request } = await loadUndici();
    const res = await request(url, { headersTimeout: 30_000, bodyTimeout: 60_000 });
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new Error(`Downloading ${url} failed: HTTP ${res.statusCode}.`);
    }
    return res.body;
  }

  private async call<T>(method: string, path: string, extra: Omit<RequestSpec, 'method' | 'path'> = {}): Promise<T> {
    return (await this.http.send({ method, path, ...extra })).body as T;
  }
  private async list<T>(path: string, query?: Query): Promise<Page<T>> {
    return toPage<T>(await this.http.send({ method: 'GET', path, query }));
  }

  /**
   * A create is never repeated blindly: only with a custom_key, and only after looking for the
   * Bundle the failed attempt may have created.
   */
  async createBundle(body: Body<unknown>, files: AttachedFile[] = []): Promise<Bundle> {
    const b = body as Record<string, unknown>;
    const customKey = typeof b.custom_key === 'string' && b.custom_key ? b.custom_key : undefined;
    const spec = (): RequestSpec => {
      if (!files.length) return { method: 'POST', path: '/bundles/', json: body, retry: false };
      const form = new FormData();
      for (const f of files) form.append('files', new Blob([new Uint8Array(f.data)], { type: f.contentType ?? 'application/octet-stream' }), f.filename);
      form.append('bundle_request', JSON.stringify(body));
      return { method: 'POST', path: '/bundles/', form, retry: false };
    };
    for (let attempt = 0; ; attempt++) {
      try {
        return (await this.http.send(spec())).body as Bundle;
      } catch (e) {
        const status = (e as { status?: number }).status;
        // No status: the server was not reached or the answer was lost.
        const transient = status === undefined || isTransientStatus(status);
        if (!customKey || !transient || attempt >= 3) throw e;
        const existing = await this.findByCustomKey(customKey);
        if (existing) return existing;
        await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
      }
    }
  }

  private async findByCustomKey(customKey: string): Promise<Bundle | undefined> {
    const page = await this.listBundles({ search: customKey, per_page: 100 });
    return page.items.find((x) => x.custom_key === customKey);
  }

  createBundleFromEnvelopeTemplate = (body: Body<unknown>) => this.call<Bundle>('POST', '/bundles/create_from_envelope_template/', { json: body, retry: false });
  createBundlePreparationSession = (body: Body<unknown>) => this.call<EmbedUrl>('POST', '/bundles/preparation_session/', { json: body, retry: false });
  listBundles = (query: BundleListQuery = {}) => this.list<Bundle>('/bundles/', query as Query);
  getBundle = (slug: string, include?: string) => this.call<Bundle>('GET', `/bundles/${enc(slug)}/`, { query: { include } });
  updateBundle = (slug: string, body: Body<unknown>) => this.call<Bundle>('PATCH', `/bundles/${enc(slug)}/`, { json: body, retry: true });
  cancelBundle = (slug: string) => this.call<Bundle>('PUT', `/bundles/${enc(slug)}/cancel/`);
  validateBundle = (slug: string) => this.call<ValidateResult>('PUT', `/bundles/${enc(slug)}/validate/`);
  sendBundle = (slug: string) => this.call<Bundle>('POST', `/bundles/${enc(slug)}/send/`, { retry: false });
  listBundleEvents = (slug: string) => this.call<BundleEvent[]>('GET', `/bundles/${enc(slug)}/events/`);
  getBundleFiles = (slug: string) => this.call<FileObject[]>('GET', `/bundles/${enc(slug)}/files/`);
  generateInterimFiles = (slug: string) => this.call<Bundle>('PUT', `/bundles/${enc(slug)}/files/`);
  getBundleData = (slug: string) => this.call<BundleDataItem[]>('GET', `/bundles/${enc(slug)}/data/`);
  addBundleTags = (slug: string, tags: string[]) => this.call<Bundle>('PUT', `/bundles/${enc(slug)}/add_tags/`, { json: { tags } });
  removeBundleTags = (slug: string, tags: string[]) => this.call<Bundle>('PUT', `/bundles/${enc(slug)}/remove_tags/`, { json: { tags } });
  deleteBundle = async (slug: string) => void (await this.call('DELETE', `/bundles/${enc(slug)}/`));
  expireBundle = (slug: string) => this.call<Bundle>('PUT', `/bundles/${enc(slug)}/expire/`);

  getPacket = (id: string) => this.call<Packet>('GET', `/packets/${enc(id)}/`);
  updatePacket = (id: string, body: Body<unknown>) => this.call<Packet>('PATCH', `/packets/${enc(id)}/`, { json: body, retry: true });
  remindPacket = (id: string) => this.call<Packet>('PUT', `/packets/${enc(id)}/remind/`, { retry: false });
  createEmbedUrl = (id: string) => this.call<EmbedUrl>('POST', `/packets/${enc(id)}/embed_url/`, { retry: false });
  getPacketCoe = (id: string) => this.call<CoeFile>('GET', `/packets/${enc(id)}/coe/`);

  listTemplates = (q: TemplateListQuery = {}) => {
    const query: Query = { page: q.page, per_page: q.per_page };
    for (const [k, v] of Object.entries(q.metadata ?? {})) query![`metadata[${k}]`] = v;
    return this.list<DocumentTemplate>('/templates/', query);
  };
  getTemplate = (id: string) => this.call<DocumentTemplate>('GET', `/templates/${enc(id)}/`);
  updateTemplate = (id: string, body: Body<unknown>) => this.call<DocumentTemplate>('PATCH', `/templates/${enc(id)}/`, { json: body, retry: true });
  deleteTemplate = async (id: string) => void (await this.call('DELETE', `/templates/${enc(id)}/`));
  createTemplatePreparationSession = (body: Body<unknown>) => this.call<EmbedUrl>('POST', '/templates/preparation_session/', { json: body, retry: false });

  listEnvelopeTemplates = (q: PageQuery = {}) => this.list<EnvelopeTemplate>('/envelope-templates/', q as Query);
  getEnvelopeTemplate = (id: string) => this.call<EnvelopeTemplate>('GET', `/envelope-templates/${enc(id)}/`);

  listPersons = (q: PersonListQuery = {}) => this.list<Person>('/persons/', q as Query);
  createPerson = (body: Body<unknown>) => this.call<Person>('POST', '/persons/', { json: body, retry: false });
  getPerson = (id: string) => this.call<Person>('GET', `/persons/${enc(id)}/`);
  replacePerson = (id: string, body: Body<unknown>) => this.call<Person>('PUT', `/persons/${enc(id)}/`, { json: body });
  updatePerson = (id: string, body: Body<unknown>) => this.call<Person>('PATCH', `/persons/${enc(id)}/`, { json: body, retry: false });
  deletePerson = async (id: string) => void (await this.call('DELETE', `/persons/${enc(id)}/`));

  listWebhooks = (q: WebhookListQuery = {}) => this.list<Webhook>('/webhooks/', q as Query);
  createWebhook = (body: Body<unknown>) => this.call<Webhook>('POST', '/webhooks/', { json: body, retry: false });
  getWebhook = (id: string) => this.call<Webhook>('GET', `/webhooks/${enc(id)}/`);
  replaceWebhook = (id: string, body: Body<unknown>) => this.call<Webhook>('PUT', `/webhooks/${enc(id)}/`, { json: body });
  updateWebhook = (id: string, body: Body<unknown>) => this.call<Webhook>('PATCH', `/webhooks/${enc(id)}/`, { json: body, retry: true });
  deleteWebhook = async (id: string) => void (await this.call('DELETE', `/webhooks/${enc(id)}/`));
  listWebhookHeaders = (q: WebhookHeaderListQuery = {}) => this.list<WebhookExtraHeader>('/webhooks/headers/', q as Query);
  createWebhookHeader = (body: Body<unknown>) => this.call<WebhookExtraHeader>('POST', '/webhooks/headers/', { json: body, retry: false });
  getWebhookHeader = (id: string) => this.call<WebhookExtraHeader>('GET', `/webhooks/headers/${enc(id)}/`);
  replaceWebhookHeader = (id: string, body: Body<unknown>) => this.call<WebhookExtraHeader>('PUT', `/webhooks/headers/${enc(id)}/`, { json: body });
  updateWebhookHeader = (id: string, body: Body<unknown>) => this.call<WebhookExtraHeader>('PATCH', `/webhooks/headers/${enc(id)}/`, { json: body, retry: true });
  deleteWebhookHeader = async (id: string) => void (await this.call('DELETE', `/webhooks/headers/${enc(id)}/`));
  /** `bundle` is esign serve's filter; the hosted service ignores it, so items are also filtered here by payload. */
  listWebhookEvents = async (q: WebhookEventListQuery = {}) => ofBundle(await this.list<WebhookEvent>('/webhooks/events/', q as Query), q.bundle);
  getWebhookEvent = (id: string) => this.call<WebhookEvent>('GET', `/webhooks/events/${enc(id)}/`);
  listWebhookDeliveries = async (q: WebhookDeliveryListQuery = {}) => ofBundle(await this.list<WebhookDeliveryRecord>('/webhooks/deliveries/', q as Query), q.bundle);
  getWebhookDelivery = (id: string) => this.call<WebhookDeliveryRecord>('GET', `/webhooks/deliveries/${enc(id)}/`);
  getWebhookSecret = () => this.call<WebhookSecret>('GET', '/webhooks/secret/');
  regenerateWebhookSecret = () => this.call<WebhookSecret>('POST', '/webhooks/secret/regenerate/', { retry: false });

  viewPacket = (id: string) => this.call<Packet>('POST', `/sandbox/packets/${enc(id)}/view/`, { fromRoot: true, retry: false });
  /** The wire form of sign input (`PacketSignRequest`): attachments as base64. */
  signPacket = (id: string, input: SignInput) => {
    const attachments = Object.fromEntries(
      Object.entries(input.attachments ?? {}).map(([k, list]) => [k, list.map((a) => ({ name: a.name, b64: Buffer.from(a.data).toString('base64') }))]),
    );
    return this.call<Packet>('POST', `/sandbox/packets/${enc(id)}/sign/`, { json: { values: input.values ?? {}, attachments }, fromRoot: true, retry: false });
  };
  declinePacket = (id: string, reason?: string) =>
    this.call<Packet>('POST', `/sandbox/packets/${enc(id)}/decline/`, { json: reason === undefined ? {} : { reason }, fromRoot: true, retry: false });

  triggerWebhookEvent = (eventType: string, bundleSlug?: string) =>
    this.call<WebhookEvent[]>('POST', '/sandbox/webhooks/trigger/', { json: { event_type: eventType, bundle: bundleSlug }, fromRoot: true, retry: false });
  resendWebhookEvent = (id: string) => this.call<WebhookEvent>('POST', `/sandbox/webhooks/events/${enc(id)}/resend/`, { fromRoot: true, retry: false });

  reassignPacket = (id: string, body: Body<unknown>) =>
    this.call<Packet>('POST', `/sandbox/packets/${enc(id)}/reassign/`, { json: body, fromRoot: true, retry: false });

  verify = (hash: string) => this.call<VerifyResult>('POST', '/verify/', { json: { hash }, anonymous: true, retry: true });
  getRateLimit = () => this.call<RateLimit>('GET', '/rate_limit/');

  async close(): Promise<void> {
    await this.http.close();
  }
}
