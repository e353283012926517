/**
 * The rate limit: a fixed window per key (realm + the token's subject: an API key's service account
 * or an end user; see `rateLimitKey` in auth/guards.ts). Which limit applies is decided here
 * and nowhere else ({@link effectiveRateLimit}): the realm's own setting, else the service default
 * (`orgadmin serve --rate-limit`), else none. In memory, per process — enough for one service
 * instance; a shared limiter would go with a shared store.
 */
import { ServiceError } from './errors';

/** Requests allowed per key (client, or end user) in each window. */
export interface RateLimitOptions {
  requests: number;
  windowSeconds: number;
}

/**
 * A realm's own rate limit setting, stored with the realm: `null` follows the service default,
 * `'off'` turns rate limiting off for the realm, a limit replaces the default for the realm.
 */
export type RealmRateLimit = RateLimitOptions | 'off' | null;

/** Most requests per window a realm setting may allow. */
export const MAX_REALM_RATE_LIMIT_REQUESTS = 1_000_000;
/** Longest window a realm setting may use (one day). */
export const MAX_REALM_RATE_LIMIT_WINDOW_SECONDS = 86_400;

/**
 * Why a realm rate limit setting is refused (one sentence naming the value), or undefined when it
 * is acceptable: `null`, `'off'`, or whole numbers of requests (1 to
 * {@link MAX_REALM_RATE_LIMIT_REQUESTS}) and window seconds (1 to
 * {@link MAX_REALM_RATE_LIMIT_WINDOW_SECONDS}).
 */
export function realmRateLimitProblem(setting: unknown): string | undefined {
  if (setting === null || setting === 'off') return undefined;
  if (typeof setting !== 'object') return `Rate limit "${String(setting)}" is not a limit, "off", or the service default.`;
  const { requests, windowSeconds } = setting as Partial<RateLimitOptions>;
  if (!Number.isInteger(requests) || (requests as number) < 1 || (requests as number) > MAX_REALM_RATE_LIMIT_REQUESTS) {
    return `Rate limit requests ${String(requests)} is not a whole number between 1 and ${MAX_REALM_RATE_LIMIT_REQUESTS}.`;
  }
  if (!Number.isInteger(windowSeconds) || (windowSeconds as number) < 1 || (windowSeconds as number) > MAX_REALM_RATE_LIMIT_WINDOW_SECONDS) {
    return `Rate limit window ${String(windowSeconds)} is not a whole number of seconds between 1 and ${MAX_REALM_RATE_LIMIT_WINDOW_SECONDS}.`;
  }
  return undefined;
}

/**
 * The limit that applies to a realm: its own setting when it has one (`'off'`: none), else the
 * service default, else none.
 */
export function effectiveRateLimit(
  setting: RealmRateLimit,
  serviceDefault: RateLimitOptions | undefined,
): RateLimitOptions | undefined {
  if (setting === 'off') return undefined;
  return setting ?? serviceDefault;
}

/**
 * Counts requests per key in fixed windows and refuses the ones over the limit that applies to the
 * key's realm. The realm record comes from the request (the realm hook), so a changed setting
 * takes effect as soon as the realm does: at once in this process, within the store's realm
 * recheck bound in other processes on the same database.
 */
export class RateLimiter {
  /** Open windows by key; `windowMs` is the window length the entry started with (for the sweep). */
  private readonly windows = new Map<string, { start: number; count: number; windowMs: number }>();

  /**
   * @param serviceDefault the limit of realms without their own setting (`--rate-limit`), or
   *   undefined for none.
   * @param now the clock, milliseconds (injected by tests).
   */
  constructor(
    readonly serviceDefault: RateLimitOptions | undefined,
    private readonly now: () => number = Date.now,
  ) {
    if (serviceDefault === undefined) return;
    if (!Number.isInteger(serviceDefault.requests) || serviceDefault.requests < 1) {
      throw new Error(`Rate limit requests must be a positive integer, got ${serviceDefault.requests}.`);
    }
    if (!(serviceDefault.windowSeconds > 0)) {
      throw new Error(`Rate limit window must be a positive number of seconds, got ${serviceDefault.windowSeconds}.`);
    }
  }

  /** The limit that applies to `realm` (see {@link effectiveRateLimit}). */
  limitFor(realm: { rateLimit: RealmRateLimit }): RateLimitOptions | undefined {
    return effectiveRateLimit(realm.rateLimit, this.serviceDefault);
  }

  /**
   * Counts one request of `key` (a key of `realm`); throws 429 `rate_limited` with `Retry-After`
   * when over the realm's limit. Does nothing when no limit applies.
   */
  hit(realm: { rateLimit: RealmRateLimit }, key: string): void {
    const limit = this.limitFor(realm);
    if (limit === undefined) return;
    const now = this.now();
    const window = this.windowOf(key, limit, now);
    window.count += 1;
    if (window.count > limit.requests) {
      const retryAfter = Math.max(1, Math.ceil((window.start + limit.windowSeconds * 1000 - now) / 1000));
      throw new ServiceError(429, 'rate_limited', `Too many requests; retry after ${retryAfter} seconds.`, {
        'Retry-After': String(retryAfter),
      });
    }
  }

  /**
   * Counts one request of `key` and returns true when {@link hit} would let it through; returns
   * false, counting nothing, when `hit` would refuse it. For a caller that answers allowed
   * requests itself and hands the others to the path that calls `hit` (which then counts and
   * refuses them), so that every request is counted once.
   */
  admit(realm: { rateLimit: RealmRateLimit }, key: string): boolean {
    const limit = this.limitFor(realm);
    if (limit === undefined) return true;
    const window = this.windowOf(key, limit, this.now());
    if (window.count >= limit.requests) return false;
    window.count += 1;
    return true;
  }

  /** The open window of `key` at `now`, started afresh when there is none or it has ended. */
  private windowOf(key: string, limit: RateLimitOptions, now: number): { start: number; count: number; windowMs: number } {
    const windowMs = limit.windowSeconds * 1000;
    let window = this.windows.get(key);
    // A window also ends early when the realm's window was shortened since it started.
    if (!window || now - window.start >= windowMs) {
      window = { start: now, count: 0, windowMs };
      this.windows.set(key, window);
      this.sweep(now);
    }
    return window;
  }

  /**
   * Drops finished windows so the map does not grow with every client ever seen. Each entry ends
   * by the window length it started with (realms differ); should a realm's window have grown
   * since, the key merely starts a fresh window early.
   */
  private sweep(now: number): void {
    if (this.windows.size < 1000) return;
    for (const [key, window] of this.windows) if (now - window.start >= window.windowMs) this.windows.delete(key);
  }
}
