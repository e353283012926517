/**
 * Proof Key for Code Exchange (RFC 7636), S256 only: `plain` gives no protection when the
 * authorization request can be observed, so it is refused (RFC 9700 §2.1.1).
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** The only accepted `code_challenge_method`. */
export const PKCE_METHOD = 'S256';

/** A code verifier or S256 challenge: 43 to 128 unreserved characters (RFC 7636 §4.1, §4.2). */
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;

/** Why an authorization request's PKCE parameters are refused, or undefined when they are acceptable. */
export function challengeProblem(challenge: string | undefined, method: string | undefined): string | undefined {
  if (challenge === undefined || challenge === '') return 'code_challenge is required (PKCE with S256).';
  if ((method ?? 'plain') !== PKCE_METHOD) return 'code_challenge_method must be S256.';
  if (!PKCE_VALUE.test(challenge)) return 'code_challenge must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~".';
  return undefined;
}

/** The S256 challenge of a verifier: base64url(SHA-256(verifier)). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Whether `verifier` is well-formed and matches the stored S256 `challenge` (constant time). */
export function verifierMatches(verifier: string | undefined, challenge: string): boolean {
  if (verifier === undefined || !PKCE_VALUE.test(verifier)) return false;
  const actual = Buffer.from(s256(verifier));
  const expected = Buffer.from(challenge);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
