// The webhook receiver a scenario's run starts on 127.0.0.1: every attempt is kept with whether its
// signature holds (checked against the raw body, as a real receiver must), its event type, the
// Bundle it is about and what the receiver answered, so `webhooks` and `wait` steps can wait for
// and check them. A `respond` step makes it misbehave on purpose: answer given statuses to the next
// attempts, answer slowly, or be down (not listening at all). Bounded: bodies of at most 1 MB, at
// most 10,000 attempts kept.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { receiveDelivery } from '../app/webhookReceipt.js';

const MAX_BODY = 1024 * 1024;
const MAX_KEPT = 10_000;

export interface Delivery {
  received: string;
  verified: boolean;
  /** Why the signature does not hold (bad_signature, stale_timestamp, ...), else null. */
  reason: string | null;
  event_type: string | null;
  event_id: string | null;
  bundle_id: string | null;
  event: Record<string, unknown> | null;
}

/** One attempt as the receiver saw it: the delivery, what it answered, and whether a `respond` step chose that. */
export interface Attempt extends Delivery {
  /** 1 for the first attempt the receiver saw, and so on. */
  n: number;
  answered: number;
  /** The answer was one a `respond` step asked for (not the receiver's own verdict). */
  planned: boolean;
}

/** How the receiver behaves from a `respond` step on. */
interface Behaviour {
  /** Answers for the next attempts, in turn; then it answers as a receiver should. */
  statuses: number[];
  /** Each answer waits this long. */
  delayMs: number;
  /** Not listening: attempts find the port closed. */
  down: boolean;
}

export interface Receiver {
  url: string;
  /** The attempts it accepted (answered as a receiver should, not as told), in the order received. */
  deliveries(): readonly Delivery[];
  /** Every attempt, in the order received. */
  attempts(): readonly Attempt[];
  /** Resolves when `done()` holds or `timeoutMs` passes (false then); asked again at each attempt. */
  until(done: () => boolean, timeoutMs: number): Promise<boolean>;
  /** From now on: answer these statuses to the next attempts, wait before answering, or be down. */
  behave(b: Behaviour): Promise<void>;
  close(): Promise<void>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : null);

function listen(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function stop(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Starts a receiver; `secret()` is asked for each delivery (the secret is known once registered). */
export async function startReceiver(secret: () => string | undefined): Promise<Receiver> {
  const kept: Attempt[] = [];
  const waiters = new Set<() => void>();
  let plan: Behaviour = { statuses: [], delayMs: 0, down: false };
  const server = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const planned = plan.statuses.shift();
    const delayMs = plan.delayMs;
    receiveDelivery(req, { secret: secret() ?? '', maxBytes: MAX_BODY }).then(
      async (receipt) => {
        if (!receipt) return void res.writeHead(413).end();
        const { check, event } = receipt;
        const payload = isObject(event?.payload) ? event.payload : {};
        const answered = planned ?? (check.ok ? 200 : 401);
        if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
        if (kept.length < MAX_KEPT)
          kept.push({
            n: kept.length + 1,
            received: new Date().toISOString(),
            verified: check.ok,
            reason: check.ok ? null : check.reason,
            event_type: str(event?.event_type),
            event_id: str(event?.event_id),
            bundle_id: str(payload.bundle_id),
            answered,
            planned: planned !== undefined,
            event,
          });
        res.writeHead(answered).end();
        for (const w of waiters) w();
      },
      () => res.writeHead(400).end(),
    );
  });
  await listen(server, 0);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    deliveries: () => kept.filter((a) => !a.planned).map(({ n: _n, answered: _a, planned: _p, ...d }) => d),
    attempts: () => kept,
    until(done, timeoutMs) {
      if (done()) return Promise.resolve(true);
      return new Promise((resolve) => {
        const check = () => {
          if (done()) finish(true);
        };
        const finish = (ok: boolean) => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(ok);
        };
        const timer = setTimeout(() => finish(false), timeoutMs);
        waiters.add(check);
      });
    },
    async behave(b) {
      plan = { ...b, statuses: [...b.statuses] };
      if (b.down) await stop(server);
      else if (!server.listening) await listen(server, port);
    },
    close: () => stop(server),
  };
}
