/**
 * Hashing of the two kinds of credential the service checks:
 * - user passwords (chosen by people, guessable): slow scrypt with a random salt per password,
 *   stored as `scrypt$N$r$p$<salt base64url>$<hash base64url>` so parameters can change later;
 * - API-key secrets (256 random bits, not guessable): a keyed fast hash, HMAC-SHA-256 under a
 *   server-side key, stored as `hmac-sha256$<hash base64url>`. A slow hash adds nothing against
 *   guessing 256 bits, and a fast one makes a wrong-secret flood cost the service next to nothing.
 *   Keys created before this scheme have scrypt hashes; they are checked with scrypt and rehashed
 *   on their first successful use (see api-key-secrets.ts).
 * Every comparison is constant-time.
 */
import { createHmac, randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

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

/** Prefix of API-key secret hashes made with {@link hmacSecret}. */
const HMAC_PREFIX = 'hmac-sha256$';

/** The stored form of an API-key secret under the server-side key `key`. */
export function hmacSecret(secret: string, key: Buffer): string {
  return HMAC_PREFIX + createHmac('sha256', key).update(secret, 'utf8').digest('base64url');
}

/** True when `stored` was made by {@link hmacSecret} (not a legacy scrypt hash). */
export function isHmacHash(stored: string): boolean {
  return stored.startsWith(HMAC_PREFIX);
}

/** Constant-time check of `secret` against a hash made by {@link hmacSecret} with `key`. */
export function verifyHmacSecret(secret: string, stored: string, key: Buffer): boolean {
  const actual = Buffer.from(hmacSecret(secret, key));
  const expected = Buffer.from(stored);
  // Lengths only differ for a malformed stored value; compare anyway so the time stays the same.
  return timingSafeEqual(actual, expected.length === actual.length ? expected : actual) && expected.length === actual.length;
}

/** A new server-side key for {@link hmacSecret} (256 random bits, base64url). */
export function generateServerKey(): string {
  return randomBytes(32).toString('base64url');
}

let dummyPasswordHash: Promise<string> | undefined;

/**
 * Checks a password against a user's stored hash; when there is no user, or no hash, checks it
 * against a fixed dummy hash with the same parameters and answers false. Why: an unknown username
 * must cost as much time as a wrong password, or response times tell which usernames exist.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (stored) return verifySecret(password, stored);
  dummyPasswordHash ??= hashSecret(generateClientSecret());
  await verifySecret(password, await dummyPasswordHash);
  return false;
}

/** A new random client secret (256 bits, base64url). */
export function generateClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** A new client id: short, URL-safe, unguessable enough not to collide. */
export function generateClientId(): string {
  return `key-${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x').toLowerCase()}`;
}
