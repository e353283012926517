import { DEFAULT_ORGANIZATION_ROLE_NAMES } from '../../../src/api';
import { errorsOf, stateOf } from '../../../src/tfplugin/testing/harness';
import { ORGANIZATION_ROLES_DATA_SOURCE_TYPE as TYPE } from '../../../src/provider/data-sources/organization-roles';
import { startProviderTest, type ProviderTest } from '../harness';

describe('orgadmin_organization_roles data source', () => {
  let t: ProviderTest;
  beforeAll(async () => {
    t = await startProviderTest();
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists every role of the organization by name, default roles marked, with one request', async () => {
    const orgId = await t.client.createOrganization({ name: 'roles-data' });
    await t.client.createRole(orgId, { name: 'billing', description: 'Pays' });
    const before = t.svc.requests.length;
    const state = stateOf(await t.tf.readDataSource(TYPE, { organization_id: orgId }));
    // The provider's first call also fetched its token.
    const api = t.svc.requests.slice(before).filter((r) => !r.url.endsWith('/protocol/openid-connect/token'));
    expect(api.map((r) => `${r.method} ${r.url}`)).toEqual([`GET /realms/acme/orgs/${orgId}/roles`]);
    expect(state['names']).toEqual([...DEFAULT_ORGANIZATION_ROLE_NAMES, 'billing'].sort());
    const roles = state['roles'] as Array<Record<string, unknown>>;
    expect(roles.find((role) => role['name'] === 'billing')).toEqual({ id: expect.any(String), name: 'billing', description: 'Pays', default: false });
    expect(roles.find((role) => role['name'] === 'view-roles')).toEqual({ id: expect.any(String), name: 'view-roles', description: 'View roles of this organization', default: true });
    expect(state['id']).toBe(orgId);
  });

  it('reports an unknown organization on organization_id', async () => {
    const read = await t.tf.readDataSource(TYPE, { organization_id: 'no-such-org' });
    expect(errorsOf(read.diagnostics)).toEqual([expect.objectContaining({ summary: 'Organization not found', path: ['organization_id'] })]);
  });
});
