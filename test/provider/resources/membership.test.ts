import { orgAdminUsername } from '../../../src/api';
import { membershipResource as resource } from '../../../src/provider/resources/membership';
import { Collector, createResource, plan, resourceConfig, startHarness, type Harness } from './harness';

describe('orgadmin_membership', () => {
  let h: Harness;
  let orgId: string;
  let userIds: string[];

  beforeAll(async () => {
    h = await startHarness();
    orgId = await h.ctx.client.createOrganization({ name: 'membership-org' });
    userIds = [];
    for (const username of ['alice', 'bob', 'carol', 'dave', 'erin']) {
      userIds.push((await h.svc.admin.createUser('acme', { username, email: `${username}@example.com` })).id);
    }
  });

  afterAll(async () => {
    await h.close();
  });

  it('adds the user on create, keeps it on read and removes it on delete', async () => {
    const state = await createResource(resource, h.ctx, { organization_id: orgId, user_id: userIds[0]! });
    expect(state).toEqual({ id: `${orgId}/${userIds[0]}`, organization_id: orgId, user_id: userIds[0], realm: 'acme' });
    expect(await h.ctx.client.isMember(orgId, userIds[0]!)).toBe(true);

    const readDiags = new Collector();
    expect(await resource.read(h.ctx, { state }, readDiags)).toEqual(state);
    expect(readDiags.items).toEqual([]);

    const deleteDiags = new Collector();
    await resource.delete(h.ctx, { priorState: state }, deleteDiags);
    expect(deleteDiags.items).toEqual([]);
    expect(await h.ctx.client.isMember(orgId, userIds[0]!)).toBe(false);
  });

  it('reads a membership with exactly one request to the service', async () => {
    const state = await createResource(resource, h.ctx, { organization_id: orgId, user_id: userIds[1]! });
    const before = h.svc.requests.length;
    const diags = new Collector();
    expect(await resource.read(h.ctx, { state }, diags)).toEqual(state);
    const requests = h.svc.requests.slice(before);
    expect(requests).toEqual([{ method: 'GET', url: `/realms/acme/orgs/${orgId}/members/${userIds[1]}`, status: 204, clientId: h.clientId }]);
  });

  it('removes the membership from state with a warning when it was removed outside Terraform', async () => {
    const state = await createResource(resource, h.ctx, { organization_id: orgId, user_id: userIds[2]! });
    await h.ctx.client.removeMember(orgId, userIds[2]!);
    const before = h.svc.requests.length;
    const diags = new Collector();
    expect(await resource.read(h.ctx, { state }, diags)).toBeNull();
    expect(h.svc.requests.length - before).toBe(1);
    expect(diags.errors).toEqual([]);
    expect(diags.warnings).toHaveLength(1);
    expect(diags.warnings[0]!.summary).toBe('Membership removed outside Terraform');
    expect(diags.warnings[0]!.detail).toContain('the next plan adds it again');
  });

  it('treats deleting a membership that is already gone as done', async () => {
    const state = await createResource(resource, h.ctx, { organization_id: orgId, user_id: userIds[3]! });
    await h.ctx.client.removeMember(orgId, userIds[3]!);
    const diags = new Collector();
    await resource.delete(h.ctx, { priorState: state }, diags);
    expect(diags.items).toEqual([]);
  });

  it('is idempotent: creating a membership that already exists succeeds', async () => {
    await h.ctx.client.addMember(orgId, userIds[4]!);
    const state = await createResource(resource, h.ctx, { organization_id: orgId, user_id: userIds[4]! });
    expect(state['id']).toBe(`${orgId}/${userIds[4]}`);
  });

  it('reports an unknown user on user_id and an unknown organization on organization_id', async () => {
    const attempt = async (values: Record<string, string>): Promise<Collector> => {
      const config = resourceConfig(resource, values);
      const planned = await plan(resource, h.ctx, config, null);
      const diags = new Collector();
      expect(await resource.create(h.ctx, { plannedState: planned.plannedState, config }, diags)).toBeNull();
      return diags;
    };
    const unknownUser = await attempt({ organization_id: orgId, user_id: 'no-such-user' });
    expect(unknownUser.errors).toEqual([expect.objectContaining({ summary: 'User not found', path: ['user_id'] })]);
    expect(unknownUser.errors[0]!.detail).toContain('"no-such-user"');
    const unknownOrg = await attempt({ organization_id: 'no-such-org', user_id: userIds[0]! });
    expect(unknownOrg.errors).toEqual([expect.objectContaining({ summary: 'Organization not found', path: ['organization_id'] })]);
  });

  it('plans the id from the two ids and forces replacement when the realm changes', async () => {
    const config = resourceConfig(resource, { organization_id: 'o', user_id: 'u' });
    const created = await plan(resource, h.ctx, config, null);
    expect(created.plannedState).toMatchObject({ id: 'o/u', realm: 'acme' });
    const moved = await plan(resource, h.ctx, resourceConfig(resource, { organization_id: 'o', user_id: 'u', realm: 'other' }), {
      id: 'o/u',
      organization_id: 'o',
      user_id: 'u',
      realm: 'acme',
    });
    expect(moved.requiresReplace).toEqual([['realm']]);
    for (const name of ['organization_id', 'user_id', 'realm']) expect(resource.schema.attributes[name]!.requiresReplace).toBe(true);
  });

  it('refuses to destroy the default admin user\'s membership with advice', async () => {
    const members = await h.ctx.client.listAllMembers(orgId);
    const admin = members.find((m) => m.username === orgAdminUsername(orgId))!;
    const state = { id: `${orgId}/${admin.id}`, organization_id: orgId, user_id: admin.id, realm: 'acme' };
    const diags = new Collector();
    await resource.delete(h.ctx, { priorState: state }, diags);
    expect(diags.errors).toHaveLength(1);
    expect(diags.errors[0]!.detail).toContain('terraform state rm');
    expect(await h.ctx.client.isMember(orgId, admin.id)).toBe(true);
  });

  it('reports a disabled realm on delete as such, not as the default admin user\'s membership', async () => {
    const state = await createResource(resource, h.ctx, { organization_id: orgId, user_id: userIds[1]! });
    await h.ctx.client.isMember(orgId, userIds[1]!); // the token is cached before the realm is disabled
    await h.svc.admin.setRealmEnabled('acme', false);
    const diags = new Collector();
    try {
      await resource.delete(h.ctx, { priorState: state }, diags);
    } finally {
      await h.svc.admin.setRealmEnabled('acme', true);
    }
    expect(diags.errors).toHaveLength(1);
    expect(diags.errors[0]!.summary).toBe('Failed to remove organization member');
    expect(diags.errors[0]!.detail).toContain('Realm "acme" is disabled');
    expect(diags.errors[0]!.detail).not.toContain('default admin user');
    expect(await h.ctx.client.isMember(orgId, userIds[1]!)).toBe(true);
  });

  describe('import', () => {
    it('imports by ORG/USER and by REALM/ORG/USER', async () => {
      const diags = new Collector();
      const expected = { id: `${orgId}/${userIds[1]}`, organization_id: orgId, user_id: userIds[1], realm: 'acme' };
      expect(await resource.importState!(h.ctx, { id: `${orgId}/${userIds[1]}` }, diags)).toEqual(expected);
      expect(await resource.importState!(h.ctx, { id: `acme/${orgId}/${userIds[1]}` }, diags)).toEqual(expected);
      expect(await resource.importState!(h.ctx, { id: `other/${orgId}/${userIds[1]}` }, diags)).toEqual({ ...expected, realm: 'other' });
      expect(diags.items).toEqual([]);
    });

    it('refuses malformed ids, saying which forms are accepted', async () => {
      for (const id of [orgId, `${orgId}/`, 'a/b/c/d', ' a/b', `/${userIds[0]}`]) {
        const diags = new Collector();
        expect(await resource.importState!(h.ctx, { id }, diags)).toBeNull();
        expect(diags.errors).toHaveLength(1);
        expect(diags.errors[0]!.detail).toContain('`ORG/USER` or `REALM/ORG/USER`');
        expect(diags.errors[0]!.detail).toContain('terraform import orgadmin_membership.example');
      }
    });
  });

  describe('validate', () => {
    it('reports empty ids on their attribute and skips unknown ones', () => {
      const diags = new Collector();
      resource.validate!(resourceConfig(resource, { organization_id: '', user_id: 'u/v' }), diags);
      expect(diags.errors.map((e) => e.path)).toEqual([['organization_id'], ['user_id']]);
    });
  });
});
