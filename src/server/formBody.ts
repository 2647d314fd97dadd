// Request bodies as the routes hand them to the port: JSON as parsed, and form-encoded bodies, whose
// members are all strings (a repeated key, a list of them) until a route decodes its typed members.
import type { FastifyRequest } from 'fastify';

export function bodyOf(req: FastifyRequest): Record<string, unknown> {
  return (req.body ?? {}) as Record<string, unknown>;
}

/** Bodies that came as `application/x-www-form-urlencoded`. */
const formBodies = new WeakSet<object>();

export function parseForm(text: string): Record<string, string | string[]> {
  const members = new Map<string, string | string[]>();
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = members.get(k);
    members.set(k, prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v]);
  }
  const body = Object.fromEntries(members);
  formBodies.add(body);
  return body;
}

/**
 * Form clients send typed members as JSON text (`["bundle_sent"]`, `false`, `2`) or Python's
 * `True`/`False`; a single `event_types=bundle_sent` is a list of one. Only typed members are
 * decoded: a header value of `123` stays a string. JSON bodies pass through untouched.
 */
export function typedBody(req: FastifyRequest, typed: readonly string[]): Record<string, unknown> {
  const body = bodyOf(req);
  if (!formBodies.has(body)) return body;
  const out: Record<string, unknown> = { ...body };
  for (const k of typed) {
    const v = out[k];
    if (typeof v !== 'string') continue;
    const decoded = decodeFormValue(v);
    out[k] = k === 'event_types' && typeof decoded === 'string' ? [decoded] : decoded;
  }
  return out;
}

function decodeFormValue(v: string): unknown {
  if (v === 'True' || v === 'False') return v === 'True';
  try {
    const parsed: unknown = JSON.parse(v);
    if (Array.isArray(parsed) || typeof parsed === 'boolean' || typeof parsed === 'number') return parsed;
  } catch {
    // Not JSON: the plain string it is.
  }
  return v;
}
