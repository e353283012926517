/**
 * The vendor's own TypeScript SDK (p2-inc/phasetwo-js, vendored under test/fixtures/phasetwo-js)
 * moves organizations from one instance of the service to another through the hosted service's export and import.
 * Its 2024 generation has no methods for these two operations, so they go through its runtime's
 * `BaseAPI.request` (authorization as its generated methods do it), at the paths, with the query
 * parameters and bodies of the vendor's `openapi.yaml`; what arrived is read back through the SDK's
 * generated methods.
 */
import { createTestRealm, getToken, startTestService, type TestService } from '../../helpers/service';

// The vendor's code is not type-checked here (see test/fixtures/phasetwo-js/README.md): untyped.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const p2 = require('../../fixtures/phasetwo-js/src') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What the SDK's calls resolve to: untyped data of the vendor's generated models. */
type Untyped = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Export and import, through the vendor runtime's own request method. */
class TransferApi extends (p2.BaseAPI as new (configuration: unknown) => { request(context: unknown): Promise<Response>; configuration: Untyped }) {
  private async authorization(): Promise<Record<string, string>> {
    return { Authorization: `Bearer ${await this.configuration.accessToken('access_token', [])}` };
  }
  async exportOrganizations(realm: string, query: Record<string, string>): Promise<{ status: number; body: Untyped }> {
    const response = await this.request({ path: `/${realm}/orgs/export`, method: 'GET', headers: await this.authorization(), query });
    return { status: response.status, body: await response.json() };
  }
  async importOrganizations(realm: string, query: Record<string, string>, body: unknown): Promise<{ status: number; body: Untyped }> {
    const response = await this.request({
      path: `/${realm}/orgs/import`,
      method: 'POST',
      headers: { ...(await this.authorization()), 'Content-Type': 'application/json' },
      query,
      body,
    });
    return { status: response.status, body: await response.json() };
  }
}

let sourceService: TestService;
let targetService: TestService;

/** The SDK's APIs for one realm, with a token of an API key of that realm holding every permission. */
async function sdkFor(svc: TestService, realm: string): Promise<{ orgs: Untyped; members: Untyped; roles: Untyped; transfer: TransferApi }> {
  const key = await createTestRealm(svc, realm);
  const token = await getToken(svc, realm, key.clientId, key.clientSecret);
  const configuration = new p2.Configuration({ basePath: `${svc.baseUrl}/realms`, accessToken: async () => token });
  return {
    orgs: new p2.OrganizationsApi(configuration),
    members: new p2.OrganizationMembershipsApi(configuration),
    roles: new p2.OrganizationRolesApi(configuration),
    transfer: new TransferApi(configuration),
  };
}

beforeAll(async () => {
  sourceService = await startTestService();
  targetService = await startTestService();
});
afterAll(async () => {
  await sourceService.close();
  await targetService.close();
});

it('exports a realm\'s organizations with roles and members and imports them into another instance, matching members by email', async () => {
  const source = await sdkFor(sourceService, 'source');
  const target = await sdkFor(targetService, 'target');
  const alice = (await sourceService.admin.createUser('source', { username: 'alice', email: 'alice@example.com' })).id;
  const aliceThere = (await targetService.admin.createUser('target', { username: 'alice-copy', email: 'alice@example.com' })).id;

  const created = await source.orgs.createOrganizationRaw({ realm: 'source', organizationRepresentation: { name: 'moving', displayName: 'Moving Co', domains: ['moving.example'] } });
  const orgId = decodeURIComponent(created.raw.headers.get('location').split('/').pop());
  await source.members.addOrganizationMember({ realm: 'source', orgId, userId: alice });
  await source.roles.createOrganizationRole({ realm: 'source', orgId, organizationRoleRepresentation: { name: 'editor', description: 'Edits' } });
  await source.roles.grantUserOrganizationRole({ realm: 'source', orgId, name: 'editor', userId: alice });

  const exported = await source.transfer.exportOrganizations('source', { includeMembers: 'true', includeRoles: 'true' });
  expect(exported.status).toBe(200);
  const organization = exported.body.organizations.find((org: Untyped) => org.name === 'moving');
  expect(organization).toMatchObject({ name: 'moving', displayName: 'Moving Co', domains: ['moving.example'] });
  expect(organization.roles.map((role: Untyped) => role.name)).toContain('editor');
  expect(organization.members).toContainEqual(expect.objectContaining({ email: 'alice@example.com', roles: expect.arrayContaining(['editor']) }));

  // The ids of the source instance's users mean nothing in the target: members are matched by email.
  const withoutUserIds = {
    ...exported.body,
    organizations: exported.body.organizations.map((org: Untyped) => ({ ...org, members: org.members.map(({ userId: _unused, ...member }: Untyped) => member) })),
  };
  const imported = await target.transfer.importOrganizations('target', { importMembers: 'true', skipExisting: 'true' }, withoutUserIds);
  expect(imported.status).toBe(200);
  expect(imported.body).toMatchObject({ imported: 1, updated: 0, skipped: 0, errors: [] });

  const [copy] = await target.orgs.getOrganizations({ realm: 'target', search: 'moving' });
  expect(copy).toMatchObject({ name: 'moving', displayName: 'Moving Co', domains: ['moving.example'] });
  const copyMembers: Untyped[] = await target.members.getOrganizationMemberships({ realm: 'target', orgId: copy.id });
  expect(copyMembers.map((member) => member.id)).toContain(aliceThere);
  const holders: Untyped[] = await target.roles.getUserOrganizationRoles({ realm: 'target', orgId: copy.id, name: 'editor' });
  expect(holders.map((user) => user.id)).toEqual([aliceThere]);

  // Again with skipExisting: nothing changes, the organization is counted as skipped.
  const again = await target.transfer.importOrganizations('target', { importMembers: 'true', skipExisting: 'true' }, withoutUserIds);
  expect(again.body).toMatchObject({ imported: 0, skipped: 1, errors: [] });
  // The SDK reads the count as text (its generated TextApiResponse).
  expect(Number(await target.orgs.getOrganizationsCount({ realm: 'target' }))).toBe(1);
});
