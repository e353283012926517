/**
 * A realm's own rate limit, end to end over HTTP (the real service on port 0, a real SQLite file):
 * it answers 429 with Retry-After for that realm's callers while other realms keep the service
 * default; "off" lifts the default for one realm; and a change made by another process on the same
 * database applies within the store's realm recheck bound. Clocks are injected: no sleeping.
 */
import { orgsMePath, orgsPath, tokenPath } from '../../src/api';
import { DEFAULT_REALM_RECHECK_MS } from '../../src/service/store/sqlite-store';
import { createTestRealm, getToken, startTestService, type TestService } from '../helpers/service';
import { codeFlowTokens } from './login/browser-like';
import { call, postForm } from './support';

describe('a realm with its own rate limit, on a service without a default', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc.close();
  });

  it('answers 429 rate_limited with Retry-After in that realm; another realm is unaffected', async () => {
    const limited = await createTestRealm(svc, 'limited');
    const free = await createTestRealm(svc, 'free');
    expect(await svc.admin.updateRealm('limited', { rateLimit: { requests: 2, windowSeconds: 45 } })).toMatchObject({
      rateLimit: { requests: 2, windowSeconds: 45 },
    });

    const token = await getToken(svc, 'limited', limited.clientId, limited.clientSecret); // 1
    expect((await call(svc, { method: 'GET', url: orgsPath('limited'), token })).status).toBe(200); // 2
    const refused = await call(svc, { method: 'GET', url: orgsPath('limited'), token });
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({ error: 'rate_limited', error_description: expect.stringMatching(/^Too many requests; retry after \d+ seconds\.$/) });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(45);
    const tokenRefused = await postForm(svc, tokenPath('limited'), {
      grant_type: 'client_credentials',
      client_id: limited.clientId,
      client_secret: limited.clientSecret,
    });
    expect(tokenRefused.status).toBe(429);
    expect(tokenRefused.headers['retry-after']).toBeDefined();

    // The other realm follows the service default, which is none.
    const freeToken = await getToken(svc, 'free', free.clientId, free.clientSecret);
    for (let i = 0; i < 10; i += 1) {
      expect((await call(svc, { method: 'GET', url: orgsPath('free'), token: freeToken })).status).toBe(200);
    }
  });
});

describe('realm settings over a service default', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ rateLimit: { requests: 2, windowSeconds: 30 } });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('lifts the default for a realm set to off, and applies it again once the realm returns to the default', async () => {
    const key = await createTestRealm(svc, 'unlimited');
    await svc.admin.updateRealm('unlimited', { rateLimit: 'off' });
    const token = await getToken(svc, 'unlimited', key.clientId, key.clientSecret);
    for (let i = 0; i < 6; i += 1) {
      expect((await call(svc, { method: 'GET', url: orgsPath('unlimited'), token })).status).toBe(200);
    }
    await svc.admin.updateRealm('unlimited', { rateLimit: null });
    expect((await call(svc, { method: 'GET', url: orgsPath('unlimited'), token })).status).toBe(200);
    expect((await call(svc, { method: 'GET', url: orgsPath('unlimited'), token })).status).toBe(200);
    const refused = await call(svc, { method: 'GET', url: orgsPath('unlimited'), token });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBe(30);
  });

  it('lets a realm allow more than the default', async () => {
    const key = await createTestRealm(svc, 'generous');
    await svc.admin.updateRealm('generous', { rateLimit: { requests: 5, windowSeconds: 30 } });
    const token = await getToken(svc, 'generous', key.clientId, key.clientSecret); // 1
    for (let i = 2; i <= 5; i += 1) {
      expect((await call(svc, { method: 'GET', url: orgsPath('generous'), token })).status).toBe(200);
    }
    expect((await call(svc, { method: 'GET', url: orgsPath('generous'), token })).status).toBe(429);
  });
});

describe('a rate limit changed by another process on the same database', () => {
  let clock = Date.parse('2026-11-26T12:00:00Z');
  let serving: TestService;
  let other: TestService;
  beforeAll(async () => {
    // `serving` plays the service; `other` another process on the same SQLite file (the CLI, or a
    // second instance whose dashboard changed the setting).
    serving = await startTestService({ now: () => clock });
    other = await startTestService({ dataFile: serving.dataFile, now: () => clock });
  });
  afterAll(async () => {
    await other.close();
    await serving.close();
  });

  it('applies within the realm recheck bound', async () => {
    const key = await createTestRealm(serving, 'acme');
    const token = await getToken(serving, 'acme', key.clientId, key.clientSecret);
    expect((await call(serving, { method: 'GET', url: orgsPath('acme'), token })).status).toBe(200); // realm now cached

    await other.admin.updateRealm('acme', { rateLimit: { requests: 1, windowSeconds: 60 } });
    clock += DEFAULT_REALM_RECHECK_MS;
    expect((await call(serving, { method: 'GET', url: orgsPath('acme'), token })).status).toBe(200);
    const refused = await call(serving, { method: 'GET', url: orgsPath('acme'), token });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');

    await other.admin.updateRealm('acme', { rateLimit: 'off' });
    clock += DEFAULT_REALM_RECHECK_MS;
    expect((await call(serving, { method: 'GET', url: orgsPath('acme'), token })).status).toBe(200);
  });
});

describe('buckets per caller (issue 27, finding 6)', () => {
  let svc: TestService;
  const SPA_REDIRECT = 'http://127.0.0.1:9/callback';
  beforeAll(async () => {
    svc = await startTestService();
    await svc.admin.createRealm('buckets');
    await svc.admin.updateRealm('buckets', { rateLimit: { requests: 3, windowSeconds: 60 } });
    for (const round of ['dashboard', 'spa']) {
      await svc.admin.createUser('buckets', { username: `plain-${round}`, password: 'plain-password' });
      await svc.admin.createUser('buckets', { username: `boss-${round}`, password: 'boss-password', realmAdmin: true });
    }
    await svc.admin.createClient('buckets', { clientId: 'spa', redirectUris: [SPA_REDIRECT] });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('gives every user of a public client a budget of their own: one user spending theirs leaves the others theirs', async () => {
    // The dashboard's own client, then a registered one, each with users of its own.
    for (const [round, client] of [['dashboard', undefined], ['spa', { clientId: 'spa', redirectUri: SPA_REDIRECT }]] as const) {
      // The code exchange counts as the first request of each user's budget.
      const plain = await codeFlowTokens(svc.baseUrl, 'buckets', { username: `plain-${round}`, password: 'plain-password' }, client);
      const boss = await codeFlowTokens(svc.baseUrl, 'buckets', { username: `boss-${round}`, password: 'boss-password' }, client);
      const me = (token: string) => call(svc, { method: 'GET', url: orgsMePath('buckets'), token });
      expect((await me(plain.accessToken)).status).toBe(200);
      expect((await me(plain.accessToken)).status).toBe(200);
      expect((await me(plain.accessToken)).status).toBe(429);
      // Before: one bucket per client, which the plain user had just spent.
      expect((await me(boss.accessToken)).status).toBe(200);
      expect((await call(svc, { method: 'GET', url: orgsPath('buckets'), token: boss.accessToken })).status).toBe(200);
      expect((await me(boss.accessToken)).status).toBe(429);
    }
  });
});
