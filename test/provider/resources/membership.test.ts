import { orgAdminUsername } from '../../../src/api';
import { errorsOf, stateOf, warningsOf } from '../../../src/tfplugin/testing/harness';
import { membershipResource as resource, MEMBERSHIP_RESOURCE_TYPE as TYPE } from '../../../src/provider/resources/membership';
import { startProviderTest, type ProviderTest } from '../harness';

describe('orgadmin_membership', () => {
  let t: ProviderTest;
  let orgId: string;
  let userIds: string[];

  beforeAll(async () => {
    t = await startProviderTest();
    orgId = await t.client.createOrganization({ name: 'membership-org' });
    userIds = [];
    for (const username of ['alice', 'bob', 'carol', 'dave', 'erin']) {
      userIds.push((await t.svc.admin.createUser('acme', { username, email: `${username}@example.com` })).id);
    }
  });

  afterAll(async () => {
    await t.close();
  });

  it('adds the user on create, keeps it on read and removes it on delete', async () => {
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_id: userIds[0]! }));
    expect(state).toEqual({ id: `${orgId}/${userIds[0]}`, organization_id: orgId, user_id: userIds[0], realm: 'acme' });
    expect(await t.client.isMember(orgId, userIds[0]!)).toBe(true);

    const read = await t.tf.read(TYPE, state);
    expect(read.state).toEqual(state);
    expect(read.diagnostics).toEqual([]);

    // A later terraform run: a new provider process.
    const deleted = await (await t.harness()).destroy(TYPE, state);
    expect(deleted.diagnostics).toEqual([]);
    expect(await t.client.isMember(orgId, userIds[0]!)).toBe(false);
  });

  it('reads a membership with exactly one request to the service', async () => {
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_id: userIds[1]! }));
    const before = t.svc.requests.length;
    expect((await t.tf.read(TYPE, state)).state).toEqual(state);
    const requests = t.svc.requests.slice(before);
    expect(requests).toEqual([{ method: 'GET', url: `/realms/acme/orgs/${orgId}/members/${userIds[1]}`, status: 204, clientId: t.clientId }]);
  });

  it('removes the membership from state with a warning when it was removed outside Terraform', async () => {
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_id: userIds[2]! }));
    await t.client.removeMember(orgId, userIds[2]!);
    const before = t.svc.requests.length;
    const read = await t.tf.read(TYPE, state);
    expect(read.state).toBeNull();
    expect(t.svc.requests.length - before).toBe(1);
    expect(errorsOf(read.diagnostics)).toEqual([]);
    expect(warningsOf(read.diagnostics)).toHaveLength(1);
    expect(warningsOf(read.diagnostics)[0]!.summary).toBe('Membership removed outside Terraform');
    expect(warningsOf(read.diagnostics)[0]!.detail).toContain('the next plan adds it again');
  });

  it('treats deleting a membership that is already gone as done', async () => {
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_id: userIds[3]! }));
    await t.client.removeMember(orgId, userIds[3]!);
    expect((await t.tf.destroy(TYPE, state)).diagnostics).toEqual([]);
  });

  it('is idempotent: creating a membership that already exists succeeds', async () => {
    await t.client.addMember(orgId, userIds[4]!);
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_id: userIds[4]! }));
    expect(state['id']).toBe(`${orgId}/${userIds[4]}`);
  });

  it('reports an unknown user on user_id and an unknown organization on organization_id', async () => {
    const attempt = async (values: Record<string, string>): Promise<ReturnType<typeof errorsOf>> => {
      const { state, diagnostics } = await t.tf.planThenApply(TYPE, { priorState: null, config: values });
      expect(state).toBeNull();
      return errorsOf(diagnostics);
    };
    const unknownUser = await attempt({ organization_id: orgId, user_id: 'no-such-user' });
    expect(unknownUser).toEqual([expect.objectContaining({ summary: 'User not found', path: ['user_id'] })]);
    expect(unknownUser[0]!.detail).toContain('"no-such-user"');
    const unknownOrg = await attempt({ organization_id: 'no-such-org', user_id: userIds[0]! });
    expect(unknownOrg).toEqual([expect.objectContaining({ summary: 'Organization not found', path: ['organization_id'] })]);
  });

  it('plans the id from the two ids and forces replacement when the realm changes', async () => {
    const created = await t.tf.plan(TYPE, { priorState: null, config: { organization_id: 'o', user_id: 'u' } });
    expect(created.plannedState).toMatchObject({ id: 'o/u', realm: 'acme' });
    const moved = await t.tf.plan(TYPE, {
      priorState: { id: 'o/u', organization_id: 'o', user_id: 'u', realm: 'acme' },
      config: { organization_id: 'o', user_id: 'u', realm: 'other' },
    });
    expect(moved.requiresReplace).toEqual([['realm']]);
    for (const name of ['organization_id', 'user_id', 'realm']) expect(resource.schema.attributes[name]!.requiresReplace).toBe(true);
  });

  it('refuses to destroy the default admin user\'s membership with advice', async () => {
    const members = await t.client.listAllMembers(orgId);
    const admin = members.find((m) => m.username === orgAdminUsername(orgId))!;
    const state = { id: `${orgId}/${admin.id}`, organization_id: orgId, user_id: admin.id, realm: 'acme' };
    const { diagnostics } = await t.tf.destroy(TYPE, state);
    expect(errorsOf(diagnostics)).toHaveLength(1);
    expect(errorsOf(diagnostics)[0]!.detail).toContain('terraform state rm');
    expect(await t.client.isMember(orgId, admin.id)).toBe(true);
  });

  it('reports a disabled realm on delete as such, not as the default admin user\'s membership', async () => {
    // The create leaves the provider with a cached token before the realm is disabled.
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_id: userIds[1]! }));
    await t.client.isMember(orgId, userIds[1]!);
    await t.svc.admin.setRealmEnabled('acme', false);
    let diagnostics;
    const later = await t.harness();
    try {
      ({ diagnostics } = await later.destroy(TYPE, state));
    } finally {
      await t.svc.admin.setRealmEnabled('acme', true);
    }
    expect(errorsOf(diagnostics)).toHaveLength(1);
    expect(errorsOf(diagnostics)[0]!.summary).toBe('Failed to remove organization member');
    expect(errorsOf(diagnostics)[0]!.detail).toContain('Realm "acme" is disabled');
    expect(errorsOf(diagnostics)[0]!.detail).not.toContain('default admin user');
    expect(await t.client.isMember(orgId, userIds[1]!)).toBe(true);
  });

  describe('import', () => {
    it('imports by ORG/USER and by REALM/ORG/USER', async () => {
      const expected = { id: `${orgId}/${userIds[1]}`, organization_id: orgId, user_id: userIds[1], realm: 'acme' };
      await t.client.addMember(orgId, userIds[1]!);
      const imports = [await t.tf.importResource(TYPE, `${orgId}/${userIds[1]}`), await t.tf.importResource(TYPE, `acme/${orgId}/${userIds[1]}`)];
      expect(imports.map((i) => i.state)).toEqual([expected, expected]);
      expect(imports.flatMap((i) => i.diagnostics)).toEqual([]);
      // A realm the key cannot reach is refused at import, not read as "no such membership".
      const other = await t.tf.importResource(TYPE, `other/${orgId}/${userIds[1]}`);
      expect(other.state).toBeNull();
      expect(errorsOf(other.diagnostics)[0]!.detail).toContain('"other"');
    });

    it('refuses to import a membership of someone who is not a member, naming both ids', async () => {
      await t.client.removeMember(orgId, userIds[2]!).catch(() => undefined);
      const { state, diagnostics } = await t.tf.importResource(TYPE, `${orgId}/${userIds[2]}`);
      expect(state).toBeNull();
      expect(errorsOf(diagnostics).map((d) => d.summary)).toEqual(['Cannot import: not a member']);
      expect(errorsOf(diagnostics)[0]!.detail).toContain(userIds[2]!);
      expect(errorsOf(diagnostics)[0]!.detail).not.toContain('region');
    });

    it('refuses malformed ids, saying which forms are accepted', async () => {
      for (const id of [orgId, `${orgId}/`, 'a/b/c/d', ' a/b', `/${userIds[0]}`]) {
        const { state, diagnostics } = await t.tf.importResource(TYPE, id);
        expect(state).toBeNull();
        expect(errorsOf(diagnostics)).toHaveLength(1);
        expect(errorsOf(diagnostics)[0]!.detail).toContain('`ORG/USER` or `REALM/ORG/USER`');
        expect(errorsOf(diagnostics)[0]!.detail).toContain('terraform import orgadmin_membership.example');
      }
    });
  });

  describe('validate', () => {
    it('reports empty ids on their attribute and skips unknown ones', async () => {
      const diagnostics = await t.tf.validateResource(TYPE, { organization_id: '', user_id: 'u/v' });
      expect(errorsOf(diagnostics).map((e) => e.path)).toEqual([['organization_id'], ['user_id']]);
    });
  });
});
