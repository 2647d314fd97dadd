// Connection slots that a key holder can always reach.
//
// Addresses are cheap (IPv6, all of 127/8), so a bound per address alone does not keep the slots:
// 4,096 addresses with one half-sent request each would fill them all. Instead, a full server makes
// room: a new connection closes the oldest one that has not shown a key and is not being answered
// (a half-sent request, a public request's trickling body, an idle anonymous keep-alive), and only
// when there is none, the oldest idle keyed one. A key holder's new connection is the newest, so a
// flood would have to open every slot again between its connect and its headers to shut it out,
// and once its key is seen it is the last to go. A connection being answered is never closed.
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
}

export function guardConnections(server: Server, opts: { perAddress: number; max: number }): ConnectionGuard {
  /** Every open connection, oldest first (a Set keeps insertion order). */
  const open = new Set<Socket>();
  const byAddress = new Map<string, Set<Socket>>();
  const answering = new WeakSet<Socket>();
  /** Connections that have had an answer: a client's keep-alive connection goes after half-sent ones. */
  const served = new WeakSet<Socket>();
  const keyed = new WeakSet<Socket>();
  const addressOf = new WeakMap<Socket, string>();

  const oldest = (among: Iterable<Socket>, fits: (s: Socket) => boolean): Socket | undefined => {
    for (const s of among) if (fits(s)) return s;
    return undefined;
  };
  const free = (s: Socket) => !answering.has(s);
  const anonymous = (s: Socket) => free(s) && !keyed.has(s);

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    addressOf.set(socket, address);
    let mine = byAddress.get(address);
    if (!mine) byAddress.set(address, (mine = new Set()));
    // One address at its bound: its oldest connection that never got an answer, else its oldest idle one.
    if (mine.size >= opts.perAddress) {
      const victim = oldest(mine, (s) => free(s) && !served.has(s)) ?? oldest(mine, free);
      if (!victim) return void socket.destroy();
      victim.destroy();
      forget(victim);
    }
    // The server full: the oldest anonymous connection, else the oldest idle keyed one.
    if (open.size >= opts.max) {
      const victim = oldest(open, anonymous) ?? oldest(open, free);
      if (!victim) return void socket.destroy();
      victim.destroy();
      forget(victim);
    }
    open.add(socket);
    mine.add(socket);
    socket.once('close', () => forget(socket));
  });

  function forget(socket: Socket): void {
    open.delete(socket);
    const address = addressOf.get(socket) ?? '';
    const mine = byAddress.get(address);
    if (!mine) return;
    mine.delete(socket);
    if (!mine.size) byAddress.delete(address);
  }

  return {
    trust: (s) => void keyed.add(s),
    trusted: (s) => keyed.has(s),
    busy: (s) => void answering.add(s),
    idle: (s) => {
      answering.delete(s);
      served.add(s);
    },
    get size() {
      return open.size;
    },
  };
}
