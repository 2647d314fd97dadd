// The payload signature a receiver checks: exactly the hex HMAC-SHA256 of "v0:{ts}:{body}".
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/domain/webhookSignature.js';

const secret = 'whsec_test';
const body = '{"event_type":"bundle_sent"}';
const ts = 1_800_000_000;
const hex = createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex');
const check = (signature: string, nowS = ts) =>
  verifySignature({ secret, signature, timestamp: String(ts), body, nowS });

describe('webhook signature verification', () => {
  it('accepts the digest with or without "v0="', () => {
    expect(check(`v0=${hex}`)).toEqual({ ok: true, timestamp: ts });
    expect(check(hex.toUpperCase())).toMatchObject({ ok: true });
  });

  it('refuses anything but the whole digest, including trailing characters', () => {
    for (const bad of [`v0=${hex}zz`, `v0=${hex}0`, `v0=${hex.slice(0, 62)}`, `v0=${hex.slice(0, 63)}x`, ''])
      expect(check(bad).ok, bad).toBe(false);
    expect(check(`v0=${hex}zz`)).toMatchObject({ reason: 'bad_signature' });
  });

  it('tells a stale timestamp from a bad signature', () => {
    expect(check(`v0=${hex}`, ts + 301)).toMatchObject({ ok: false, reason: 'stale_timestamp' });
    expect(check(`v0=${hex}`, ts + 299)).toMatchObject({ ok: true });
  });
});
