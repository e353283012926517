import type { FastifyInstance } from 'fastify';
import { orgsPath, tokenPath } from '../../src/api';
import { buildApp } from '../../src/service/app';
import { REQUEST_LINE_MESSAGE } from '../../src/service/operations/request-observer';
import { SqliteStore } from '../../src/service/store/sqlite-store';
import type { Store } from '../../src/service/store/store';
import { createTestRealm, getToken, startTestService, type TestService } from '../helpers/service';
import { call, postForm, startServiceWithToken } from './support';

describe('errors and limits', () => {
  let svc: TestService;
  let token: string;
  beforeAll(async () => {
    ({ svc, token } = await startServiceWithToken());
  });
  afterAll(async () => {
    await svc.close();
  });

  it('answers 404 not_found JSON for an unknown route', async () => {
    const res = await call(svc, { method: 'GET', url: '/nothing/here' });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'not_found', error_description: expect.stringContaining('/nothing/here') });
  });

  it('answers 404 realm_not_found for an unknown realm before checking the token', async () => {
    const res = await call(svc, { method: 'GET', url: orgsPath('nowhere') });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'realm_not_found', error_description: 'Realm does not exist' });
  });

  it('answers 413 payload_too_large for a body over 64 KiB', async () => {
    const res = await call(svc, {
      method: 'POST',
      url: orgsPath('acme'),
      token,
      payload: { name: 'big', attributes: { blob: ['x'.repeat(70 * 1024)] } },
    });
    expect(res.status).toBe(413);
    expect(res.json.error).toBe('payload_too_large');
  });

  it('accepts a body just under 64 KiB', async () => {
    const res = await call(svc, {
      method: 'POST',
      url: orgsPath('acme'),
      token,
      payload: { name: 'almost-big', attributes: { blob: ['x'.repeat(60 * 1024)] } },
    });
    expect(res.status).toBe(201);
  });

  it('answers 400 unsupported_media_type for a text/plain body', async () => {
    const res = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: 'name', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('unsupported_media_type');
  });

  it('treats an empty JSON body on a membership PUT as no body', async () => {
    const created = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: { name: 'empty-body' } });
    const orgId = String(created.headers.location).split('/').pop()!;
    const user = await svc.admin.createUser('acme', { username: 'ed' });
    const res = await call(svc, {
      method: 'PUT',
      url: `${orgsPath('acme')}/${orgId}/members/${user.id}`,
      token,
      payload: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(201);
  });

  it.each([
    ['{"name":"proto","attributes":{"__proto__":["x"],"ok":["y"]}}', '__proto__', 'attributes.__proto__'],
    ['{"name":"ctor","attributes":{"constructor":["x"]}}', 'constructor', 'attributes.constructor'],
    ['{"__proto__":{"polluted":true},"name":"top"}', '__proto__', '__proto__'],
    ['{"name":"proto2","attributes":{"prototype":["x"]}}', 'prototype', 'attributes.prototype'],
  ])('refuses a JSON body with a prototype key (%s) with 400 invalid_body naming it, and creates nothing', async (payload, key, at) => {
    const before = await svc.store.countOrganizations('acme', {});
    const res = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: 'invalid_body',
      error_description: `The request body must not contain the key "${key}" (at ${at}).`,
    });
    expect(await svc.store.countOrganizations('acme', {})).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  describe('text that is not valid Unicode', () => {
    it.each([
      ['a name', '{"name":"lone\\ud800"}', 'name'],
      ['an attribute value', '{"name":"surrogates","attributes":{"k":["\\udc00x"]}}', 'attributes.k[0]'],
      ['an attribute key', '{"name":"surrogate-key","attributes":{"a\\ud83d":["x"]}}', 'at attributes'],
    ])('refuses %s holding an unpaired surrogate with 400 invalid_body, and creates nothing', async (_what, payload, where) => {
      const before = await svc.store.countOrganizations('acme', {});
      const res = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ error: 'invalid_body' });
      expect((res.json as { error_description: string }).error_description).toContain('not valid Unicode');
      expect((res.json as { error_description: string }).error_description).toContain(where);
      expect(await svc.store.countOrganizations('acme', {})).toBe(before);
    });

    it('accepts a name with a paired surrogate (an emoji) and answers it unchanged', async () => {
      const res = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: '{"name":"emoji \\ud83d\\ude00"}', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(201);
      const id = String(res.headers.location).split('/').pop()!;
      expect((await svc.store.getOrganization('acme', id))!.name).toBe('emoji 😀');
    });
  });
});

describe('internal errors', () => {
  it('answers 500 internal_error with a generic sentence and no internals', async () => {
    const real = SqliteStore.open(':memory:');
    const broken: Store = Object.create(real);
    broken.getRealmSettings = async () => {
      throw new Error('SQLITE_CORRUPT: secret path /var/lib/db');
    };
    let app: FastifyInstance | undefined;
    try {
      app = await buildApp({ store: broken });
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const res = await fetch(`http://127.0.0.1:${port}${orgsPath('acme')}`);
      const text = await res.text();
      expect(res.status).toBe(500);
      expect(JSON.parse(text)).toEqual({
        error: 'internal_error',
        error_description: 'The service failed to handle the request; try again later.',
      });
      expect(text).not.toMatch(/SQLITE|secret path|at /);
    } finally {
      await app?.close();
      await real.close();
    }
  });
});

describe('rate limit', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ rateLimit: { requests: 3, windowSeconds: 30 } });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('answers 429 rate_limited with Retry-After once a client exceeds its budget, per client', async () => {
    const a = await createTestRealm(svc, 'acme');
    const b = await createTestRealm(svc, 'acme');
    const tokenA = await getToken(svc, 'acme', a.clientId, a.clientSecret); // 1
    expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token: tokenA })).status).toBe(200); // 2
    expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token: tokenA })).status).toBe(200); // 3
    const limited = await call(svc, { method: 'GET', url: orgsPath('acme'), token: tokenA });
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ error: 'rate_limited', error_description: expect.any(String) });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);
    // The token endpoint counts against the same client.
    const tokenAgain = await postForm(svc, tokenPath('acme'), { grant_type: 'client_credentials', client_id: a.clientId, client_secret: a.clientSecret });
    expect(tokenAgain.status).toBe(429);
    // Another client has its own budget.
    const tokenB = await getToken(svc, 'acme', b.clientId, b.clientSecret);
    expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token: tokenB })).status).toBe(200);
    expect(svc.requests.filter((r) => r.status === 429).every((r) => r.clientId === a.clientId)).toBe(true);
  });
});

describe('rate limit for end users of the public client', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ rateLimit: { requests: 3, windowSeconds: 30 } });
    await svc.admin.createRealm('acme');
    await svc.admin.createRealm('other');
  });
  afterAll(async () => {
    await svc.close();
  });

  const passwordGrant = (realm: string, username: string, password: string) =>
    postForm(svc, tokenPath(realm), { grant_type: 'password', client_id: 'admin-cli', username, password });

  it('gives each end user (realm + user id) its own budget, token and bearer requests together', async () => {
    await svc.admin.createUser('acme', { username: 'alice', password: 'alice-pw' });
    await svc.admin.createUser('acme', { username: 'bob', password: 'bob-pw' });
    await svc.admin.createUser('other', { username: 'alice', password: 'alice-pw' });

    const aliceToken = (await passwordGrant('acme', 'alice', 'alice-pw')).json.access_token as string; // 1
    expect((await call(svc, { method: 'GET', url: '/realms/acme/orgs/me', token: aliceToken })).status).toBe(200); // 2
    expect((await call(svc, { method: 'GET', url: '/realms/acme/orgs/me', token: aliceToken })).status).toBe(200); // 3
    const limited = await call(svc, { method: 'GET', url: '/realms/acme/orgs/me', token: aliceToken });
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ error: 'rate_limited', error_description: expect.stringMatching(/^Too many requests; retry after \d+ seconds\.$/) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Her token requests share her budget once the password is right…
    const again = await passwordGrant('acme', 'alice', 'alice-pw');
    expect(again.status).toBe(429);
    expect(again.headers['retry-after']).toBeDefined();
    // …while failed ones are the credential throttle's business, not her budget's.
    expect((await passwordGrant('acme', 'alice', 'wrong')).status).toBe(400);

    // Another user of the same realm, and the same username in another realm, are not throttled.
    const bob = await passwordGrant('acme', 'bob', 'bob-pw');
    expect(bob.status).toBe(200);
    expect((await call(svc, { method: 'GET', url: '/realms/acme/orgs/me', token: bob.json.access_token })).status).toBe(200);
    const otherAlice = await passwordGrant('other', 'alice', 'alice-pw');
    expect(otherAlice.status).toBe(200);
    expect((await call(svc, { method: 'GET', url: '/realms/other/orgs/me', token: otherAlice.json.access_token })).status).toBe(200);
  });

  it('does not let failed attempts spend the budget of a user, so a guesser cannot lock the real user out', async () => {
    await svc.admin.createUser('acme', { username: 'carol', password: 'carol-pw' });
    // As many wrong passwords as the whole budget (3), and for unknown usernames too.
    for (let i = 0; i < 3; i += 1) expect((await passwordGrant('acme', 'carol', 'guess')).status).toBe(400);
    for (let i = 0; i < 3; i += 1) expect((await passwordGrant('acme', 'nobody', 'x')).status).toBe(400);
    expect((await passwordGrant('acme', 'carol', 'carol-pw')).status).toBe(200);
  });
});

describe('logging', () => {
  it('never writes secrets, tokens or portal tokens to the log', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => lines.push(line) };
    const store = SqliteStore.open(':memory:');
    const { Admin } = await import('../../src/service/admin');
    const admin = new Admin(store);
    await admin.createRealm('acme');
    const key = await admin.createApiKey('acme', { name: 'k', permissions: ['view-organizations', 'create-organization', 'manage-organizations'] });
    const app = await buildApp({ store, logger: { level: 'info', stream } });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret });
      const tokenRes = await fetch(`${base}${tokenPath('acme')}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      const accessToken = ((await tokenRes.json()) as { access_token: string }).access_token;
      const created = await fetch(`${base}${orgsPath('acme')}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'logged' }),
      });
      const orgUrl = created.headers.get('location')!;
      const linkRes = await fetch(`${orgUrl}/portal-link`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } });
      const link = ((await linkRes.json()) as { link: string }).link;
      expect((await fetch(link)).status).toBe(200);
      const portalToken = new URL(link).searchParams.get('token')!;
      const log = lines.join('');
      // One line per request (operations/request-observer.ts), the portal's ?token= redacted in it.
      expect(log).toContain(`"msg":"${REQUEST_LINE_MESSAGE}"`);
      expect(log).toContain('token=[redacted]');
      for (const secret of [key.clientSecret, accessToken, portalToken]) expect(log).not.toContain(secret);
    } finally {
      await app.close();
      await store.close();
    }
  });
});

describe('publicBaseUrl', () => {
  it('uses the configured public address for iss, Location and discovery', async () => {
    const store = SqliteStore.open(':memory:');
    const { Admin } = await import('../../src/service/admin');
    const admin = new Admin(store);
    await admin.createRealm('acme');
    const key = await admin.createApiKey('acme', { name: 'k', permissions: ['create-organization'] });
    const app = await buildApp({ store, publicBaseUrl: 'https://orgs.example.com/' });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const tokenRes = await fetch(`${base}${tokenPath('acme')}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }).toString(),
      });
      const accessToken = ((await tokenRes.json()) as { access_token: string }).access_token;
      expect(JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString()).iss).toBe('https://orgs.example.com/realms/acme');
      const created = await fetch(`${base}${orgsPath('acme')}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'public' }),
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toMatch(/^https:\/\/orgs\.example\.com\/realms\/acme\/orgs\/[0-9a-f-]{36}$/);
    } finally {
      await app.close();
      await store.close();
    }
  });
});
