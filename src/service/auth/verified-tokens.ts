/**
 * A bounded memory of bearer tokens whose signature was already checked, so a client that reuses
 * its token (the normal case) costs one RSA verification per token instead of one per request.
 *
 * Only the signature check and the claims' decoding are remembered. Every use still runs
 * {@link checkClaims} (issuer realm, type, `exp` against the current time), and the callers still
 * check per request what the token does not say (the realm exists and is enabled, the token was
 * not revoked, rate limits, permissions). A remembered entry is tied to the exact public key it was
 * checked with, so a realm whose key differs (e.g. removed and created again) checks the token
 * afresh. Revoking an API key does not end its tokens before `exp` (docs/guides/service.md), and revoking a
 * token (RFC 7009) is judged by the caller on every use, so remembering signatures hides neither.
 */
import { checkClaims, verifySignature, type ExpectedClaims, type SigningKey, type TokenClaims } from './jwt';

/** Default most tokens remembered; at ~1 KiB a token, about 10 MiB at worst. */
export const DEFAULT_MAX_VERIFIED_TOKENS = 10_000;

/** What is remembered of one token: its decoded claims and the key that verified them. */
interface VerifiedEntry {
  claims: Record<string, unknown>;
  publicKeyPem: string;
  keyId: string;
  /** `exp` in seconds, read once; the entry is dropped on the first use at or after it. */
  exp: number;
}

/** Verifies JWTs like {@link verifySignature} + {@link checkClaims}, remembering signature results. */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, VerifiedEntry>();

  /** @param maxEntries most tokens remembered; the oldest remembered is dropped first. */
  constructor(private readonly maxEntries: number = DEFAULT_MAX_VERIFIED_TOKENS) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new Error(`The verified-token cache needs a positive integer size, got ${maxEntries}.`);
    }
  }

  /** How many tokens are remembered now (for tests and diagnostics). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The claims of `token` if it is valid for `expected` now; throws {@link TokenError} otherwise,
   * with the same reasons and in the same order as an uncached `verifyJwt`.
   */
  verify(
    token: string,
    key: Pick<SigningKey, 'publicKeyPem' | 'keyId'>,
    expected: ExpectedClaims,
  ): TokenClaims {
    const cached = this.entries.get(token);
    if (cached !== undefined) {
      if (cached.keyId === key.keyId && cached.publicKeyPem === key.publicKeyPem) {
        const now = expected.nowSeconds ?? Math.floor(Date.now() / 1000);
        // An expired token stays refused (below); forgetting it keeps the map to live tokens.
        if (cached.exp <= now) this.entries.delete(token);
        return checkClaims(cached.claims, expected);
      }
      // Checked against another key: verify again below, from scratch.
    }
    // Frozen: the same object serves every later request with this token, none may alter it.
    const claims = Object.freeze(verifySignature(token, key));
    const verified = checkClaims(claims, expected);
    this.remember(token, { claims, publicKeyPem: key.publicKeyPem, keyId: key.keyId, exp: verified.exp });
    return verified;
  }

  /** Stores an entry, dropping the oldest remembered one when full. */
  private remember(token: string, entry: VerifiedEntry): void {
    this.entries.delete(token);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, entry);
  }
}
