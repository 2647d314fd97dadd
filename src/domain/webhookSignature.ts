// Payload signatures of webhook deliveries: X-Blueink-Signature is "v0=" and the hex HMAC-SHA256,
// with the webhook secret, of "v0:{X-Blueink-Request-Timestamp}:{raw body}" (docs/wire.md).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Blueink-Signature';
export const TIMESTAMP_HEADER = 'X-Blueink-Request-Timestamp';
/** A receiver refuses deliveries signed longer ago than this (replay protection). */
const DEFAULT_TOLERANCE_S = 300;

export function sign(secret: string, timestamp: number, body: string | Buffer): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:`).update(body).digest('hex')}`;
}

export type VerifyOutcome =
  | { ok: true; timestamp: number }
  | {
      ok: false;
      reason: 'missing_signature' | 'missing_timestamp' | 'bad_signature' | 'stale_timestamp';
      message: string;
    };

/**
 * Checks a delivery: the signature first (a forged message learns nothing about the clock), then
 * that the timestamp is within `toleranceS` of `nowS`. Accepts the hex digest with or without "v0=".
 */
export function verifySignature(o: {
  secret: string;
  signature: string | undefined;
  timestamp: string | undefined;
  body: string | Buffer;
  nowS?: number;
  toleranceS?: number;
}): VerifyOutcome {
  if (!o.signature) return { ok: false, reason: 'missing_signature', message: `No ${SIGNATURE_HEADER} header.` };
  if (!o.timestamp || !/^\d+$/.test(o.timestamp.trim()))
    return { ok: false, reason: 'missing_timestamp', message: `No valid ${TIMESTAMP_HEADER} header (UNIX seconds).` };
  const ts = Number(o.timestamp.trim());
  const expected = Buffer.from(sign(o.secret, ts, o.body).slice(3), 'hex');
  const hex = o.signature.trim().replace(/^v0=/, '');
  // Buffer.from(hex) stops quietly at the first non-hex character: only a whole digest is compared.
  const given = /^[0-9a-f]{64}$/i.test(hex) ? Buffer.from(hex, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return {
      ok: false,
      reason: 'bad_signature',
      message: 'The signature does not match: wrong secret, or the body was changed.',
    };
  const skew = Math.abs((o.nowS ?? Math.floor(Date.now() / 1000)) - ts);
  const tolerance = o.toleranceS ?? DEFAULT_TOLERANCE_S;
  if (skew > tolerance)
    return {
      ok: false,
      reason: 'stale_timestamp',
      message: `The signature is valid but its timestamp is ${skew} s away from now (more than ${tolerance} s): a replay, or a clock out of step.`,
    };
  return { ok: true, timestamp: ts };
}
