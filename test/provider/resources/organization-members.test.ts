import { MEMBERS_PAGE, orgAdminUsername } from '../../../src/api';
import { errorsOf, stateOf, warningsOf } from '../../../src/tfplugin/testing/harness';
import { ORGANIZATION_MEMBERS_RESOURCE_TYPE as TYPE } from '../../../src/provider/resources/organization-members';
import { startProviderTest, type ProviderTest } from '../harness';

describe('orgadmin_organization_members', () => {
  let t: ProviderTest;
  let users: string[];
  let orgCounter = 0;

  /** All members of an organization by id, the default admin user included. */
  const allMembers = async (orgId: string): Promise<Array<{ id: string; username: string }>> =>
    (await t.client.listAllMembers(orgId)).map((m) => ({ id: m.id, username: m.username }));

  const newOrg = async (): Promise<string> => {
    orgCounter += 1;
    return t.client.createOrganization({ name: `members-org-${orgCounter}` });
  };

  beforeAll(async () => {
    t = await startProviderTest();
    users = [];
    for (let i = 0; i < 6; i += 1) users.push((await t.svc.admin.createUser('acme', { username: `member-${i}`, email: `member-${i}@example.com` })).id);
  });

  afterAll(async () => {
    await t.close();
  });

  it('adds the listed users on create and reads them back without the default admin user', async () => {
    const orgId = await newOrg();
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_ids: [users[0]!, users[1]!] }));
    // In the configuration's order: the state records the list as written (see src/provider/id-list.ts).
    expect(state).toEqual({ id: orgId, organization_id: orgId, user_ids: [users[0], users[1]], usernames: null, emails: null, realm: 'acme' });
    const read = await t.tf.read(TYPE, state);
    expect(read.state).toEqual(state);
    expect(read.diagnostics).toEqual([]);
    const members = await allMembers(orgId);
    expect(members.map((m) => m.username).sort()).toEqual([orgAdminUsername(orgId), 'member-0', 'member-1'].sort());
  });

  it('adds and removes in one update and never touches the default admin user', async () => {
    const orgId = await newOrg();
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_ids: [users[0]!, users[1]!, users[2]!] }));
    const { state: updated, diagnostics } = await t.tf.update(TYPE, state, {
      organization_id: orgId,
      user_ids: [users[2]!, users[3]!, users[4]!],
    });
    expect(diagnostics).toEqual([]);
    expect(updated!['user_ids']).toEqual([users[2], users[3], users[4]]);
    const members = await allMembers(orgId);
    expect(members.map((m) => m.id).sort()).toEqual(
      [users[2], users[3], users[4], members.find((m) => m.username === orgAdminUsername(orgId))!.id].sort(),
    );
    const removals = t.svc.requests.filter((r) => r.method === 'DELETE' && r.url.startsWith(`/realms/acme/orgs/${orgId}/members/`));
    expect(removals.map((r) => r.url.split('/').pop()).sort()).toEqual([users[0], users[1]].sort());
  });

  it('brings the set back when members were added or removed outside Terraform', async () => {
    const orgId = await newOrg();
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_ids: [users[0]!, users[1]!] }));
    await t.client.addMember(orgId, users[5]!);
    await t.client.removeMember(orgId, users[0]!);
    const refreshed = (await t.tf.read(TYPE, state)).state;
    // Members still there keep the state's order; the one added outside Terraform comes after them.
    expect(refreshed!['user_ids']).toEqual([users[1], users[5]]);
    const { state: updated, diagnostics } = await t.tf.update(TYPE, refreshed!, { organization_id: orgId, user_ids: [users[0]!, users[1]!] });
    expect(diagnostics).toEqual([]);
    expect(updated!['user_ids']).toEqual([users[0], users[1]]);
    expect(await t.client.isMember(orgId, users[5]!)).toBe(false);
    expect(await t.client.isMember(orgId, users[0]!)).toBe(true);
  });

  it('refuses to create over members outside user_ids, listing them, and changes nothing', async () => {
    const orgId = await newOrg();
    await t.client.addMember(orgId, users[3]!);
    await t.client.addMember(orgId, users[4]!);
    const { state, diagnostics } = await t.tf.planThenApply(TYPE, { priorState: null, config: { organization_id: orgId, user_ids: [users[0]!, users[3]!] } });
    expect(state).toBeNull();
    // The apply's own check (the plan's is the same rule), naming the member by username.
    const errors = errorsOf(diagnostics);
    expect(errors.map((e) => e.summary)).toEqual(['Organization has members the configuration does not list']);
    expect(errors[0]!.path).toEqual(['organization_id']);
    expect(errors[0]!.detail).toContain('"member-4"');
    expect(errors[0]!.detail).not.toContain('"member-3"');
    expect(errors[0]!.detail).toContain(`terraform import orgadmin_organization_members.<name> ${orgId}`);
    expect(await t.client.isMember(orgId, users[0]!)).toBe(false);
  });

  it('reports all unknown users in one diagnostic at plan, and an apply past it changes nothing', async () => {
    const orgId = await newOrg();
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_ids: [users[0]!] }));
    // A later terraform run: a new provider process, which checks at plan.
    const later = await t.harness();
    const { plan, state: updated, diagnostics } = await later.planThenApply(TYPE, {
      priorState: state,
      config: { organization_id: orgId, user_ids: ['ghost-1', users[1]!, 'ghost-2'] },
    });
    for (const errors of [errorsOf(plan.diagnostics), errorsOf(diagnostics)]) {
      expect(errors).toHaveLength(1);
      expect(errors[0]!.summary).toBe('Users not found');
      expect(errors[0]!.detail).toContain('"ghost-1", "ghost-2"');
      expect(errors[0]!.path).toEqual(['user_ids']);
    }
    expect(await t.client.isMember(orgId, users[1]!)).toBe(false);
    expect(await t.client.isMember(orgId, users[0]!)).toBe(true);
    expect(updated).toEqual(state);
  });

  it('sends nothing when one of the changes is malformed', async () => {
    const orgId = await newOrg();
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_ids: [users[0]!] }));
    const before = t.svc.requests.length;
    // Past validation (which refuses the blank id too): the update's own check.
    const { diagnostics } = await t.tf.planThenApply(TYPE, { priorState: state, config: { organization_id: orgId, user_ids: [users[1]!, ' '] } });
    expect(errorsOf(diagnostics)).toEqual([expect.objectContaining({ summary: 'Invalid user ids', path: ['user_ids'] })]);
    expect(t.svc.requests.slice(before).every((r) => r.method === 'GET')).toBe(true);
    expect(await t.client.isMember(orgId, users[0]!)).toBe(true);
    expect(await t.client.isMember(orgId, users[1]!)).toBe(false);
  });

  describe('the default admin user listed in user_ids', () => {
    const adminOf = async (orgId: string): Promise<string> =>
      (await allMembers(orgId)).find((m) => m.username === orgAdminUsername(orgId))!.id;

    it('refuses a create that lists it, with an error on user_ids, and adds nobody', async () => {
      const orgId = await newOrg();
      const adminId = await adminOf(orgId);
      const config = { organization_id: orgId, user_ids: [users[0]!, adminId] };
      const planned = await t.tf.plan(TYPE, { priorState: null, config });
      const before = t.svc.requests.length;
      const { state, diagnostics } = await t.tf.apply(TYPE, { priorState: null, plannedState: planned.plannedState, config });
      expect(state).toBeNull();
      const errors = errorsOf(diagnostics);
      expect(errors).toEqual([
        expect.objectContaining({ summary: 'Default admin user listed', path: ['user_ids'] }),
      ]);
      expect(errors[0]!.detail).toContain(adminId);
      expect(errors[0]!.detail).toContain(orgAdminUsername(orgId));
      expect(errors[0]!.detail).toContain('always a member');
      expect(errors[0]!.detail).toContain('Nothing was changed.');
      expect(t.svc.requests.slice(before).every((r) => r.method === 'GET')).toBe(true);
      expect(await t.client.isMember(orgId, users[0]!)).toBe(false);
    });

    it('refuses an update that lists it and changes nothing', async () => {
      const orgId = await newOrg();
      const adminId = await adminOf(orgId);
      const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_ids: [users[0]!] }));
      const config = { organization_id: orgId, user_ids: [users[1]!, adminId] };
      const planned = await t.tf.plan(TYPE, { priorState: state, config });
      const before = t.svc.requests.length;
      const { state: updated, diagnostics } = await t.tf.apply(TYPE, { priorState: state, plannedState: planned.plannedState, config });
      // The update produced no new state: the framework keeps the prior one.
      expect(updated).toEqual(state);
      expect(errorsOf(diagnostics)).toEqual([expect.objectContaining({ summary: 'Default admin user listed', path: ['user_ids'] })]);
      expect(t.svc.requests.slice(before).every((r) => r.method === 'GET')).toBe(true);
      expect(await t.client.isMember(orgId, users[0]!)).toBe(true);
      expect(await t.client.isMember(orgId, users[1]!)).toBe(false);
    });

    it('refuses the admin account of another organization that is a member, which member lists hide as well', async () => {
      const orgId = await newOrg();
      const otherOrgId = await newOrg();
      const otherAdminId = await adminOf(otherOrgId);
      await t.client.addMember(orgId, otherAdminId);
      const { state, diagnostics } = await t.tf.planThenApply(TYPE, { priorState: null, config: { organization_id: orgId, user_ids: [otherAdminId] } });
      expect(state).toBeNull();
      expect(errorsOf(diagnostics)).toEqual([expect.objectContaining({ summary: 'Admin account listed', path: ['user_ids'] })]);
      expect(errorsOf(diagnostics)[0]!.detail).toContain(otherAdminId);
    });

    it('accepts a user whose email merely mentions an admin account name', async () => {
      const orgId = await newOrg();
      const lookalike = (await t.svc.admin.createUser('acme', { username: `lookalike-${orgCounter}`, email: `org-admin-${orgCounter}@example.com` })).id;
      const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_ids: [lookalike] }));
      expect(state['user_ids']).toEqual([lookalike]);
      expect((await t.tf.read(TYPE, state)).state).toEqual(state);
    });
  });

  it('reads and updates 1,050 members across pages of the largest size the service allows', async () => {
    const orgId = await newOrg();
    const many: string[] = [];
    for (let i = 0; i < 1050; i += 1) many.push((await t.svc.admin.createUser('acme', { username: `paged-${i}` })).id);
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_ids: many }));
    expect((state['user_ids'] as string[]).length).toBe(1050);

    const before = t.svc.requests.length;
    const { state: refreshed, diagnostics } = await t.tf.read(TYPE, state);
    expect(diagnostics).toEqual([]);
    expect(refreshed!['user_ids']).toEqual(many);
    const pages = t.svc.requests.slice(before);
    expect(pages.length).toBe(2);
    expect(pages.every((r) => r.url.includes('excludeAdminAccounts=true'))).toBe(true);
    expect(pages.every((r) => r.url.includes(`max=${MEMBERS_PAGE.cap}`))).toBe(true);

    // No change planned means nothing to send: an update to the same set touches no member.
    const beforeUpdate = t.svc.requests.length;
    const { diagnostics: updateDiagnostics } = await t.tf.update(TYPE, refreshed!, { organization_id: orgId, user_ids: many });
    expect(updateDiagnostics).toEqual([]);
    expect(t.svc.requests.slice(beforeUpdate).every((r) => r.method === 'GET')).toBe(true);
  });

  it('plans no change when the configuration lists the same ids in another order', async () => {
    const orgId = await newOrg();
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_ids: [users[0]!, users[1]!, users[2]!] }));
    const plan = await t.tf.plan(TYPE, { priorState: state, config: { organization_id: orgId, user_ids: [users[2]!, users[0]!, users[1]!] } });
    expect(plan.diagnostics).toEqual([]);
    expect(plan.changed).toBe(false);
    expect(plan.plannedState!['user_ids']).toEqual(state['user_ids']);
  });

  it('plans the configured list when the ids differ, and records it in that order', async () => {
    const orgId = await newOrg();
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_ids: [users[1]!, users[0]!] }));
    const config = { organization_id: orgId, user_ids: [users[3]!, users[1]!, users[0]!] };
    const { plan, state: applied, diagnostics } = await t.tf.planThenApply(TYPE, { priorState: state, config });
    expect(plan.changed).toBe(true);
    expect(plan.plannedState!['user_ids']).toEqual(config.user_ids);
    expect(diagnostics).toEqual([]);
    // Terraform requires the applied list to equal the planned one, element by element.
    expect(applied!['user_ids']).toEqual(config.user_ids);
  });

  it('reads the members in the state\'s order whatever order the service lists them in', async () => {
    const orgId = await newOrg();
    const listed = [users[4]!, users[0]!, users[2]!];
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_ids: listed }));
    const read = await t.tf.read(TYPE, state);
    expect(read.state!['user_ids']).toEqual(listed);
    // An imported member set (no order yet) reads in username order.
    const imported = stateOf(await t.tf.importState(TYPE, orgId));
    expect(imported['user_ids']).toEqual([users[0], users[2], users[4]]);
  });

  it('refuses an id listed twice, pointing at the repeat, where a set would have dropped it silently', async () => {
    const diagnostics = await t.tf.validateResource(TYPE, { organization_id: 'org', user_ids: [users[0]!, users[1]!, users[0]!, users[1]!] });
    const errors = errorsOf(diagnostics);
    expect(errors.map((e) => [e.summary, e.path])).toEqual([
      ['Duplicate id in user_ids', ['user_ids', 2]],
      ['Duplicate id in user_ids', ['user_ids', 3]],
    ]);
    expect(errors[0]!.detail).toContain(`lists ${JSON.stringify(users[0])} more than once (elements 0 and 2)`);
    expect(errorsOf(await t.tf.validateResource(TYPE, { organization_id: 'org', user_ids: [users[0]!, users[1]!] }))).toEqual([]);
  });

  it('removes only the members its configuration listed on destroy: one added outside Terraform stays, with a warning', async () => {
    const orgId = await newOrg();
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_ids: [users[0]!, users[1]!] }));
    await t.client.addMember(orgId, users[2]!);
    // A later terraform run (a new provider process) refreshes, then destroys.
    const later = await t.harness();
    const refreshed = stateOf(await later.read(TYPE, state));
    const destroyed = await later.destroy(TYPE, refreshed);
    expect(errorsOf(destroyed.diagnostics)).toEqual([]);
    expect(warningsOf(destroyed.diagnostics).map((w) => w.summary)).toEqual(['Members added outside Terraform stay']);
    expect((await allMembers(orgId)).map((m) => m.username).sort()).toEqual([orgAdminUsername(orgId), 'member-2'].sort());
  });

  it('drops the resource from state with a warning when the organization was deleted', async () => {
    const orgId = await newOrg();
    const state = stateOf(await t.tf.create(TYPE, { organization_id: orgId, user_ids: [users[0]!] }));
    await t.client.deleteOrganization(orgId);
    const read = await t.tf.read(TYPE, state);
    expect(read.state).toBeNull();
    expect(warningsOf(read.diagnostics)).toHaveLength(1);
    expect(errorsOf(read.diagnostics)).toEqual([]);
  });

  it('reports a missing organization on organization_id at create', async () => {
    const { state, diagnostics } = await t.tf.planThenApply(TYPE, { priorState: null, config: { organization_id: 'no-such-org', user_ids: [users[0]!] } });
    expect(state).toBeNull();
    expect(errorsOf(diagnostics)).toEqual([expect.objectContaining({ summary: 'Organization not found', path: ['organization_id'] })]);
  });

  it('upgrades a state of schema version 1 (user_ids alone) to the same members, with no change planned', async () => {
    const orgId = await newOrg();
    await t.client.addMember(orgId, users[0]!);
    const stored = { id: orgId, organization_id: orgId, user_ids: [users[0]!], realm: 'acme' };
    const upgraded = await t.tf.upgradeState(TYPE, 1, stored);
    expect(upgraded.diagnostics).toEqual([]);
    expect(upgraded.state).toEqual({ ...stored, usernames: null, emails: null });
    const later = await t.harness();
    const plan = await later.plan(TYPE, { priorState: upgraded.state, config: { organization_id: orgId, user_ids: [users[0]!] } });
    expect(plan.changed).toBe(false);
  });

  describe('members named by username and email', () => {
    it('creates a set by emails and usernames, keeps the spelling written, and reads it back unchanged', async () => {
      const orgId = await newOrg();
      const config = { organization_id: orgId, usernames: ['Member-0'], emails: ['member-1@example.com'] };
      const created = stateOf(await t.tf.create(TYPE, config));
      expect(created).toMatchObject({ usernames: ['Member-0'], emails: ['member-1@example.com'], user_ids: null });
      expect(await t.client.isMember(orgId, users[0]!)).toBe(true);
      expect(await t.client.isMember(orgId, users[1]!)).toBe(true);
      expect((await t.tf.read(TYPE, created)).state).toEqual(created);
      // Another case is the same member: no change.
      const later = await t.harness();
      expect((await later.plan(TYPE, { priorState: created, config: { ...config, usernames: ['MEMBER-0'] } })).changed).toBe(false);
    });

    it('shows a member added outside Terraform by username, and one removed outside by the name written', async () => {
      const orgId = await newOrg();
      const created = stateOf(await t.tf.create(TYPE, { organization_id: orgId, usernames: ['member-0', 'member-1'] }));
      await t.client.addMember(orgId, users[4]!);
      await t.client.removeMember(orgId, users[1]!);
      const later = await t.harness();
      const refreshed = stateOf(await later.read(TYPE, created));
      expect(refreshed['usernames']).toEqual(['member-0', 'member-4']);
      const repaired = await later.update(TYPE, refreshed, { organization_id: orgId, usernames: ['member-0', 'member-1'] });
      expect(repaired.diagnostics).toEqual([]);
      expect(await t.client.isMember(orgId, users[4]!)).toBe(false);
      expect(await t.client.isMember(orgId, users[1]!)).toBe(true);
    });

    it('reports unknown names and a user named twice at plan, each on its attribute, and changes nothing', async () => {
      const orgId = await newOrg();
      const plan = await (await t.harness()).plan(TYPE, {
        priorState: null,
        config: { organization_id: orgId, usernames: ['nobody-here', 'member-3'], emails: ['ghost@example.com'], user_ids: [users[3]!] },
      });
      const errors = errorsOf(plan.diagnostics).map((e) => [e.summary, e.path, e.detail]);
      expect(errors).toEqual(
        expect.arrayContaining([
          ['Users not found', ['usernames'], expect.stringContaining('"nobody-here"')],
          ['Users not found', ['emails'], expect.stringContaining('"ghost@example.com"')],
          ['User listed twice', ['usernames'], expect.stringContaining('"member-3"')],
        ]),
      );
      expect(await t.client.countMembers(orgId)).toBe(1);
    });

    it('refuses the default admin user by username without asking the service', async () => {
      const orgId = await newOrg();
      const plan = await (await t.harness()).plan(TYPE, { priorState: null, config: { organization_id: orgId, usernames: [orgAdminUsername(orgId)] } });
      expect(errorsOf(plan.diagnostics)).toEqual([expect.objectContaining({ summary: 'Default admin user listed', path: ['usernames'] })]);
    });

    it('imports with ?by=emails, naming every member by email', async () => {
      const orgId = await newOrg();
      await t.client.addMember(orgId, users[5]!);
      const imported = await t.tf.importState(TYPE, `${orgId}?by=emails`);
      expect(imported.diagnostics).toEqual([]);
      expect(imported.state).toMatchObject({ emails: ['member-5@example.com'], user_ids: null, usernames: null });
      const wrong = await t.tf.importResource(TYPE, `${orgId}?by=phone`);
      expect(errorsOf(wrong.diagnostics)[0]!.detail).toContain('`?by=emails`');
    });
  });

  describe('import', () => {
    it('imports by ORG and REALM/ORG, then reads the member set', async () => {
      const orgId = await newOrg();
      await t.client.addMember(orgId, users[1]!);
      const imported = await t.tf.importResource(TYPE, orgId);
      expect(imported.state).toEqual({ id: orgId, organization_id: orgId, user_ids: [], usernames: null, emails: null, realm: 'acme' });
      const byRealm = await t.tf.importResource(TYPE, `acme/${orgId}`);
      expect(byRealm.state).toEqual(imported.state);
      const read = await t.tf.read(TYPE, imported.state!);
      expect(read.state).toEqual({ ...imported.state, user_ids: [users[1]] });
      // An import adopts every member: destroying it (in a later run) removes them.
      const later = await t.harness();
      expect((await later.destroy(TYPE, read.state!)).diagnostics).toEqual([]);
      expect(await t.client.isMember(orgId, users[1]!)).toBe(false);
      expect([...imported.diagnostics, ...byRealm.diagnostics, ...read.diagnostics]).toEqual([]);
    });

    it('refuses malformed ids', async () => {
      for (const id of ['', 'a/b/c', '/b']) {
        const { state, diagnostics } = await t.tf.importResource(TYPE, id);
        expect(state).toBeNull();
        expect(errorsOf(diagnostics)[0]!.detail).toContain('`ORG` or `REALM/ORG`');
      }
    });
  });

  describe('validate', () => {
    it('reports empty user ids and an empty organization id', async () => {
      const diagnostics = await t.tf.validateResource(TYPE, { organization_id: '', user_ids: ['a', ''] });
      expect(errorsOf(diagnostics).map((e) => e.path)).toEqual([['organization_id'], ['user_ids', 1]]);
    });
  });
});
