// The sandboxes of a remote esign serve, through the one HTTP client (its key, retries and 429s).
import { SANDBOXES_PATH, type Sandbox, type SandboxManager, type SandboxMade } from '../service/sandboxes.js';
import { HttpClient, type HttpOptions } from './http.js';

export function remoteSandboxes(o: HttpOptions): SandboxManager {
  const http = new HttpClient(o);
  const at = (id = '') => (id ? `${SANDBOXES_PATH}/${encodeURIComponent(id)}/` : `${SANDBOXES_PATH}/`);
  return {
    // A create is not sent again after an unknown outcome: it could make two.
    create: async (r) =>
      (await http.send({ method: 'POST', path: at(), json: r, fromRoot: true, retry: false })).body as SandboxMade,
    list: async () => (await http.send({ method: 'GET', path: at(), fromRoot: true })).body as Sandbox[],
    get: async (id) => (await http.send({ method: 'GET', path: at(id), fromRoot: true })).body as Sandbox,
    delete: async (id) => void (await http.send({ method: 'DELETE', path: at(id), fromRoot: true })),
    close: () => http.close(),
  };
}
