/**
 * userinfo, token introspection (RFC 7662) and revocation (RFC 7009): what they answer, who may
 * call them, and that a revoked token is refused everywhere, also by a second service process on
 * the same SQLite file within the documented recheck time (clocks injected, no sleeping).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { introspectionPath, orgsMePath, orgsPath, revocationPath, tokenPath, userinfoPath } from '../../../src/api';
import { REVOCATION_RECHECK_MS } from '../../../src/service/auth/revocations';
import { realmAudience } from '../../../src/service/auth/jwt';
import { createTestRealm, getToken, startTestService, type TestService } from '../../helpers/service';
import { call, postForm } from '../support';

const basic = (id: string, secret: string): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

let svc: TestService;
let clock = Date.UTC(2026, 0, 1);
let key: { clientId: string; clientSecret: string };

beforeAll(async () => {
  svc = await startTestService({ now: () => clock });
  key = await createTestRealm(svc, 'acme');
  await svc.admin.createUser('acme', { username: 'alice', email: 'alice@example.com', firstName: 'Alice', lastName: 'Liddell', password: 'alice-pw' });
  await svc.admin.createUser('acme', { username: 'bob', password: 'bob-pw' });
});
afterAll(async () => {
  await svc.close();
});

const userToken = async (username: string, password: string): Promise<string> =>
  (await postForm(svc, tokenPath('acme'), { grant_type: 'password', client_id: 'admin-cli', username, password })).json.access_token;

describe('userinfo', () => {
  it('answers the standard claims of a user token, leaving out what the user lacks', async () => {
    const alice = await userToken('alice', 'alice-pw');
    const aliceId = (await svc.admin.findUserByUsername('acme', 'alice'))!.id;
    for (const method of ['GET', 'POST']) {
      const res = await call(svc, { method, url: userinfoPath('acme'), token: alice });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        sub: aliceId,
        preferred_username: 'alice',
        email: 'alice@example.com',
        email_verified: false,
        given_name: 'Alice',
        family_name: 'Liddell',
        name: 'Alice Liddell',
      });
    }
    const bob = await call(svc, { method: 'GET', url: userinfoPath('acme'), token: await userToken('bob', 'bob-pw') });
    expect(bob.json).toEqual({ sub: expect.any(String), preferred_username: 'bob' });
  });

  it('answers the service account of an API key token', async () => {
    const res = await call(svc, { method: 'GET', url: userinfoPath('acme'), token: await getToken(svc, 'acme', key.clientId, key.clientSecret) });
    expect(res.status).toBe(200);
    expect(res.json.preferred_username).toBe(`service-account-${key.clientId}`);
  });

  it('answers 401 invalid_token with the challenge without a valid token', async () => {
    for (const token of [undefined, 'not-a-token']) {
      const res = await call(svc, { method: 'GET', url: userinfoPath('acme'), token });
      expect(res.status).toBe(401);
      expect(res.json.error).toBe('invalid_token');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="acme", error="invalid_token"');
    }
  });
});

describe('introspection', () => {
  const introspect = (token: string, auth: { clientId: string; clientSecret: string } = key, viaBasic = false) =>
    viaBasic
      ? postForm(svc, introspectionPath('acme'), { token }, { authorization: basic(auth.clientId, auth.clientSecret) })
      : postForm(svc, introspectionPath('acme'), { token, client_id: auth.clientId, client_secret: auth.clientSecret });

  it('describes an active token (RFC 7662) with either client authentication method', async () => {
    const token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
    for (const viaBasic of [false, true]) {
      const res = await introspect(token, key, viaBasic);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json).toEqual({
        active: true,
        scope: expect.stringContaining('view-organizations'),
        client_id: key.clientId,
        username: `service-account-${key.clientId}`,
        token_type: 'Bearer',
        exp: Math.floor(clock / 1000) + 300,
        iat: Math.floor(clock / 1000),
        nbf: Math.floor(clock / 1000),
        sub: expect.any(String),
        aud: realmAudience('acme'),
        iss: `${svc.baseUrl}/realms/acme`,
        jti: expect.any(String),
      });
    }
  });

  it('answers only {"active":false} for a bad, foreign, expired or revoked token', async () => {
    const other = await createTestRealm(svc, 'other');
    const foreign = await getToken(svc, 'other', other.clientId, other.clientSecret);
    const expiring = await getToken(svc, 'acme', key.clientId, key.clientSecret);
    for (const token of ['garbage', foreign]) expect((await introspect(token)).json).toEqual({ active: false });
    clock += 301_000;
    expect((await introspect(expiring)).json).toEqual({ active: false });
  });

  it('needs the introspect-tokens permission: any other key of the realm gets 403 insufficient_scope and learns nothing', async () => {
    const token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
    const lookup = await createTestRealm(svc, 'acme', { permissions: ['view-users'] });
    const refused = await introspect(token, lookup);
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ error: 'insufficient_scope', error_description: 'The API key lacks the introspect-tokens permission.' });
    const allowed = await createTestRealm(svc, 'acme', { permissions: ['introspect-tokens'] });
    expect((await introspect(token, allowed)).json).toMatchObject({ active: true, client_id: key.clientId });
  });

  it('needs an authenticated API key: 401 for a wrong secret, an unknown client, the public client', async () => {
    const token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
    expect((await introspect(token, { clientId: key.clientId, clientSecret: 'wrong' })).json.error).toBe('invalid_client');
    expect((await introspect(token, { clientId: 'key-nobody', clientSecret: 'x' })).json.error).toBe('invalid_client');
    const publicClient = await postForm(svc, introspectionPath('acme'), { token, client_id: 'admin-cli' });
    expect(publicClient.status).toBe(401);
    expect(publicClient.json.error).toBe('unauthorized_client');
    const missing = await postForm(svc, introspectionPath('acme'), { client_id: key.clientId, client_secret: key.clientSecret });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('invalid_request');
  });
});

describe('revocation', () => {
  const revoke = (token: string, auth: { clientId: string; clientSecret?: string } = key) =>
    postForm(svc, revocationPath('acme'), {
      token,
      client_id: auth.clientId,
      ...(auth.clientSecret !== undefined ? { client_secret: auth.clientSecret } : {}),
    });

  it('ends a token at once: every bearer route, userinfo and introspection refuse it', async () => {
    const token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
    // Used first, so its signature check is remembered: the cache must not hide the revocation.
    expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token })).status).toBe(200);
    const res = await revoke(token);
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    for (const url of [orgsPath('acme'), orgsMePath('acme'), userinfoPath('acme')]) {
      const refused = await call(svc, { method: 'GET', url, token });
      expect(refused.status).toBe(401);
      expect(refused.json).toEqual({ error: 'invalid_token', error_description: 'The access token has been revoked.' });
    }
    expect((await postForm(svc, introspectionPath('acme'), { token, client_id: key.clientId, client_secret: key.clientSecret })).json).toEqual({
      active: false,
    });
    // Revoking again, or revoking garbage, is not an error (RFC 7009 §2.2).
    expect((await revoke(token)).status).toBe(200);
    expect((await revoke('garbage')).status).toBe(200);
    // The key itself still gets new tokens.
    const fresh = await getToken(svc, 'acme', key.clientId, key.clientSecret);
    expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token: fresh })).status).toBe(200);
  });

  it('lets only the client a token was issued to revoke it', async () => {
    const other = await createTestRealm(svc, 'acme');
    const token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
    const res = await revoke(token, other);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('unauthorized_client');
    expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token })).status).toBe(200);
    expect((await revoke(token, { clientId: key.clientId, clientSecret: 'wrong' })).status).toBe(401);
    expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token })).status).toBe(200);
  });

  it('lets an end user revoke their own token through the public client, without a secret', async () => {
    const alice = await userToken('alice', 'alice-pw');
    expect((await revoke(alice, { clientId: 'admin-cli' })).status).toBe(200);
    expect((await call(svc, { method: 'GET', url: orgsMePath('acme'), token: alice })).status).toBe(401);
  });

  it('ends the tokens of a revoked API key: revoked by another process, refused here within the recheck time', async () => {
    const doomed = await createTestRealm(svc, 'acme');
    const token = await getToken(svc, 'acme', doomed.clientId, doomed.clientSecret);
    const survivor = await getToken(svc, 'acme', key.clientId, key.clientSecret);
    const created = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: { name: 'before-revocation' } });
    expect(created.status).toBe(201);
    // svc.admin is an Admin of its own over the store, as the command line is.
    await svc.admin.revokeApiKey(doomed.clientId, 'acme');
    clock += REVOCATION_RECHECK_MS;
    const refused = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: { name: 'after-revocation' } });
    expect(refused.status).toBe(401);
    expect(refused.json.error_description).toBe('The access token has been revoked.');
    expect((await svc.store.listOrganizations('acme', { search: 'after-revocation' })).length).toBe(0);
    // Tokens of the realm's other keys are untouched.
    expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token: survivor })).status).toBe(200);
  });

  it('is seen by a second service on the same database within the recheck time', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orgadmin-revocation-'));
    let shared = Date.UTC(2026, 0, 1);
    const first = await startTestService({ dataFile: join(dir, 'service.db'), now: () => shared });
    const second = await startTestService({ dataFile: join(dir, 'service.db'), now: () => shared });
    try {
      const k = await createTestRealm(first, 'shared');
      const token = await getToken(first, 'shared', k.clientId, k.clientSecret);
      expect((await call(second, { method: 'GET', url: orgsPath('shared'), token })).status).toBe(200);
      expect((await postForm(first, revocationPath('shared'), { token, client_id: k.clientId, client_secret: k.clientSecret })).status).toBe(200);
      expect((await call(first, { method: 'GET', url: orgsPath('shared'), token })).status).toBe(401);
      shared += REVOCATION_RECHECK_MS;
      const res = await call(second, { method: 'GET', url: orgsPath('shared'), token });
      expect(res.status).toBe(401);
      expect(res.json.error_description).toBe('The access token has been revoked.');
    } finally {
      await first.close();
      await second.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
