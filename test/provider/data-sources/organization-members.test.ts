import { ORGANIZATION_MEMBERS_DATA_SOURCE_TYPE as TYPE } from '../../../src/provider/data-sources/organization-members';
import { errorsOf } from '../../../src/tfplugin/testing/harness';
import type { Value } from '../../../src/tfplugin/framework/types';
import { startProviderTest, type ProviderTest } from '../harness';

describe('orgadmin_organization_members data source', () => {
  let t: ProviderTest;
  let orgId: string;
  const userIds: string[] = [];

  beforeAll(async () => {
    t = await startProviderTest();
    orgId = await t.client.createOrganization({ name: 'listed' });
    for (let i = 0; i < 120; i += 1) {
      const user = await t.svc.admin.createUser('acme', { username: `listed-${i}`, email: `listed-${i}@example.com`, firstName: 'Ada', lastName: `L${i}` });
      userIds.push(user.id);
      await t.client.addMember(orgId, user.id);
    }
  });

  afterAll(async () => {
    await t.close();
  });

  it('lists every member across pages, in membership order, without the default admin user', async () => {
    const { state, diagnostics } = await t.tf.readDataSource(TYPE, { organization_id: orgId });
    expect(diagnostics).toEqual([]);
    expect(state!['id']).toBe(orgId);
    expect(state!['user_ids']).toEqual(userIds);
    const members = state!['members'] as Array<Record<string, Value>>;
    expect(members).toHaveLength(120);
    expect(members[0]).toEqual({ id: userIds[0], username: 'listed-0', email: 'listed-0@example.com', first_name: 'Ada', last_name: 'L0' });
    expect(members.some((m) => String(m['username']).startsWith('org-admin-'))).toBe(false);
  });

  it('reports an unknown organization on organization_id', async () => {
    const { state, diagnostics } = await t.tf.readDataSource(TYPE, { organization_id: 'nope' });
    expect(state).toBeNull();
    expect(errorsOf(diagnostics)).toEqual([expect.objectContaining({ summary: 'Organization not found', path: ['organization_id'] })]);
  });
});
