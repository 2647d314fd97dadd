import { randomBytes, randomUUID } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** An opaque slug for Bundles and Packets (base-57, 10 characters, ~58 bits). */
export function slug(length = 10): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const b = bytes[i];
    if (b < 228) out += ALPHABET[b % 57];
  }
  return out.length === length ? out : slug(length);
}

export const uuid = (): string => randomUUID();

/** A secret token for single-use URLs; only its hash is stored. */
export const token = (): string => randomBytes(24).toString('base64url');
