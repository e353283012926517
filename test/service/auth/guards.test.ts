import { generateSigningKey, signJwt } from '../../../src/service/auth/jwt';
import { realmPinnedByHost } from '../../../src/service/auth/guards';
import { memberPath, orgPath, orgsPath, tokenPath } from '../../../src/api';
import { createTestRealm, getToken, startTestService, type TestService } from '../../helpers/service';
import { call, postForm, startServiceWithToken } from '../support';

describe('bearer tokens and permissions', () => {
  let svc: TestService;
  let token: string;
  let serviceAccount: string;
  const challenge = 'Bearer realm="acme", error="invalid_token"';

  beforeAll(async () => {
    ({ svc, token } = await startServiceWithToken());
    serviceAccount = (await svc.admin.listApiKeys('acme'))[0].serviceAccountUserId;
  });
  afterAll(async () => {
    await svc.close();
  });

  /** A token signed with the realm's own key, with chosen claims. */
  async function forge(claims: Record<string, unknown>): Promise<string> {
    const realm = (await svc.store.getRealm('acme'))!;
    const now = Math.floor(Date.now() / 1000);
    return signJwt(realm, {
      iss: `${svc.baseUrl}/realms/acme`,
      sub: serviceAccount,
      azp: 'forged',
      typ: 'Bearer',
      exp: now + 60,
      permissions: ['view-organizations'],
      ...claims,
    } as never);
  }

  async function expectInvalidToken(bearer: string | undefined, header?: string): Promise<void> {
    const res = await call(svc, {
      method: 'GET',
      url: orgsPath('acme'),
      token: bearer,
      headers: header ? { authorization: header } : undefined,
    });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(challenge);
    expect(res.json).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
  }

  it('answers 401 with WWW-Authenticate without a token', async () => {
    await expectInvalidToken(undefined);
  });

  it('answers 401 for a malformed Authorization header', async () => {
    await expectInvalidToken(undefined, 'Token abc');
    await expectInvalidToken('not-a-jwt');
  });

  it('answers 401 for an expired token', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectInvalidToken(await forge({ iat: now - 120, exp: now - 60 }));
  });

  it('answers 401 for a badly signed token', async () => {
    const realm = (await svc.store.getRealm('acme'))!;
    const stranger = generateSigningKey();
    const now = Math.floor(Date.now() / 1000);
    const forged = signJwt({ ...stranger, keyId: realm.keyId }, {
      iss: `${svc.baseUrl}/realms/acme`,
      sub: serviceAccount,
      azp: 'x',
      typ: 'Bearer',
      exp: now + 60,
      permissions: ['view-organizations'],
    });
    await expectInvalidToken(forged);
  });

  it('answers 401 for alg none', async () => {
    const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ iss: `${svc.baseUrl}/realms/acme`, sub: serviceAccount, azp: 'x', typ: 'Bearer', exp: now + 60, permissions: ['view-organizations'] })}.`;
    await expectInvalidToken(unsigned);
  });

  it('answers 401 for a token of another realm', async () => {
    const other = await createTestRealm(svc, 'other');
    const otherToken = await getToken(svc, 'other', other.clientId, other.clientSecret);
    await expectInvalidToken(otherToken);
  });

  it('answers 401 for a token of this realm key that names another realm as issuer', async () => {
    await expectInvalidToken(await forge({ iss: `${svc.baseUrl}/realms/other` }));
  });


  it('answers 403 access_denied once the realm is disabled', async () => {
    const key = await createTestRealm(svc, 'paused');
    const early = await getToken(svc, 'paused', key.clientId, key.clientSecret);
    await svc.admin.setRealmEnabled('paused', false);
    const res = await call(svc, { method: 'GET', url: orgsPath('paused'), token: early });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('access_denied');
  });

  describe('permissions', () => {
    let viewToken: string;
    let manageToken: string;
    let orgId: string;
    beforeAll(async () => {
      const view = await createTestRealm(svc, 'acme', { permissions: ['view-organizations'] });
      viewToken = await getToken(svc, 'acme', view.clientId, view.clientSecret);
      const manage = await createTestRealm(svc, 'acme', { permissions: ['manage-organizations'] });
      manageToken = await getToken(svc, 'acme', manage.clientId, manage.clientSecret);
      const created = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: { name: 'perm-org' } });
      orgId = String(created.headers.location).split('/').pop()!;
    });

    it.each([
      ['create', 'POST', () => orgsPath('acme'), { name: 'nope' }],
      ['update', 'PUT', () => orgPath('acme', orgId), { name: 'nope' }],
      ['delete', 'DELETE', () => orgPath('acme', orgId), undefined],
      ['add a member', 'PUT', () => memberPath('acme', orgId, serviceAccount), undefined],
      ['remove a member', 'DELETE', () => memberPath('acme', orgId, serviceAccount), undefined],
    ])('a view-only key cannot %s: 403 insufficient_scope', async (_what, method, path, payload) => {
      const res = await call(svc, { method, url: path(), token: viewToken, payload });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ error: 'insufficient_scope', error_description: expect.any(String) });
      expect((await call(svc, { method: 'GET', url: orgPath('acme', orgId), token })).json.name).toBe('perm-org');
    });

    it('a view-only key can list and read', async () => {
      expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token: viewToken })).status).toBe(200);
      expect((await call(svc, { method: 'GET', url: orgPath('acme', orgId), token: viewToken })).status).toBe(200);
    });

    it('manage-organizations implies view-organizations but not create-organization', async () => {
      expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token: manageToken })).status).toBe(200);
      const create = await call(svc, { method: 'POST', url: orgsPath('acme'), token: manageToken, payload: { name: 'x' } });
      expect(create.status).toBe(403);
      const update = await call(svc, { method: 'PUT', url: orgPath('acme', orgId), token: manageToken, payload: { name: 'perm-org' } });
      expect(update.status).toBe(204);
    });

    it('a user token without permissions cannot list organizations but may call get member info', async () => {
      await svc.admin.createUser('acme', { username: 'dora', password: 'pw' });
      const login = await postForm(svc, tokenPath('acme'), { grant_type: 'password', client_id: 'admin-cli', username: 'dora', password: 'pw' });
      const userToken = login.json.access_token;
      expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token: userToken })).status).toBe(403);
      expect((await call(svc, { method: 'GET', url: `${orgsPath('acme')}/me`, token: userToken })).status).toBe(200);
    });
  });
});

describe('realm pinning by Host', () => {
  let svc: TestService;
  let token: string;
  beforeAll(async () => {
    svc = await startTestService({ domain: 'example.test' });
    const key = await createTestRealm(svc, 'acme');
    await createTestRealm(svc, 'other');
    token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('serves the realm named by the host', async () => {
    const res = await call(svc, { method: 'GET', url: orgsPath('acme'), token, headers: { host: 'acme.example.test' } });
    expect(res.status).toBe(200);
  });

  it('answers 404 realm_mismatch when the path names another realm', async () => {
    const res = await call(svc, { method: 'GET', url: orgsPath('other'), token, headers: { host: 'acme.example.test' } });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('realm_mismatch');
  });

  it('routes the bare domain and IP addresses by path alone', async () => {
    expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token, headers: { host: 'example.test' } })).status).toBe(200);
    expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token })).status).toBe(200);
  });

  it('reads the pinned realm from a Host header', () => {
    expect(realmPinnedByHost('acme.localhost:8080', 'localhost')).toBe('acme');
    expect(realmPinnedByHost('ACME.Example.com', 'example.com')).toBe('acme');
    expect(realmPinnedByHost('localhost:8080', 'localhost')).toBeUndefined();
    expect(realmPinnedByHost('127.0.0.1:8080', 'localhost')).toBeUndefined();
    expect(realmPinnedByHost('[::1]:8080', 'localhost')).toBeUndefined();
    expect(realmPinnedByHost('a.b.localhost', 'localhost')).toBeUndefined();
    expect(realmPinnedByHost('acme.elsewhere.org', 'localhost')).toBeUndefined();
  });
});
