/**
 * Slow hashing of client secrets and passwords with scrypt (random salt per secret) and a
 * constant-time comparison. The stored form is self-describing so parameters can change later:
 * `scrypt$N$r$p$<salt base64url>$<hash base64url>`.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 32;
const DEFAULT_PARAMS = { N: 16384, r: 8, p: 1 };

function scrypt(secret: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(secret, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Hashes a secret for storage. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = DEFAULT_PARAMS;
  const hash = await scrypt(secret, salt, KEY_LENGTH, { N, r, p, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** True when `secret` matches a hash made by {@link hashSecret}; false for anything malformed. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return false;
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  const actual = await scrypt(secret, salt, expected.length, { N, r, p, maxmem: 64 * 1024 * 1024 });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A new random client secret (256 bits, base64url). */
export function generateClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** A new client id: short, URL-safe, unguessable enough not to collide. */
export function generateClientId(): string {
  return `key-${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x').toLowerCase()}`;
}
