/**
 * Revoked access tokens (RFC 7009), as every request sees them: the store holds the revocations
 * (realm, id, until the last token they end expires); each process keeps them in memory and reads them again
 * at most every {@link REVOCATION_RECHECK_MS} (all of them: only revocations of still-living tokens
 * are kept, so the set is small, and a full read cannot miss one committed out of `seq` order). So a revocation made through this
 * process is refused from the next request on, and one made through another process on the same
 * database within {@link REVOCATION_RECHECK_MS}.
 *
 * A revocation ends one token (its `jti`), every token of a client (an API key revoked:
 * {@link clientRevocationId}), or a login session (signing out: {@link sessionRevocationId}, which
 * ends the dashboard session and every token issued under it, whose `sid` claim names it). A token
 * is refused when any of the three is revoked ({@link RevocationList.refuses}), so all three reach
 * every instance within the same bound.
 *
 * Why not read the store on every request: that adds a query to every bearer request (a network
 * round trip on PostgreSQL) for an event that almost never happens.
 */
import type { Store } from '../store/store';
import { CLOCK_SKEW_SECONDS, MAX_TOKEN_LIFETIME_SECONDS } from './jwt';

/** Longest time (ms) before a revocation made by another process is refused here too. */
export const REVOCATION_RECHECK_MS = 1000;

/**
 * The longest any access or ID token lives past its issue (the longest realm token lifetime plus
 * the clock skew a token's times are allowed): how long a revocation of every token of a client is
 * kept. A login session's is kept only until its own tokens expire (routes/authorize.ts).
 */
export const MAX_TOKEN_LIFETIME_MS = (MAX_TOKEN_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS) * 1000;

/** The revocation that ends every token issued to `clientId` (its API key was revoked). */
export const clientRevocationId = (clientId: string): string => `client:${clientId}`;

/** The revocation that ends login session `sid`: its dashboard session and the tokens issued under it. */
export const sessionRevocationId = (sid: string): string => `session:${sid}`;

/** What decides whether a token was revoked: its own id, its client, and its login session (if any). */
export interface RevocableToken {
  jti: string;
  azp: string;
  /** The login session of a code-flow token; anything but a string means none. */
  sid?: unknown;
}

/** The revocation ids that end `token`, its own first. */
function revocationIdsOf(token: RevocableToken): string[] {
  const ids = [token.jti, clientRevocationId(token.azp)];
  if (typeof token.sid === 'string' && token.sid !== '') ids.push(sessionRevocationId(token.sid));
  return ids;
}

/** The in-memory view of one store's revoked tokens. */
export class RevocationList {
  /** `realm NUL jti` → expiry (ms). */
  private readonly revoked = new Map<string, number>();
  private checkedAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
    private readonly recheckMs: number = REVOCATION_RECHECK_MS,
  ) {}

  /** True when revocation `id` of `realm` was made (in this or, within the recheck time, another process). */
  async isRevoked(realm: string, id: string): Promise<boolean> {
    if (this.needsRefresh()) await this.refresh();
    return this.holds(realm, id);
  }

  /**
   * True when `token` of `realm` must be refused: it was revoked itself, or its client's tokens
   * were (a revoked API key), or its login session ended (signed out).
   */
  async refuses(realm: string, token: RevocableToken): Promise<boolean> {
    if (this.needsRefresh()) await this.refresh();
    return revocationIdsOf(token).some((id) => this.holds(realm, id));
  }

  /**
   * What {@link RevocationList.refuses} would answer, when it can without reading the store;
   * undefined when the list is due to be read again (then call `refuses`). For the request path,
   * which then need not wait for a promise.
   */
  knownRefused(realm: string, token: RevocableToken): boolean | undefined {
    return this.needsRefresh() ? undefined : revocationIdsOf(token).some((id) => this.holds(realm, id));
  }

  /**
   * Makes the next check read the store: for a process that recorded revocations in the store
   * without going through this list (an API key revoked by the administration API), so that it
   * refuses them at once rather than within the recheck time.
   */
  recheckNow(): void {
    this.checkedAt = Number.NEGATIVE_INFINITY;
  }

  /** Whether the revocations must be read again before they are answered from. */
  private needsRefresh(): boolean {
    return this.now() - this.checkedAt >= this.recheckMs;
  }

  /** Whether the list holds a living revocation of `jti` in `realm`. */
  private holds(realm: string, jti: string): boolean {
    const expires = this.revoked.get(keyOf(realm, jti));
    return expires !== undefined && expires >= this.now();
  }

  /** Records a revocation in the store and here (idempotent). */
  async revoke(realm: string, jti: string, expiresTimestamp: number): Promise<void> {
    await this.store.revokeToken({ realm, jti, expiresTimestamp, revokedTimestamp: this.now() });
    this.revoked.set(keyOf(realm, jti), expiresTimestamp);
  }

  /** Reads the revocations of living tokens again; one read at a time. */
  private refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const now = this.now();
        const active = await this.store.activeRevokedTokens(now);
        // Revocations made here since the read began stay (they are in the store too).
        for (const [key, expires] of this.revoked) if (expires < now) this.revoked.delete(key);
        for (const revocation of active) this.revoked.set(keyOf(revocation.realm, revocation.jti), revocation.expiresTimestamp);
        this.checkedAt = now;
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }
}

const keyOf = (realm: string, jti: string): string => `${realm}\u0000${jti}`;
