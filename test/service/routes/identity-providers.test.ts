/**
 * Identity providers of an organization and their mappers at the vendor's paths, against the
 * service on its real port: shapes, the masked secret, link and unlink, refusals.
 */
import Database from 'better-sqlite3';
import { idpLinkPath, idpMapperPath, idpMappersPath, idpPath, idpsPath, idpUnlinkPath, orgsPath } from '../../../src/api';
import { createTestRealm, getToken, startTestService, type TestService } from '../../helpers/service';
import { call } from '../support';

let svc: TestService;
let token: string;
let viewToken: string;
let orgA: string;
let orgB: string;

const SECRET = 'upstream-client-secret-7f3a';
const corp = (overrides: Record<string, unknown> = {}, config: Record<string, unknown> = {}) => ({
  alias: 'corp',
  displayName: 'Corp sign-in',
  providerId: 'oidc',
  enabled: true,
  config: { issuer: 'https://idp.corp.example/realms/corp', clientId: 'orgadmin-broker', clientSecret: SECRET, ...config },
  ...overrides,
});

async function createOrg(name: string): Promise<string> {
  const res = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: { name, domains: [`${name}.example`] } });
  return decodeURIComponent(String(res.headers.location).split('/').pop()!);
}

beforeAll(async () => {
  svc = await startTestService();
  const key = await createTestRealm(svc, 'acme');
  token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
  const viewer = await createTestRealm(svc, 'acme', { permissions: ['view-organizations'] });
  viewToken = await getToken(svc, 'acme', viewer.clientId, viewer.clientSecret);
  orgA = await createOrg('org-a');
  orgB = await createOrg('org-b');
});
afterAll(async () => {
  await svc.close();
});

describe('identity providers', () => {
  it('creates one (201, Location), answers Keycloak’s representation with the secret masked and the broker’s callback', async () => {
    const created = await call(svc, { method: 'POST', url: idpsPath('acme', orgA), token, payload: corp() });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`${svc.baseUrl}${idpPath('acme', orgA, 'corp')}`);
    const got = await call(svc, { method: 'GET', url: idpPath('acme', orgA, 'corp'), token: viewToken });
    expect(got.status).toBe(200);
    expect(got.json).toEqual({
      alias: 'corp',
      displayName: 'Corp sign-in',
      internalId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      providerId: 'oidc',
      enabled: true,
      trustEmail: false,
      storeToken: false,
      addReadTokenRoleOnCreate: false,
      linkOnly: false,
      hideOnLogin: true,
      firstBrokerLoginFlowAlias: 'first broker login',
      postBrokerLoginFlowAlias: 'post org broker login',
      config: {
        issuer: 'https://idp.corp.example/realms/corp',
        clientId: 'orgadmin-broker',
        clientSecret: '**********',
        syncMode: 'FORCE',
        pkceEnabled: 'true',
        pkceMethod: 'S256',
        validateSignature: 'true',
        useJwksUrl: 'true',
        'home.idp.discovery.org': orgA,
      },
      redirectUri: `${svc.baseUrl}/realms/acme/broker/corp/endpoint`,
    });
    const listed = await call(svc, { method: 'GET', url: idpsPath('acme', orgA), token });
    expect(listed.json).toEqual([got.json]);
    expect((await call(svc, { method: 'GET', url: idpsPath('acme', orgB), token })).json).toEqual([]);
  });

  it('never shows the secret, and keeps it sealed in the database', async () => {
    for (const url of [idpsPath('acme', orgA), idpPath('acme', orgA, 'corp')]) {
      expect((await call(svc, { method: 'GET', url, token })).text).not.toContain(SECRET);
    }
    const db = new Database(svc.dataFile, { readonly: true });
    try {
      const row = db.prepare("SELECT config, client_secret FROM identity_providers WHERE alias = 'corp'").get() as { config: string; client_secret: string };
      expect(row.config).not.toContain(SECRET);
      expect(row.client_secret).toMatch(/^v1\./);
      expect(row.client_secret).not.toContain(SECRET);
    } finally {
      db.close();
    }
    const stored = (await svc.store.sso.getIdentityProvider('acme', 'corp'))!;
    expect(await svc.admin.sealedSecrets.open(stored.sealedClientSecret!, 'identity-provider:acme/corp')).toBe(SECRET);
  });

  it('updates in place: the mask keeps the secret, the alias is the path’s, disabled and enabled again', async () => {
    const put = await call(svc, {
      method: 'PUT',
      url: idpPath('acme', orgA, 'corp'),
      token,
      payload: corp({ alias: 'ignored', enabled: false, displayName: 'Corp SSO' }, { clientSecret: '**********', defaultScope: 'openid email' }),
    });
    expect(put.status).toBe(204);
    const got = (await call(svc, { method: 'GET', url: idpPath('acme', orgA, 'corp'), token })).json;
    expect(got).toMatchObject({ alias: 'corp', enabled: false, displayName: 'Corp SSO', config: { clientSecret: '**********', defaultScope: 'openid email' } });
    const stored = (await svc.store.sso.getIdentityProvider('acme', 'corp'))!;
    expect(await svc.admin.sealedSecrets.open(stored.sealedClientSecret!, 'identity-provider:acme/corp')).toBe(SECRET);
    expect((await call(svc, { method: 'PUT', url: idpPath('acme', orgA, 'corp'), token, payload: corp() })).status).toBe(204);
    expect((await call(svc, { method: 'GET', url: idpPath('acme', orgA, 'corp'), token })).json.enabled).toBe(true);
  });

  it('makes a public client of an update without a secret', async () => {
    await call(svc, { method: 'POST', url: idpsPath('acme', orgA), token, payload: corp({ alias: 'pub' }) });
    const payload = corp({ alias: 'pub' });
    delete (payload.config as Record<string, unknown>).clientSecret;
    expect((await call(svc, { method: 'PUT', url: idpPath('acme', orgA, 'pub'), token, payload })).status).toBe(204);
    const got = (await call(svc, { method: 'GET', url: idpPath('acme', orgA, 'pub'), token })).json;
    expect(got.config.clientSecret).toBeUndefined();
    expect((await svc.store.sso.getIdentityProvider('acme', 'pub'))!.sealedClientSecret).toBeNull();
  });

  it.each([
    ['an alias taken in the realm (by another organization too)', () => ({ url: idpsPath('acme', orgB), payload: corp() }), 409, 'An identity provider with alias "corp" already exists in this realm.'],
    ['no alias', () => ({ url: idpsPath('acme', orgA), payload: corp({ alias: undefined }) }), 400, 'alias is required.'],
    ['a bad alias', () => ({ url: idpsPath('acme', orgA), payload: corp({ alias: 'a b' }) }), 400, 'alias "a b" must be 1 to 255 letters, digits, ".", "_" or "-".'],
    ['SAML', () => ({ url: idpsPath('acme', orgA), payload: corp({ alias: 'saml', providerId: 'saml' }) }), 400, 'providerId "saml" is not supported by this service; use oidc or keycloak-oidc (OpenID Connect).'],
    ['no client id', () => ({ url: idpsPath('acme', orgA), payload: corp({ alias: 'x1' }, { clientId: undefined }) }), 400, 'config.clientId is required: the client id of this service at the upstream identity provider.'],
    ['neither issuer nor discovery', () => ({ url: idpsPath('acme', orgA), payload: corp({ alias: 'x2' }, { issuer: undefined }) }), 400, 'config.metadataDescriptorUrl (the upstream\'s discovery document) or config.issuer is required.'],
    ['plain http to another host', () => ({ url: idpsPath('acme', orgA), payload: corp({ alias: 'x3' }, { metadataDescriptorUrl: 'http://idp.example/.well-known/openid-configuration' }) }), 400, 'config.metadataDescriptorUrl "http://idp.example/.well-known/openid-configuration" must use https (http only for localhost and loopback addresses).'],
    ['PKCE off', () => ({ url: idpsPath('acme', orgA), payload: corp({ alias: 'x4' }, { pkceEnabled: false }) }), 400, 'config.pkceEnabled must be "true": this service always uses PKCE (S256) and checks the upstream\'s signatures.'],
    ['the mask on create', () => ({ url: idpsPath('acme', orgA), payload: corp({ alias: 'x5' }, { clientSecret: '**********' }) }), 400, 'config.clientSecret is the mask ********** but there is no stored secret to keep; send the secret itself.'],
    ['an unknown sync mode', () => ({ url: idpsPath('acme', orgA), payload: corp({ alias: 'x6' }, { syncMode: 'SOMETIMES' }) }), 400, 'config.syncMode "SOMETIMES" must be one of IMPORT, FORCE, LEGACY.'],
    ['an unknown organization', () => ({ url: idpsPath('acme', 'nope'), payload: corp({ alias: 'x7' }) }), 404, 'Organization nope does not exist.'],
  ])('refuses %s', async (_what, request, status, description) => {
    const { url, payload } = request();
    const res = await call(svc, { method: 'POST', url, token, payload });
    expect(res.status).toBe(status);
    expect(res.json.error_description).toBe(description);
  });

  it('hides another organization’s provider behind 404 and needs manage-organizations to change one', async () => {
    const res = await call(svc, { method: 'GET', url: idpPath('acme', orgB, 'corp'), token });
    expect(res.status).toBe(404);
    expect(res.json.error_description).toBe(`Identity provider corp is not one of organization ${orgB}.`);
    expect((await call(svc, { method: 'DELETE', url: idpPath('acme', orgB, 'corp'), token })).status).toBe(404);
    const refused = await call(svc, { method: 'POST', url: idpsPath('acme', orgA), token: viewToken, payload: corp({ alias: 'viewer' }) });
    expect(refused.status).toBe(403);
    expect((await call(svc, { method: 'PUT', url: idpPath('acme', orgA, 'corp'), token: viewToken, payload: corp() })).status).toBe(403);
  });

  it('unlinks (the provider stays in the realm), links it to another organization, and refuses a link while owned', async () => {
    await call(svc, { method: 'POST', url: idpsPath('acme', orgA), token, payload: corp({ alias: 'movable' }) });
    const unlinked = await call(svc, { method: 'POST', url: idpUnlinkPath('acme', orgA, 'movable'), token });
    expect(unlinked.status).toBe(204);
    expect((await call(svc, { method: 'GET', url: idpPath('acme', orgA, 'movable'), token })).status).toBe(404);
    expect((await call(svc, { method: 'POST', url: idpUnlinkPath('acme', orgA, 'movable'), token })).status).toBe(404);

    const linked = await call(svc, { method: 'POST', url: idpLinkPath('acme', orgB), token, payload: { alias: 'movable', sync_mode: 'IMPORT', domains: ['Org-B.example'] } });
    expect(linked.status).toBe(201);
    expect(linked.headers.location).toBe(`${svc.baseUrl}${idpPath('acme', orgB, 'movable')}`);
    const got = (await call(svc, { method: 'GET', url: idpPath('acme', orgB, 'movable'), token })).json;
    expect(got.config).toMatchObject({ syncMode: 'IMPORT', 'home.idp.discovery.domains': 'org-b.example', 'home.idp.discovery.org': orgB, clientSecret: '**********' });
    // Linking again to the same organization is fine; to another while owned is a conflict.
    expect((await call(svc, { method: 'POST', url: idpLinkPath('acme', orgB), token, payload: { alias: 'movable' } })).status).toBe(201);
    const taken = await call(svc, { method: 'POST', url: idpLinkPath('acme', orgA), token, payload: { alias: 'movable' } });
    expect(taken.status).toBe(409);
    expect(taken.json.error_description).toBe(`Identity provider movable belongs to another organization (${orgB}); unlink it there first.`);
    expect((await call(svc, { method: 'POST', url: idpLinkPath('acme', orgA), token, payload: { alias: 'nope' } })).status).toBe(404);
    // The vendor refuses to link a disabled provider.
    await call(svc, { method: 'PUT', url: idpPath('acme', orgB, 'movable'), token, payload: corp({ alias: 'movable', enabled: false }, { clientSecret: '**********' }) });
    await call(svc, { method: 'POST', url: idpUnlinkPath('acme', orgB, 'movable'), token });
    const disabled = await call(svc, { method: 'POST', url: idpLinkPath('acme', orgA), token, payload: { alias: 'movable' } });
    expect(disabled.status).toBe(400);
    expect(disabled.json.error_description).toBe('Cannot link disabled identity provider movable.');
    expect((await call(svc, { method: 'POST', url: idpLinkPath('acme', orgA), token: viewToken, payload: { alias: 'movable' } })).status).toBe(403);
  });

  it('deletes a provider with its mappers', async () => {
    await call(svc, { method: 'POST', url: idpsPath('acme', orgA), token, payload: corp({ alias: 'doomed' }) });
    await call(svc, { method: 'POST', url: idpMappersPath('acme', orgA, 'doomed'), token, payload: { name: 'email', identityProviderMapper: 'oidc-user-attribute-idp-mapper', config: { claim: 'email', 'user.attribute': 'email' } } });
    expect((await call(svc, { method: 'DELETE', url: idpPath('acme', orgA, 'doomed'), token })).status).toBe(204);
    expect((await call(svc, { method: 'GET', url: idpPath('acme', orgA, 'doomed'), token })).status).toBe(404);
    expect(await svc.store.sso.listMappers('acme', 'doomed')).toEqual([]);
  });
});

describe('identity provider mappers', () => {
  const mappers = () => idpMappersPath('acme', orgA, 'corp');

  it('adds, reads, updates and deletes mappers of the three types', async () => {
    const bodies = [
      { name: 'email', identityProviderMapper: 'oidc-user-attribute-idp-mapper', config: { claim: 'email', 'user.attribute': 'email', syncMode: 'INHERIT' } },
      { name: 'username', identityProviderMapper: 'oidc-username-idp-mapper', config: { template: '${CLAIM.email}' } },
      { name: 'roles', identityProviderMapper: 'oidc-hardcoded-org-role-idp-mapper', config: { org: 'org-a', org_role: 'view-members##view-organization', syncMode: 'IMPORT' } },
    ];
    const ids: string[] = [];
    for (const body of bodies) {
      const created = await call(svc, { method: 'POST', url: mappers(), token, payload: body });
      expect(created.status).toBe(201);
      const id = String(created.headers.location).split('/').pop()!;
      expect(created.headers.location).toBe(`${svc.baseUrl}${idpMapperPath('acme', orgA, 'corp', id)}`);
      ids.push(id);
    }
    const listed = await call(svc, { method: 'GET', url: mappers(), token: viewToken });
    expect(listed.json).toEqual(bodies.map((body, i) => ({ id: ids[i], identityProviderAlias: 'corp', ...body })));
    const one = await call(svc, { method: 'GET', url: idpMapperPath('acme', orgA, 'corp', ids[2]!), token });
    expect(one.json).toEqual({ id: ids[2], identityProviderAlias: 'corp', ...bodies[2] });
    const put = await call(svc, { method: 'PUT', url: idpMapperPath('acme', orgA, 'corp', ids[2]!), token, payload: { ...bodies[2], config: { org_role: 'admin' } } });
    expect(put.status).toBe(204);
    expect((await call(svc, { method: 'GET', url: idpMapperPath('acme', orgA, 'corp', ids[2]!), token })).json.config).toEqual({ org_role: 'admin' });
    expect((await call(svc, { method: 'DELETE', url: idpMapperPath('acme', orgA, 'corp', ids[1]!), token })).status).toBe(204);
    expect((await call(svc, { method: 'GET', url: idpMapperPath('acme', orgA, 'corp', ids[1]!), token })).status).toBe(404);
    expect((await call(svc, { method: 'DELETE', url: idpMapperPath('acme', orgA, 'corp', ids[1]!), token })).status).toBe(404);
  });

  it.each([
    [{ name: 'x', identityProviderMapper: 'hardcoded-user-session-attribute-idp-mapper' }, 'identityProviderMapper "hardcoded-user-session-attribute-idp-mapper" is not supported by this service; use one of oidc-user-attribute-idp-mapper, oidc-username-idp-mapper, oidc-hardcoded-org-role-idp-mapper.'],
    [{ name: 'x', identityProviderMapper: 'oidc-user-attribute-idp-mapper', config: { 'user.attribute': 'email' } }, 'config.claim is required for oidc-user-attribute-idp-mapper: the ID token claim to copy.'],
    [{ name: 'x', identityProviderMapper: 'oidc-user-attribute-idp-mapper', config: { claim: 'x', 'user.attribute': 'password' } }, 'config.user.attribute "password" must be one of email, firstName, lastName.'],
    [{ name: 'x', identityProviderMapper: 'oidc-hardcoded-org-role-idp-mapper', config: { org: 'org-b', org_role: 'admin' } }, 'config.org "org-b" must name this organization (org-a): a provider grants roles in its own organization only.'],
    [{ name: 'x', identityProviderMapper: 'oidc-hardcoded-org-role-idp-mapper', config: {} }, 'config.org_role is required for oidc-hardcoded-org-role-idp-mapper: the organization roles to grant, separated by ##.'],
    [{ name: 'x', identityProviderMapper: 'oidc-username-idp-mapper', config: { template: '${CLAIM.sub}', syncMode: 'ALWAYS' } }, 'config.syncMode "ALWAYS" must be one of INHERIT, IMPORT, FORCE, LEGACY.'],
  ])('refuses %j', async (body, description) => {
    const res = await call(svc, { method: 'POST', url: mappers(), token, payload: body });
    expect(res.status).toBe(400);
    expect(res.json.error_description).toBe(description);
  });

  it('refuses a second mapper of the same name, and mappers of another organization’s provider', async () => {
    const body = { name: 'twice', identityProviderMapper: 'oidc-username-idp-mapper', config: { template: '${CLAIM.email}' } };
    expect((await call(svc, { method: 'POST', url: mappers(), token, payload: body })).status).toBe(201);
    const again = await call(svc, { method: 'POST', url: mappers(), token, payload: body });
    expect(again.status).toBe(409);
    expect(again.json.error_description).toBe('Identity provider corp already has a mapper named "twice".');
    expect((await call(svc, { method: 'GET', url: idpMappersPath('acme', orgB, 'corp'), token })).status).toBe(404);
    expect((await call(svc, { method: 'POST', url: mappers(), token: viewToken, payload: { ...body, name: 'v' } })).status).toBe(403);
  });
});
