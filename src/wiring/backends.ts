// The backends the CLI asks for by name (src/cli/backends.ts), built here from the adapters: the
// embedded engine (local/) and API v2 over HTTP (remote/). Each loads when first asked for.
import type { Backends } from '../cli/backends.js';
import { COMMAND_CHECK_WAIT_MS } from '../domain/documentLimits.js';

export const backends: Backends = {
  async engine({ env, answersClients, ...o }) {
    const [{ LocalEngine }, { engineTuning }] = await Promise.all([
      import('../local/engine.js'),
      import('./engineTuning.js'),
    ]);
    const waits = answersClients ? {} : { documentTimes: { createCheckWaitMs: COMMAND_CHECK_WAIT_MS } };
    return new LocalEngine({ ...engineTuning(env), ...waits, ...o });
  },
  async refuseForeignDir(dir) {
    (await import('../local/store/dataDir.js')).refuseForeignDir(dir);
  },
  async databasePath(dataDir) {
    return (await import('../local/store/db.js')).databasePath(dataDir);
  },
  async remote(o) {
    return new (await import('../remote/remote.js')).RemoteService(o);
  },
  async remoteApi(o) {
    const http = new (await import('../remote/http.js')).HttpClient(o);
    return { send: (r) => http.sendRaw(r), close: () => http.close() };
  },
  async sandboxes(o) {
    return (await import('../remote/sandboxes.js')).remoteSandboxes(o);
  },
  async inProcessApi(engine) {
    return (await import('./inProcessApi.js')).inProcessTransport(engine);
  },
};
