/**
 * Attacks on the credential checks: response time must not tell existing client ids or usernames
 * apart; failed guesses are throttled per (realm, client id or username, source address) with
 * exponential backoff, cheaply, and without locking out the legitimate client; the optional rate
 * limit cannot be spent by a guesser; legacy scrypt key hashes move to HMAC on first use.
 *
 * Requests go through `app.inject` so each can carry its own source address; the service clock is
 * injected, so backoff is stepped through without sleeping.
 */
import { performance } from 'node:perf_hooks';
import { orgsPath, tokenPath } from '../../src/api';
import { hashSecret } from '../../src/service/auth/secrets';
import { DEFAULT_CREDENTIAL_THROTTLE } from '../../src/service/auth/credential-throttle';
import { createTestRealm, startTestService, type TestService } from '../helpers/service';

let clock = Date.UTC(2026, 0, 1);

/** A token request from `address`, answered in-process. */
async function tokenRequest(svc: TestService, address: string, fields: Record<string, string>, realm = 'acme') {
  const res = await svc.app.inject({
    method: 'POST',
    url: tokenPath(realm),
    remoteAddress: address,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
  return { status: res.statusCode, json: res.json() as Record<string, any>, headers: res.headers };
}

const clientGrant = (clientId: string, clientSecret: string) => ({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
const passwordGrant = (username: string, password: string) => ({ grant_type: 'password', client_id: 'admin-cli', username, password });

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Median time of `a` and of `b` over `rounds` interleaved attempts (a, b, b, a, …: neither always
 * goes first), after a warm-up; each attempt from a fresh source address so the throttle stays out
 * of the measurement.
 */
async function interleavedMedians(rounds: number, a: (address: string) => Promise<unknown>, b: (address: string) => Promise<unknown>) {
  const times = { a: [] as number[], b: [] as number[] };
  let n = 0;
  const address = () => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n++ & 255}`;
  const timed = async (fn: (address: string) => Promise<unknown>, into: number[]) => {
    const start = performance.now();
    await fn(address());
    into.push(performance.now() - start);
  };
  for (let i = 0; i < 5; i += 1) await Promise.all([a(address()), b(address())].map((p) => p.catch(() => undefined)));
  for (let i = 0; i < rounds; i += 1) {
    if (i % 2 === 0) {
      await timed(a, times.a);
      await timed(b, times.b);
    } else {
      await timed(b, times.b);
      await timed(a, times.a);
    }
  }
  return { a: median(times.a), b: median(times.b) };
}

describe('timing: unknown and known ids cost the same', () => {
  let svc: TestService;
  let key: { clientId: string; clientSecret: string };
  beforeAll(async () => {
    svc = await startTestService();
    key = await createTestRealm(svc, 'acme');
    await svc.admin.createUser('acme', { username: 'alice', password: 'correct horse battery staple' });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('answers an unknown client id as fast as a known one with a wrong secret (medians within noise)', async () => {
    const { a: unknown, b: known } = await interleavedMedians(
      200,
      async (address) => expect((await tokenRequest(svc, address, clientGrant('key-doesnotexist', 'guess'))).status).toBe(401),
      async (address) => expect((await tokenRequest(svc, address, clientGrant(key.clientId, 'guess'))).status).toBe(401),
    );
    console.log(`timing, client ids: unknown ${unknown.toFixed(3)} ms, known with wrong secret ${known.toFixed(3)} ms (medians of 200)`);
    // Before: 0.7 ms against 76 ms. Generous bounds for a noisy 2-core machine.
    expect(unknown / known).toBeGreaterThan(1 / 3);
    expect(unknown / known).toBeLessThan(3);
    // And a wrong secret is cheap: the keyed fast hash, not scrypt.
    expect(known).toBeLessThan(20);
  });

  it('answers an unknown username as slowly as a known one with a wrong password (medians within noise)', async () => {
    const { a: unknown, b: known } = await interleavedMedians(
      24,
      async (address) => expect((await tokenRequest(svc, address, passwordGrant('nobody-here', 'guess'))).status).toBe(400),
      async (address) => expect((await tokenRequest(svc, address, passwordGrant('alice', 'guess'))).status).toBe(400),
    );
    console.log(`timing, usernames: unknown ${unknown.toFixed(1)} ms, known with wrong password ${known.toFixed(1)} ms (medians of 24)`);
    // Before: 1.1 ms against 100 ms.
    expect(unknown / known).toBeGreaterThan(0.5);
    expect(unknown / known).toBeLessThan(2);
  });
});

describe('throttling failed credentials (default policy)', () => {
  let svc: TestService;
  let key: { clientId: string; clientSecret: string };
  beforeAll(async () => {
    svc = await startTestService({ now: () => clock });
    key = await createTestRealm(svc, 'acme');
    await svc.admin.createUser('acme', { username: 'alice', password: 'alice-pw' });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('slows a guesser with exponential backoff while the real client from another address gets its token', async () => {
    const attacker = '203.0.113.7';
    const free = DEFAULT_CREDENTIAL_THROTTLE.freeFailures;
    for (let i = 0; i < free; i += 1) expect((await tokenRequest(svc, attacker, clientGrant(key.clientId, `guess-${i}`))).status).toBe(401);
    const waits: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      // One more failure, then the guesser must wait: even the right secret is refused meanwhile.
      expect((await tokenRequest(svc, attacker, clientGrant(key.clientId, 'guess'))).status).toBe(401);
      const refused = await tokenRequest(svc, attacker, clientGrant(key.clientId, key.clientSecret));
      expect(refused.status).toBe(429);
      expect(refused.json).toEqual({ error: 'rate_limited', error_description: expect.stringMatching(/^Too many failed attempts/) });
      const wait = Number(refused.headers['retry-after']);
      waits.push(wait);
      // The legitimate client, elsewhere, is never refused.
      expect((await tokenRequest(svc, '198.51.100.1', clientGrant(key.clientId, key.clientSecret))).status).toBe(200);
      clock += wait * 1000;
    }
    expect(waits).toEqual([1, 2, 4, 8, 16]);
    // After waiting, the right secret from the guesser's address works again and clears its record.
    expect((await tokenRequest(svc, attacker, clientGrant(key.clientId, key.clientSecret))).status).toBe(200);
    expect((await tokenRequest(svc, attacker, clientGrant(key.clientId, 'guess'))).status).toBe(401);
  });

  it('throttles usernames the same way, unknown ones included, without locking the user out', async () => {
    const attacker = '203.0.113.8';
    for (const username of ['alice', 'ghost']) {
      for (let i = 0; i <= DEFAULT_CREDENTIAL_THROTTLE.freeFailures; i += 1) {
        expect((await tokenRequest(svc, attacker, passwordGrant(username, 'guess'))).status).toBe(400);
      }
      expect((await tokenRequest(svc, attacker, passwordGrant(username, 'guess'))).status).toBe(429);
    }
    expect((await tokenRequest(svc, attacker, passwordGrant('alice', 'alice-pw'))).status).toBe(429);
    expect((await tokenRequest(svc, '198.51.100.2', passwordGrant('alice', 'alice-pw'))).status).toBe(200);
  });

  it('answers a wrong-secret flood from a waiting address without reading the store or hashing', async () => {
    const attacker = '203.0.113.9';
    for (let i = 0; i <= DEFAULT_CREDENTIAL_THROTTLE.freeFailures; i += 1) await tokenRequest(svc, attacker, clientGrant(key.clientId, 'x'));
    const reads = jest.spyOn(svc.store, 'getApiKey');
    try {
      const start = performance.now();
      for (let i = 0; i < 500; i += 1) expect((await tokenRequest(svc, attacker, clientGrant(key.clientId, `flood-${i}`))).status).toBe(429);
      const perRequest = (performance.now() - start) / 500;
      console.log(`throttle: a refused flood request costs ${perRequest.toFixed(3)} ms (in-process inject, 500 requests)`);
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
    expect((await tokenRequest(svc, '198.51.100.3', clientGrant(key.clientId, key.clientSecret))).status).toBe(200);
  });
});

describe('with the optional rate limit on', () => {
  it('does not let a guesser spend the real client or user budget', async () => {
    const svc = await startTestService({ now: () => clock, rateLimit: { requests: 3, windowSeconds: 60 } });
    try {
      const key = await createTestRealm(svc, 'acme');
      await svc.admin.createUser('acme', { username: 'alice', password: 'alice-pw' });
      // Each guess from its own address: more failures than the whole budget, none throttled.
      for (let i = 0; i < 10; i += 1) {
        expect((await tokenRequest(svc, `203.0.113.${i}`, clientGrant(key.clientId, 'guess'))).status).toBe(401);
        expect((await tokenRequest(svc, `203.0.113.${i}`, passwordGrant('alice', 'guess'))).status).toBe(400);
      }
      const res = await tokenRequest(svc, '198.51.100.1', clientGrant(key.clientId, key.clientSecret));
      expect(res.status).toBe(200);
      const bearer = await svc.app.inject({ method: 'GET', url: orgsPath('acme'), headers: { authorization: `Bearer ${res.json.access_token}` } });
      expect(bearer.statusCode).toBe(200);
      expect((await tokenRequest(svc, '198.51.100.1', passwordGrant('alice', 'alice-pw'))).status).toBe(200);
    } finally {
      await svc.close();
    }
  });
});

describe('API-key secret hashes', () => {
  it('stores new secrets as HMAC-SHA-256 and moves a legacy scrypt hash to HMAC on its first successful use', async () => {
    const svc = await startTestService();
    try {
      const key = await createTestRealm(svc, 'acme');
      expect((await svc.store.getApiKey(key.clientId))!.secretHash).toMatch(/^hmac-sha256\$[A-Za-z0-9_-]{43}$/);
      // Turn the key into one created before the HMAC scheme.
      const current = (await svc.store.getApiKey(key.clientId))!.secretHash;
      expect(await svc.store.replaceApiKeySecretHash(key.clientId, current, await hashSecret(key.clientSecret))).toBe(true);
      expect((await tokenRequest(svc, '10.0.0.1', clientGrant(key.clientId, 'wrong'))).status).toBe(401);
      expect((await svc.store.getApiKey(key.clientId))!.secretHash).toMatch(/^scrypt\$/);
      expect((await tokenRequest(svc, '10.0.0.1', clientGrant(key.clientId, key.clientSecret))).status).toBe(200);
      expect((await svc.store.getApiKey(key.clientId))!.secretHash).toBe(current);
      expect((await tokenRequest(svc, '10.0.0.1', clientGrant(key.clientId, key.clientSecret))).status).toBe(200);
    } finally {
      await svc.close();
    }
  });
});
