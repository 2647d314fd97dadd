// Tells the connection guard (connections.ts) when each connection is answering a request: from the
// moment its body is in until its answer is out, it is left alone (a full server makes room by
// closing others).
import fp from 'fastify-plugin';
import type { ConnectionGuard } from './connections.js';

/** Hooks the server, not a scope of it (fastify-plugin): every door's requests count. */
export const connectionUse = fp<{ connections: ConnectionGuard }>(
  async (app, { connections }) => {
    app.addHook('preHandler', (req, _reply, done) => {
      connections.busy(req.raw.socket);
      done();
    });
    app.addHook('onResponse', (req, _reply, done) => {
      connections.idle(req.raw.socket);
      done();
    });
  },
  { name: 'esign-connection-use' },
);
