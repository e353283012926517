/**
 * `orgadmin_organization_role` against the real service: create, read (one request), update of the
 * description, delete with its grants, default roles adopted and never deleted, a role that exists
 * outside Terraform never taken over, a lost create answer settled by reading, import.
 */
import { errorsOf, stateOf, warningsOf } from '../../../src/tfplugin/testing/harness';
import { ORGANIZATION_ROLE_RESOURCE_TYPE as TYPE } from '../../../src/provider/resources/organization-role';
import { startFaultProxy } from '../../helpers/fault-proxy';
import { startProviderTest, type ProviderTest } from '../harness';

describe('orgadmin_organization_role', () => {
  let t: ProviderTest;
  let orgId: string;
  let alice: string;

  beforeAll(async () => {
    t = await startProviderTest();
    orgId = await t.client.createOrganization({ name: 'role-org' });
    alice = (await t.svc.admin.createUser('acme', { username: 'alice' })).id;
    await t.client.addMember(orgId, alice);
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates a role, reads it with one request, updates its description and deletes it with its grants', async () => {
    const created = await t.tf.planThenApply(TYPE, { priorState: null, config: { organization_id: orgId, name: 'billing', description: 'Pays' } });
    expect(created.diagnostics).toEqual([]);
    const state = stateOf(created);
    expect(state).toEqual({
      id: `${orgId}/billing`,
      organization_id: orgId,
      name: 'billing',
      description: 'Pays',
      role_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      default: false,
      realm: 'acme',
    });
    expect(await t.client.getRole(orgId, 'billing')).toEqual({ id: state['role_id'], name: 'billing', description: 'Pays' });

    const before = t.svc.requests.length;
    expect((await t.tf.read(TYPE, state)).state).toEqual(state);
    expect(t.svc.requests.slice(before).map((r) => `${r.method} ${r.url} ${r.status}`)).toEqual([`GET /realms/acme/orgs/${orgId}/roles/billing 200`]);

    const updated = stateOf(await t.tf.planThenApply(TYPE, { priorState: state, config: { organization_id: orgId, name: 'billing', description: 'Pays the bills' } }));
    expect(updated['description']).toBe('Pays the bills');
    expect((await t.client.getRole(orgId, 'billing')).description).toBe('Pays the bills');

    await t.client.grantRole(orgId, 'billing', alice);
    expect((await t.tf.destroy(TYPE, updated)).diagnostics).toEqual([]);
    await expect(t.client.getRole(orgId, 'billing')).rejects.toMatchObject({ status: 404 });
    expect(await t.client.listMemberRoles(orgId, alice)).toEqual([]);
  });

  it('plans a new role without a description as having none, and keeps a description that is left out later', async () => {
    const plan = await t.tf.plan(TYPE, { priorState: null, config: { organization_id: orgId, name: 'plain' } });
    expect(plan.plannedState?.['description']).toBeNull();
    const state = stateOf(await t.tf.planThenApply(TYPE, { priorState: null, config: { organization_id: orgId, name: 'plain' } }));
    expect(state['description']).toBeNull();
    const described = stateOf(await t.tf.planThenApply(TYPE, { priorState: state, config: { organization_id: orgId, name: 'plain', description: 'Now' } }));
    const again = await t.tf.plan(TYPE, { priorState: described, config: { organization_id: orgId, name: 'plain' } });
    expect(again.plannedState?.['description']).toBe('Now');
  });

  it('adopts a default role without error, sets its description, and leaves it in place on destroy', async () => {
    const state = stateOf(await t.tf.planThenApply(TYPE, { priorState: null, config: { organization_id: orgId, name: 'manage-roles', description: 'Admins of roles' } }));
    expect(state).toMatchObject({ name: 'manage-roles', default: true, description: 'Admins of roles' });
    expect((await t.tf.destroy(TYPE, state)).diagnostics).toEqual([]);
    expect((await t.client.getRole(orgId, 'manage-roles')).description).toBe('Admins of roles');
    // Declared without a description, it keeps the one it has.
    const kept = stateOf(await t.tf.planThenApply(TYPE, { priorState: null, config: { organization_id: orgId, name: 'view-members' } }));
    expect(kept['description']).toBe('View members of this organization');
  });

  it('never takes over a role that exists outside Terraform: the create fails with the import advice', async () => {
    await t.client.createRole(orgId, { name: 'outsider' });
    const attempt = await t.tf.planThenApply(TYPE, { priorState: null, config: { organization_id: orgId, name: 'outsider' } });
    expect(attempt.state).toBeNull();
    const [error] = errorsOf(attempt.diagnostics);
    expect(error).toMatchObject({ summary: 'Role already exists', path: ['name'] });
    expect(error!.detail).toContain(`terraform import orgadmin_organization_role.<name> ${orgId}/outsider`);
    expect(error!.detail).toContain(`id = "${orgId}/outsider"`);
  });

  it('recognises its own role when the create answer was lost after the write', async () => {
    const proxy = await startFaultProxy({
      upstream: t.svc.baseUrl,
      rate: 1,
      seed: 3,
      kinds: ['lost-answer'],
      eligible: (method, path) => method === 'POST' && path.endsWith('/roles'),
    });
    try {
      const tf = await t.harness({ base_url: proxy.baseUrl, max_retries: 2 });
      const posts = (): number => t.svc.requests.filter((r) => r.method === 'POST' && r.url === `/realms/acme/orgs/${orgId}/roles`).length;
      const before = posts();
      const result = await tf.planThenApply(TYPE, { priorState: null, config: { organization_id: orgId, name: 'lost-create', description: 'Lost' } });
      expect(errorsOf(result.diagnostics)).toEqual([]);
      expect(proxy.injected['lost-answer']).toBe(1);
      expect(stateOf(result)).toMatchObject({ name: 'lost-create', description: 'Lost' });
      // The create reached the service once: the SDK never repeats it, a read settled it.
      expect(posts() - before).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('drops a role deleted outside Terraform from the state with a warning', async () => {
    const state = stateOf(await t.tf.planThenApply(TYPE, { priorState: null, config: { organization_id: orgId, name: 'doomed' } }));
    await t.client.deleteRole(orgId, 'doomed');
    const read = await t.tf.read(TYPE, state);
    expect(read.state).toBeNull();
    expect(warningsOf(read.diagnostics).map((d) => d.summary)).toEqual(['Role removed outside Terraform']);
  });

  it('reports an unknown organization on organization_id, and refuses bad names and import ids at once', async () => {
    const missing = await t.tf.planThenApply(TYPE, { priorState: null, config: { organization_id: 'no-such-org', name: 'x' } });
    expect(errorsOf(missing.diagnostics)).toEqual([expect.objectContaining({ summary: 'Organization not found', path: ['organization_id'] })]);
    const badNames = await t.tf.validateResource(TYPE, { organization_id: orgId, name: 'a/b', description: null, realm: null, id: null, role_id: null, default: null });
    expect(errorsOf(badNames)).toEqual([expect.objectContaining({ summary: 'Invalid role name', path: ['name'] })]);
    const blank = await t.tf.validateResource(TYPE, { organization_id: orgId, name: ' ', description: null, realm: null, id: null, role_id: null, default: null });
    expect(errorsOf(blank)[0]!.detail).toBe('`name` " " must not be empty.');
    const badImport = await t.tf.importResource(TYPE, 'just-one-part');
    expect(errorsOf(badImport.diagnostics)[0]!.summary).toBe('Invalid import id for orgadmin_organization_role');
  });

  it('imports a role by ORG_ID/ROLE_NAME and by REALM/ORG_ID/ROLE_NAME', async () => {
    await t.client.createRole(orgId, { name: 'imported', description: 'From outside' });
    const imported = await t.tf.importState(TYPE, `${orgId}/imported`);
    expect(imported.diagnostics).toEqual([]);
    expect(imported.state).toMatchObject({ id: `${orgId}/imported`, name: 'imported', description: 'From outside', default: false, realm: 'acme' });
    expect((await t.tf.importState(TYPE, `acme/${orgId}/view-roles`)).state).toMatchObject({ name: 'view-roles', default: true });
  });
});
