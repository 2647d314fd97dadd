// A webhook delivery as a receiver takes it: the body read whole up to a bound (nothing past it is
// kept), the signature checked against those raw bytes, and the event parsed from them. Both of
// esign's receivers (`esign webhook listen` and a scenario's) take deliveries this way.
import type { IncomingMessage } from 'node:http';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, type VerifyOutcome, verifySignature } from '../domain/webhookSignature.js';

export interface Receipt {
  raw: Buffer;
  check: VerifyOutcome;
  event: Record<string, unknown> | null;
}

/** The delivery of `req`, or undefined when its body passes `maxBytes`. */
export async function receiveDelivery(
  req: IncomingMessage,
  o: { secret: string; maxBytes: number; toleranceS?: number },
): Promise<Receipt | undefined> {
  const raw = await readBody(req, o.maxBytes);
  if (!raw) return undefined;
  const check = verifySignature({
    secret: o.secret,
    signature: req.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined,
    timestamp: req.headers[TIMESTAMP_HEADER.toLowerCase()] as string | undefined,
    body: raw,
    toleranceS: o.toleranceS,
  });
  return { raw, check, event: parseEvent(raw, req.headers['content-type']) };
}

function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= maxBytes) chunks.push(c);
    });
    req.on('end', () => resolve(size > maxBytes ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The event of a JSON body, or of a form body whose `payload` member is a JSON string (or the whole event). */
function parseEvent(raw: Buffer, contentType = ''): Record<string, unknown> | null {
  const text = raw.toString('utf8');
  if (!contentType.includes('application/x-www-form-urlencoded')) {
    const v = parseJson(text);
    if (isObject(v)) return v;
    if (contentType.includes('json')) return null;
  }
  const form = Object.fromEntries(new URLSearchParams(text)) as Record<string, unknown>;
  if (typeof form.payload !== 'string') return Object.keys(form).length && form.event_type ? form : null;
  const inner = parseJson(form.payload);
  if (isObject(inner) && inner.event_type !== undefined && form.event_type === undefined) return inner;
  return { ...form, payload: inner ?? form.payload };
}
