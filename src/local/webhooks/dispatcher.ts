// Webhook delivery: drains the outbox (`webhook_events` rows due by the engine's clock), POSTs
// each to its webhook with the extra headers in order and the signature headers, and records
// every attempt. Rows are leased while in flight, so several processes can share one database and
// a process that dies mid-delivery leaves its rows to be retried: delivery is at least once.
import type { Dispatcher as UndiciDispatcher } from 'undici';
import { ApiError } from '../../domain/errors.js';
import { WEBHOOK_EVENT_TYPES } from '../../domain/enums.js';
import type { WebhookEvent } from '../../service/types.js';
import { loadUndici } from '../../lazyImport.js';
import { type OutboundPolicy, outboundAgent, refusalOf } from '../net/addressPolicy.js';
import type { EngineContext } from '../store/context.js';
import { inTransaction } from '../store/context.js';
import { sql } from '../store/db.js';
import { uuid } from '../store/ids.js';
import { enqueueOccurrence } from './queue.js';
import { webhookSecret } from './secret.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, sign } from '../../domain/webhookSignature.js';
import { getWebhookEvent } from './store.js';
import { isDeliveredStatus } from '../../service/webhookEvents.js';

/** Minutes after a failed attempt before the next one (docs/wire.md); then the event is given up. */
export const RETRY_DELAYS_MIN = [4, 12, 36, 108, 324] as const;
/** A receiver must answer within this (docs/wire.md). */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** A webhook whose events are given up this many times in a row is disabled. */
export const DISABLE_AFTER_FAILED_EVENTS = 10;
/** How long a clock move waits for the attempts it made due: longer than one attempt may take. */
const SETTLE_BUDGET_MS = ATTEMPT_TIMEOUT_MS + 5_000;
/** A one-shot command waits at most this long for its first attempts before it exits. */
export const ONE_SHOT_BUDGET_MS = 5_000;
/**
 * Longer than an attempt can take: a lease still held after this belongs to a dead process. Leases
 * run on wall-clock time (as document leases do): moving the engine clock must not free a row in flight.
 */
export const LEASE_MS = 15_000;
const CONCURRENCY = 32;
const POLL_MS = 1_000;
const SETTLE_POLL_MS = 25;
const USER_AGENT = 'esign-webhooks/1';

interface Claimed {
  seq: number;
  pk: string;
  webhook_id: string;
  payload: string;
  attempts: number;
}

interface Outcome {
  status: number;
  success: boolean;
  message: string;
  /** The attempt was abandoned by this process (its time budget ran out): not the receiver's failure. */
  abandoned?: boolean;
}

export interface DeliverOptions {
  /** Only events never attempted (what a one-shot command owes the state change it made). */
  firstAttemptsOnly?: boolean;
  /** Stop claiming, and abandon attempts in flight, after this many ms. */
  budgetMs?: number;
}

/** The dispatcher's timings; tests shorten them, or move its wall clock, instead of waiting. */
export interface WebhookTiming {
  /** How long a claimed event stays claimed (default LEASE_MS). */
  leaseMs?: number;
  /** How long a one-shot command waits for its first attempts (default ONE_SHOT_BUDGET_MS). */
  oneShotBudgetMs?: number;
  /** The wall clock leases are taken and compared on (default Date.now). */
  wallMs?: () => number;
}

export class Dispatcher {
  private agent: Promise<UndiciDispatcher> | undefined;
  private agentPolicy: string | undefined;
  private loop: { timer: NodeJS.Timeout; running: Promise<unknown> | undefined; again: boolean } | undefined;

  constructor(
    private readonly ctx: EngineContext,
    private readonly timing: WebhookTiming = {},
  ) {}

  private wallNow(): string {
    return new Date((this.timing.wallMs ?? Date.now)()).toISOString();
  }

  private leaseUntil(): string {
    return new Date((this.timing.wallMs ?? Date.now)() + (this.timing.leaseMs ?? LEASE_MS)).toISOString();
  }

  get running(): boolean {
    return this.loop !== undefined;
  }

  /** Delivers continuously (esign serve): at once when this process queues, and by polling for the rest. */
  start(pollMs = POLL_MS): void {
    if (this.loop) return;
    this.loop = { timer: setInterval(() => this.wake(), pollMs), running: undefined, again: false };
    this.loop.timer.unref?.();
    this.wake();
  }

  /** Looks for due events now (when running). */
  wake(): void {
    const l = this.loop;
    if (!l) return;
    if (l.running) {
      l.again = true;
      return;
    }
    l.running = this.deliverDue()
      .catch((e) => this.ctx.report(`esign: webhook delivery failed: ${(e as Error).message}`))
      .finally(() => {
        l.running = undefined;
        if (l.again && this.loop === l) {
          l.again = false;
          this.wake();
        }
      });
  }

  /** The connection pool, under the outbound-address policy; remade when the policy changes (the account setting). */
  private agentFor(policy: OutboundPolicy): Promise<UndiciDispatcher> {
    const key = JSON.stringify(policy);
    if (!this.agent || this.agentPolicy !== key) {
      const old = this.agent;
      this.agentPolicy = key;
      this.agent = outboundAgent({ ...policy, agent: { keepAliveTimeout: 10_000, connections: 8 } });
      void old?.then((a) => a.close()).catch(() => {});
    }
    return this.agent;
  }

  /** Stops the loop, waits for attempts in flight and closes connections. */
  async close(): Promise<void> {
    const l = this.loop;
    this.loop = undefined;
    if (l) {
      clearInterval(l.timer);
      await l.running;
    }
    await (await this.agent)?.close();
    this.agent = undefined;
  }

  /**
   * Claims and delivers due events until none is left (or the budget is spent). Claims are made in
   * bulk as slots free up, and finished attempts are recorded together, one transaction a turn.
   */
  async deliverDue(opts: DeliverOptions = {}): Promise<{ delivered: number; failed: number }> {
    const deadline = opts.budgetMs === undefined ? undefined : Date.now() + opts.budgetMs;
    const done = { delivered: 0, failed: 0 };
    const run = new RunCache(this.ctx);
    const inFlight = new Set<Promise<void>>();
    const finished: Attempted[] = [];
    for (;;) {
      if (deadline !== undefined && Date.now() >= deadline) break;
      const batch =
        inFlight.size <= CONCURRENCY / 2
          ? this.claim(CONCURRENCY - inFlight.size, opts.firstAttemptsOnly === true)
          : [];
      if (!batch.length && !inFlight.size) break;
      for (const e of batch) {
        const tracked: Promise<void> = this.post(e, run, deadline)
          .then((o) => void finished.push({ e, o, manual: false }))
          .finally(() => inFlight.delete(tracked));
        inFlight.add(tracked);
      }
      if (inFlight.size) {
        await Promise.race(inFlight);
        // Answers that arrive in the same turn of the event loop are recorded in the same transaction.
        await new Promise((r) => setImmediate(r));
      }
      this.recordAll(finished.splice(0), done);
    }
    await Promise.all(inFlight);
    this.recordAll(finished.splice(0), done);
    return done;
  }

  /**
   * Makes every attempt due by the engine's clock and waits for each to be recorded: those this call
   * claims, those the continuous loop has in flight, and those another process holds a lease on
   * (polled until their lease ends). What a clock move owes a test: when it returns, what it made
   * due has happened.
   */
  async settle(budgetMs = SETTLE_BUDGET_MS): Promise<{ delivered: number; failed: number }> {
    const deadline = Date.now() + budgetMs;
    const total = { delivered: 0, failed: 0 };
    for (;;) {
      await this.loop?.running;
      const left = deadline - Date.now();
      if (left <= 0) break;
      const d = await this.deliverDue({ budgetMs: left });
      total.delivered += d.delivered;
      total.failed += d.failed;
      if (this.loop?.running) continue;
      if (!this.leasedDue()) break;
      await new Promise((r) => setTimeout(r, SETTLE_POLL_MS));
    }
    return total;
  }

  /** Due events someone holds a lease on: attempts in flight here or in another process. */
  private leasedDue(): boolean {
    if (!this.ctx.db.open) return false;
    return (
      sql(this.ctx.db, 'SELECT 1 FROM webhook_events WHERE next_attempt_at <= ? AND lease_until > ? LIMIT 1').get(
        this.ctx.clock.now(),
        this.wallNow(),
      ) !== undefined
    );
  }

  /** What a one-shot command owes the state changes it made: first attempts, within a time budget. */
  deliverFirstAttempts() {
    return this.deliverDue({ firstAttemptsOnly: true, budgetMs: this.timing.oneShotBudgetMs ?? ONE_SHOT_BUDGET_MS });
  }

  private claim(limit: number, firstOnly: boolean): Claimed[] {
    if (limit <= 0 || !this.ctx.db.open) return [];
    const nowIso = this.ctx.clock.now();
    // A read first: esign serve polls every second, and should not take the write lock for nothing.
    if (!sql(this.ctx.db, 'SELECT 1 FROM webhook_events WHERE next_attempt_at <= ? LIMIT 1').get(nowIso)) return [];
    return inTransaction(
      this.ctx,
      () =>
        sql(
          this.ctx.db,
          `UPDATE webhook_events SET lease_until = ? WHERE seq IN (
          SELECT e.seq FROM webhook_events e JOIN webhooks w ON w.id = e.webhook_id
          WHERE e.next_attempt_at <= ? AND (e.lease_until IS NULL OR e.lease_until <= ?) AND w.enabled = 1 AND (? = 0 OR e.attempts = 0)
          ORDER BY e.next_attempt_at, e.seq LIMIT ?)
        RETURNING seq, pk, webhook_id, payload, attempts`,
        ).all(this.leaseUntil(), nowIso, this.wallNow(), firstOnly ? 1 : 0, limit) as Claimed[],
    );
  }

  private async post(e: Claimed, run: RunCache, deadline?: number): Promise<Outcome> {
    const hook = run.webhook(e.webhook_id);
    if (!hook) return { status: 0, success: false, message: 'The webhook was deleted.', abandoned: true };
    const body = hook.json ? e.payload : formBody(e.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = [
      'content-type',
      hook.json ? 'application/json' : 'application/x-www-form-urlencoded',
      'user-agent',
      USER_AGENT,
      TIMESTAMP_HEADER,
      String(timestamp),
      SIGNATURE_HEADER,
      sign(run.secret(), timestamp, body),
      ...hook.headers,
    ];
    const budget = deadline === undefined ? ATTEMPT_TIMEOUT_MS : Math.min(ATTEMPT_TIMEOUT_MS, deadline - Date.now());
    if (budget <= 0) return { status: 0, success: false, message: 'No time left.', abandoned: true };
    const ownDeadline = budget < ATTEMPT_TIMEOUT_MS;
    const { request } = await loadUndici();
    const agent = await this.agentFor(this.ctx.outboundPolicy());
    try {
      const res = await request(hook.url, {
        method: 'POST',
        headers,
        body,
        dispatcher: agent,
        signal: AbortSignal.timeout(budget),
        headersTimeout: ATTEMPT_TIMEOUT_MS,
        bodyTimeout: ATTEMPT_TIMEOUT_MS,
      });
      const answer = this.ctx.keepWebhookReplies()
        ? await answerStart(res.body)
        : await res.body.dump({ limit: DRAIN_BYTES }).then(
            () => '',
            () => '',
          );
      const success = isDeliveredStatus(res.statusCode);
      return { status: res.statusCode, success, message: `HTTP ${res.statusCode}${answer ? `: ${answer}` : ''}` };
    } catch (err) {
      const x = err as Error & { code?: string; cause?: { code?: string } };
      const timedOut =
        x.name === 'TimeoutError' || x.code === 'UND_ERR_HEADERS_TIMEOUT' || x.code === 'UND_ERR_BODY_TIMEOUT';
      if (timedOut && ownDeadline)
        return { status: 0, success: false, message: 'Abandoned: the command ran out of time.', abandoned: true };
      return {
        status: 0,
        success: false,
        message: timedOut ? `No answer within ${ATTEMPT_TIMEOUT_MS / 1000} s.` : failureReason(err),
      };
    }
  }

  /** Records finished attempts in one transaction; an abandoned one only gives its lease back. */
  private recordAll(list: Attempted[], done?: { delivered: number; failed: number }): void {
    if (!list.length || !this.ctx.db.open) return;
    const now = this.ctx.clock.nowMs();
    inTransaction(this.ctx, () => {
      for (const { e, o, manual } of list) {
        if (o.abandoned) sql(this.ctx.db, 'UPDATE webhook_events SET lease_until = NULL WHERE seq = ?').run(e.seq);
        else this.record(e, o, manual, now);
      }
    });
    if (done) for (const { o } of list) if (!o.abandoned) o.success ? done.delivered++ : done.failed++;
  }

  /**
   * Records an attempt. A failed scheduled attempt is retried on the documented schedule, then given
   * up; a manual resend changes no schedule unless it succeeds.
   */
  private record(e: Claimed, o: Outcome, manual: boolean, now: number): void {
    const db = this.ctx.db;
    // Its webhook was deleted while the attempt was in flight: the event went with it.
    if (!sql(db, 'SELECT 1 FROM webhook_events WHERE seq = ?').get(e.seq)) return;
    sql(
      db,
      'INSERT INTO webhook_deliveries (pk, event_seq, timestamp, status, success, message) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(uuid(), e.seq, new Date(now).toISOString(), o.status, o.success ? 1 : 0, o.message);
    if (o.success) {
      sql(
        db,
        'UPDATE webhook_events SET attempts = attempts + 1, status = ?, success = 1, next_attempt_at = NULL, lease_until = NULL WHERE seq = ?',
      ).run(o.status, e.seq);
      sql(db, 'UPDATE webhooks SET failed_in_a_row = 0 WHERE id = ? AND failed_in_a_row <> 0').run(e.webhook_id);
      return;
    }
    // `attempts` counts scheduled attempts: it places the next retry on the schedule.
    if (manual) {
      sql(db, 'UPDATE webhook_events SET status = ?, lease_until = NULL WHERE seq = ?').run(o.status, e.seq);
      return;
    }
    const delay = RETRY_DELAYS_MIN[e.attempts];
    const next = delay === undefined ? null : new Date(now + delay * 60_000).toISOString();
    sql(
      db,
      'UPDATE webhook_events SET attempts = attempts + 1, status = ?, next_attempt_at = ?, lease_until = NULL WHERE seq = ?',
    ).run(o.status, next, e.seq);
    if (next === null)
      sql(
        db,
        `UPDATE webhooks SET failed_in_a_row = failed_in_a_row + 1,
          disabled_at = CASE WHEN enabled = 1 AND failed_in_a_row + 1 >= ? THEN ? ELSE disabled_at END,
          disabled_after = CASE WHEN enabled = 1 AND failed_in_a_row + 1 >= ? THEN failed_in_a_row + 1 ELSE disabled_after END,
          enabled = CASE WHEN failed_in_a_row + 1 >= ? THEN 0 ELSE enabled END WHERE id = ?`,
      ).run(
        DISABLE_AFTER_FAILED_EVENTS,
        this.ctx.clock.now(),
        DISABLE_AFTER_FAILED_EVENTS,
        DISABLE_AFTER_FAILED_EVENTS,
        e.webhook_id,
      );
  }

  /** A test occurrence for every enabled, subscribed webhook; first attempts are made before returning. */
  async trigger(eventType: string, bundleSlug?: string): Promise<WebhookEvent[]> {
    if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(eventType))
      throw new ApiError(
        400,
        'invalid',
        `event_type: "${eventType}" is not a webhook event type. Valid: ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
        [{ field: 'event_type', message: `"${eventType}" is not a valid choice.` }],
      );
    const pks = inTransaction(this.ctx, () => {
      let bundleId = 'test';
      let packetId: string | null = null;
      if (bundleSlug) {
        const b = sql(this.ctx.db, 'SELECT seq, id FROM bundles WHERE id = ?').get(bundleSlug) as
          | { seq: number; id: string }
          | undefined;
        if (!b) throw new ApiError(404, 'not_found', `No Bundle "${bundleSlug}".`);
        bundleId = b.id;
        if (eventType.startsWith('packet_'))
          packetId = (
            sql(this.ctx.db, 'SELECT id FROM packets WHERE bundle_seq = ? ORDER BY idx LIMIT 1').get(b.seq) as {
              id: string;
            }
          ).id;
      } else if (eventType.startsWith('packet_')) packetId = 'test';
      const template = eventType.startsWith('doc_template_')
        ? { bundleId: null, payload: { template_id: 'test' } }
        : {};
      return enqueueOccurrence(this.ctx.db, {
        eventType,
        at: this.ctx.clock.now(),
        bundleId,
        packetId,
        ...template,
        test: true,
      });
    });
    await this.attemptQueued(pks);
    return pks.map((pk) => getWebhookEvent(this.ctx, pk));
  }

  /** Delivers an event again now, whatever its state (even given up, or of a disabled webhook). */
  async resend(pk: string): Promise<WebhookEvent> {
    getWebhookEvent(this.ctx, pk);
    if (!(await this.attemptNow(pk, 'manual'))) await this.untilLeasesEnd([pk], Date.now() + SETTLE_BUDGET_MS);
    return getWebhookEvent(this.ctx, pk);
  }

  /**
   * First attempts of events just queued (test events, the missed events sent again), a few at a
   * time, within the budget: what is not attempted by then stays queued for the next delivery run.
   */
  async attemptQueued(pks: readonly string[], budgetMs = SETTLE_BUDGET_MS): Promise<void> {
    const deadline = Date.now() + budgetMs;
    const left = [...pks];
    const elsewhere: string[] = [];
    const worker = async () => {
      for (let pk = left.shift(); pk !== undefined && Date.now() < deadline; pk = left.shift())
        if (!(await this.attemptNow(pk, 'first'))) elsewhere.push(pk);
    };
    await Promise.all(Array.from({ length: Math.min(8, left.length) }, worker));
    // Another process on the same database (esign serve's delivery loop) may have claimed some first:
    // their attempts are that process's to record, and what this call reports waits for them.
    await this.untilLeasesEnd(elsewhere, deadline);
  }

  /**
   * Leases one event and attempts it: any time ('manual'), or only if never attempted ('first').
   * False when another process holds its lease, or ('first') has attempted it already.
   */
  private async attemptNow(pk: string, kind: 'manual' | 'first'): Promise<boolean> {
    const e = sql(
      this.ctx.db,
      `UPDATE webhook_events SET lease_until = ?
        WHERE pk = ? AND (lease_until IS NULL OR lease_until <= ?) AND (? = 0 OR attempts = 0)
        RETURNING seq, pk, webhook_id, payload, attempts`,
    ).get(this.leaseUntil(), pk, this.wallNow(), kind === 'first' ? 1 : 0) as Claimed | undefined;
    if (!e) return false;
    this.recordAll([{ e, o: await this.post(e, new RunCache(this.ctx)), manual: kind === 'manual' }]);
    return true;
  }

  /** Polls until no event of `pks` is leased (its attempt recorded, or its holder gone), or the deadline. */
  private async untilLeasesEnd(pks: readonly string[], deadline: number): Promise<void> {
    const leased = (pk: string) =>
      this.ctx.db.open &&
      sql(this.ctx.db, 'SELECT 1 FROM webhook_events WHERE pk = ? AND lease_until > ?').get(pk, this.wallNow()) !==
        undefined;
    while (Date.now() < deadline && pks.some(leased)) await new Promise((r) => setTimeout(r, SETTLE_POLL_MS));
  }
}

interface Attempted {
  e: Claimed;
  o: Outcome;
  manual: boolean;
}

/** What one delivery run reads once: each webhook's address, format and extra headers, and the secret. */
class RunCache {
  private readonly hooks = new Map<string, { url: string; json: boolean; headers: string[] } | undefined>();
  private secretValue: string | undefined;
  constructor(private readonly ctx: EngineContext) {}

  webhook(id: string) {
    if (!this.hooks.has(id)) {
      const row = sql(this.ctx.db, 'SELECT url, json FROM webhooks WHERE id = ?').get(id) as
        | { url: string; json: number }
        | undefined;
      const extra = row
        ? (sql(this.ctx.db, 'SELECT name, value FROM webhook_headers WHERE webhook_id = ? ORDER BY ord, seq').all(
            id,
          ) as { name: string; value: string }[])
        : [];
      this.hooks.set(
        id,
        row && { url: row.url, json: row.json === 1, headers: extra.flatMap((h) => [h.name, h.value]) },
      );
    }
    return this.hooks.get(id);
  }

  secret(): string {
    return (this.secretValue ??= webhookSecret(this.ctx.db, this.ctx.clock.now()).secret);
  }
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'Connection reset',
  ENOTFOUND: 'Host not found',
  EAI_AGAIN: 'Host lookup failed',
  EHOSTUNREACH: 'Host unreachable',
  ENETUNREACH: 'Network unreachable',
  ETIMEDOUT: 'Connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'Connection timed out',
  UND_ERR_SOCKET: 'Connection closed',
  ERR_INVALID_URL: 'Invalid URL',
};

/** Of a receiver's answer, the bytes read to find its start, the characters kept, and the bytes read at most. */
const ANSWER_BYTES = 2048;
const ANSWER_CHARS = 200;
const DRAIN_BYTES = 64 * 1024;

/**
 * The start of a receiver's answer, on one line: support reads why a delivery failed ("HTTP 503:
 * down for maintenance"). Bounded: 200 characters kept, at most 64 KiB read (the rest is left,
 * and the connection with it). Every door shows it escaped or sanitised, as any text from outside.
 */
async function answerStart(body: AsyncIterable<Buffer>): Promise<string> {
  const kept: Buffer[] = [];
  let seen = 0;
  try {
    for await (const chunk of body) {
      if (seen < ANSWER_BYTES) kept.push(chunk.subarray(0, ANSWER_BYTES - seen));
      seen += chunk.length;
      if (seen > DRAIN_BYTES) break;
    }
  } catch {
    // An answer cut short: what came is kept.
  }
  const chars = [...Buffer.concat(kept).toString('utf8').replace(/\s+/g, ' ').trim()];
  return chars.length > ANSWER_CHARS ? `${chars.slice(0, ANSWER_CHARS - 1).join('')}…` : chars.join('');
}

/** esign's own short reason for a failed attempt: a code and what it means, never text from elsewhere. */
function failureReason(err: unknown): string {
  if (refusalOf(err))
    return 'Refused: the address is private, loopback or link-local (esign serve --allow-private-urls allows it).';
  const x = err as { code?: string; cause?: { code?: string } };
  const code = x.cause?.code ?? x.code;
  if (code && NETWORK_REASONS[code]) return `${NETWORK_REASONS[code]} (${code}).`;
  if (code && /^[A-Z0-9_]+$/.test(code)) return `Delivery failed (${code}).`;
  return 'Delivery failed.';
}

/** The body of a webhook with `json` off: the same members, form-encoded, with `payload` as a JSON string. */
function formBody(payload: string): string {
  const o = JSON.parse(payload) as Record<string, unknown>;
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  return form.toString();
}
