// What the HTML pages of esign serve (signing, preparation) share: escaping, safe redirect
// targets, and turning a refusal into the API error an error page shows.
import type { FastifyReply, FastifyRequest } from 'fastify';
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
  const f = e as { statusCode?: number; code?: string; message?: string };
  if (!f?.statusCode || f.statusCode < 400 || f.statusCode >= 500) return undefined;
  if (f.code === 'FST_REQ_FILE_TOO_LARGE' || f.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError(413, 'invalid', 'A file is too large.');
  // @fastify/multipart answers 413 to too many files, fields or parts too: not a size, so not "too large".
  if (f.code === 'FST_FILES_LIMIT' || f.code === 'FST_FIELDS_LIMIT' || f.code === 'FST_PARTS_LIMIT')
    return new ApiError(400, 'invalid', 'The form has more files or fields than this page takes.');
  return new ApiError(f.statusCode, 'invalid', f.statusCode === 413 ? 'The upload is too large.' : (f.message ?? 'Bad request.'));
};

/** form-action must name a completion redirect's origin: Chromium applies it to the redirect after a submission. */
export const formAction = (redirect?: URL): string =>
  redirect && redirect.origin !== 'null' ? `'self' ${redirect.origin}` : `'self'`;

/** An HTML page under its CSP, never cached, never leaking its URL (a token) as a referrer. */
export function sendPage(reply: FastifyReply, status: number, html: string, csp: string): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', csp)
    .header('Cache-Control', 'private, no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Content-Type-Options', 'nosniff')
    .send(html);
}

type PageRun = (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/** Runs a page handler; a refusal becomes an error page, except for JSON callers when `jsonErrors` (they get the API's error object). */
export const pageHandler = (run: PageRun, errorPage: (reply: FastifyReply, e: ApiError) => FastifyReply, jsonErrors = false) =>
  async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      return await run(req, reply);
    } catch (e) {
      const api = asApiError(e);
      if (!api || (jsonErrors && req.headers['content-type']?.startsWith('application/json'))) throw e;
      return errorPage(reply, api);
    }
  };
