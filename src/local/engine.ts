// ADAPTER 2: EsignService as an embedded engine on SQLite.
import { join } from 'node:path';
import { parseBundleListQuery, parseOutboxQuery, parsePage } from '../service/listQuery.js';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { PreparationPages, SigningView } from '../service/hosting.js';
import type { LocalBackend, LocalInfo, PendingWork } from '../service/localAdmin.js';
import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from '../domain/rateLimits.js';
import type { BackendCapabilities, Body, CreateCheck, MessageFilter, SignInput } from '../service/service.js';
import type {
  AccountFacts,
  AccountSetup,
  AttachedFile,
  Bundle,
  BundleListQuery,
  DocumentTemplate,
  EnvelopeTemplate,
  Packet,
  Page,
  PageQuery,
  PersonListQuery,
  RateLimit,
  TemplateListQuery,
  VerifyResult,
  WebhookDeliveryListQuery,
  MissedResend,
  MissedWebhookEvents,
  WebhookEvent,
  WebhookEventListQuery,
  WebhookHeaderListQuery,
  WebhookListQuery,
  BundleMessage,
  ClockMove,
  FollowRequests,
  OutboxQuery as PortOutboxQuery,
  RequestLogEntry,
  SandboxClock,
  SandboxInfo,
} from '../service/types.js';
import { AccountStore } from './account/account.js';
import { ApiKeyStore } from './account/apiKeys.js';
import { BlobStore } from './store/blobs.js';
import { bundleIdsByPrefix, findBundlesByCustomKeys, findPacketRow, loadBundle, toPacket } from './bundles/read.js';
import { queryBundles } from './bundles/list.js';
import { Clock } from './store/clock.js';
import type { DocumentTimes, EngineContext } from './store/context.js';
import { BUSY_PAUSE_MS, CREATE_CHECK_DEADLINE_MS, HTML_JOB_DEADLINE_MS } from '../domain/documentLimits.js';
import { type Db, type Report, openDatabase } from './store/db.js';
import { BackgroundRun } from './documents/background.js';
import { listEvents, onBundleEvent } from './bundles/events.js';
import { type RunningServe, removeServeState, runningServe, serveProof, writeServeState } from './store/serveState.js';
import { applyDue } from './bundles/due.js';
import * as life from './bundles/lifecycle.js';
import { type LinkKind, fileLinkToken, resolveLink } from './bundles/links.js';
import { type OutboxQuery, countMessages, listMessages, messagesPage } from './messages/outbox.js';
import { RequestLog } from './store/requestLog.js';
import { backlogOf, parseRequestFilter } from '../service/requestLog.js';
import * as packets from './bundles/packets.js';
import { ReadCache } from './store/readCache.js';
import { localInfo, pendingWork } from './store/admin.js';
import { watchCommits } from './store/changes.js';
import type { TemplateImport } from './templates/templates.js';
import type { DeliverOptions, Dispatcher } from './webhooks/dispatcher.js';
import { WebhookDelivery } from './webhooks/delivery.js';

export interface LocalEngineOptions {
  dataDir: string;
  /** Overrides the account's `public_url` for links (set by `esign serve` to its own address). */
  publicUrl?: string;
  /**
   * Refuse `file_url` and webhook addresses in private ranges unless the account allows them (esign
   * serve: true, or false with --allow-private-urls; left out, the engine of the machine's own user).
   */
  guardUrls?: boolean;
  /** With guardUrls, still allow loopback addresses (esign serve listening on loopback only). */
  loopbackUrls?: boolean;
  /** How long a webhook event being delivered stays claimed by this process (default LEASE_MS). */
  webhookLeaseMs?: number;
  /** How long a one-shot command waits for its webhook first attempts (default ONE_SHOT_BUDGET_MS). */
  webhookBudgetMs?: number;
  /** The limits getRateLimit reports (esign serve enforces the same ones per API key). */
  rateLimits?: Partial<RateLimitConfig>;
  /** The wall clock of in-memory caches (API keys) and of webhook leases; tests move it instead of waiting. Default Date.now. */
  wallMs?: () => number;
  /**
   * Where lines for people go (a webhook delivery or a background job that failed, a private
   * directory tightened, a slow upgrade); default: process warnings (`asWarning`), so none is lost.
   */
  report?: Report;
  /** Other times for document work than the defaults (tests: a deadline met in seconds, or one a loaded machine meets). */
  documentTimes?: Partial<DocumentTimes>;
  /** Report each Bundle list's plan (strategy, driving index, total, page) through `report`: ESIGN_DEBUG=sql. */
  explainLists?: boolean;
}

/**
 * The sink of a host that gave none (a script using the engine as a library): each line a Node
 * process warning (code ESIGN_REPORT), which the host may listen to ('warning') or Node prints.
 */
export const asWarning: Report = (line) => process.emitWarning(line, { code: 'ESIGN_REPORT' });

// Write paths (creating, signing, background work, verification) load on first use: read commands start faster.
const signingModule = () => import('./signing/signing.js');
const templatesModule = () => import('./templates/templates.js');
const envelopeModule = () => import('./templates/envelopes.js');
const fixturesModule = () => import('./templates/fixtures.js');
// Loaded on the first create, then kept: a create is hot enough that a dynamic import's look-up shows.
let createModule: Promise<typeof import('./bundles/create.js')> | undefined;
const preparationModule = () => import('./templates/preparation.js');
const webhookStore = () => import('./webhooks/store.js');
const personsModule = () => import('./persons/persons.js');
const secretModule = () => import('./webhooks/secret.js');
const missedModule = () => import('./webhooks/missed.js');

export class LocalEngine implements LocalBackend {
  /** Messages are recorded in the outbox, never sent; the sandbox is built in. */
  readonly capabilities: BackendCapabilities = {
    sandbox: true,
    sendsForReal: false,
    rateLimited: false,
    checksInProcess: true,
  };
  readonly dataDir: string;
  readonly db: Db;
  readonly clock: Clock;
  readonly account: AccountStore;
  readonly keys: ApiKeyStore;
  private readonly ctx: EngineContext;
  private readonly background = new BackgroundRun(() => this.ctx);
  private publicUrlOverride: string | undefined;
  private readonly rateLimits: RateLimitConfig;
  private readonly explainLists: boolean;
  private readonly webhooks: WebhookDelivery;
  /** `esign serve` answers GET /bundles/{slug}/ far more often than Bundles change. */
  private readonly bundleReads: ReadCache<Bundle>;
  private readonly changeListeners = new Set<() => void>();
  private serveLookup: { at: number; found: RunningServe | undefined } | undefined;
  private readonly requestLog: RequestLog;

  constructor(opts: LocalEngineOptions) {
    this.dataDir = opts.dataDir;
    this.requestLog = new RequestLog(opts.dataDir);
    this.publicUrlOverride = opts.publicUrl;
    this.rateLimits = { ...DEFAULT_RATE_LIMITS, ...opts.rateLimits };
    this.explainLists = opts.explainLists === true;
    const report = opts.report ?? asWarning;
    this.db = openDatabase(opts.dataDir, report);
    this.clock = new Clock(this.db);
    this.account = new AccountStore(this.db, () => this.clock.now());
    this.account.ensure();
    this.keys = new ApiKeyStore(this.db, () => this.clock.now(), opts.wallMs);
    this.bundleReads = new ReadCache(this.db);
    this.ctx = {
      db: this.db,
      clock: this.clock,
      account: this.account,
      blobs: new BlobStore(join(opts.dataDir, 'blobs')),
      kick: () => this.background.kick(),
      publicUrl: () => this.publicUrlOverride ?? this.runningServer()?.url ?? this.account.settings().public_url,
      beforeWriteLock: () => {
        if (this.publicUrlOverride === undefined) this.runningServer();
      },
      outboundPolicy: () => ({
        publicOnly: opts.guardUrls === true && !this.account.settings().allow_private_urls,
        loopback: opts.loopbackUrls === true,
      }),
      keepWebhookReplies: () => opts.guardUrls === undefined || this.ctx.outboundPolicy().publicOnly,
      report,
      documentTimes: {
        htmlDeadlineMs: HTML_JOB_DEADLINE_MS,
        busyPauseMs: BUSY_PAUSE_MS,
        createCheckMs: CREATE_CHECK_DEADLINE_MS,
        createCheckWaitMs: opts.documentTimes?.createCheckMs ?? CREATE_CHECK_DEADLINE_MS,
        ...opts.documentTimes,
      },
    };
    applyDue(this.ctx);
    onBundleEvent(this.db, () => {
      // Listeners read the change once the writing transaction has ended.
      if (this.changeListeners.size) setImmediate(() => this.changeListeners.forEach((l) => l()));
    });
    this.webhooks = new WebhookDelivery(this.ctx, {
      leaseMs: opts.webhookLeaseMs,
      oneShotBudgetMs: opts.webhookBudgetMs,
      wallMs: opts.wallMs,
    });
  }

  /** The webhook dispatcher of this process, made on first use. */
  async dispatcher(): Promise<Dispatcher> {
    return this.webhooks.get();
  }

  /** Links point here from now on (esign serve, once it knows its address). */
  setPublicUrl(url: string): void {
    this.publicUrlOverride = url.replace(/\/+$/, '');
  }

  /** esign serve announces its public URL in the data directory, so other processes' links open there. */
  announceServing(url: string, serves: { console: boolean }): void {
    writeServeState(this.dataDir, url, serves);
  }

  stopServing(): void {
    removeServeState(this.dataDir);
  }

  /** What GET /_esign/serve-proof answers, so other processes trust serve.json only for this server. */
  serveProof(challenge: string): string | undefined {
    return serveProof(challenge);
  }

  /**
   * Applies what is due: expiry and reminders by the engine's clock, then pending documents and
   * evidence, including work another process left unfinished.
   */
  runDue(): { expired: number; reminded: number } {
    const done = applyDue(this.ctx);
    this.background.kick();
    this.webhooks.runInBackground();
    return done;
  }

  /** Delivers every due webhook event, retries included (esign local run-due; esign serve runs continuously). */
  async deliverWebhooks(opts: DeliverOptions = {}): Promise<{ delivered: number; failed: number }> {
    return this.webhooks.deliverDue(opts);
  }

  /** esign serve: deliver webhook events as they are queued, and poll for those other processes queue. */
  async startWebhookDelivery(): Promise<void> {
    (await this.dispatcher()).start();
  }

  /**
   * While a long-running door serves (esign mcp): webhook events delivered as they are queued, and
   * what is due (expiry, reminders, retries) applied every few seconds, as esign serve does. Returns
   * the stop function; close() stops the deliveries too.
   */
  keepWorking(intervalMs = 5_000): () => void {
    void this.startWebhookDelivery();
    const due = setInterval(() => this.runDue(), intervalMs);
    due.unref?.();
    this.runDue();
    return () => clearInterval(due);
  }

  /** Waits for background work started by this process (document downloads, evidence). */
  async settle(): Promise<void> {
    await this.background.settle();
  }

  async close(): Promise<void> {
    await this.requestLog.flush();
    await this.settle();
    await this.webhooks.close();
    if (this.db.open) this.db.close();
  }

  // Bundles
  async createBundle(body: Body<unknown>, files: AttachedFile[] = []): Promise<Bundle> {
    const { createBundle } = await (createModule ??= import('./bundles/create.js'));
    return createBundle(this.ctx, body, files);
  }
  async accountFacts(): Promise<AccountFacts> {
    const verified_addresses = this.account
      .users()
      .filter((u) => u.verified)
      .map((u) => u.email);
    return { features: [...this.account.settings().features], verified_addresses };
  }
  async checkCreateBundle(body: unknown, files: AttachedFile[] = []): Promise<CreateCheck> {
    const { checkCreateBundle } = await (createModule ??= import('./bundles/create.js'));
    return checkCreateBundle(this.ctx, body, files);
  }
  async createBundleFromEnvelopeTemplate(body: Body<unknown>): Promise<Bundle> {
    return this.createBundle(await (await envelopeModule()).expandEnvelopeRequest(this.ctx, body));
  }
  async createBundlePreparationSession(body: Body<unknown>) {
    return (await preparationModule()).createBundlePreparationSession(this.ctx, body);
  }
  async listBundles(query: BundleListQuery = {}) {
    const filter = parseBundleListQuery(query);
    const explain = this.explainLists
      ? (plan: object) => this.ctx.report(`esign: sql list plan ${JSON.stringify(plan)} for ${JSON.stringify(filter)}`)
      : undefined;
    return queryBundles(this.db, filter, explain);
  }
  async findBundlesByCustomKeys(keys: readonly string[]): Promise<Map<string, Bundle>> {
    return findBundlesByCustomKeys(this.db, keys);
  }
  async findBundleByCustomKey(key: string): Promise<Bundle | undefined> {
    return findBundlesByCustomKeys(this.db, [key]).get(key);
  }
  async getBundle(slug: string, include?: string): Promise<Bundle> {
    if (!include) return this.bundleReads.get(slug, () => loadBundle(this.db, slug));
    return life.getBundleWithIncludes(this.ctx, slug, include);
  }
  async updateBundle(slug: string, body: Body<unknown>) {
    await life.updateBundle(this.ctx, slug, body);
    return loadBundle(this.db, slug);
  }
  async cancelBundle(slug: string) {
    life.cancelBundle(this.ctx, slug);
    return loadBundle(this.db, slug);
  }
  async validateBundle(slug: string) {
    return life.validateBundle(this.ctx, slug);
  }
  async sendBundle(slug: string) {
    life.sendBundle(this.ctx, slug);
    return loadBundle(this.db, slug);
  }
  async listBundleEvents(slug: string) {
    return listEvents(this.ctx, slug);
  }
  async getBundleFiles(slug: string) {
    return life.getFiles(this.ctx, slug);
  }
  async generateInterimFiles(slug: string): Promise<Bundle> {
    await life.generateInterimFiles(this.ctx, slug);
    return loadBundle(this.db, slug);
  }
  async getBundleData(slug: string) {
    return life.getData(this.ctx, slug);
  }
  async addBundleTags(slug: string, tags: string[]) {
    await life.changeTags(this.ctx, slug, { tags }, true);
    return loadBundle(this.db, slug);
  }
  async removeBundleTags(slug: string, tags: string[]) {
    await life.changeTags(this.ctx, slug, { tags }, false);
    return loadBundle(this.db, slug);
  }
  async deleteBundle(slug: string) {
    life.deleteBundle(this.ctx, slug);
  }
  async expireBundle(slug: string) {
    life.expireBundle(this.ctx, slug);
    return loadBundle(this.db, slug);
  }

  // Packets
  async getPacket(id: string): Promise<Packet> {
    return toPacket(findPacketRow(this.db, id));
  }
  async updatePacket(id: string, body: Body<unknown>) {
    await packets.updatePacket(this.ctx, id, body);
    return this.getPacket(id);
  }
  async remindPacket(id: string) {
    packets.remindPacket(this.ctx, id);
    return this.getPacket(id);
  }
  async createEmbedUrl(id: string) {
    return packets.createEmbedUrl(this.ctx, id);
  }
  async getPacketCoe(id: string) {
    return packets.getPacketCoe(this.ctx, id);
  }

  /** A live link's target (a packet id for signing links, a SHA-256 for file links). */
  resolveLink(token: string, kind: LinkKind) {
    return resolveLink(this.ctx, kind, token);
  }
  /** Reads this engine's own store: `.../files/<token>/<name>`, wherever the public URL puts it. */
  async openFileLink(url: string): Promise<Readable> {
    const token = fileLinkToken(url);
    const link = token ? this.resolveLink(token, 'file') : undefined;
    if (!link) throw new Error(`The link ${url} has expired or is not one of this engine's files.`);
    return createReadStream(this.blobPath(link.target));
  }

  /** Where a stored file (document, produced PDF, attachment) lives on disk. */
  blobPath(hash: string): string {
    return this.ctx.blobs.path(hash);
  }
  fileForLink(token: string): string | undefined {
    const link = this.resolveLink(token, 'file');
    return link ? this.blobPath(link.target) : undefined;
  }

  // The sandbox: signer activity, since no real person signs locally (esign local view|sign|decline).
  async viewPacket(id: string): Promise<Packet> {
    (await signingModule()).viewPacket(this.ctx, id);
    return this.getPacket(id);
  }
  async signPacket(id: string, input: SignInput): Promise<Packet> {
    const { completedBundle } = await (await signingModule()).signPacket(this.ctx, id, input);
    if (completedBundle) this.background.kick();
    return this.getPacket(id);
  }
  async declinePacket(id: string, reason?: string): Promise<Packet> {
    (await signingModule()).declinePacket(this.ctx, id, reason);
    return this.getPacket(id);
  }

  async reassignPacket(id: string, body: Body<unknown>): Promise<Packet> {
    return this.getPacket(await (await signingModule()).reassignPacket(this.ctx, id, body));
  }

  // The signing page (src/server/pages/signing): signing links, its session, and what it shows.
  async openSigningLink(token: string): Promise<SigningView> {
    return (await import('./signing/session.js')).openSigningLink(this.ctx, token);
  }
  /** The packet id behind a signing-page session token (404 unknown, 410 expired). */
  async resolveSigningSession(session: string): Promise<string> {
    return (await import('./signing/session.js')).resolveSession(this.ctx, session);
  }
  async signingSessionView(session: string): Promise<SigningView> {
    return (await import('./signing/session.js')).sessionView(this.ctx, session);
  }
  /** Where one of the session's original documents lives on disk, and its file name. */
  async signingSessionDocument(session: string, docKey: string): Promise<{ path: string; name: string }> {
    const d = (await import('./signing/session.js')).sessionDocument(this.ctx, session, docKey);
    return { path: this.ctx.blobs.path(d.sha256), name: d.name };
  }

  // Document Templates
  async listTemplates(q: TemplateListQuery = {}) {
    return (await templatesModule()).listTemplates(this.ctx, q);
  }
  async getTemplate(id: string) {
    return (await templatesModule()).getTemplate(this.ctx, id);
  }
  async updateTemplate(id: string, body: Body<unknown>) {
    return (await templatesModule()).updateTemplate(this.ctx, id, body);
  }
  async deleteTemplate(id: string) {
    (await templatesModule()).deleteTemplate(this.ctx, id);
  }
  async createTemplatePreparationSession(body: Body<unknown>) {
    return (await preparationModule()).createTemplatePreparationSession(this.ctx, body);
  }
  /** What the preparation pages of esign serve do with their sessions (src/server/pages/preparation). */
  async preparationPages(): Promise<PreparationPages> {
    return (await preparationModule()).preparationPages(this.ctx);
  }
  /** `esign local template import`: the hosted service makes templates in its web app; the engine takes a PDF. */
  async importTemplate(input: TemplateImport): Promise<DocumentTemplate> {
    return (await templatesModule()).saveTemplate(this.ctx, input);
  }

  // Envelope Templates
  async listEnvelopeTemplates(q: PageQuery = {}) {
    return (await envelopeModule()).listEnvelopeTemplates(this.ctx, q);
  }
  async getEnvelopeTemplate(id: string) {
    return (await envelopeModule()).getEnvelopeTemplate(this.ctx, id);
  }
  /** `esign local envelope-template create spec.json`; files in the spec are read relative to `baseDir`. */
  async createEnvelopeTemplate(spec: unknown, baseDir: string): Promise<EnvelopeTemplate> {
    return (await envelopeModule()).createEnvelopeTemplate(this.ctx, spec, baseDir);
  }

  // Persons
  async listPersons(q: PersonListQuery = {}) {
    return (await personsModule()).listPersons(this.ctx, q);
  }
  async createPerson(body: Body<unknown>) {
    return (await personsModule()).createPerson(this.ctx, body);
  }
  async getPerson(id: string) {
    return (await personsModule()).getPerson(this.ctx, id);
  }
  async replacePerson(id: string, body: Body<unknown>) {
    return (await personsModule()).replacePerson(this.ctx, id, body);
  }
  async updatePerson(id: string, body: Body<unknown>) {
    return (await personsModule()).updatePerson(this.ctx, id, body);
  }
  async deletePerson(id: string) {
    (await personsModule()).deletePerson(this.ctx, id);
  }

  // Webhooks
  async listWebhooks(q: WebhookListQuery = {}) {
    return (await webhookStore()).listWebhooks(this.ctx, q);
  }
  async createWebhook(body: Body<unknown>) {
    return (await webhookStore()).createWebhook(this.ctx, body);
  }
  async getWebhook(id: string) {
    return (await webhookStore()).getWebhook(this.ctx, id);
  }
  async replaceWebhook(id: string, body: Body<unknown>) {
    return (await webhookStore()).replaceWebhook(this.ctx, id, body);
  }
  async updateWebhook(id: string, body: Body<unknown>) {
    return (await webhookStore()).updateWebhook(this.ctx, id, body);
  }
  async deleteWebhook(id: string) {
    (await webhookStore()).deleteWebhook(this.ctx, id);
  }
  async listWebhookHeaders(q: WebhookHeaderListQuery = {}) {
    return (await webhookStore()).listWebhookHeaders(this.ctx, q);
  }
  async createWebhookHeader(body: Body<unknown>) {
    return (await webhookStore()).createWebhookHeader(this.ctx, body);
  }
  async getWebhookHeader(id: string) {
    return (await webhookStore()).getWebhookHeader(this.ctx, id);
  }
  async replaceWebhookHeader(id: string, body: Body<unknown>) {
    return (await webhookStore()).replaceWebhookHeader(this.ctx, id, body);
  }
  async updateWebhookHeader(id: string, body: Body<unknown>) {
    return (await webhookStore()).updateWebhookHeader(this.ctx, id, body);
  }
  async deleteWebhookHeader(id: string) {
    (await webhookStore()).deleteWebhookHeader(this.ctx, id);
  }
  async listWebhookEvents(q: WebhookEventListQuery = {}) {
    return (await webhookStore()).listWebhookEvents(this.ctx, q);
  }
  async getWebhookEvent(id: string) {
    return (await webhookStore()).getWebhookEvent(this.ctx, id);
  }
  async listWebhookDeliveries(q: WebhookDeliveryListQuery = {}) {
    return (await webhookStore()).listWebhookDeliveries(this.ctx, q);
  }
  async getWebhookDelivery(id: string) {
    return (await webhookStore()).getWebhookDelivery(this.ctx, id);
  }
  async getWebhookSecret() {
    return (await secretModule()).webhookSecret(this.db, this.clock.now());
  }
  async regenerateWebhookSecret() {
    return (await secretModule()).regenerateWebhookSecret(this.db, this.clock.now());
  }
  async triggerWebhookEvent(eventType: string, bundleSlug?: string): Promise<WebhookEvent[]> {
    return (await this.dispatcher()).trigger(eventType, bundleSlug);
  }
  async resendWebhookEvent(id: string): Promise<WebhookEvent> {
    return (await this.dispatcher()).resend(id);
  }

  // What a webhook missed while disabled (MissedWebhookOperations: the engine's own record)
  async listMissedWebhookEvents(q: { webhook?: string; bundle?: string } = {}): Promise<MissedWebhookEvents[]> {
    return (await missedModule()).listMissed(this.ctx, q);
  }
  async resendMissedWebhookEvents(webhookId: string, q: { bundle?: string } = {}): Promise<MissedResend> {
    const { pks, dropped } = (await missedModule()).queueMissed(this.ctx, webhookId, q);
    await (await this.dispatcher()).attemptQueued(pks);
    const events = await Promise.all(pks.map((pk) => this.getWebhookEvent(pk)));
    const tried = events.filter((e) => e.deliveries.length);
    const delivered = tried.filter((e) => e.success).length;
    return {
      webhook: webhookId,
      events: pks,
      delivered,
      failed: tried.length - delivered,
      queued: events.length - tried.length,
      dropped,
    };
  }

  // The sandbox's clock and outbox (SandboxAdminOperations)
  async describeSandbox(): Promise<SandboxInfo> {
    return { signer_actions: true, clock: true, outbox: true, webhook_tools: true, request_log: true, fixtures: true };
  }

  // A sandbox's fixtures: what API v2 cannot make (esign serve serves them within sandboxes only)
  async setupAccount(body: Body<unknown>): Promise<AccountSetup> {
    return (await import('./account/setup.js')).setupAccount(this.ctx, this.account, body);
  }
  async setupTemplate(body: Body<unknown>): Promise<DocumentTemplate> {
    return (await fixturesModule()).setupTemplate(this.ctx, body);
  }
  async setupEnvelopeTemplate(body: Body<unknown>): Promise<EnvelopeTemplate> {
    return (await fixturesModule()).setupEnvelopeTemplate(this.ctx, body);
  }
  async getClock(): Promise<SandboxClock> {
    return { now: this.clock.now(), offset_ms: this.clock.offset() };
  }
  async advanceClock(ms: number): Promise<ClockMove> {
    const { ClockAdvanceRequest, parseOr400 } = await import('../domain/schemas.js');
    this.clock.advance(parseOr400(ClockAdvanceRequest, { ms }).ms);
    // What the new time makes due happens before the answer: expiry, reminders and webhook attempts.
    const done = applyDue(this.ctx);
    this.background.kick();
    const attempts = await this.webhooks.settle();
    return {
      ...(await this.getClock()),
      ...done,
      webhooks_delivered: attempts.delivered,
      webhooks_failed: attempts.failed,
    };
  }
  async resetClock(): Promise<SandboxClock> {
    this.clock.setOffset(0);
    return this.getClock();
  }
  async listOutbox(q: PortOutboxQuery = {}): Promise<BundleMessage[]> {
    return listMessages(this.db, parseOutboxQuery(q));
  }
  recordRequest(e: RequestLogEntry): void {
    this.requestLog.record(e);
  }
  async followRequests(o: FollowRequests, onEntry: (e: RequestLogEntry) => void): Promise<void> {
    await this.requestLog.follow(
      { ...o, filter: parseRequestFilter({ ...o.filter }), backlog: backlogOf(o.backlog) },
      onEntry,
    );
  }

  async verify(hash: string): Promise<VerifyResult> {
    return (await import('./evidence/verify.js')).verifyHash(this.db, hash);
  }
  /**
   * What esign serve reports for a key that has not used its window yet: in-process calls are not
   * counted (no one else shares this process's engine), so the whole window is always left.
   */
  async getRateLimit(): Promise<RateLimit> {
    const { limit, windowSeconds } = this.rateLimits;
    return {
      limit,
      remaining: limit,
      reset: Math.ceil((Date.now() + windowSeconds * 1000) / 1000),
      window: windowSeconds,
    };
  }

  // What only the engine can tell (InsightOperations)
  /**
   * At once for changes this process makes; every CHANGE_POLL_MS for other processes writing to the
   * same data directory (store/changes.ts).
   */
  watchBundles(onChange: () => void): () => void {
    this.changeListeners.add(onChange);
    const stop = watchCommits(this.db, onChange);
    return () => {
      stop();
      this.changeListeners.delete(onChange);
    };
  }
  async listBundleMessages(slug: string): Promise<BundleMessage[]> {
    loadBundle(this.db, slug);
    return listMessages(this.db, { bundle: slug });
  }
  async bundleOfPacket(packetId: string): Promise<string> {
    return packets.bundleSlugOfPacket(this.db, packetId);
  }
  async listMessages(q: PageQuery & MessageFilter = {}): Promise<Page<BundleMessage>> {
    const spec = parsePage({ page: q.page, per_page: q.per_page });
    const filter = { to: q.to, bundle: q.bundle, kind: q.kind };
    return this.db.transaction(() => messagesPage(this.db, spec, filter))();
  }
  async bundleIdsByPrefix(prefix: string, limit: number): Promise<{ id: string; label: string }[]> {
    return bundleIdsByPrefix(this.db, prefix, limit);
  }
  clockMs(): number {
    return this.clock.nowMs();
  }
  /**
   * The running `esign serve` for this directory (looked up at most once a second, and not again
   * inside a write transaction, which looks it up before it takes the lock).
   */
  runningServer(): RunningServe | undefined {
    const now = Date.now();
    if (!this.serveLookup || (now - this.serveLookup.at > 1000 && !this.db.inTransaction))
      this.serveLookup = { at: now, found: runningServe(this.dataDir) };
    return this.serveLookup.found;
  }

  // Local-only administration (`esign local ...`): not part of API v2.
  info(): LocalInfo {
    return localInfo(this.db, this.dataDir, this.clock);
  }
  pendingWork(): PendingWork {
    return pendingWork(this.db);
  }

  outbox(q: OutboxQuery = {}) {
    return listMessages(this.db, q);
  }
  outboxCount(q: OutboxQuery = {}) {
    return countMessages(this.db, q);
  }
}
