// Where the running `esign serve` of the engine's data answers, for every message that names it
// (links, the console, hints): the address it announced in serve.json, never a default port, and
// a console link only when that server serves the console.
import type { EsignService } from '../service/service.js';
// serve.json is a file on disk: only an http(s) URL from it is used or shown.
import { safeUrl } from './sanitize.js';

export interface RunningServerLinks {
  /** Its public URL (no trailing slash). */
  url: string;
  /** Its support console (`…/console/`), or null when it was started with --no-console or did not say. */
  console: string | null;
}

/** The running server's addresses, or undefined when none runs (or the backend has no such thing). */
export function runningServerLinks(service: Pick<EsignService, 'runningServer'>): RunningServerLinks | undefined {
  const s = service.runningServer?.();
  const url = safeUrl(s?.url)?.replace(/\/+$/, '');
  if (!s || !url) return undefined;
  return { url, console: s.console ? `${url}/console/` : null };
}

/** A Bundle's page in the running server's console, or null when no console is served. */
export const consoleBundleLink = (links: RunningServerLinks | undefined, slug: string): string | null =>
  links?.console ? `${links.console}bundles/${encodeURIComponent(slug)}` : null;

/**
 * What to say under links the engine made when no server runs for its data (they name the
 * account's public URL, where nothing answers); null when one runs or the backend serves its own.
 */
export function noServerNote(
  service: Pick<EsignService, 'runningServer'>,
  what = 'the links above do not open',
): string | null {
  if (!service.runningServer || runningServerLinks(service)) return null;
  return `No esign serve runs for this data directory, so ${what}. Start one: esign serve (with the same --data-dir).`;
}
