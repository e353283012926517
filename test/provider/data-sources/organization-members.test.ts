import { organizationMembersDataSource as dataSource } from '../../../src/provider/data-sources/organization-members';
import type { Value } from '../../../src/provider/framework/types';
import { Collector, resourceConfig, startHarness, type Harness } from '../resources/harness';

describe('orgadmin_organization_members data source', () => {
  let h: Harness;
  let orgId: string;
  const userIds: string[] = [];

  beforeAll(async () => {
    h = await startHarness();
    orgId = await h.ctx.client.createOrganization({ name: 'listed' });
    for (let i = 0; i < 120; i += 1) {
      const user = await h.svc.admin.createUser('acme', { username: `listed-${i}`, email: `listed-${i}@example.com`, firstName: 'Ada', lastName: `L${i}` });
      userIds.push(user.id);
      await h.ctx.client.addMember(orgId, user.id);
    }
  });

  afterAll(async () => {
    await h.close();
  });

  it('lists every member across pages, in membership order, without the default admin user', async () => {
    const diags = new Collector();
    const state = await dataSource.read(h.ctx, { config: resourceConfig(dataSource, { organization_id: orgId }) }, diags);
    expect(diags.items).toEqual([]);
    expect(state!['id']).toBe(orgId);
    expect(state!['user_ids']).toEqual(userIds);
    const members = state!['members'] as Array<Record<string, Value>>;
    expect(members).toHaveLength(120);
    expect(members[0]).toEqual({ id: userIds[0], username: 'listed-0', email: 'listed-0@example.com', first_name: 'Ada', last_name: 'L0' });
    expect(members.some((m) => String(m['username']).startsWith('org-admin-'))).toBe(false);
  });

  it('reports an unknown organization on organization_id', async () => {
    const diags = new Collector();
    expect(await dataSource.read(h.ctx, { config: resourceConfig(dataSource, { organization_id: 'nope' }) }, diags)).toBeNull();
    expect(diags.errors).toEqual([expect.objectContaining({ summary: 'Organization not found', path: ['organization_id'] })]);
  });
});
