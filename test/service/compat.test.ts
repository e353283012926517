/**
 * The hosted-service compatibility mode (`compat: 'hosted'`): the same requests against a service
 * in each mode, and the SDK against the hosted behaviour.
 */
import { memberPath, orgPath, orgsCountPath, orgsPath, tokenPath } from '../../src/api';
import { ClientCredentialsTokenSource, NotFoundError, OrgAdminClient, UnauthorizedError } from '../../src/client';
import type { CompatMode } from '../../src/service/compat';
import { createTestRealm, getToken, startTestService, type TestService } from '../helpers/service';
import { call, postForm } from './support';

/** A service in `mode` with a realm, a full key's token and a view-only key's token. */
async function start(mode: CompatMode): Promise<{ svc: TestService; token: string; viewOnly: string; viewOnlyKey: { clientId: string; clientSecret: string } }> {
  const svc = await startTestService({ app: { compat: mode } });
  const full = await createTestRealm(svc, 'acme');
  const viewOnlyKey = await createTestRealm(svc, 'acme', { permissions: ['view-organizations'] });
  return {
    svc,
    token: await getToken(svc, 'acme', full.clientId, full.clientSecret),
    viewOnly: await getToken(svc, 'acme', viewOnlyKey.clientId, viewOnlyKey.clientSecret),
    viewOnlyKey,
  };
}

describe('hosted compatibility mode', () => {
  let hosted: Awaited<ReturnType<typeof start>>;
  let standard: Awaited<ReturnType<typeof start>>;
  let orgId: string;

  beforeAll(async () => {
    hosted = await start('hosted');
    standard = await start('standard');
    const created = await call(hosted.svc, { method: 'POST', url: orgsPath('acme'), token: hosted.token, payload: { name: 'taken', id: 'org-1' } });
    expect(created.status).toBe(201);
    orgId = 'org-1';
  });
  afterAll(async () => {
    await hosted.svc.close();
    await standard.svc.close();
  });

  it('answers a missing permission with 401 and a Keycloak body, where standard mode answers 403 insufficient_scope', async () => {
    const payload = { name: 'not-allowed' };
    const inHosted = await call(hosted.svc, { method: 'POST', url: orgsPath('acme'), token: hosted.viewOnly, payload });
    expect(inHosted.status).toBe(401);
    expect(inHosted.json).toEqual({ error: 'HTTP 401 Unauthorized' });
    expect(inHosted.headers['www-authenticate']).toBe('Bearer realm="acme"');
    const inStandard = await call(standard.svc, { method: 'POST', url: orgsPath('acme'), token: standard.viewOnly, payload });
    expect(inStandard.status).toBe(403);
    expect(inStandard.json.error).toBe('insufficient_scope');
    // Refused in both: nothing created.
    expect(await hosted.svc.store.countOrganizations('acme', { search: 'not-allowed' })).toBe(0);
  });

  it.each([
    ['an unknown organization', 'GET', () => orgPath('acme', 'nope'), undefined, 404, 'HTTP 404 Not Found'],
    ['a non-member', 'GET', () => memberPath('acme', 'org-1', 'nobody'), undefined, 404, 'HTTP 404 Not Found'],
    ['an unknown path', 'GET', () => '/realms/acme/things', undefined, 404, 'HTTP 404 Not Found'],
    ['a taken name', 'POST', () => orgsPath('acme'), { name: 'taken' }, 409, 'HTTP 409 Conflict'],
    ['an invalid body', 'POST', () => orgsPath('acme'), { name: 5 }, 400, 'HTTP 400 Bad Request'],
    ['an invalid query', 'GET', () => `${orgsPath('acme')}?max=x`, undefined, 400, 'HTTP 400 Bad Request'],
    ['removing the default admin user', 'DELETE', () => memberPath('acme', 'org-1', 'admin-of-org-1'), undefined, 403, 'HTTP 403 Forbidden'],
  ])('answers %s with Keycloak\'s {"error":"%s"} style body', async (_what, method, path, payload, status, error) => {
    let url = path();
    if (url.endsWith('admin-of-org-1')) {
      const admin = (await hosted.svc.store.listMembers('acme', orgId, {}))[0]!;
      url = memberPath('acme', orgId, admin.id);
    }
    const res = await call(hosted.svc, { method, url, token: hosted.token, payload });
    expect(res.status).toBe(status);
    expect(res.json).toEqual({ error });
  });

  it('keeps the headers of an error: WWW-Authenticate of a bad token, Allow of a wrong method', async () => {
    const noToken = await call(hosted.svc, { method: 'GET', url: orgsPath('acme') });
    expect(noToken.status).toBe(401);
    expect(noToken.json).toEqual({ error: 'HTTP 401 Unauthorized' });
    expect(noToken.headers['www-authenticate']).toBe('Bearer realm="acme", error="invalid_token"');
    const patch = await call(hosted.svc, { method: 'PATCH', url: orgPath('acme', orgId), token: hosted.token });
    expect(patch.status).toBe(405);
    expect(patch.json).toEqual({ error: 'HTTP 405 Method Not Allowed' });
    expect(patch.headers.allow).toBe('GET, HEAD, PUT, DELETE');
  });

  it('keeps the OAuth errors of the token endpoint, the realm errors and operation_not_supported', async () => {
    const badSecret = await postForm(hosted.svc, tokenPath('acme'), { grant_type: 'client_credentials', client_id: hosted.viewOnlyKey.clientId, client_secret: 'wrong' });
    expect(badSecret.status).toBe(401);
    expect(badSecret.json.error).toBe('unauthorized_client');
    expect(badSecret.json.error_description).toEqual(expect.any(String));
    const noRealm = await call(hosted.svc, { method: 'GET', url: orgsPath('nowhere'), token: hosted.token });
    expect(noRealm.json).toEqual({ error: 'realm_not_found', error_description: 'Realm does not exist' });
    // The realm's organization settings (/orgs/config): an operation of the hosted service this one lacks.
    const config = await call(hosted.svc, { method: 'GET', url: `${orgsPath('acme')}/config`, token: hosted.token });
    expect(config.status).toBe(404);
    expect(config.json.error).toBe('operation_not_supported');
  });

  it('answers successes exactly as standard mode does', async () => {
    await call(standard.svc, { method: 'POST', url: orgsPath('acme'), token: standard.token, payload: { name: 'taken', id: 'org-1' } });
    for (const url of [orgsPath('acme'), orgPath('acme', 'org-1'), orgsCountPath('acme')]) {
      const a = await call(hosted.svc, { method: 'GET', url, token: hosted.token });
      const b = await call(standard.svc, { method: 'GET', url, token: standard.token });
      expect({ url, status: a.status, body: a.json }).toEqual({ url, status: b.status, body: b.json });
    }
  });

  it('cuts organization lists to 100, as the hosted service does', async () => {
    for (let i = 0; i < 101; i += 1) {
      await hosted.svc.store.createOrganization(
        { id: `bulk-${i}`, name: `bulk-${String(i).padStart(3, '0')}`, displayName: null, url: null, domains: [], attributes: {}, realm: 'acme' },
        undefined,
        Date.now(),
      );
    }
    const page = await call(hosted.svc, { method: 'GET', url: `${orgsPath('acme')}?search=bulk-&max=150`, token: hosted.token });
    expect(page.json).toHaveLength(100);
  });

  describe('the SDK against it', () => {
    function client(key: { clientId: string; clientSecret: string }): OrgAdminClient {
      const baseUrl = hosted.svc.baseUrl;
      return new OrgAdminClient({ baseUrl, realm: 'acme', maxRetries: 0, tokenSource: new ClientCredentialsTokenSource({ baseUrl, ...key }) });
    }

    it('reads answers, and maps the Keycloak-style errors by status', async () => {
      const sdk = client(await createTestRealm(hosted.svc, 'acme'));
      try {
        expect((await sdk.getOrganization(orgId)).displayName).toBeNull();
        await expect(sdk.getOrganization('nope')).rejects.toBeInstanceOf(NotFoundError);
        expect(await sdk.isMember(orgId, 'nobody')).toBe(false);
        expect((await sdk.listAllOrganizations({ search: 'bulk-' })).length).toBe(101);
      } finally {
        await sdk.close();
      }
    });

    it('reports a missing permission (401 after a fresh token) as a credentials or permission problem', async () => {
      const sdk = client(hosted.viewOnlyKey);
      try {
        const error = await sdk.createOrganization({ name: 'nope' }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(UnauthorizedError);
        expect((error as UnauthorizedError).status).toBe(401);
        expect((error as Error).message).toMatch(/permission/);
      } finally {
        await sdk.close();
      }
    });
  });
});
