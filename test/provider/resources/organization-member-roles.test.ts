/**
 * `orgadmin_organization_member_roles` against the real service: authoritative grants and revokes,
 * refresh with exactly one request, a removed member dropped from the state, the plan-time error for
 * a grant to a non-member (and none when this plan adds the membership first), the refusal to
 * revoke roles on create, unknown roles reported on `roles` with every other change applied, lost
 * answers settled by reading the member's roles, import.
 */
import { errorsOf, stateOf, warningsOf } from '../../../src/tfplugin/testing/harness';
import { MEMBERSHIP_RESOURCE_TYPE } from '../../../src/provider/resources/membership';
import { ORGANIZATION_MEMBERS_RESOURCE_TYPE } from '../../../src/provider/resources/organization-members';
import { ORGANIZATION_MEMBER_ROLES_RESOURCE_TYPE as TYPE } from '../../../src/provider/resources/organization-member-roles';
import { startFaultProxy } from '../../helpers/fault-proxy';
import { startProviderTest, type ProviderTest } from '../harness';

describe('orgadmin_organization_member_roles', () => {
  let t: ProviderTest;
  let orgId: string;
  const users: Record<string, string> = {};

  beforeAll(async () => {
    t = await startProviderTest();
    orgId = await t.client.createOrganization({ name: 'member-roles-org' });
    for (const username of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'gina', 'hank']) {
      users[username] = (await t.svc.admin.createUser('acme', { username })).id;
    }
    for (const username of ['alice', 'bob', 'dave', 'erin', 'frank', 'hank']) await t.client.addMember(orgId, users[username]!);
    await t.client.createRole(orgId, { name: 'billing' });
  });
  afterAll(async () => {
    await t.close();
  });
  const config = (user: string, roles: string[]) => ({ organization_id: orgId, user_id: users[user]!, roles });
  const rolesOf = async (user: string): Promise<string[]> => (await t.client.listMemberRoles(orgId, users[user]!)).map((role) => role.name);

  it('grants the roles on create, reads them with exactly one request, changes them authoritatively and revokes them on destroy', async () => {
    const created = await t.tf.planThenApply(TYPE, { priorState: null, config: config('alice', ['view-members', 'billing']) });
    expect(created.diagnostics).toEqual([]);
    const state = stateOf(created);
    expect(state).toEqual({ id: `${orgId}/${users.alice}`, organization_id: orgId, user_id: users.alice, roles: ['billing', 'view-members'], realm: 'acme' });
    expect(await rolesOf('alice')).toEqual(['billing', 'view-members']);

    const before = t.svc.requests.length;
    expect((await t.tf.read(TYPE, state)).state).toEqual(state);
    expect(t.svc.requests.slice(before).map((r) => `${r.method} ${r.url} ${r.status}`)).toEqual([`GET /realms/acme/users/${users.alice}/orgs/${orgId}/roles 200`]);

    // Drift: a role granted outside Terraform shows on refresh and is revoked by the next apply.
    await t.client.grantRole(orgId, 'manage-roles', users.alice!);
    const drifted = stateOf(await t.tf.read(TYPE, state));
    expect(drifted['roles']).toEqual(['billing', 'manage-roles', 'view-members']);
    const updated = stateOf(await t.tf.planThenApply(TYPE, { priorState: drifted, config: config('alice', ['view-members', 'view-roles']) }));
    expect(updated['roles']).toEqual(['view-members', 'view-roles']);
    expect(await rolesOf('alice')).toEqual(['view-members', 'view-roles']);

    expect((await t.tf.destroy(TYPE, updated)).diagnostics).toEqual([]);
    expect(await rolesOf('alice')).toEqual([]);
    expect(await t.client.isMember(orgId, users.alice!)).toBe(true);
  });

  it('plans no change and sends no request at plan when the roles are the same in another order', async () => {
    const state = stateOf(await t.tf.planThenApply(TYPE, { priorState: null, config: config('bob', ['view-roles', 'billing']) }));
    const before = t.svc.requests.length;
    const plan = await t.tf.plan(TYPE, { priorState: state, config: config('bob', ['billing', 'view-roles']) });
    expect(plan.requiresReplace).toEqual([]);
    expect(plan.plannedState).toEqual(state);
    expect(t.svc.requests.length).toBe(before);
  });

  it('fails the plan on user_id when the user is not a member and this plan adds no membership', async () => {
    const plan = await t.tf.plan(TYPE, { priorState: null, config: config('carol', ['view-members']) });
    const [error] = errorsOf(plan.diagnostics);
    expect(error).toMatchObject({ summary: 'User is not a member of the organization', path: ['user_id'] });
    expect(error!.detail).toContain('user_id = orgadmin_membership.<name>.user_id');
    expect(error!.detail).toContain('for_each = toset(orgadmin_organization_members.<name>.user_ids)');
    expect(await t.client.isMember(orgId, users.carol!)).toBe(false);
    // An unknown user is named as such.
    const ghost = await t.tf.plan(TYPE, { priorState: null, config: { organization_id: orgId, user_id: 'no-such-user', roles: ['view-members'] } });
    expect(errorsOf(ghost.diagnostics)).toEqual([expect.objectContaining({ summary: 'User not found', path: ['user_id'] })]);
  });

  it('plans a grant to a user whom an orgadmin_membership planned earlier in the process adds first', async () => {
    const tf = await t.harness();
    const membership = await tf.plan(MEMBERSHIP_RESOURCE_TYPE, { priorState: null, config: { organization_id: orgId, user_id: users.carol! } });
    expect(membership.diagnostics).toEqual([]);
    const plan = await tf.plan(TYPE, { priorState: null, config: config('carol', ['view-members']) });
    expect(plan.diagnostics).toEqual([]);
    // And so for the users of an authoritative member set planned before.
    const other = await t.client.createOrganization({ name: 'member-roles-set' });
    const set = await tf.plan(ORGANIZATION_MEMBERS_RESOURCE_TYPE, { priorState: null, config: { organization_id: other, user_ids: [users.gina!] } });
    expect(set.diagnostics).toEqual([]);
    const fromSet = await tf.plan(TYPE, { priorState: null, config: { organization_id: other, user_id: users.gina!, roles: ['view-roles'] } });
    expect(fromSet.diagnostics).toEqual([]);
    // Members named by username or email count too, without another request for them.
    const ivan = (await t.svc.admin.createUser('acme', { username: 'ivan' })).id;
    const judy = (await t.svc.admin.createUser('acme', { username: 'judy', email: 'judy@example.com' })).id;
    const byName = await t.client.createOrganization({ name: 'member-roles-names' });
    const named = await tf.plan(ORGANIZATION_MEMBERS_RESOURCE_TYPE, { priorState: null, config: { organization_id: byName, usernames: ['IVAN'], emails: ['judy@example.com'] } });
    expect(named.diagnostics).toEqual([]);
    const before = t.svc.requests.length;
    for (const user of [ivan, judy]) {
      const roles = await tf.plan(TYPE, { priorState: null, config: { organization_id: byName, user_id: user, roles: ['view-roles'] } });
      expect(roles.diagnostics).toEqual([]);
    }
    expect(t.svc.requests.slice(before).filter((r) => r.url.includes('/users?'))).toEqual([]);
  });

  it('says clearly at apply when the user is not a member, and changes nothing', async () => {
    const applied = await t.tf.apply(TYPE, {
      priorState: null,
      plannedState: { id: `${orgId}/${users.gina}`, organization_id: orgId, user_id: users.gina!, roles: ['view-members'], realm: 'acme' },
      config: config('gina', ['view-members']),
    });
    expect(applied.state).toBeNull();
    expect(errorsOf(applied.diagnostics)).toEqual([expect.objectContaining({ summary: 'User is not a member of the organization', path: ['user_id'] })]);
  });

  it('refuses to create for a member who holds roles that roles does not list, and changes nothing', async () => {
    await t.client.grantRoles(orgId, users.dave!, ['manage-members']);
    const attempt = await t.tf.planThenApply(TYPE, { priorState: null, config: config('dave', ['view-members']) });
    expect(attempt.state).toBeNull();
    const [error] = errorsOf(attempt.diagnostics);
    expect(error).toMatchObject({ summary: 'Member holds roles outside roles', path: ['roles'] });
    expect(error!.detail).toContain(`terraform import orgadmin_organization_member_roles.<name> ${orgId}/${users.dave}`);
    expect(await rolesOf('dave')).toEqual(['manage-members']);
    // Imported, the member's roles can then be edited.
    const imported = await t.tf.importState(TYPE, `${orgId}/${users.dave}`);
    expect(imported.state).toMatchObject({ roles: ['manage-members'], user_id: users.dave });
    const edited = stateOf(await t.tf.planThenApply(TYPE, { priorState: imported.state, config: config('dave', ['view-members']) }));
    expect(edited['roles']).toEqual(['view-members']);
  });

  it('reports roles the organization lacks on roles, applies every other change, and records what the member holds', async () => {
    const applied = await t.tf.planThenApply(TYPE, { priorState: null, config: config('erin', ['view-members', 'no-such-role']) });
    const [error] = errorsOf(applied.diagnostics);
    expect(error).toMatchObject({ summary: 'Roles not granted', path: ['roles'] });
    expect(error!.detail).toContain('grant "no-such-role": Organization');
    expect(applied.state?.['roles']).toEqual(['view-members']);
    expect(await rolesOf('erin')).toEqual(['view-members']);
  });

  it('settles lost answers of the bulk grant and revoke by reading the member\'s roles, never by trusting them', async () => {
    const proxy = await startFaultProxy({
      upstream: t.svc.baseUrl,
      rate: 1,
      seed: 4,
      kinds: ['lost-answer'],
      eligible: (method, path) => (method === 'PUT' || method === 'PATCH') && path.endsWith(`/orgs/${orgId}/roles`),
    });
    try {
      const tf = await t.harness({ base_url: proxy.baseUrl, max_retries: 0 });
      const created = await tf.planThenApply(TYPE, { priorState: null, config: config('frank', ['view-members', 'billing']) });
      expect(errorsOf(created.diagnostics)).toEqual([]);
      expect(stateOf(created)['roles']).toEqual(['billing', 'view-members']);
      const updated = await tf.planThenApply(TYPE, { priorState: stateOf(created), config: config('frank', ['billing']) });
      expect(errorsOf(updated.diagnostics)).toEqual([]);
      expect(stateOf(updated)['roles']).toEqual(['billing']);
      expect(proxy.injected['lost-answer']).toBe(2);
      expect(await rolesOf('frank')).toEqual(['billing']);
    } finally {
      await proxy.close();
    }
  });

  it('never mistakes a bulk grant the service did not carry out for success', async () => {
    // Every bulk grant is answered 502 by a gateway and never reaches the service.
    const proxy = await startFaultProxy({
      upstream: t.svc.baseUrl,
      rate: 1,
      seed: 5,
      kinds: ['bad-gateway'],
      eligible: (method, path) => method === 'PUT' && path.endsWith(`/orgs/${orgId}/roles`),
    });
    try {
      const tf = await t.harness({ base_url: proxy.baseUrl, max_retries: 0 });
      const applied = await tf.planThenApply(TYPE, { priorState: null, config: config('hank', ['view-members', 'billing']) });
      const errors = errorsOf(applied.diagnostics);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.detail).toContain('roles not granted: "billing", "view-members"');
      expect(applied.state?.['roles']).toEqual([]);
      expect(await rolesOf('hank')).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('drops the resource with a warning when the member was removed outside Terraform (taking the roles along)', async () => {
    // bob holds billing and view-roles from an earlier test: imported, as Terraform would hold them.
    const state = stateOf(await t.tf.importState(TYPE, `${orgId}/${users.bob}`));
    expect(state['roles']).toEqual(['billing', 'view-roles']);
    await t.client.removeMember(orgId, users.bob!);
    const read = await t.tf.read(TYPE, state);
    expect(read.state).toBeNull();
    expect(warningsOf(read.diagnostics).map((d) => d.summary)).toEqual(['Member removed outside Terraform']);
    // Destroying it then is no error: the roles went with the membership.
    expect((await t.tf.destroy(TYPE, state)).diagnostics).toEqual([]);
  });

  it('refuses bad ids and import ids before any request', async () => {
    const diagnostics = await t.tf.validateResource(TYPE, { organization_id: orgId, user_id: 'a/b', roles: ['', 'x'], realm: null, id: null });
    expect(errorsOf(diagnostics).map((d) => d.path)).toEqual([['user_id'], ['roles']]);
    expect(errorsOf((await t.tf.importResource(TYPE, 'one')).diagnostics)[0]!.summary).toBe('Invalid import id for orgadmin_organization_member_roles');
  });
});
