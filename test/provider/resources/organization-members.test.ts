import { orgAdminUsername } from '../../../src/api';
import { organizationMembersResource as resource } from '../../../src/provider/resources/organization-members';
import { Collector, createResource, plan, resourceConfig, startHarness, updateResource, type Harness } from './harness';

describe('orgadmin_organization_members', () => {
  let h: Harness;
  let users: string[];
  let orgCounter = 0;

  /** All members of an organization by id, the default admin user included. */
  const allMembers = async (orgId: string): Promise<Array<{ id: string; username: string }>> =>
    (await h.ctx.client.listAllMembers(orgId)).map((m) => ({ id: m.id, username: m.username }));

  const newOrg = async (): Promise<string> => {
    orgCounter += 1;
    return h.ctx.client.createOrganization({ name: `members-org-${orgCounter}` });
  };

  beforeAll(async () => {
    h = await startHarness();
    users = [];
    for (let i = 0; i < 6; i += 1) users.push((await h.svc.admin.createUser('acme', { username: `member-${i}` })).id);
  });

  afterAll(async () => {
    await h.close();
  });

  it('adds the listed users on create and reads them back without the default admin user', async () => {
    const orgId = await newOrg();
    const state = await createResource(resource, h.ctx, { organization_id: orgId, user_ids: [users[0]!, users[1]!] });
    expect(state).toEqual({ id: orgId, organization_id: orgId, user_ids: [users[0], users[1]].sort(), realm: 'acme' });
    const diags = new Collector();
    expect(await resource.read(h.ctx, { state }, diags)).toEqual(state);
    expect(diags.items).toEqual([]);
    const members = await allMembers(orgId);
    expect(members.map((m) => m.username).sort()).toEqual([orgAdminUsername(orgId), 'member-0', 'member-1'].sort());
  });

  it('adds and removes in one update and never touches the default admin user', async () => {
    const orgId = await newOrg();
    const state = await createResource(resource, h.ctx, { organization_id: orgId, user_ids: [users[0]!, users[1]!, users[2]!] });
    const { state: updated, diags } = await updateResource(resource, h.ctx, state, {
      organization_id: orgId,
      user_ids: [users[2]!, users[3]!, users[4]!],
    });
    expect(diags.items).toEqual([]);
    expect(updated!['user_ids']).toEqual([users[2], users[3], users[4]].sort());
    const members = await allMembers(orgId);
    expect(members.map((m) => m.id).sort()).toEqual(
      [users[2], users[3], users[4], members.find((m) => m.username === orgAdminUsername(orgId))!.id].sort(),
    );
    const removals = h.svc.requests.filter((r) => r.method === 'DELETE' && r.url.startsWith(`/realms/acme/orgs/${orgId}/members/`));
    expect(removals.map((r) => r.url.split('/').pop()).sort()).toEqual([users[0], users[1]].sort());
  });

  it('brings the set back when members were added or removed outside Terraform', async () => {
    const orgId = await newOrg();
    const state = await createResource(resource, h.ctx, { organization_id: orgId, user_ids: [users[0]!, users[1]!] });
    await h.ctx.client.addMember(orgId, users[5]!);
    await h.ctx.client.removeMember(orgId, users[0]!);
    const refreshed = await resource.read(h.ctx, { state }, new Collector());
    expect(refreshed!['user_ids']).toEqual([users[1], users[5]].sort());
    const { state: updated, diags } = await updateResource(resource, h.ctx, refreshed!, { organization_id: orgId, user_ids: [users[0]!, users[1]!] });
    expect(diags.items).toEqual([]);
    expect(updated!['user_ids']).toEqual([users[0], users[1]].sort());
    expect(await h.ctx.client.isMember(orgId, users[5]!)).toBe(false);
    expect(await h.ctx.client.isMember(orgId, users[0]!)).toBe(true);
  });

  it('refuses to create over members outside user_ids, listing them, and changes nothing', async () => {
    const orgId = await newOrg();
    await h.ctx.client.addMember(orgId, users[3]!);
    await h.ctx.client.addMember(orgId, users[4]!);
    const config = resourceConfig(resource, { organization_id: orgId, user_ids: [users[0]!, users[3]!] });
    const planned = await plan(resource, h.ctx, config, null);
    const diags = new Collector();
    expect(await resource.create(h.ctx, { plannedState: planned.plannedState, config }, diags)).toBeNull();
    expect(diags.errors).toHaveLength(1);
    expect(diags.errors[0]!.path).toEqual(['user_ids']);
    expect(diags.errors[0]!.detail).toContain(users[4]!);
    expect(diags.errors[0]!.detail).not.toContain(users[3]!);
    expect(diags.errors[0]!.detail).toContain(`terraform import orgadmin_organization_members.<name> ${orgId}`);
    expect(await h.ctx.client.isMember(orgId, users[0]!)).toBe(false);
  });

  it('tries every change and reports all unknown users in one diagnostic', async () => {
    const orgId = await newOrg();
    const state = await createResource(resource, h.ctx, { organization_id: orgId, user_ids: [users[0]!] });
    const { state: updated, diags } = await updateResource(resource, h.ctx, state, {
      organization_id: orgId,
      user_ids: ['ghost-1', users[1]!, 'ghost-2'],
    });
    expect(diags.errors).toHaveLength(1);
    expect(diags.errors[0]!.summary).toBe('Users not found');
    expect(diags.errors[0]!.detail).toContain('"ghost-1", "ghost-2"');
    expect(diags.errors[0]!.path).toEqual(['user_ids']);
    // The valid add and the removal still happened, and the state says so.
    expect(await h.ctx.client.isMember(orgId, users[1]!)).toBe(true);
    expect(await h.ctx.client.isMember(orgId, users[0]!)).toBe(false);
    expect(updated!['user_ids']).toEqual([users[1]]);
  });

  it('sends nothing when one of the changes is malformed', async () => {
    const orgId = await newOrg();
    const state = await createResource(resource, h.ctx, { organization_id: orgId, user_ids: [users[0]!] });
    const before = h.svc.requests.length;
    const { diags } = await updateResource(resource, h.ctx, state, { organization_id: orgId, user_ids: [users[1]!, ' '] });
    expect(diags.errors).toEqual([expect.objectContaining({ summary: 'Invalid user ids', path: ['user_ids'] })]);
    expect(h.svc.requests.slice(before).every((r) => r.method === 'GET')).toBe(true);
    expect(await h.ctx.client.isMember(orgId, users[0]!)).toBe(true);
    expect(await h.ctx.client.isMember(orgId, users[1]!)).toBe(false);
  });

  describe('the default admin user listed in user_ids', () => {
    const adminOf = async (orgId: string): Promise<string> =>
      (await allMembers(orgId)).find((m) => m.username === orgAdminUsername(orgId))!.id;

    it('refuses a create that lists it, with an error on user_ids, and adds nobody', async () => {
      const orgId = await newOrg();
      const adminId = await adminOf(orgId);
      const config = resourceConfig(resource, { organization_id: orgId, user_ids: [users[0]!, adminId] });
      const planned = await plan(resource, h.ctx, config, null);
      const before = h.svc.requests.length;
      const diags = new Collector();
      expect(await resource.create(h.ctx, { plannedState: planned.plannedState, config }, diags)).toBeNull();
      expect(diags.errors).toEqual([
        expect.objectContaining({ summary: 'Default admin user listed in user_ids', path: ['user_ids'] }),
      ]);
      expect(diags.errors[0]!.detail).toContain(adminId);
      expect(diags.errors[0]!.detail).toContain(orgAdminUsername(orgId));
      expect(diags.errors[0]!.detail).toContain('always a member');
      expect(diags.errors[0]!.detail).toContain('Nothing was changed.');
      expect(h.svc.requests.slice(before).every((r) => r.method === 'GET')).toBe(true);
      expect(await h.ctx.client.isMember(orgId, users[0]!)).toBe(false);
    });

    it('refuses an update that lists it and changes nothing', async () => {
      const orgId = await newOrg();
      const adminId = await adminOf(orgId);
      const state = await createResource(resource, h.ctx, { organization_id: orgId, user_ids: [users[0]!] });
      const before = h.svc.requests.length;
      const { state: updated, diags } = await updateResource(resource, h.ctx, state, { organization_id: orgId, user_ids: [users[1]!, adminId] });
      expect(updated).toBeNull();
      expect(diags.errors).toEqual([expect.objectContaining({ summary: 'Default admin user listed in user_ids', path: ['user_ids'] })]);
      expect(h.svc.requests.slice(before).every((r) => r.method === 'GET')).toBe(true);
      expect(await h.ctx.client.isMember(orgId, users[0]!)).toBe(true);
      expect(await h.ctx.client.isMember(orgId, users[1]!)).toBe(false);
    });

    it('refuses the admin account of another organization that is a member, which member lists hide as well', async () => {
      const orgId = await newOrg();
      const otherOrgId = await newOrg();
      const otherAdminId = await adminOf(otherOrgId);
      await h.ctx.client.addMember(orgId, otherAdminId);
      const config = resourceConfig(resource, { organization_id: orgId, user_ids: [otherAdminId] });
      const planned = await plan(resource, h.ctx, config, null);
      const diags = new Collector();
      expect(await resource.create(h.ctx, { plannedState: planned.plannedState, config }, diags)).toBeNull();
      expect(diags.errors).toEqual([expect.objectContaining({ summary: 'Admin accounts listed in user_ids', path: ['user_ids'] })]);
      expect(diags.errors[0]!.detail).toContain(otherAdminId);
    });

    it('accepts a user whose email merely mentions an admin account name', async () => {
      const orgId = await newOrg();
      const lookalike = (await h.svc.admin.createUser('acme', { username: `lookalike-${orgCounter}`, email: `org-admin-${orgCounter}@example.com` })).id;
      const state = await createResource(resource, h.ctx, { organization_id: orgId, user_ids: [lookalike] });
      expect(state['user_ids']).toEqual([lookalike]);
      expect(await resource.read(h.ctx, { state }, new Collector())).toEqual(state);
    });
  });

  it('reads and updates 250 members across pages', async () => {
    const orgId = await newOrg();
    const many: string[] = [];
    for (let i = 0; i < 250; i += 1) many.push((await h.svc.admin.createUser('acme', { username: `paged-${i}` })).id);
    const state = await createResource(resource, h.ctx, { organization_id: orgId, user_ids: many });
    expect((state['user_ids'] as string[]).length).toBe(250);

    const before = h.svc.requests.length;
    const diags = new Collector();
    const refreshed = await resource.read(h.ctx, { state }, diags);
    expect(diags.items).toEqual([]);
    expect(refreshed!['user_ids']).toEqual([...many].sort());
    const pages = h.svc.requests.slice(before);
    expect(pages.length).toBe(3);
    expect(pages.every((r) => r.url.includes('excludeAdminAccounts=true'))).toBe(true);

    // No change planned means nothing to send: an update to the same set touches no member.
    const beforeUpdate = h.svc.requests.length;
    const { diags: updateDiags } = await updateResource(resource, h.ctx, refreshed!, { organization_id: orgId, user_ids: many });
    expect(updateDiags.items).toEqual([]);
    expect(h.svc.requests.slice(beforeUpdate).every((r) => r.method === 'GET')).toBe(true);
  });

  it('removes only the listed members on destroy', async () => {
    const orgId = await newOrg();
    const state = await createResource(resource, h.ctx, { organization_id: orgId, user_ids: [users[0]!, users[1]!] });
    await h.ctx.client.addMember(orgId, users[2]!);
    const diags = new Collector();
    await resource.delete(h.ctx, { priorState: state }, diags);
    expect(diags.items).toEqual([]);
    expect((await allMembers(orgId)).map((m) => m.username).sort()).toEqual([orgAdminUsername(orgId), 'member-2'].sort());
  });

  it('drops the resource from state with a warning when the organization was deleted', async () => {
    const orgId = await newOrg();
    const state = await createResource(resource, h.ctx, { organization_id: orgId, user_ids: [users[0]!] });
    await h.ctx.client.deleteOrganization(orgId);
    const diags = new Collector();
    expect(await resource.read(h.ctx, { state }, diags)).toBeNull();
    expect(diags.warnings).toHaveLength(1);
    expect(diags.errors).toEqual([]);
  });

  it('reports a missing organization on organization_id at create', async () => {
    const config = resourceConfig(resource, { organization_id: 'no-such-org', user_ids: [users[0]!] });
    const planned = await plan(resource, h.ctx, config, null);
    const diags = new Collector();
    expect(await resource.create(h.ctx, { plannedState: planned.plannedState, config }, diags)).toBeNull();
    expect(diags.errors).toEqual([expect.objectContaining({ summary: 'Organization not found', path: ['organization_id'] })]);
  });

  describe('import', () => {
    it('imports by ORG and REALM/ORG, then reads the member set', async () => {
      const orgId = await newOrg();
      await h.ctx.client.addMember(orgId, users[1]!);
      const diags = new Collector();
      const imported = await resource.importState!(h.ctx, { id: orgId }, diags);
      expect(imported).toEqual({ id: orgId, organization_id: orgId, user_ids: null, realm: 'acme' });
      expect(await resource.importState!(h.ctx, { id: `acme/${orgId}` }, diags)).toEqual(imported);
      expect(await resource.read(h.ctx, { state: imported! }, diags)).toEqual({ ...imported, user_ids: [users[1]] });
      expect(diags.items).toEqual([]);
    });

    it('refuses malformed ids', async () => {
      for (const id of ['', 'a/b/c', '/b']) {
        const diags = new Collector();
        expect(await resource.importState!(h.ctx, { id }, diags)).toBeNull();
        expect(diags.errors[0]!.detail).toContain('`ORG` or `REALM/ORG`');
      }
    });
  });

  describe('validate', () => {
    it('reports empty user ids and an empty organization id', () => {
      const diags = new Collector();
      resource.validate!(resourceConfig(resource, { organization_id: '', user_ids: ['a', ''] }), diags);
      expect(diags.errors.map((e) => e.path)).toEqual([['organization_id'], ['user_ids']]);
    });
  });
});
