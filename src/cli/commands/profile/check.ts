// Does a remote profile's key still work? One call of the port's getRateLimit (it uses none of the
// key's requests), no retries, a short timeout: an answer for a person waiting at the terminal.
import { ApiError } from '../../../domain/errors.js';
import type { RateLimit } from '../../../service/types.js';
import type { Factory } from '../../factory.js';

export interface KeyCheck {
  ok: boolean;
  /** `ok`, or why not: the server's message, or that it could not be reached. */
  detail: string;
  /** The HTTP status when the server answered. */
  status?: number;
  /** No API v2 answered at the URL (404 for its GET /rate_limit/): the URL is wrong, not the key. */
  notApi?: boolean;
  /** The key's rate-limit status, when it works. */
  rate?: RateLimit;
}

export async function checkKey(
  f: Factory,
  baseUrl: string,
  apiKey: string | undefined,
  timeoutMs = 10_000,
): Promise<KeyCheck> {
  const remote = await f.remoteFor({ baseUrl, apiKey, maxRetries: 0, timeoutMs });
  try {
    const rate = await remote.getRateLimit();
    return { ok: true, detail: 'ok', status: 200, rate };
  } catch (e) {
    if (e instanceof ApiError && e.status === 404)
      return { ok: false, detail: 'no API v2 at this URL (HTTP 404 for GET rate_limit/)', status: 404, notApi: true };
    if (e instanceof ApiError) return { ok: false, detail: `HTTP ${e.status}: ${e.message}`, status: e.status };
    return { ok: false, detail: `unreachable: ${(e as Error).message}` };
  } finally {
    await remote.close();
  }
}
