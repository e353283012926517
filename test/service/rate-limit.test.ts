import { rateLimitKey } from '../../src/service/auth/guards';
import { ServiceError } from '../../src/service/errors';
import {
  effectiveRateLimit,
  MAX_REALM_RATE_LIMIT_REQUESTS,
  MAX_REALM_RATE_LIMIT_WINDOW_SECONDS,
  RateLimiter,
  realmRateLimitProblem,
  type RealmRateLimit,
} from '../../src/service/rate-limit';

/** The error `fn` throws (or undefined). */
function thrown(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

const followsDefault = { rateLimit: null as RealmRateLimit };

describe('RateLimiter', () => {
  it('allows the budget per window, refuses beyond it with Retry-After, and resets with the next window', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ requests: 2, windowSeconds: 10 }, () => now);
    limiter.hit(followsDefault, 'a');
    limiter.hit(followsDefault, 'a');
    now += 4000;
    const refused = thrown(() => limiter.hit(followsDefault, 'a'));
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({ statusCode: 429, code: 'rate_limited', headers: { 'Retry-After': '6' } });
    limiter.hit(followsDefault, 'b'); // other keys are independent
    now += 6000;
    expect(() => limiter.hit(followsDefault, 'a')).not.toThrow();
  });

  it('admits what hit would let through, counting it, and refuses the rest without counting them', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ requests: 3, windowSeconds: 10 }, () => now);
    expect(limiter.admit(followsDefault, 'a')).toBe(true);
    limiter.hit(followsDefault, 'a');
    expect(limiter.admit(followsDefault, 'a')).toBe(true);
    // The budget is spent: admit refuses, as often as asked, and counts none of it, so the one hit
    // after it is the window's first refusal, with hit's own Retry-After.
    for (let i = 0; i < 5; i += 1) expect(limiter.admit(followsDefault, 'a')).toBe(false);
    now += 2500;
    expect(thrown(() => limiter.hit(followsDefault, 'a'))).toMatchObject({ statusCode: 429, headers: { 'Retry-After': '8' } });
    expect(limiter.admit(followsDefault, 'b')).toBe(true);
    now += 7500;
    expect(limiter.admit(followsDefault, 'a')).toBe(true);
    // Without a limit everything is admitted.
    expect(new RateLimiter(undefined, () => now).admit(followsDefault, 'a')).toBe(true);
    expect(limiter.admit({ rateLimit: 'off' }, 'a')).toBe(true);
  });

  it('refuses nonsensical service defaults', () => {
    expect(() => new RateLimiter({ requests: 0, windowSeconds: 1 })).toThrow(/positive integer/);
    expect(() => new RateLimiter({ requests: 1, windowSeconds: 0 })).toThrow(/positive number/);
  });

  it('applies a realm’s own limit instead of the service default', () => {
    let now = 5_000_000;
    const limiter = new RateLimiter({ requests: 1, windowSeconds: 60 }, () => now);
    const own = { rateLimit: { requests: 3, windowSeconds: 5 } as RealmRateLimit };
    for (let i = 0; i < 3; i += 1) limiter.hit(own, 'own/client/k');
    expect(thrown(() => limiter.hit(own, 'own/client/k'))).toMatchObject({ statusCode: 429, headers: { 'Retry-After': '5' } });
    now += 5000; // the realm's 5-second window, not the default's 60 seconds
    expect(() => limiter.hit(own, 'own/client/k')).not.toThrow();
    // A realm without its own setting keeps the default.
    limiter.hit(followsDefault, 'plain/client/k');
    expect(thrown(() => limiter.hit(followsDefault, 'plain/client/k'))).toMatchObject({ statusCode: 429, headers: { 'Retry-After': '60' } });
  });

  it('counts nothing for a realm that turned rate limiting off, even with a service default', () => {
    const limiter = new RateLimiter({ requests: 1, windowSeconds: 60 }, () => 0);
    const off = { rateLimit: 'off' as RealmRateLimit };
    for (let i = 0; i < 50; i += 1) limiter.hit(off, 'off/client/k');
    expect(limiter.limitFor(off)).toBeUndefined();
  });

  it('limits only realms with their own limit when the service has no default', () => {
    const limiter = new RateLimiter(undefined, () => 0);
    for (let i = 0; i < 50; i += 1) limiter.hit(followsDefault, 'free/client/k');
    const own = { rateLimit: { requests: 2, windowSeconds: 30 } as RealmRateLimit };
    limiter.hit(own, 'own/client/k');
    limiter.hit(own, 'own/client/k');
    expect(thrown(() => limiter.hit(own, 'own/client/k'))).toMatchObject({ statusCode: 429, headers: { 'Retry-After': '30' } });
  });

  it('applies a changed realm setting to the next request', () => {
    let now = 0;
    const limiter = new RateLimiter(undefined, () => now);
    const realm: { rateLimit: RealmRateLimit } = { rateLimit: { requests: 10, windowSeconds: 60 } };
    for (let i = 0; i < 3; i += 1) limiter.hit(realm, 'r/client/k');
    realm.rateLimit = { requests: 3, windowSeconds: 60 }; // lowered: the window's count already reaches it
    expect(thrown(() => limiter.hit(realm, 'r/client/k'))).toMatchObject({ statusCode: 429 });
    realm.rateLimit = { requests: 3, windowSeconds: 10 }; // shortened: the old window has ended
    now += 10_000;
    expect(() => limiter.hit(realm, 'r/client/k')).not.toThrow();
    realm.rateLimit = 'off';
    for (let i = 0; i < 10; i += 1) limiter.hit(realm, 'r/client/k');
  });

  it('forgets finished windows once it tracks many keys', () => {
    let now = 0;
    const limiter = new RateLimiter({ requests: 1, windowSeconds: 1 }, () => now);
    for (let i = 0; i < 1000; i += 1) limiter.hit(followsDefault, `k${i}`);
    now += 1000;
    limiter.hit(followsDefault, 'fresh'); // starts a window and sweeps the 1000 finished ones
    const windows = (limiter as unknown as { windows: Map<string, unknown> }).windows;
    expect([...windows.keys()]).toEqual(['fresh']);
  });
});

describe('effectiveRateLimit', () => {
  const serviceDefault = { requests: 100, windowSeconds: 60 };
  it('is the realm’s setting, else the service default, else none', () => {
    expect(effectiveRateLimit({ requests: 5, windowSeconds: 10 }, serviceDefault)).toEqual({ requests: 5, windowSeconds: 10 });
    expect(effectiveRateLimit({ requests: 5, windowSeconds: 10 }, undefined)).toEqual({ requests: 5, windowSeconds: 10 });
    expect(effectiveRateLimit('off', serviceDefault)).toBeUndefined();
    expect(effectiveRateLimit(null, serviceDefault)).toEqual(serviceDefault);
    expect(effectiveRateLimit(null, undefined)).toBeUndefined();
  });
});

describe('realmRateLimitProblem', () => {
  it('accepts the service default, off, and whole numbers within the bounds', () => {
    expect(realmRateLimitProblem(null)).toBeUndefined();
    expect(realmRateLimitProblem('off')).toBeUndefined();
    expect(realmRateLimitProblem({ requests: 1, windowSeconds: 1 })).toBeUndefined();
    expect(realmRateLimitProblem({ requests: MAX_REALM_RATE_LIMIT_REQUESTS, windowSeconds: MAX_REALM_RATE_LIMIT_WINDOW_SECONDS })).toBeUndefined();
  });

  it('names the value it refuses', () => {
    expect(realmRateLimitProblem('on')).toBe('Rate limit "on" is not a limit, "off", or the service default.');
    expect(realmRateLimitProblem({ requests: 0, windowSeconds: 60 })).toBe('Rate limit requests 0 is not a whole number between 1 and 1000000.');
    expect(realmRateLimitProblem({ requests: 1.5, windowSeconds: 60 })).toMatch(/^Rate limit requests 1.5 /);
    expect(realmRateLimitProblem({ requests: MAX_REALM_RATE_LIMIT_REQUESTS + 1, windowSeconds: 60 })).toMatch(/^Rate limit requests 1000001 /);
    expect(realmRateLimitProblem({ requests: 10, windowSeconds: 0 })).toBe('Rate limit window 0 is not a whole number of seconds between 1 and 86400.');
    expect(realmRateLimitProblem({ requests: 10, windowSeconds: 86_401 })).toMatch(/^Rate limit window 86401 /);
    expect(realmRateLimitProblem({ requests: 10 })).toMatch(/^Rate limit window undefined /);
  });
});

describe('rateLimitKey', () => {
  it('keys every caller by realm + subject: an API key by its service account, an end user by their id', () => {
    expect(rateLimitKey('acme', 'service-account-user')).toBe('acme/caller/service-account-user');
    expect(rateLimitKey('acme', 'user-1')).toBe('acme/caller/user-1');
    expect(rateLimitKey('other', 'user-1')).toBe('other/caller/user-1');
  });
});
