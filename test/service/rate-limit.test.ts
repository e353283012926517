import { rateLimitKey } from '../../src/service/auth/guards';
import { ServiceError } from '../../src/service/errors';
import { RateLimiter } from '../../src/service/rate-limit';

describe('RateLimiter', () => {
  it('allows the budget per window, refuses beyond it with Retry-After, and resets with the next window', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ requests: 2, windowSeconds: 10 }, () => now);
    limiter.hit('a');
    limiter.hit('a');
    now += 4000;
    let refused: unknown;
    try {
      limiter.hit('a');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({ statusCode: 429, code: 'rate_limited', headers: { 'Retry-After': '6' } });
    limiter.hit('b'); // other keys are independent
    now += 6000;
    expect(() => limiter.hit('a')).not.toThrow();
  });

  it('refuses nonsensical settings', () => {
    expect(() => new RateLimiter({ requests: 0, windowSeconds: 1 })).toThrow(/positive integer/);
    expect(() => new RateLimiter({ requests: 1, windowSeconds: 0 })).toThrow(/positive number/);
  });
});

describe('rateLimitKey', () => {
  it('keys API keys by realm + client id, and end users of the public client by realm + user id', () => {
    expect(rateLimitKey('acme', 'key-1', 'service-account-user')).toBe('acme/client/key-1');
    expect(rateLimitKey('acme', 'admin-cli', 'user-1')).toBe('acme/user/user-1');
    expect(rateLimitKey('other', 'admin-cli', 'user-1')).toBe('other/user/user-1');
    expect(rateLimitKey('acme', 'admin-cli')).toBe('acme/client/admin-cli');
  });
});
