/**
 * The SDK's domain and identity-provider methods against the real service (port 0, SQLite) and a
 * DNS server started by the test: every operation once, its answer read back through the
 * service's own store, and the typed errors of the refusals (409 for a second claimant of a
 * domain and for linking a provider another organization owns, 404 for a provider of another
 * organization).
 */
import { domainRecordValue, MAPPER_TYPES, SECRET_MASK } from '../../src/api';
import { ConflictError, NotFoundError, OrgAdminClient, ClientCredentialsTokenSource } from '../../src/client';
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server';
import { createTestRealm, startTestService, type TestService } from '../helpers/service';

let svc: TestService;
let dns: TestDnsServer;
let client: OrgAdminClient;
let globex: string;
let initech: string;

beforeAll(async () => {
  dns = await startDnsServer();
  svc = await startTestService({ app: { dnsServer: dns.address } });
  const key = await createTestRealm(svc, 'acme');
  client = new OrgAdminClient({
    baseUrl: svc.baseUrl,
    realm: 'acme',
    tokenSource: new ClientCredentialsTokenSource({ baseUrl: svc.baseUrl, clientId: key.clientId, clientSecret: key.clientSecret }),
    maxRetries: 0,
  });
  globex = await client.createOrganization({ name: 'globex', domains: ['globex.example'] });
  initech = await client.createOrganization({ name: 'initech', domains: ['globex.example'] });
});
afterAll(async () => {
  await client.close();
  await svc.close();
  await dns.close();
});

describe('domains', () => {
  it('lists and gets a domain with its record, verifies it once the record exists, and refuses a second claimant', async () => {
    const record = { domain_name: 'globex.example', verified: false, record_key: '_org-domain-ownership', record_value: domainRecordValue(globex, 'globex.example') };
    expect(await client.listDomains(globex)).toEqual([record]);
    expect(await client.getDomain(globex, 'globex.example')).toEqual(record);
    await expect(client.getDomain(globex, 'other.example')).rejects.toBeInstanceOf(NotFoundError);

    const before = await client.verifyDomain(globex, 'globex.example');
    expect(before).toMatchObject({ verified: false, verification: { record_name: '_org-domain-ownership.globex.example', outcome: 'no_record' } });
    dns.setTxt('_org-domain-ownership.globex.example', [record.record_value]);
    const after = await client.verifyDomain(globex, 'globex.example');
    expect(after).toMatchObject({ verified: true, verification: { outcome: 'verified' } });
    expect((await client.getDomain(globex, 'globex.example')).verified).toBe(true);

    dns.setTxt('_org-domain-ownership.globex.example', [record.record_value, domainRecordValue(initech, 'globex.example')]);
    await expect(client.verifyDomain(initech, 'globex.example')).rejects.toBeInstanceOf(ConflictError);
    expect((await client.getDomain(initech, 'globex.example')).verified).toBe(false);
  });
});

describe('identity providers', () => {
  const config = { issuer: 'https://login.globex.example', clientId: 'broker', clientSecret: 'upstream-secret' };

  it('creates, lists, gets, updates, unlinks, links and deletes a provider, its secret never answered', async () => {
    expect(await client.createIdentityProvider(globex, { alias: 'globex-okta', displayName: 'Globex Okta', config })).toBe('globex-okta');
    const listed = await client.listIdentityProviders(globex);
    expect(listed.map((idp) => idp.alias)).toEqual(['globex-okta']);
    const got = await client.getIdentityProvider(globex, 'globex-okta');
    expect(got).toMatchObject({ alias: 'globex-okta', displayName: 'Globex Okta', enabled: true, config: { clientId: 'broker', clientSecret: SECRET_MASK } });
    expect(JSON.stringify(listed)).not.toContain('upstream-secret');

    await client.updateIdentityProvider(globex, 'globex-okta', { alias: 'globex-okta', displayName: 'Globex SSO', enabled: false, config: { ...config, clientSecret: SECRET_MASK } });
    const stored = (await svc.store.sso.getIdentityProvider('acme', 'globex-okta'))!;
    expect(stored).toMatchObject({ displayName: 'Globex SSO', enabled: false, organizationId: globex });
    expect(stored.sealedClientSecret).not.toBeNull();

    await client.updateIdentityProvider(globex, 'globex-okta', { alias: 'globex-okta', displayName: 'Globex SSO', enabled: true, config: { ...config, clientSecret: SECRET_MASK } });
    await expect(client.getIdentityProvider(initech, 'globex-okta')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.linkIdentityProvider(initech, { alias: 'globex-okta' })).rejects.toBeInstanceOf(ConflictError);
    await client.unlinkIdentityProvider(globex, 'globex-okta');
    expect((await svc.store.sso.getIdentityProvider('acme', 'globex-okta'))!.organizationId).toBeNull();
    await expect(client.getIdentityProvider(globex, 'globex-okta')).rejects.toBeInstanceOf(NotFoundError);
    expect(await client.linkIdentityProvider(initech, { alias: 'globex-okta' })).toBe('globex-okta');
    expect((await svc.store.sso.getIdentityProvider('acme', 'globex-okta'))!.organizationId).toBe(initech);

    await client.deleteIdentityProvider(initech, 'globex-okta');
    expect(await svc.store.sso.getIdentityProvider('acme', 'globex-okta')).toBeUndefined();
    expect(await client.listIdentityProviders(initech)).toEqual([]);
  });

  it('adds, lists, gets, updates and deletes mappers', async () => {
    await client.createIdentityProvider(globex, { alias: 'globex-mapped', config });
    const id = await client.createIdentityProviderMapper(globex, 'globex-mapped', {
      name: 'username',
      identityProviderMapper: MAPPER_TYPES.username,
      config: { template: '${CLAIM.email}' },
    });
    expect(await client.listIdentityProviderMappers(globex, 'globex-mapped')).toEqual([
      expect.objectContaining({ id, name: 'username', identityProviderAlias: 'globex-mapped', identityProviderMapper: MAPPER_TYPES.username }),
    ]);
    await client.updateIdentityProviderMapper(globex, 'globex-mapped', id, {
      name: 'username',
      identityProviderMapper: MAPPER_TYPES.username,
      config: { template: '${ALIAS}.${CLAIM.sub}' },
    });
    expect((await client.getIdentityProviderMapper(globex, 'globex-mapped', id)).config).toMatchObject({ template: '${ALIAS}.${CLAIM.sub}' });
    expect((await svc.store.sso.listMappers('acme', 'globex-mapped')).map((mapper) => mapper.config.template)).toEqual(['${ALIAS}.${CLAIM.sub}']);
    await client.deleteIdentityProviderMapper(globex, 'globex-mapped', id);
    expect(await svc.store.sso.listMappers('acme', 'globex-mapped')).toEqual([]);
    await expect(client.getIdentityProviderMapper(globex, 'globex-mapped', id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
