/**
 * The vendor's own TypeScript SDK (p2-inc/phasetwo-js, vendored under test/fixtures/phasetwo-js)
 * calls every domain and identity-provider operation against the service, as a client written for
 * the hosted service would: its generated methods where it has them, and its runtime's
 * `BaseAPI.request` for link and unlink, which its 2024 generation lacks, at the paths and with the
 * bodies of the vendor's `openapi.yaml`. Domain verification asks a DNS server started by the test.
 */
import { createHash } from 'node:crypto';
import { startDnsServer, type TestDnsServer } from '../../helpers/dns-server';
import { createTestRealm, getToken, startTestService, type TestService } from '../../helpers/service';

// The vendor's code is not type-checked here (see test/fixtures/phasetwo-js/README.md): untyped.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const p2 = require('../../fixtures/phasetwo-js/src') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What the SDK's calls resolve to: untyped data of the vendor's generated models. */
type Untyped = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Link and unlink, through the vendor runtime's own request method. */
class LinkApi extends (p2.BaseAPI as new (configuration: unknown) => { request(context: unknown): Promise<Response>; configuration: Untyped }) {
  private async send(path: string, body?: unknown): Promise<number> {
    const token = await this.configuration.accessToken('access_token', []);
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await this.request({ path, method: 'POST', headers, body });
    return response.status;
  }
  link(realm: string, orgId: string, body: Record<string, unknown>): Promise<number> {
    return this.send(`/${realm}/orgs/${encodeURIComponent(orgId)}/idps/link`, body);
  }
  unlink(realm: string, orgId: string, alias: string): Promise<number> {
    return this.send(`/${realm}/orgs/${encodeURIComponent(orgId)}/idps/${encodeURIComponent(alias)}/unlink`);
  }
}

let svc: TestService;
let dns: TestDnsServer;
let orgs: Untyped;
let domains: Untyped;
let idps: Untyped;
let links: LinkApi;

/** The HTTP status of a call the SDK refused (its ResponseError carries the response). */
async function refusedWith(call: Promise<unknown>): Promise<number> {
  const error = await call.then(
    () => undefined,
    (caught: Untyped) => caught,
  );
  expect(error?.name).toBe('ResponseError');
  return error.response.status;
}

/** Creates an organization through the SDK; its id from `Location`. */
async function createOrganization(name: string, domainNames: string[]): Promise<string> {
  const created = await orgs.createOrganizationRaw({ realm: 'acme', organizationRepresentation: { name, domains: domainNames } });
  expect(created.raw.status).toBe(201);
  return decodeURIComponent(created.raw.headers.get('location').split('/').pop());
}

beforeAll(async () => {
  dns = await startDnsServer();
  svc = await startTestService({ app: { dnsServer: dns.address } });
  const key = await createTestRealm(svc, 'acme');
  const token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
  const configuration = new p2.Configuration({ basePath: `${svc.baseUrl}/realms`, accessToken: async () => token });
  orgs = new p2.OrganizationsApi(configuration);
  domains = new p2.OrganizationDomainsApi(configuration);
  idps = new p2.IdentityProvidersApi(configuration);
  links = new LinkApi(configuration);
});
afterAll(async () => {
  await svc.close();
  await dns.close();
});

it('lists, reads and verifies domains through the vendor SDK, against a real DNS TXT record', async () => {
  const orgId = await createOrganization('p2-domains', ['p2.example', 'docs.p2.example']);
  // The vendor's record value, written out here independently of src/api.
  const value = createHash('sha256').update(`p2.example ${orgId}`).digest('hex');

  const listed: Untyped[] = await domains.getOrganizationDomains({ realm: 'acme', orgId });
  expect(listed.map((domain) => [domain.domainName, domain.verified])).toEqual([
    ['p2.example', false],
    ['docs.p2.example', false],
  ]);
  expect(await domains.getOrganizationDomain({ realm: 'acme', orgId, domainName: 'p2.example' })).toMatchObject({
    domainName: 'p2.example',
    verified: false,
    recordKey: '_org-domain-ownership',
    recordValue: value,
  });
  expect(await refusedWith(domains.getOrganizationDomain({ realm: 'acme', orgId, domainName: 'elsewhere.example' }))).toBe(404);

  // verifyDomain: 202 while the record is missing, verified once it holds the value.
  const early = await domains.verifyDomainRaw({ realm: 'acme', orgId, domainName: 'p2.example' });
  expect(early.raw.status).toBe(202);
  expect((await domains.getOrganizationDomain({ realm: 'acme', orgId, domainName: 'p2.example' })).verified).toBe(false);
  dns.setTxt('_org-domain-ownership.p2.example', [value]);
  const verified = await domains.verifyDomainRaw({ realm: 'acme', orgId, domainName: 'p2.example' });
  expect(verified.raw.status).toBe(202);
  expect((await domains.getOrganizationDomain({ realm: 'acme', orgId, domainName: 'p2.example' })).verified).toBe(true);
  expect((await domains.getOrganizationDomain({ realm: 'acme', orgId, domainName: 'docs.p2.example' })).verified).toBe(false);
});

it('runs every identity-provider and mapper operation through the vendor SDK', async () => {
  const orgA = await createOrganization('p2-idp-a', ['a.p2idp.example']);
  const orgB = await createOrganization('p2-idp-b', ['b.p2idp.example']);
  const representation = {
    alias: 'p2-corp',
    displayName: 'Corp sign-in',
    providerId: 'oidc',
    enabled: true,
    config: { issuer: 'https://idp.corp.example/realms/corp', clientId: 'orgadmin-broker', clientSecret: 'p2-upstream-secret' },
  };

  // createIdp: 201 with Location; getIdps and getIdp read it back, the secret masked.
  const created = await idps.createIdpRaw({ realm: 'acme', orgId: orgA, identityProviderRepresentation: representation });
  expect(created.raw.status).toBe(201);
  expect(created.raw.headers.get('location')).toBe(`${svc.baseUrl}/realms/acme/orgs/${orgA}/idps/p2-corp`);
  const listed: Untyped[] = await idps.getIdps({ realm: 'acme', orgId: orgA });
  expect(listed.map((idp) => idp.alias)).toEqual(['p2-corp']);
  const got = await idps.getIdp({ realm: 'acme', orgId: orgA, alias: 'p2-corp' });
  expect(got).toMatchObject({ alias: 'p2-corp', displayName: 'Corp sign-in', providerId: 'oidc', enabled: true });
  expect(got.config.clientSecret).toBe('**********');
  expect(await refusedWith(idps.createIdp({ realm: 'acme', orgId: orgA, identityProviderRepresentation: representation }))).toBe(409);

  // updateIdp: 204; the mask sent back keeps the secret.
  const updated = await idps.updateIdpRaw({
    realm: 'acme',
    orgId: orgA,
    alias: 'p2-corp',
    identityProviderRepresentation: { ...representation, displayName: 'Corp SSO', config: { ...representation.config, clientSecret: '**********' } },
  });
  expect(updated.raw.status).toBe(204);
  expect((await idps.getIdp({ realm: 'acme', orgId: orgA, alias: 'p2-corp' })).displayName).toBe('Corp SSO');
  const stored = (await svc.store.sso.getIdentityProvider('acme', 'p2-corp'))!;
  expect(await svc.admin.sealedSecrets.open(stored.sealedClientSecret!, 'identity-provider:acme/p2-corp')).toBe('p2-upstream-secret');

  // Mappers: addIdpMapper (201), getIdpMappers, getIdpMapper, updateIdpMapper (204), deleteIdpMapper (204).
  const mapper = { name: 'email', identityProviderMapper: 'oidc-user-attribute-idp-mapper', config: { claim: 'email', 'user.attribute': 'email' } };
  const added = await idps.addIdpMapperRaw({ realm: 'acme', orgId: orgA, alias: 'p2-corp', identityProviderMapperRepresentation: mapper });
  expect(added.raw.status).toBe(201);
  const mapperId = added.raw.headers.get('location').split('/').pop();
  const mappers: Untyped[] = await idps.getIdpMappers({ realm: 'acme', orgId: orgA, alias: 'p2-corp' });
  expect(mappers.map((one) => [one.id, one.name, one.identityProviderAlias])).toEqual([[mapperId, 'email', 'p2-corp']]);
  const changed = await idps.updateIdpMapperRaw({
    realm: 'acme',
    orgId: orgA,
    alias: 'p2-corp',
    id: mapperId,
    identityProviderMapperRepresentation: { ...mapper, config: { claim: 'mail', 'user.attribute': 'email' } },
  });
  expect(changed.raw.status).toBe(204);
  expect((await idps.getIdpMapper({ realm: 'acme', orgId: orgA, alias: 'p2-corp', id: mapperId })).config.claim).toBe('mail');
  expect((await idps.deleteIdpMapperRaw({ realm: 'acme', orgId: orgA, alias: 'p2-corp', id: mapperId })).raw.status).toBe(204);
  expect(await refusedWith(idps.getIdpMapper({ realm: 'acme', orgId: orgA, alias: 'p2-corp', id: mapperId }))).toBe(404);

  // Unlink (204: the provider stays in the realm, no longer the organization's), link to another (201), read there.
  expect(await links.unlink('acme', orgA, 'p2-corp')).toBe(204);
  expect(await idps.getIdps({ realm: 'acme', orgId: orgA })).toEqual([]);
  expect(await links.link('acme', orgB, { alias: 'p2-corp', sync_mode: 'IMPORT', domains: ['b.p2idp.example'] })).toBe(201);
  expect((await idps.getIdp({ realm: 'acme', orgId: orgB, alias: 'p2-corp' })).alias).toBe('p2-corp');

  // importIdpJson (import-config) is one of the operations the service does not offer: 404
  // operation_not_supported, as docs/guides/service.md lists.
  const importConfig = await idps.importIdpJsonRaw({ realm: 'acme', orgId: orgB }).catch((caught: Untyped) => caught.response);
  expect(importConfig.status).toBe(404);
  expect((await importConfig.json()).error).toBe('operation_not_supported');

  // deleteIdp: 204, then reads are 404.
  expect((await idps.deleteIdpRaw({ realm: 'acme', orgId: orgB, alias: 'p2-corp' })).raw.status).toBe(204);
  expect(await refusedWith(idps.getIdp({ realm: 'acme', orgId: orgB, alias: 'p2-corp' }))).toBe(404);
});
