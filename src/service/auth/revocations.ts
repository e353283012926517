/**
 * Revoked access tokens (RFC 7009), as every request sees them: the store holds the revocations
 * (realm, `jti`, until the token's expiry); each process keeps them in memory and reads them again
 * at most every {@link REVOCATION_RECHECK_MS} (all of them: only revocations of still-living tokens
 * are kept, so the set is small, and a full read cannot miss one committed out of `seq` order). So a revocation made through this
 * process is refused from the next request on, and one made through another process on the same
 * database within {@link REVOCATION_RECHECK_MS}.
 *
 * Why not read the store on every request: that adds a query to every bearer request (a network
 * round trip on PostgreSQL) for an event that almost never happens.
 */
import type { Store } from '../store/store';

/** Longest time (ms) before a revocation made by another process is refused here too. */
export const REVOCATION_RECHECK_MS = 1000;

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

  /** True when the token `jti` of `realm` was revoked (in this or, within the recheck time, another process). */
  async isRevoked(realm: string, jti: string): Promise<boolean> {
    if (this.needsRefresh()) await this.refresh();
    return this.holds(realm, jti);
  }

  /**
   * What {@link RevocationList.isRevoked} would answer, when it can without reading the store;
   * undefined when the list is due to be read again (then call `isRevoked`). For the request
   * path, which then need not wait for a promise.
   */
  knownRevoked(realm: string, jti: string): boolean | undefined {
    return this.needsRefresh() ? undefined : this.holds(realm, jti);
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
