import { CredentialThrottle, throttleKey } from '../../../src/service/auth/credential-throttle';
import { ServiceError } from '../../../src/service/errors';

describe('CredentialThrottle', () => {
  let now = 1_000_000;
  const clock = () => now;

  /** The refusal of an attempt of `key`, or undefined when the attempt was let through (and counted). */
  const refusal = (throttle: CredentialThrottle, key: string): ServiceError | undefined => {
    try {
      throttle.attempt(key);
      return undefined;
    } catch (error) {
      return error as ServiceError;
    }
  };

  it('lets the free failures through, then doubles the wait up to the ceiling', () => {
    const throttle = new CredentialThrottle({ freeFailures: 2, baseDelayMs: 1000, maxDelayMs: 5000 }, clock);
    const key = throttleKey('acme', 'client:k', '10.0.0.1');
    const waits: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      // Each attempt let through counts as a failure; the next one tells whether it must wait.
      const refused = refusal(throttle, key);
      if (refused) {
        expect(refused).toMatchObject({ statusCode: 429, code: 'rate_limited' });
        waits.push(Number(refused.headers['Retry-After']));
        now += Number(refused.headers['Retry-After']) * 1000;
        expect(refusal(throttle, key)).toBeUndefined();
      } else {
        waits.push(0);
      }
    }
    expect(waits).toEqual([0, 0, 0, 1, 2, 4]);
    expect(Number(refusal(throttle, key)?.headers['Retry-After'])).toBe(5);
  });

  it('counts an attempt before its work: attempts made while earlier ones are still running are refused', () => {
    const throttle = new CredentialThrottle({ freeFailures: 5 }, clock);
    // 120 attempts begun before any of them ended (none has called success or failed yet).
    const refused = Array.from({ length: 120 }, () => refusal(throttle, 'k')).filter((error) => error !== undefined);
    expect(refused).toHaveLength(114);
  });

  it('keeps keys apart: another address or credential is never refused', () => {
    const throttle = new CredentialThrottle({ freeFailures: 0 }, clock);
    expect(refusal(throttle, throttleKey('acme', 'user:alice', '10.0.0.1'))).toBeUndefined();
    expect(refusal(throttle, throttleKey('acme', 'user:alice', '10.0.0.1'))).toBeDefined();
    expect(refusal(throttle, throttleKey('acme', 'user:alice', '10.0.0.2'))).toBeUndefined();
    expect(refusal(throttle, throttleKey('acme', 'user:bob', '10.0.0.1'))).toBeUndefined();
    expect(refusal(throttle, throttleKey('other', 'user:alice', '10.0.0.1'))).toBeUndefined();
  });

  it('forgets failures after a success, and starts over once the last failure is older than the ceiling', () => {
    const throttle = new CredentialThrottle({ freeFailures: 1, baseDelayMs: 1000, maxDelayMs: 60_000 }, clock);
    expect(refusal(throttle, 'k')).toBeUndefined();
    throttle.success('k');
    expect(refusal(throttle, 'k')).toBeUndefined();
    expect(refusal(throttle, 'k')).toBeUndefined();
    expect(refusal(throttle, 'k')).toBeDefined();
    now += 60_001;
    expect(refusal(throttle, 'k')).toBeUndefined();
    expect(refusal(throttle, 'k')).toBeUndefined();
  });

  it('stays within its bound under a flood of distinct keys', () => {
    const throttle = new CredentialThrottle({ maxEntries: 100 }, clock);
    for (let i = 0; i < 10_000; i += 1) throttle.attempt(`flood-${i}`);
    expect(throttle.size).toBeLessThanOrEqual(100);
  });

  it('refuses nonsensical settings', () => {
    expect(() => new CredentialThrottle({ freeFailures: -1 })).toThrow(/freeFailures/);
    expect(() => new CredentialThrottle({ baseDelayMs: 0 })).toThrow(/delays/);
    expect(() => new CredentialThrottle({ baseDelayMs: 10, maxDelayMs: 5 })).toThrow(/delays/);
    expect(() => new CredentialThrottle({ maxEntries: 0 })).toThrow(/maxEntries/);
  });
});
