// A real webhook receiver on 127.0.0.1 for delivery tests: records every request, answers as told.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  rawHeaders: string[];
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Decides the answer to the next request (status, status and body, or 'hang' to never answer). */
  respond: (r: Received, n: number) => number | { status: number; body: string } | 'hang';
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const waiters: (() => void)[] = [];
  const r: Receiver = {
    url: '',
    received: [],
    respond: () => 200,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (r.received.length < count) {
        if (Date.now() > deadline) throw new Error(`received ${r.received.length} of ${count} deliveries`);
        await new Promise<void>((res) => {
          waiters.push(res);
          setTimeout(res, 50);
        });
      }
      return r.received;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((res) => server.close(res));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = {
        rawHeaders: req.rawHeaders,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
        at: Date.now(),
      };
      r.received.push(got);
      waiters.splice(0).forEach((w) => w());
      const answer = r.respond(got, r.received.length);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      const { status, body } =
        typeof answer === 'number' ? { status: answer, body: answer < 300 ? 'ok' : 'receiver says no' } : answer;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
    });
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return r;
}

/** The signature a receiver expects, computed independently of the engine's code. */
export function expectedSignature(secret: string, timestamp: string, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

/** Header names in the order they arrived on the wire (lower case). */
export const headerOrder = (r: Received) => r.rawHeaders.filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase());
