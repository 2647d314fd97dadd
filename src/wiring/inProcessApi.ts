// `esign api` on the embedded engine: the very routes of `esign serve`, injected in-process
// (fastify inject: no port is opened).
import { randomBytes } from 'node:crypto';
import type { Transport } from '../cli/commands/api/transport.js';
import type { LocalBackend } from '../service/localAdmin.js';
import { buildServer } from '../server/app.js';
import { API_ROOT } from '../service/operationTable.js';
import { serverDoors } from './doors.js';

/**
 * The local engine behind the server of `esign serve`, called in-process. The server still checks
 * a key: this run's own random key, known only to this process, opens it; stored keys work too.
 */
export async function inProcessTransport(engine: LocalBackend): Promise<Transport> {
  const inProcessKey = randomBytes(24).toString('base64url');
  const app = await buildServer({
    service: engine,
    local: engine,
    authenticate: (key) => (key === inProcessKey ? 'in-process' : engine.keys.authenticate(key)),
    doors: serverDoors,
    // The user's own engine, set up as `esign local` sets it up.
    fixtures: true,
  });
  return {
    async send(r) {
      const res = await app.inject({
        method: r.method as 'GET',
        url: r.fromRoot ? r.path : `${API_ROOT}${r.path}`,
        headers: { authorization: `Token ${inProcessKey}`, ...lower(r.headers) },
        ...(r.body ? { payload: r.body } : {}),
      });
      return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
    },
    close: () => app.close(),
  };
}

const lower = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
