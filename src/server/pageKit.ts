// What the HTML pages of esign serve (signing, preparation) share: escaping, safe redirect
// targets, and turning a refusal into the API error an error page shows.
import { ApiError } from '../service/errors.js';

export const esc = (v: unknown): string =>
  String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** An http(s) URL to redirect to, or undefined for anything else (javascript:, data:, garbage). */
export const httpUrl = (u: string | null | undefined): URL | undefined => {
  if (!u) return undefined;
  try {
    const url = new URL(u);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
};

/** The API error behind a refusal (the engine's, or fastify's 4xx such as a too large upload). */
export const asApiError = (e: unknown): ApiError | undefined => {
  if (e instanceof ApiError) return e;
  const f = e as { statusCode?: number; message?: string };
  if (f?.statusCode && f.statusCode >= 400 && f.statusCode < 500)
    return new ApiError(f.statusCode, 'invalid', f.statusCode === 413 ? 'A file is too large.' : (f.message ?? 'Bad request.'));
  return undefined;
};

/** form-action must name a completion redirect's origin: Chromium applies it to the redirect after a submission. */
export const formAction = (redirect?: URL): string =>
  redirect && redirect.origin !== 'null' ? `'self' ${redirect.origin}` : `'self'`;
