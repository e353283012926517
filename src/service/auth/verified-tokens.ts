/**
 * A bounded memory of bearer tokens whose signature was already checked, so a client that reuses
 * its token (the normal case) costs one RSA verification per token instead of one per request.
 *
 * Only the signature check and the claims' decoding are remembered, and the last judgment of the
 * claims: {@link checkClaims} (issuer realm, type, audience, `exp` against the current time) is a
 * function of the frozen claims, the expectation and the current second alone, so a use that
 * expects the same in the same second as an accepted one is accepted without running it again;
 * any other use runs it (a new second, another realm or type). The callers still
 * check per request what the token does not say (the realm exists and is enabled, the token was
 * not revoked, rate limits, permissions). A remembered entry is tied to the exact public key it was
 * checked with, so a realm whose key differs (e.g. removed and created again) checks the token
 * afresh. Revoking an API key does not end its tokens before `exp` (docs/guides/service.md), and revoking a
 * token (RFC 7009) is judged by the caller on every use, so remembering signatures hides neither.
 *
 * Entries are found by the end of the token (its signature's last characters, see
 * {@link LOOKUP_KEY_LENGTH}) and then compared whole: a map keyed by the whole token would hash its
 * whole text on every request, since each request's header is a new string (a visible share of a
 * membership check: bench/README.md, bench:service). Two tokens that end alike merely take turns
 * in one slot.
 */
import { checkClaims, verifySignature, type ExpectedClaims, type SigningKey, type TokenClaims } from './jwt';

/** Default most tokens remembered: enough for every client of a busy service, small at worst (bench/README.md). */
export const DEFAULT_MAX_VERIFIED_TOKENS = 10_000;

/**
 * Characters at the end of a token that find its entry. A token ends with its RS256 signature
 * (342 base64url characters), so the last 32 differ between any two tokens the service signed.
 */
const LOOKUP_KEY_LENGTH = 32;

/** The lookup key of a token (see {@link LOOKUP_KEY_LENGTH}). */
const lookupKeyOf = (token: string): string => token.slice(-LOOKUP_KEY_LENGTH);

/** An expectation under which {@link checkClaims} accepted an entry's claims, and the second it did. */
interface Acceptance {
  realm: string;
  typ: string;
  audience: string | undefined;
  nowSeconds: number;
}

/** What is remembered of one token: its decoded claims and the key that verified them. */
interface VerifiedEntry {
  /** The whole token (entries are found by its end only). */
  token: string;
  claims: Record<string, unknown>;
  publicKeyPem: string;
  keyId: string;
  /** `exp` in seconds, read once; the entry is dropped on the first use at or after it. */
  exp: number;
  /** The last acceptance of the claims, reused within its second for the same expectation. */
  accepted: Acceptance | undefined;
}

/** True when `expected` at `nowSeconds` is what `accepted` was judged under. */
function sameJudgment(accepted: Acceptance | undefined, expected: ExpectedClaims, nowSeconds: number): boolean {
  return (
    accepted !== undefined &&
    accepted.nowSeconds === nowSeconds &&
    accepted.realm === expected.realm &&
    accepted.typ === expected.typ &&
    accepted.audience === expected.audience
  );
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
   * Whether `token`'s signature check against `key` is remembered, so that {@link verify} would
   * not check a signature. For a caller that must not pay for a signature check it may have to
   * repeat (the membership check's fast path hands unknown tokens to the route, which checks them).
   */
  remembers(token: string, key: Pick<SigningKey, 'publicKeyPem' | 'keyId'>): boolean {
    const cached = this.entries.get(lookupKeyOf(token));
    return cached !== undefined && cached.token === token && cached.keyId === key.keyId && cached.publicKeyPem === key.publicKeyPem;
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
    const nowSeconds = expected.nowSeconds ?? Math.floor(Date.now() / 1000);
    const judged = expected.nowSeconds === nowSeconds ? expected : { ...expected, nowSeconds };
    const lookupKey = lookupKeyOf(token);
    const cached = this.entries.get(lookupKey);
    if (cached !== undefined && cached.token === token) {
      if (cached.keyId === key.keyId && cached.publicKeyPem === key.publicKeyPem) {
        if (sameJudgment(cached.accepted, expected, nowSeconds)) return cached.claims as TokenClaims;
        // An expired token stays refused (below); forgetting it keeps the map to live tokens.
        if (cached.exp <= nowSeconds) this.entries.delete(lookupKey);
        const verified = checkClaims(cached.claims, judged);
        cached.accepted = { realm: expected.realm, typ: expected.typ, audience: expected.audience, nowSeconds };
        return verified;
      }
      // Checked against another key: verify again below, from scratch.
    }
    // Frozen: the same object serves every later request with this token, none may alter it.
    const claims = Object.freeze(verifySignature(token, key));
    const verified = checkClaims(claims, judged);
    this.remember(lookupKey, {
      token,
      claims,
      publicKeyPem: key.publicKeyPem,
      keyId: key.keyId,
      exp: verified.exp,
      accepted: { realm: expected.realm, typ: expected.typ, audience: expected.audience, nowSeconds },
    });
    return verified;
  }

  /** Stores an entry, dropping the oldest remembered one when full. */
  private remember(lookupKey: string, entry: VerifiedEntry): void {
    this.entries.delete(lookupKey);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(lookupKey, entry);
  }
}
