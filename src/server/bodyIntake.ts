// How request bodies come in, on every door of esign serve (API, pages, console, MCP):
// - A reply sent before its request's body is all in (a refusal: 401, 404, 413, 415, a page's
//   error) closes the connection and reads no further: whatever the client goes on sending is
//   never parsed, queued or written anywhere.
// - Bodies held in memory (JSON and forms; multipart files go to disk) take turns past their
//   first megabyte: a larger one sets its size aside from a budget (what it declared, else its
//   route's limit) before another byte is read, and gives it back once answered. Key holders and
//   everyone else (link holders, the public) have budgets of their own, so strangers never make
//   a key holder wait. A body waiting its turn is not read (the client's sending stalls).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Bytes set aside for bodies being read or answered; waiters are served in arrival order. */
export class BodyBudget {
  private free: number;
  private readonly waiting: { bytes: number; go: () => void }[] = [];
  constructor(readonly total: number) {
    this.free = total;
  }

  /** Bytes not set aside now. */
  get available(): number {
    return this.free;
  }

  /**
   * Sets `bytes` aside (at most the whole budget) once there is room, and gives them back when
   * `res` closes (answered, or the connection gone); a waiter whose connection closes leaves the queue.
   */
  reserve(bytes: number, res: ServerResponse): Promise<void> {
    const n = Math.min(bytes, this.total);
    return new Promise((resolve, reject) => {
      const take = () => {
        this.free -= n;
        res.once('close', () => this.give(n));
        resolve();
      };
      if (!this.waiting.length && this.free >= n) return take();
      const waiter = { bytes: n, go: take };
      this.waiting.push(waiter);
      res.once('close', () => {
        const i = this.waiting.indexOf(waiter);
        if (i < 0) return;
        this.waiting.splice(i, 1);
        reject(new Error('The connection closed while its body waited its turn.'));
      });
    });
  }

  private give(n: number): void {
    this.free += n;
    while (this.waiting.length && this.waiting[0]!.bytes <= this.free) this.waiting.shift()!.go();
  }
}

export interface IntakeOptions {
  /** Every body may hold this much in memory without waiting its turn. */
  freeBytes: number;
  /** The budget of a request that showed a key, else the public one. */
  budgetOf: (req: FastifyRequest) => BodyBudget;
  /** How long a refused connection stays open, unread, after its answer (time for the client to read it). */
  lingerMs: number;
}

/** Passes the first `free` bytes, then waits for `turn` before passing more. */
function gated(payload: Readable, free: number, turn: () => Promise<void>): Readable {
  let seen = 0;
  let granted = false;
  const gate = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (granted || seen <= free) return done(null, chunk);
      turn().then(
        () => {
          granted = true;
          done(null, chunk);
        },
        (e: Error) => done(e),
      );
    },
  });
  // Not pipeline(): a refusal must leave the request stream alive (its answer is still to be sent).
  payload.on('error', (e) => gate.destroy(e));
  payload.pipe(gate);
  return gate;
}

/**
 * Closes a connection whose request body was left unread, once its answer is out: it is read no
 * further, and stays open a moment before it goes, since a client still sending would otherwise
 * get a reset that wipes the unread answer from its side (Linux drops it).
 */
function closeUnread(req: IncomingMessage, res: ServerResponse, lingerMs: number): void {
  const socket = req.socket;
  req.unpipe();
  req.pause();
  res.once('finish', () => {
    // Node's own close (on its 'finish') would destroy the socket with unread data in it: a reset.
    socket.removeListener('finish', socket.destroy);
    req.pause();
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    socket.once('close', () => clearTimeout(timer));
  });
}

/** Installs both rules on `app`; call it before any route or plugin is registered, so every door inherits them. */
export function bodyIntake(app: FastifyInstance, o: IntakeOptions): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    if (!req.raw.complete) {
      reply.header('Connection', 'close');
      closeUnread(req.raw, reply.raw, o.lingerMs);
    }
    done(null, payload);
  });
  app.addHook('preParsing', (req, reply, payload, done) => {
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    const limit = req.routeOptions.bodyLimit ?? 0;
    // Multipart bodies are streamed to disk by their own reader (multipartForm.ts), from the request
    // itself; a body declared past its limit is refused unread by the parser.
    const multipart = /^multipart\//i.test(req.headers['content-type'] ?? '');
    if (declared <= o.freeBytes || declared > limit || limit <= o.freeBytes || multipart) return done(null, payload);
    const bytes = Number.isFinite(declared) ? Math.min(declared, limit) : limit;
    done(
      null,
      gated(payload, o.freeBytes, () => o.budgetOf(req).reserve(bytes, reply.raw)),
    );
  });
}
