// The webhook receiver a scenario's run starts on 127.0.0.1: every delivery is kept with whether its
// signature holds (checked against the raw body, as a real receiver must), its event type and the
// Bundle it is about, so a `webhooks` step can wait for and check them. Bounded: bodies of at most
// 1 MB, at most 10,000 deliveries kept.
import { createServer } from 'node:http';
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

export interface Receiver {
  url: string;
  /** Every delivery so far, in the order received. */
  deliveries(): readonly Delivery[];
  /** Resolves when `done(deliveries)` holds or `timeoutMs` passes (false then). */
  until(done: (d: readonly Delivery[]) => boolean, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** Starts a receiver; `secret()` is asked for each delivery (the secret is known once registered). */
export async function startReceiver(secret: () => string | undefined): Promise<Receiver> {
  const kept: Delivery[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    receiveDelivery(req, { secret: secret() ?? '', maxBytes: MAX_BODY }).then(
      (receipt) => {
        if (!receipt) return void res.writeHead(413).end();
        const { check, event } = receipt;
        const payload = isObject(event?.payload) ? event.payload : {};
        if (kept.length < MAX_KEPT)
          kept.push({
            received: new Date().toISOString(),
            verified: check.ok,
            reason: check.ok ? null : check.reason,
            event_type: str(event?.event_type),
            event_id: str(event?.event_id),
            bundle_id: str(payload.bundle_id),
            event,
          });
        res.writeHead(check.ok ? 200 : 401).end();
        for (const w of waiters) w();
      },
      () => res.writeHead(400).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    deliveries: () => kept,
    until(done, timeoutMs) {
      if (done(kept)) return Promise.resolve(true);
      return new Promise((resolve) => {
        const check = () => {
          if (!done(kept)) return;
          finish(true);
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
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
