// What each kind of step does, over the port and the application layer: its answer (what later
// steps refer to and `expect` checks) or an AssertionFailed when what the step itself checks does
// not hold (a wait that times out, webhooks that did not come, a file that does not verify).
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { buildBundleRequest, intentOfSpec } from '../app/bundleRequest.js';
import { download, safeFileName } from '../app/download.js';
import { parseDuration } from '../app/duration.js';
import { sha256File } from '../app/hashFile.js';
import { verifyHashes } from '../app/verify.js';
import { waitForBundles } from '../app/wait/waiter.js';
import { explainEnd } from '../app/wait/why.js';
import { operationRow } from '../service/operationTable.js';
import type { EsignService, SignInput } from '../service/service.js';
import type { AttachedFile, Bundle, Packet, WebhookEvent } from '../service/types.js';
import { AssertionFailed, mismatch } from './expect.js';
import { MAKE } from './fixtures.js';
import type { Action, DELIVERY_STATES, Step } from './format.js';
import type { Attempt, Delivery, Receiver } from './receiver.js';

/** What the steps of one run share. */
export interface RunContext {
  service: EsignService;
  /** The scenario file's folder: relative paths are read from it. */
  dir: string;
  /** A folder of this run's own (downloads, tampered copies). */
  workDir: string;
  receiver?: Receiver;
  /** The webhook the runner registered for its receiver. */
  webhookId?: string;
  /** The signer keys of the Bundles this run created, in packet order, by Bundle id. */
  keys: Map<string, string[]>;
  /** Shortens waits in tests. */
  pollMs: number;
  /** The backend has a sandbox clock (`${now}` reads it; else the wall clock). */
  clock?: boolean;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const ms = (d: string | number | undefined) =>
  d === undefined ? DEFAULT_TIMEOUT_MS : typeof d === 'number' ? d * 1000 : parseDuration(d)!;
const secs = (n: number) => `${Math.round(n / 100) / 10} s`;
const path = (ctx: RunContext, p: string) => (isAbsolute(p) ? p : resolve(ctx.dir, p));
const list = (v: string | string[]) => (Array.isArray(v) ? v : [v]);

// ---- call ---------------------------------------------------------------------------------------

async function readSpec(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  return file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
}

const CREATES = new Set(['createBundle', 'createBundleFromEnvelopeTemplate']);

async function call(step: Step, ctx: RunContext): Promise<unknown> {
  const row = operationRow(step.call!)!;
  const params = step.params ?? {};
  let body = step.body;
  let baseDir = ctx.dir;
  if (step.spec !== undefined) {
    const file = path(ctx, step.spec);
    body = await readSpec(file);
    baseDir = dirname(file);
  }
  let files: AttachedFile[] = [];
  // A create's body is what the person means: the request builder makes the request (app/bundleRequest.ts).
  if (CREATES.has(row.name) && body && typeof body === 'object' && !Array.isArray(body))
    ({ body, files } = await buildBundleRequest(intentOfSpec(body as Record<string, unknown>), {
      service: ctx.service,
      baseDir,
    }));
  const args = row.args.map((a) => {
    if (a.in === 'path' || (a.in === 'query' && 'name' in a))
      return params[a.name] === undefined ? undefined : String(params[a.name]);
    if (a.in === 'query') return params;
    if (a.in === 'body' && 'name' in a) return (body as Record<string, unknown> | undefined)?.[a.name];
    if (a.in === 'body') return body;
    return files;
  });
  const method = ctx.service[row.name as keyof EsignService] as (...a: unknown[]) => Promise<unknown>;
  const answer = await method.apply(ctx.service, args);
  rememberKeys(ctx, body, answer);
  return answer === undefined ? { done: true } : answer;
}

/** The create request names each signer's key; the answer's packets come in the same order. */
function rememberKeys(ctx: RunContext, body: unknown, answer: unknown): void {
  const packets = (body as { packets?: { key?: unknown }[] } | undefined)?.packets;
  const made = answer as Partial<Bundle> | undefined;
  if (!Array.isArray(packets) || typeof made?.id !== 'string' || !Array.isArray(made.packets)) return;
  ctx.keys.set(
    made.id,
    packets.map((p) => String(p?.key ?? '')),
  );
}

// ---- signer actions -----------------------------------------------------------------------------

interface SignerStep {
  packet?: string;
  bundle?: string;
  signer?: string | number;
}

/** The packet a signer step means: by id, or by the signer's key, email or order in a Bundle. */
async function packetOf(s: SignerStep, ctx: RunContext): Promise<string> {
  if (s.packet !== undefined) return s.packet;
  const b = await ctx.service.getBundle(s.bundle!);
  const who = s.signer!;
  let found: Packet | undefined;
  if (typeof who === 'number') found = [...b.packets].sort((x, y) => x.order - y.order)[who - 1];
  else if (who.includes('@')) found = b.packets.find((p) => p.email?.toLowerCase() === who.toLowerCase());
  else {
    const keys = ctx.keys.get(b.id);
    if (!keys)
      throw new AssertionFailed(
        `signer "${who}": a signer key is known only for Bundles this scenario created; give their email or order`,
        who,
        b.packets.map((p) => p.email),
      );
    found = b.packets[keys.indexOf(who)];
  }
  if (!found)
    throw new AssertionFailed(
      `Bundle ${b.id} has no signer ${JSON.stringify(who)}`,
      who,
      b.packets.map((p) => ({ email: p.email, order: p.order })),
    );
  return found.id;
}

const signerActions = {
  view: async (s: SignerStep, ctx: RunContext) => ctx.service.viewPacket(await packetOf(s, ctx)),
  sign: async (s: SignerStep & { values?: Record<string, string> }, ctx: RunContext) =>
    ctx.service.signPacket(await packetOf(s, ctx), { values: s.values ?? {} } satisfies SignInput),
  decline: async (s: SignerStep & { reason?: string }, ctx: RunContext) =>
    ctx.service.declinePacket(await packetOf(s, ctx), s.reason),
  reassign: async (s: SignerStep & Record<string, unknown>, ctx: RunContext) => {
    const { packet: _p, bundle: _b, signer: _s, ...body } = s;
    return ctx.service.reassignPacket(await packetOf(s, ctx), body);
  },
};

// ---- waits --------------------------------------------------------------------------------------

type Wait = NonNullable<Step['wait']>;

/** The receiver's attempts a wait counts: of its event type, about its Bundle. */
const attemptsFor = (w: Wait, ctx: RunContext) =>
  receiverOf(ctx)
    .attempts()
    .filter((a) => (!w.bundle || a.bundle_id === w.bundle) && (!w.event_type || a.event_type === w.event_type));

async function waitAttempts(w: Wait, ctx: RunContext, timeoutMs: number): Promise<Attempt[]> {
  const want = w.attempts!;
  await receiverOf(ctx).until(() => attemptsFor(w, ctx).length >= want, timeoutMs);
  const seen = attemptsFor(w, ctx);
  if (seen.length < want)
    throw new AssertionFailed(
      `the receiver saw ${seen.length} attempt${seen.length === 1 ? '' : 's'}${w.event_type ? ` of ${w.event_type}` : ''}, not ${want}, in ${secs(timeoutMs)}${await serverSide(w, ctx)}`,
      want,
      seen.map((a) => ({ event_type: a.event_type, answered: a.answered })),
    );
  return seen;
}

/** The delivery state of one webhook event, as the server records it. */
const deliveryState = (e: WebhookEvent): (typeof DELIVERY_STATES)[number] | 'pending' =>
  e.success ? 'delivered' : !e.deliveries.length ? 'pending' : e.next_attempt_at ? 'retrying' : 'given_up';

/** The events the server queued for the run's receiver, oldest first (of event_type, about bundle). */
async function serverEvents(ctx: RunContext, f: { bundle?: string; event_type?: string }): Promise<WebhookEvent[]> {
  const all: WebhookEvent[] = [];
  for (let page = 1; page <= 10; page++) {
    const got = await ctx.service.listWebhookEvents({
      webhook: ctx.webhookId,
      ...(f.bundle ? { bundle: f.bundle } : {}),
      ...(f.event_type ? { event_type: f.event_type } : {}),
      per_page: 100,
      page,
    });
    all.push(...got.items);
    if (page >= got.total_pages) break;
  }
  // The server lists the newest first.
  return all.reverse();
}

async function waitDelivery(w: Wait, ctx: RunContext, timeoutMs: number): Promise<WebhookEvent[]> {
  receiverOf(ctx);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events = await serverEvents(ctx, w);
    if (events.length && events.every((e) => deliveryState(e) === w.delivery)) return events;
    if (Date.now() >= deadline)
      throw new AssertionFailed(
        `not every webhook event is ${w.delivery} after ${secs(timeoutMs)}`,
        w.delivery,
        events.map((e) => ({ event_type: e.event_type, state: deliveryState(e), attempts: e.deliveries.length })),
      );
    await new Promise((r) => setTimeout(r, ctx.pollMs));
  }
}

async function waitStep(w: Wait, ctx: RunContext): Promise<unknown> {
  const timeoutMs = ms(w.timeout);
  if (w.attempts !== undefined) return waitAttempts(w, ctx, timeoutMs);
  if (w.delivery !== undefined) return waitDelivery(w, ctx, timeoutMs);
  const slugs = w.bundles ?? [w.bundle!];
  if (w.until) {
    const r = await waitForBundles(ctx.service, slugs, { target: w.until, timeoutMs, firstStepMs: ctx.pollMs });
    if (r.outcome === 'reached') return w.bundle ? r.bundles[0] : r.bundles;
    const late = r.unreachable[0] ?? r.pending[0];
    const outage = r.outage ? ` (the server: ${r.outage.what})` : '';
    if (!late)
      throw new AssertionFailed(
        `Bundle ${r.unread[0]} did not reach ${w.until}: never read in ${secs(timeoutMs)}${outage}`,
        w.until,
        null,
      );
    const why =
      r.outcome === 'unreachable'
        ? `it ended: ${await explainEnd(ctx.service, late)}`
        : `still ${late.status} after ${secs(timeoutMs)}${outage}`;
    throw new AssertionFailed(`Bundle ${late.id} did not reach ${w.until}: ${why}`, w.until, late.status);
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const kinds = await Promise.all(slugs.map(async (s) => (await ctx.service.listBundleEvents(s)).map((e) => e.kind)));
    if (kinds.every((k) => k.includes(w.event!))) return w.bundle ? kinds[0] : kinds;
    if (Date.now() >= deadline)
      throw new AssertionFailed(
        `no ${w.event} event after ${secs(timeoutMs)}`,
        w.event,
        kinds.length === 1 ? kinds[0] : kinds,
      );
    await new Promise((r) => setTimeout(r, ctx.pollMs));
  }
}

/** A multiset difference, in words: what is missing and what is extra. */
function setDiff(expected: string[], got: string[]): string | undefined {
  const left = [...got];
  const missing: string[] = [];
  for (const e of expected) {
    const i = left.indexOf(e);
    if (i < 0) missing.push(e);
    else left.splice(i, 1);
  }
  if (!missing.length && !left.length) return undefined;
  return [missing.length ? `missing ${missing.join(', ')}` : '', left.length ? `unexpected ${left.join(', ')}` : '']
    .filter(Boolean)
    .join('; ');
}

/** What the server says of the events it has not delivered: why a delivery did not come. */
async function serverSide(w: { bundle?: string }, ctx: RunContext): Promise<string> {
  if (!ctx.webhookId) return '';
  const page = await ctx.service
    .listWebhookEvents({ webhook: ctx.webhookId, ...(w.bundle ? { bundle: w.bundle } : {}), per_page: 100 })
    .catch(() => undefined);
  const pending = (page?.items ?? []).filter((e) => !e.success);
  if (!pending.length) return '';
  const why = pending.map((e) => {
    const last = e.deliveries.at(-1);
    const next = e.next_attempt_at ? `, next attempt ${e.next_attempt_at}` : '';
    return `${e.event_type}: ${last?.message || (e.status ? `HTTP ${e.status}` : 'not attempted yet')}${next}`;
  });
  return `; the server has not delivered ${pending.length}: ${why.join('; ')}`;
}

function receiverOf(ctx: RunContext): Receiver {
  if (!ctx.receiver)
    throw new AssertionFailed(
      'no receiver: add "receiver:" to the scenario to receive webhooks',
      'receiver',
      undefined,
    );
  return ctx.receiver;
}

/** Deliveries in the order the server made their events (its sequence), not the order they arrived in. */
async function inEventOrder(got: Delivery[], w: { bundle?: string }, ctx: RunContext): Promise<Delivery[]> {
  const order = new Map((await serverEvents(ctx, w)).map((e, i) => [e.pk, i]));
  const at = (d: Delivery) => order.get(d.event_id ?? '') ?? Number.MAX_SAFE_INTEGER;
  return [...got].sort((a, b) => at(a) - at(b));
}

async function webhooksStep(w: NonNullable<Step['webhooks']>, ctx: RunContext): Promise<Delivery[]> {
  const receiver = receiverOf(ctx);
  const mine = () => receiver.deliveries().filter((d) => !w.bundle || d.bundle_id === w.bundle);
  const want = w.count ?? w.events?.length;
  const enough = () => (want === undefined ? mine().length > 0 : mine().length >= want);
  if (want !== 0) await receiver.until(enough, ms(w.timeout));
  if (w.quiet !== undefined) {
    const before = mine().length;
    await receiver.until(() => mine().length > before, ms(w.quiet));
  }
  let got = mine();
  const forged = got.filter((d) => !d.verified);
  if (forged.length)
    throw new AssertionFailed(
      `${forged.length} deliver${forged.length === 1 ? 'y' : 'ies'} failed the signature check (${forged.map((d) => d.reason).join(', ')})`,
      'every delivery signed with the webhook secret',
      forged,
    );
  if (w.ordered) got = await inEventOrder(got, w, ctx);
  const types = got.map((d) => d.event_type ?? '?');
  if (want !== undefined && got.length !== want)
    throw new AssertionFailed(
      `expected ${want} deliveries, got ${got.length} (${types.join(', ') || 'none'})${w.quiet !== undefined && got.length > want ? `, within ${secs(ms(w.quiet))} more` : ''}${await serverSide(w, ctx)}`,
      want,
      types,
    );
  if (want === undefined && !got.length)
    throw new AssertionFailed(`no delivery within ${secs(ms(w.timeout))}`, 'a delivery', []);
  if (w.events) {
    const why = w.ordered ? mismatch(w.events, types) : setDiff(w.events, types);
    if (why) throw new AssertionFailed(`webhook events: ${why}`, w.events, types);
  }
  return got;
}

async function respondStep(r: NonNullable<Step['respond']>, ctx: RunContext) {
  const receiver = receiverOf(ctx);
  const b = { statuses: r.statuses ?? [], delayMs: r.delay === undefined ? 0 : ms(r.delay), down: r.down === true };
  await receiver.behave(b);
  return { url: receiver.url, statuses: b.statuses, delay_ms: b.delayMs, down: b.down };
}

// ---- files --------------------------------------------------------------------------------------

/** The files a completed Bundle produced, which verify recognises (not the documents as sent). */
const PRODUCED = new Set(['signed_pdf', 'combined_pdf', 'coe_pdf']);

async function downloadStep(d: NonNullable<Step['download']>, ctx: RunContext) {
  const dir = d.to === undefined ? join(ctx.workDir, `files-${d.bundle}`) : path(ctx, d.to);
  await mkdir(dir, { recursive: true });
  const used = new Set<string>();
  const files = [];
  for (const [i, f] of (await ctx.service.getBundleFiles(d.bundle)).entries()) {
    const name = safeFileName(f.name ?? basename(new URL(f.file_url).pathname), i, used);
    const saved = await download({ service: async () => ctx.service }, f.file_url, join(dir, name), f.sha256, {
      clobber: true,
    });
    files.push({ name, kind: f.kind ?? null, doc_key: f.doc_key ?? null, ...saved });
  }
  return {
    dir,
    files,
    paths: files.map((f) => f.path),
    signed: files.filter((f) => PRODUCED.has(f.kind ?? '')).map((f) => f.path),
  };
}

async function verifyStep(v: NonNullable<Step['verify']>, ctx: RunContext) {
  const inputs = await Promise.all(list(v.files).map(async (f) => ({ file: f, hash: await sha256File(path(ctx, f)) })));
  const results = await verifyHashes(ctx.service, inputs);
  const wantValid = v.valid !== false;
  const wrong = results.filter((r) => (r.status === 'match') !== wantValid);
  if (wrong.length)
    throw new AssertionFailed(
      `${wrong.map((r) => r.file).join(', ')}: ${wantValid ? 'not verified' : 'verified, though it should be refused'} (${wrong[0]!.message})`,
      wantValid ? 'match' : 'no_match',
      wrong.map((r) => r.status),
    );
  return results;
}

async function tamperStep(t: NonNullable<Step['tamper']>, ctx: RunContext) {
  const from = path(ctx, t.file);
  const to = t.to === undefined ? join(dirname(from), `tampered-${basename(from)}`) : path(ctx, t.to);
  const bytes = await readFile(from);
  if (!bytes.length) throw new AssertionFailed(`${t.file} is empty: nothing to change`, 'a file with content', 0);
  const at = Math.floor(bytes.length / 2);
  bytes[at] = bytes[at]! ^ 0xff;
  await mkdir(dirname(to), { recursive: true });
  await writeFile(to, bytes);
  return { path: to, from, changed_byte: at, sha256: await sha256File(to), size: bytes.length };
}

async function hashStep(h: NonNullable<Step['hash']>, ctx: RunContext) {
  const file = path(ctx, h.file);
  return { path: file, sha256: await sha256File(file), size: (await stat(file)).size };
}

// ---- the table ----------------------------------------------------------------------------------

type Run = (value: never, ctx: RunContext, step: Step) => Promise<unknown>;

export const RUN: Record<Action, Run> = {
  call: (_v, ctx, step) => call(step, ctx),
  ...(signerActions as unknown as Record<'view' | 'sign' | 'decline' | 'reassign', Run>),
  advance: (d: string | number, ctx) => ctx.service.advanceClock(ms(d)),
  wait: waitStep as Run,
  respond: respondStep as Run,
  webhooks: webhooksStep as Run,
  outbox: (q: Record<string, string>, ctx) => ctx.service.listOutbox(q),
  events: async (e: NonNullable<Step['events']>, ctx) => {
    const events = await ctx.service.listBundleEvents(e.bundle);
    const why = e.in_order
      ? mismatch(
          { in_order: e.in_order },
          events.map((x) => x.kind),
        )
      : undefined;
    if (why)
      throw new AssertionFailed(
        `events of ${e.bundle}: ${why}`,
        e.in_order,
        events.map((x) => x.kind),
      );
    return events;
  },
  download: downloadStep as Run,
  verify: verifyStep as Run,
  tamper: tamperStep as Run,
  hash: hashStep as Run,
  assert: async (v: unknown) => v,
  account: MAKE.account,
  template: MAKE.template,
  envelope_template: MAKE.envelope_template,
};
