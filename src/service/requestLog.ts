// The request log of esign serve, as both backends read it: one filter rule (what `esign logs
// tail`, the server's stream and the console apply alike) and where the stream is served.
import { ApiError, FieldErrors } from '../domain/errors.js';
import type { RequestFilter, RequestLogEntry } from './types.js';

/** The live log, streamed as JSON lines to a key holder (outside /api/v2/, beside the sandbox). */
export const REQUEST_LOG_PATH = '/sandbox/requests/';

export const MAX_BACKLOG = 1000;
export const DEFAULT_BACKLOG = 20;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** A filter as typed or sent, checked: status `404` or `4xx`, a known method, a path starting with `/`. */
export function parseRequestFilter(raw: Record<string, unknown>): RequestFilter {
  const errs = new FieldErrors();
  const s = (k: string) => (raw[k] === undefined || raw[k] === null || raw[k] === '' ? undefined : String(raw[k]));
  const status = s('status')?.toLowerCase();
  if (status !== undefined && !/^[1-5](?:\d\d|xx)$/.test(status))
    errs.add('status', 'A status (404) or a class of them (4xx).');
  const method = s('method')?.toUpperCase();
  if (method !== undefined && !METHODS.includes(method)) errs.add('method', `One of ${METHODS.join(', ')}.`);
  const path = s('path');
  if (path !== undefined && !path.startsWith('/')) errs.add('path', 'A path prefix, starting with /.');
  errs.throwIfAny();
  return { status, method, path, operation: s('operation') };
}

export function matchesRequest(f: RequestFilter, e: RequestLogEntry): boolean {
  if (f.status !== undefined) {
    const code = String(e.status);
    if (f.status.endsWith('xx') ? code[0] !== f.status[0] : code !== f.status) return false;
  }
  if (f.method !== undefined && e.method !== f.method) return false;
  if (f.path !== undefined && !e.path.startsWith(f.path)) return false;
  if (f.operation !== undefined && e.operation !== f.operation) return false;
  return true;
}

/** How many earlier requests to show first: 0 .. MAX_BACKLOG. */
export function backlogOf(v: unknown): number {
  if (v === undefined || v === '') return DEFAULT_BACKLOG;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > MAX_BACKLOG)
    throw new ApiError(400, 'invalid', `backlog: A whole number from 0 to ${MAX_BACKLOG}.`, [
      { field: 'backlog', message: `A whole number from 0 to ${MAX_BACKLOG}.` },
    ]);
  return n;
}

/** An entry read back from a line of the log (or the stream); undefined when the line is not one. */
export function entryOf(line: string): RequestLogEntry | undefined {
  try {
    const v = JSON.parse(line) as RequestLogEntry;
    return v && typeof v.method === 'string' && typeof v.path === 'string' && typeof v.status === 'number'
      ? v
      : undefined;
  } catch {
    return undefined;
  }
}
