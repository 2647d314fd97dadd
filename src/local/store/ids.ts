import { randomFillSync, randomUUID } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** An opaque slug for Bundles and Packets (base-57, 10 characters, ~58 bits). */
export function slug(length = 10): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    if (b < 228) out += ALPHABET[b % 57];
  }
  return out;
}

// Random bytes drawn 4 KB at a time: one system call for some two hundred slugs instead of one each.
const pool = Buffer.alloc(4096);
let used = pool.length;
function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++];
}

export const uuid = (): string => randomUUID();

/** A secret token for single-use URLs (192 random bits); only its hash is stored. */
export const token = (): string => {
  const bytes = Buffer.allocUnsafe(24);
  for (let i = 0; i < bytes.length; i++) bytes[i] = randomByte();
  return bytes.toString('base64url');
};
