import { generateSigningKey, signJwt, TokenError } from '../../../src/service/auth/jwt';
import { VerifiedTokenCache } from '../../../src/service/auth/verified-tokens';
import { orgsPath } from '../../../src/api';
import { createTestRealm, getToken, startTestService, type TestService } from '../../helpers/service';
import { call } from '../support';
import { DEFAULT_REALM_RECHECK_MS, SqliteStore } from '../../../src/service/store/sqlite-store';

describe('VerifiedTokenCache (remembered signature checks)', () => {
  const keyA = generateSigningKey();
  const keyB = generateSigningKey();
  const now = Math.floor(Date.now() / 1000);
  const claimsOf = (realm: string, extra: Record<string, unknown> = {}) => ({
    iss: `http://x/realms/${realm}`,
    sub: 'u1',
    azp: 'c1',
    typ: 'Bearer',
    exp: now + 60,
    ...extra,
  });

  it('remembers a valid token and returns the same claims on the next use', () => {
    const cache = new VerifiedTokenCache();
    const token = signJwt(keyA, claimsOf('a'));
    const first = cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', nowSeconds: now });
    expect(cache.size).toBe(1);
    const second = cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', nowSeconds: now + 1 });
    expect(second).toEqual(first);
    expect(second.sub).toBe('u1');
  });

  it('refuses a remembered token once it has expired, and forgets it', () => {
    const cache = new VerifiedTokenCache();
    const token = signJwt(keyA, claimsOf('a'));
    cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', nowSeconds: now });
    expect(() => cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', nowSeconds: now + 60 })).toThrow(
      new TokenError('expired'),
    );
    expect(cache.size).toBe(0);
    // Still refused on the uncached path.
    expect(() => cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', nowSeconds: now + 61 })).toThrow('expired');
  });

  it('refuses a token of realm A on realm B while the cache holds it', () => {
    const cache = new VerifiedTokenCache();
    const token = signJwt(keyA, claimsOf('a'));
    cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', nowSeconds: now });
    expect(() => cache.verify(token, keyB, { realm: 'b', typ: 'Bearer', nowSeconds: now })).toThrow(TokenError);
    // Even a realm B that somehow had realm A's key would refuse it: the issuer's realm is checked per use.
    expect(() => cache.verify(token, keyA, { realm: 'b', typ: 'Bearer', nowSeconds: now })).toThrow(
      'issued by another realm',
    );
  });

  it('checks a remembered token again when the realm key is a different one', () => {
    const cache = new VerifiedTokenCache();
    const token = signJwt(keyA, claimsOf('a'));
    cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', nowSeconds: now });
    // Same realm name, same kid claimed, another key (a realm created again): the signature fails.
    expect(() =>
      cache.verify(token, { publicKeyPem: keyB.publicKeyPem, keyId: keyA.keyId }, { realm: 'a', typ: 'Bearer', nowSeconds: now }),
    ).toThrow('bad signature');
  });

  it('judges the token type on every use', () => {
    const cache = new VerifiedTokenCache();
    const token = signJwt(keyA, claimsOf('a'));
    cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', nowSeconds: now });
    expect(() => cache.verify(token, keyA, { realm: 'a', typ: 'portal', nowSeconds: now })).toThrow(/token type Bearer/);
  });

  it('verifies from scratch a token that ends like a remembered one', () => {
    const cache = new VerifiedTokenCache();
    const token = signJwt(keyA, claimsOf('a'));
    cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', nowSeconds: now });
    // The remembered token's signature under other claims: same end, so the same lookup slot.
    const [, , signature] = token.split('.');
    const [header, body] = signJwt(keyA, claimsOf('a', { sub: 'intruder' })).split('.');
    expect(() => cache.verify(`${header}.${body}.${signature}`, keyA, { realm: 'a', typ: 'Bearer', nowSeconds: now })).toThrow('bad signature');
    expect(cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', nowSeconds: now }).sub).toBe('u1');
  });

  it('judges a remembered token anew for another expectation within the same second', () => {
    const cache = new VerifiedTokenCache();
    const token = signJwt(keyA, claimsOf('a', { aud: 'urn:a' }));
    expect(cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', audience: 'urn:a', nowSeconds: now }).sub).toBe('u1');
    expect(cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', audience: 'urn:a', nowSeconds: now }).sub).toBe('u1');
    expect(() => cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', audience: 'urn:b', nowSeconds: now })).toThrow('not meant for this audience');
    expect(() => cache.verify(token, keyA, { realm: 'b', typ: 'Bearer', audience: 'urn:a', nowSeconds: now })).toThrow('issued by another realm');
    // Accepted again as before, and refused at its expiry second even right after an acceptance.
    expect(cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', audience: 'urn:a', nowSeconds: now + 59 }).sub).toBe('u1');
    expect(() => cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', audience: 'urn:a', nowSeconds: now + 60 })).toThrow('expired');
  });

  it('says whether a token is remembered for a key, without checking any signature', () => {
    const cache = new VerifiedTokenCache();
    const token = signJwt(keyA, claimsOf('a'));
    expect(cache.remembers(token, keyA)).toBe(false);
    cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', nowSeconds: now });
    expect(cache.remembers(token, keyA)).toBe(true);
    expect(cache.remembers(token, keyB)).toBe(false);
    const [, , signature] = token.split('.');
    const [header, body] = signJwt(keyA, claimsOf('a', { sub: 'intruder' })).split('.');
    expect(cache.remembers(`${header}.${body}.${signature}`, keyA)).toBe(false);
  });

  it('never remembers a token that failed', () => {
    const cache = new VerifiedTokenCache();
    const forged = signJwt({ ...keyB, keyId: keyA.keyId }, claimsOf('a'));
    expect(() => cache.verify(forged, keyA, { realm: 'a', typ: 'Bearer', nowSeconds: now })).toThrow('bad signature');
    const expired = signJwt(keyA, claimsOf('a', { exp: now - 1 }));
    expect(() => cache.verify(expired, keyA, { realm: 'a', typ: 'Bearer', nowSeconds: now })).toThrow('expired');
    expect(cache.size).toBe(0);
  });

  it('keeps at most its bound, dropping the oldest token first', () => {
    const cache = new VerifiedTokenCache(2);
    const tokens = [1, 2, 3].map((n) => signJwt(keyA, claimsOf('a', { sub: `u${n}` })));
    for (const token of tokens) cache.verify(token, keyA, { realm: 'a', typ: 'Bearer', nowSeconds: now });
    expect(cache.size).toBe(2);
    // Every token still verifies (the dropped one from scratch).
    expect(tokens.map((t) => cache.verify(t, keyA, { realm: 'a', typ: 'Bearer', nowSeconds: now }).sub)).toEqual([
      'u1',
      'u2',
      'u3',
    ]);
    expect(cache.size).toBe(2);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new VerifiedTokenCache(0)).toThrow(/positive integer/);
  });
});

describe('bearer hook with a warm token cache', () => {
  let svc: TestService;
  /** The service's clock (ms): tests step it instead of sleeping. */
  let clock = Date.now();

  beforeAll(async () => {
    svc = await startTestService({ now: () => clock });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('refuses a token of realm A on realm B after it was used on A', async () => {
    const a = await createTestRealm(svc, 'warm-a');
    await createTestRealm(svc, 'warm-b');
    const token = await getToken(svc, 'warm-a', a.clientId, a.clientSecret);
    expect((await call(svc, { method: 'GET', url: orgsPath('warm-a'), token })).status).toBe(200);
    const res = await call(svc, { method: 'GET', url: orgsPath('warm-b'), token });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('invalid_token');
    expect(res.headers['www-authenticate']).toBe('Bearer realm="warm-b", error="invalid_token"');
  });

  it('answers 403 for a used (remembered) token once its realm is disabled', async () => {
    const key = await createTestRealm(svc, 'warm-paused');
    const token = await getToken(svc, 'warm-paused', key.clientId, key.clientSecret);
    expect((await call(svc, { method: 'GET', url: orgsPath('warm-paused'), token })).status).toBe(200);
    await svc.admin.setRealmEnabled('warm-paused', false);
    const res = await call(svc, { method: 'GET', url: orgsPath('warm-paused'), token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('access_denied');
  });

  it('answers 403 within the realm recheck interval when another process disables the realm of a remembered token', async () => {
    const key = await createTestRealm(svc, 'warm-cli');
    const token = await getToken(svc, 'warm-cli', key.clientId, key.clientSecret);
    expect((await call(svc, { method: 'GET', url: orgsPath('warm-cli'), token })).status).toBe(200);
    // A second connection on the same file stands for the CLI changing the realm while `serve` runs.
    const other = SqliteStore.open(svc.dataFile);
    try {
      await other.updateRealm('warm-cli', { enabled: false });
    } finally {
      await other.close();
    }
    clock += DEFAULT_REALM_RECHECK_MS + 1;
    const res = await call(svc, { method: 'GET', url: orgsPath('warm-cli'), token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('access_denied');
  });

  it('refuses a remembered token after it expires', async () => {
    const key = await createTestRealm(svc, 'warm-short', { tokenLifetimeSeconds: 1 });
    const token = await getToken(svc, 'warm-short', key.clientId, key.clientSecret);
    expect((await call(svc, { method: 'GET', url: orgsPath('warm-short'), token })).status).toBe(200);
    // exp is in whole seconds: step the clock to the second it names.
    const { exp } = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as { exp: number };
    clock = exp * 1000;
    const res = await call(svc, { method: 'GET', url: orgsPath('warm-short'), token });
    expect(res.status).toBe(401);
    expect(res.json.error_description).toBe('The access token has expired.');
  });
});
