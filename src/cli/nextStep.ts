// What to do next, for failures that come from where a command was pointed: a key the server
// refuses, a server that does not answer, a base URL that is not an API v2 root. Each names the
// profile or the variable that chose them, and the command that fixes it (one sentence, added to
// the error's one line; `next_step` beside it with --json).
import { ApiError, TransportError } from '../domain/errors.js';
import type { Factory, Settings } from './factory.js';

/** The sentence to add to `e`'s line, when the failure is about the backend the settings chose. */
export async function nextStepFor(f: Factory, e: unknown): Promise<string | undefined> {
  if (!(e instanceof ApiError || e instanceof TransportError)) return undefined;
  const s = await f.settings().catch(() => undefined);
  if (!s?.baseUrl) return undefined;
  if (e instanceof TransportError) return e.url?.startsWith(s.baseUrl) ? unreachable(s) : undefined;
  if (e.status === 401) return refusedKey(s);
  if (e.status === 404 && /^No such endpoint/.test(e.message) && !/\/api\/v2\/?$/.test(s.baseUrl))
    return `${s.baseUrl}, the base URL from ${sourceOf(s)}, does not end in /api/v2, as an API v2 base URL does: ${setUrl(s, `${s.baseUrl.replace(/\/+$/, '')}/api/v2`)}.`;
  return undefined;
}

/** Where the base URL came from, in words: `ESIGN_BASE_URL` or `profile "prod"`. */
export const sourceOf = (s: Settings) => (s.urlFrom === 'ESIGN_BASE_URL' ? 'ESIGN_BASE_URL' : `profile "${s.profile}"`);

/** How to point the settings' source at `url`. */
const setUrl = (s: Settings, url: string) =>
  s.urlFrom === 'ESIGN_BASE_URL'
    ? `set ESIGN_BASE_URL=${url}`
    : `printenv KEY | esign profile add ${s.profile} --base-url ${url} --api-key-stdin --force`;

export function refusedKey(s: Settings, fromStatus = false): string {
  const check = fromStatus ? 'then esign auth status again' : 'esign auth status shows what is used';
  if (s.keyFrom === 'ESIGN_API_KEY')
    return `The key in ESIGN_API_KEY was refused by ${s.baseUrl} (from ${sourceOf(s)}): set ESIGN_API_KEY to a key of that server (${check}).`;
  if (s.keyFrom === 'profile')
    return `The key of profile "${s.profile}" was refused by ${s.baseUrl}: save a working one with printenv KEY | esign profile add ${s.profile} --base-url ${s.baseUrl} --api-key-stdin --force (${check}).`;
  return `No API key is set for ${s.baseUrl} (from ${sourceOf(s)}): set ESIGN_API_KEY, or printenv KEY | esign profile add NAME --base-url ${s.baseUrl} --api-key-stdin --use.`;
}

export function unreachable(s: Settings): string {
  const elsewhere =
    s.urlFrom === 'ESIGN_BASE_URL'
      ? 'or set ESIGN_BASE_URL to one that answers'
      : `or point the profile at one that answers (printenv KEY | esign profile add ${s.profile} --base-url URL --api-key-stdin --force)`;
  return `Nothing answered at ${s.baseUrl}, the base URL from ${sourceOf(s)}: start that server (esign serve, for a local one) ${elsewhere}.`;
}
