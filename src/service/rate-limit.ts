/**
 * The optional rate limit: a fixed window per key (realm + client id, or realm + user id for end
 * users of the public client; see `rateLimitKey` in auth/guards.ts). In memory, per process —
 * enough for one service instance; a shared limiter would go with a shared store.
 */
import { ServiceError } from './errors';

/** Requests allowed per key (client, or end user) in each window. */
export interface RateLimitOptions {
  requests: number;
  windowSeconds: number;
}

/** Counts requests per key in fixed windows and refuses the ones over the limit. */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly options: RateLimitOptions, private readonly now: () => number = Date.now) {
    if (!Number.isInteger(options.requests) || options.requests < 1) {
      throw new Error(`Rate limit requests must be a positive integer, got ${options.requests}.`);
    }
    if (!(options.windowSeconds > 0)) {
      throw new Error(`Rate limit window must be a positive number of seconds, got ${options.windowSeconds}.`);
    }
  }

  /** Counts one request of `key`; throws 429 `rate_limited` with `Retry-After` when over the limit. */
  hit(key: string): void {
    const now = this.now();
    const windowMs = this.options.windowSeconds * 1000;
    let window = this.windows.get(key);
    if (!window || now - window.start >= windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
      this.sweep(now, windowMs);
    }
    window.count += 1;
    if (window.count > this.options.requests) {
      const retryAfter = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
      throw new ServiceError(429, 'rate_limited', `Too many requests; retry after ${retryAfter} seconds.`, {
        'Retry-After': String(retryAfter),
      });
    }
  }

  /** Drops finished windows so the map does not grow with every client ever seen. */
  private sweep(now: number, windowMs: number): void {
    if (this.windows.size < 1000) return;
    for (const [key, window] of this.windows) if (now - window.start >= windowMs) this.windows.delete(key);
  }
}
