/**
 * Throttling of failed credentials (on by default): each (realm, client id or username, source
 * address) gets a few free failures, then has to wait before its next attempt, twice as long after
 * each further failure, up to a ceiling. While it waits, its attempts are answered 429
 * `rate_limited` with `Retry-After` before any lookup or hash, so a guesser slows down
 * exponentially and a wrong-secret flood costs the service a map lookup per request.
 *
 * An attempt is counted before the work it protects ({@link CredentialThrottle.attempt}), as a
 * failure until it succeeds. Why: counting after the check (check, await the hash, record) lets
 * every attempt that arrives while the first ones are still hashing pass the check, so 120 guesses
 * sent at once would all be checked. Counted first, concurrent guesses get exactly what
 * sequential ones get, under any concurrency.
 *
 * There is no lockout: the key includes the source address, so the legitimate client presenting
 * the right secret from its own address is never refused because someone else guessed. A success
 * clears its entry. Kept in memory per process (bounded), like the optional rate limit.
 */
import { ServiceError } from '../errors';

/** Settings of {@link CredentialThrottle}. */
export interface CredentialThrottleOptions {
  /** Failures allowed without waiting (typos, a rotated secret). */
  freeFailures: number;
  /** Wait after the first failure beyond the free ones; doubles with each further failure. */
  baseDelayMs: number;
  /** Longest wait. A key whose last failure is older than this starts over. */
  maxDelayMs: number;
  /** Most keys remembered; past it, keys that are not waiting are forgotten first. */
  maxEntries: number;
}

/** The default policy (docs/guides/service.md): 5 free failures, then 1 s, 2 s, 4 s … up to 15 minutes. */
export const DEFAULT_CREDENTIAL_THROTTLE: CredentialThrottleOptions = {
  freeFailures: 5,
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60 * 1000,
  maxEntries: 100_000,
};

interface Entry {
  failures: number;
  lastFailure: number;
  blockedUntil: number;
}

/** The throttle key of one credential from one address. */
export function throttleKey(realm: string, credential: string, address: string | undefined): string {
  return `${realm}\u0000${credential}\u0000${address ?? ''}`;
}

/** Counts credential attempts per key, as failures until they succeed, and refuses attempts while a key must wait. */
export class CredentialThrottle {
  private readonly entries = new Map<string, Entry>();
  private readonly options: CredentialThrottleOptions;

  constructor(options: Partial<CredentialThrottleOptions> = {}, private readonly now: () => number = Date.now) {
    this.options = { ...DEFAULT_CREDENTIAL_THROTTLE, ...options };
    const { freeFailures, baseDelayMs, maxDelayMs, maxEntries } = this.options;
    if (!Number.isInteger(freeFailures) || freeFailures < 0) throw new Error(`freeFailures must be a whole number, got ${freeFailures}.`);
    if (!(baseDelayMs > 0) || !(maxDelayMs >= baseDelayMs)) {
      throw new Error(`Throttle delays must be positive with maxDelayMs >= baseDelayMs, got ${baseDelayMs} and ${maxDelayMs}.`);
    }
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new Error(`maxEntries must be a positive integer, got ${maxEntries}.`);
  }

  /**
   * Counts an attempt of `key` before its work is done: throws 429 `rate_limited` with
   * `Retry-After` while `key` has to wait; otherwise records the attempt as a failure (which makes
   * `key` wait once past the free failures) and returns. Call {@link success} when the attempt
   * turns out right; a wrong one needs nothing more.
   */
  attempt(key: string): void {
    const now = this.now();
    let entry = this.entries.get(key);
    if (entry !== undefined && entry.blockedUntil > now) {
      const retryAfter = Math.max(1, Math.ceil((entry.blockedUntil - now) / 1000));
      throw new ServiceError(429, 'rate_limited', `Too many failed attempts; retry after ${retryAfter} seconds.`, {
        'Retry-After': String(retryAfter),
      });
    }
    if (entry === undefined || now - entry.lastFailure > this.options.maxDelayMs) {
      entry = { failures: 0, lastFailure: now, blockedUntil: 0 };
      this.remember(key, entry);
    }
    entry.failures += 1;
    entry.lastFailure = now;
    const beyond = entry.failures - this.options.freeFailures;
    if (beyond > 0) {
      // 2^(beyond-1) grows past maxDelayMs quickly; the exponent is capped so it stays finite.
      const delay = Math.min(this.options.baseDelayMs * 2 ** Math.min(beyond - 1, 40), this.options.maxDelayMs);
      entry.blockedUntil = now + delay;
    }
  }

  /** Forgets `key`'s failures (its own attempt included) after a successful attempt. */
  success(key: string): void {
    this.entries.delete(key);
  }

  /** How many keys are remembered (for tests and diagnostics). */
  get size(): number {
    return this.entries.size;
  }

  /** Adds an entry, first making room by forgetting stale keys, then the oldest ones. */
  private remember(key: string, entry: Entry): void {
    if (this.entries.size >= this.options.maxEntries) {
      const now = this.now();
      for (const [other, old] of this.entries) {
        if (old.blockedUntil <= now && now - old.lastFailure > this.options.maxDelayMs) this.entries.delete(other);
      }
      // Still nearly full (a flood of distinct keys): drop the oldest tenth, so the sweep above
      // runs once per many inserts rather than on each.
      const target = Math.floor(this.options.maxEntries * 0.9);
      while (this.entries.size > 0 && this.entries.size >= target) this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, entry);
  }
}
