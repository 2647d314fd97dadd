// Connection slots that a key holder can always reach.
//
// Addresses are cheap (IPv6, all of 127/8), so a bound per address alone does not keep the slots:
// 4,096 addresses with one half-sent request each would fill them all. Instead, a full server makes
// room: a new connection closes one that has not shown a key, whatever it is doing (a half-sent
// request, a public body trickling in, an idle anonymous keep-alive first, then a public download
// such as a /files/ link being read), oldest first, and only when there is none, the oldest idle
// keyed one. A key holder's new connection is the newest, so a flood would have to open every slot
// again between its connect and its headers to shut it out, and once its key is seen it is the
// last to go. A keyed connection being answered is never closed to make room.
//
// And a response the client reads slower than a floor is cut, key or not: a connection whose
// answer has been waiting on the client for a whole window, in which fewer than floor x window
// bytes went out, is closed (a stalled reader holds its buffers and the file it reads).
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionGuard {
  /** The request on this connection showed a live key. */
  trust(socket: Socket): void;
  /** Whether a request on this connection showed a live key. */
  trusted(socket: Socket): boolean;
  /** Its request is being answered (its body is in). */
  busy(socket: Socket): void;
  /** Its answer is out. */
  idle(socket: Socket): void;
  /** Connections open now. */
  readonly size: number;
  /** Stops the read-floor checks (the server is closing). */
  stop(): void;
}

export interface ConnectionBounds {
  perAddress: number;
  max: number;
  /** Slowest reading of an answer, in bytes per second over `readWindowMs`; 0: none. */
  readFloorBytes: number;
  readWindowMs: number;
}

export function guardConnections(server: Server, opts: ConnectionBounds): ConnectionGuard {
  /** Every open connection, oldest first (a Set keeps insertion order). */
  const open = new Set<Socket>();
  const byAddress = new Map<string, Set<Socket>>();
  const answering = new Set<Socket>();
  /** Connections that have had an answer: a client's keep-alive connection goes after half-sent ones. */
  const served = new WeakSet<Socket>();
  const keyed = new WeakSet<Socket>();
  const addressOf = new WeakMap<Socket, string>();

  const oldest = (among: Iterable<Socket>, ...fits: ((s: Socket) => boolean)[]): Socket | undefined => {
    for (const wanted of fits) for (const s of among) if (wanted(s)) return s;
    return undefined;
  };
  const free = (s: Socket) => !answering.has(s);
  const anonymous = (s: Socket) => !keyed.has(s);
  const idleAnonymous = (s: Socket) => free(s) && anonymous(s);

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    addressOf.set(socket, address);
    let mine = byAddress.get(address);
    if (!mine) byAddress.set(address, (mine = new Set()));
    // One address at its bound: its oldest connection that never got an answer, else its oldest idle
    // one, else its oldest anonymous one being answered.
    if (mine.size >= opts.perAddress) {
      const victim = oldest(mine, (s) => free(s) && !served.has(s), free, anonymous);
      if (!victim) return void socket.destroy();
      close(victim);
    }
    // The server full: the oldest idle anonymous connection, else the oldest anonymous one being
    // answered, else the oldest idle keyed one.
    if (open.size >= opts.max) {
      const victim = oldest(open, idleAnonymous, anonymous, free);
      if (!victim) return void socket.destroy();
      close(victim);
    }
    open.add(socket);
    mine.add(socket);
    socket.once('close', () => forget(socket));
  });

  /** An answer still waiting on its reader is reset (its unsent bytes dropped, not left to the kernel to send). */
  function close(socket: Socket): void {
    if (socket.writableLength > 0) socket.resetAndDestroy();
    else socket.destroy();
    forget(socket);
  }

  function forget(socket: Socket): void {
    open.delete(socket);
    answering.delete(socket);
    const address = addressOf.get(socket) ?? '';
    const mine = byAddress.get(address);
    if (!mine) return;
    mine.delete(socket);
    if (!mine.size) byAddress.delete(address);
  }

  /** What each answering connection had sent, and when, at the start of its current window. */
  const sample = new WeakMap<Socket, { bytes: number; at: number }>();
  const floor = (opts.readFloorBytes * opts.readWindowMs) / 1000;
  const check = () => {
    const now = performance.now();
    for (const s of answering) {
      const start = sample.get(s);
      if (!start || now - start.at < opts.readWindowMs) continue;
      sample.set(s, { bytes: s.bytesWritten, at: now });
      // Still waiting on the client now, and less than the floor went out over the whole window.
      if (s.writableLength > 0 && s.bytesWritten - start.bytes < floor) close(s);
    }
  };
  const checks = opts.readFloorBytes > 0 ? setInterval(check, opts.readWindowMs / 4).unref() : undefined;

  return {
    trust: (s) => void keyed.add(s),
    trusted: (s) => keyed.has(s),
    busy: (s) => {
      answering.add(s);
      sample.set(s, { bytes: s.bytesWritten, at: performance.now() });
    },
    idle: (s) => {
      answering.delete(s);
      served.add(s);
    },
    get size() {
      return open.size;
    },
    stop: () => clearInterval(checks),
  };
}
