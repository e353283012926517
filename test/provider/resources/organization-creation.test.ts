/**
 * Safe creation of organizations (src/provider/resources/organization-creation.ts) against the real
 * service: lost create answers are recognised, interrupted creates are adopted at plan with a
 * warning, somebody else's organization is never taken over, duplicate names fail at plan, and the
 * reserved creation marker never shows in state and is cleared once a state holds the organization.
 */
import { randomUUID } from 'node:crypto';
import type { OrgAdminProviderContext } from '../../../src/provider/context';
import { stateOf, type ProviderHarness } from '../../../src/tfplugin/testing/harness';
import type { ObjectValue } from '../../../src/tfplugin/framework/types';
import { ORGANIZATION_MEMBERS_RESOURCE_TYPE } from '../../../src/provider/resources/organization-members';
import { ORGANIZATION_RESOURCE_TYPE as TYPE } from '../../../src/provider/resources/organization';
import { CREATION_MARKER } from '../../../src/provider/resources/organization-creation';
import { startFaultProxy } from '../../helpers/fault-proxy';
import { startProviderTest, type ProviderTest } from '../harness';

describe('orgadmin_organization: safe creation', () => {
  let t: ProviderTest;

  beforeAll(async () => {
    t = await startProviderTest();
  });

  afterAll(async () => {
    await t.close();
  });

  /** A new provider process. */
  const freshProvider = (values: ObjectValue = {}): Promise<ProviderHarness<OrgAdminProviderContext>> => t.harness(values);

  it('marks a new organization with its creation id, and never shows the marker in state', async () => {
    const state = stateOf(await (await freshProvider()).create(TYPE, { name: 'marked-on-create', attributes: { tier: ['gold'] } }));
    const remote = await t.client.getOrganization(state['id'] as string);
    expect(remote.attributes[CREATION_MARKER]).toEqual([state['id']]);
    expect(state['attributes']).toEqual({ tier: ['gold'] });
  });

  it('clears the marker on the first refresh from a state, keeping every other value', async () => {
    const tf = await freshProvider();
    const state = stateOf(await tf.create(TYPE, { name: 'cleared-on-read', display_name: 'Shown', attributes: { tier: ['gold'] } }));
    const read = await tf.read(TYPE, state);
    expect(read.diagnostics).toEqual([]);
    expect(read.state).toEqual(state);
    const remote = await t.client.getOrganization(state['id'] as string);
    expect(remote.attributes).toEqual({ tier: ['gold'] });
    expect(remote.displayName).toBe('Shown');
  });

  it('recognises its own organization when the create answer was lost after the write', async () => {
    const proxy = await startFaultProxy({
      upstream: t.svc.baseUrl,
      rate: 1,
      seed: 1,
      kinds: ['lost-answer'],
      eligible: (method, path) => method === 'POST' && path.endsWith('/orgs'),
    });
    try {
      const tf = await freshProvider({ base_url: proxy.baseUrl, max_retries: 0 });
      const state = stateOf(await tf.create(TYPE, { name: 'answer-lost' }));
      expect(proxy.injected['lost-answer']).toBe(1);
      const same = await t.client.listAllOrganizations({ search: 'answer-lost' });
      expect(same.map((org) => org.id)).toEqual([state['id']]);
    } finally {
      await proxy.close();
    }
  });

  it('recognises its own organization when a retry meets the first attempt (409 for its id)', async () => {
    const proxy = await startFaultProxy({
      upstream: t.svc.baseUrl,
      rate: 1,
      seed: 2,
      kinds: ['lost-answer'],
      // Only the first attempt loses its answer; the retry reaches the service and gets 409.
      eligible: (method, path) => method === 'POST' && path.endsWith('/orgs') && proxy.injected['lost-answer'] === 0,
    });
    try {
      const tf = await freshProvider({ base_url: proxy.baseUrl, max_retries: 2 });
      const state = stateOf(await tf.create(TYPE, { name: 'retry-met-first' }));
      const same = await t.client.listAllOrganizations({ search: 'retry-met-first' });
      expect(same.map((org) => org.id)).toEqual([state['id']]);
      const posts = t.svc.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/orgs') && r.status === 409);
      expect(posts.length).toBeGreaterThan(0);
    } finally {
      await proxy.close();
    }
  });

  it('adopts at plan an organization left by an interrupted create, with a warning, and brings it to the configuration', async () => {
    const leftId = randomUUID();
    await t.client.createOrganization({ id: leftId, name: 'interrupted', attributes: { [CREATION_MARKER]: [leftId] } });
    const tf = await freshProvider();
    const config = { name: 'interrupted', display_name: 'Recovered' };
    const planned = await tf.plan(TYPE, { priorState: null, config });
    expect(planned.plannedState!['id']).toBe(leftId);
    expect(planned.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', summary: 'Adopting an organization left by an interrupted apply', detail: expect.stringContaining(leftId) }),
    ]);
    const { state, diagnostics } = await tf.apply(TYPE, { priorState: null, plannedState: planned.plannedState, config });
    expect(diagnostics).toEqual([]);
    expect(state).toMatchObject({ id: leftId, name: 'interrupted', display_name: 'Recovered', attributes: {} });
    const all = await t.client.listAllOrganizations({ search: 'interrupted' });
    expect(all.map((org) => org.id)).toEqual([leftId]);
    // The marker stays until a refresh from a saved state, so a second interruption is recoverable too.
    expect((await t.client.getOrganization(leftId)).attributes[CREATION_MARKER]).toEqual([leftId]);
  });

  it('never adopts an organization created by somebody else: the plan fails on name with its id and both import forms', async () => {
    const theirs = await t.client.createOrganization({ name: 'not-ours' });
    const planned = await (await freshProvider()).plan(TYPE, { priorState: null, config: { name: 'not-ours' } });
    expect(planned.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', summary: 'The name "not-ours" is taken', path: ['name'] }),
    ]);
    const detail = planned.diagnostics[0]!.detail;
    expect(detail).toContain(theirs);
    expect(detail).toContain(`terraform import orgadmin_organization.<name> ${theirs}`);
    expect(detail).toContain(`id = "${theirs}"`);
  });

  it('refuses a rename to a name another organization holds, at plan', async () => {
    const tf = await freshProvider();
    const mine = stateOf(await tf.create(TYPE, { name: 'rename-source' }));
    await t.client.createOrganization({ name: 'rename-target' });
    const planned = await tf.plan(TYPE, { priorState: mine, config: { name: 'rename-target' } });
    expect(planned.diagnostics).toEqual([expect.objectContaining({ severity: 'error', summary: 'The name "rename-target" is taken' })]);
  });

  it('refuses the second of two resources that plan one name in one provider process', async () => {
    const tf = await freshProvider();
    const config = { name: 'planned-twice' };
    const first = await tf.plan(TYPE, { priorState: null, config });
    const second = await tf.plan(TYPE, { priorState: null, config });
    expect(first.diagnostics).toEqual([]);
    expect(second.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', summary: 'Duplicate organization name', path: ['name'], detail: expect.stringContaining('planned-twice') }),
    ]);
    // A name in another realm is another name.
    const otherRealm = await tf.plan(TYPE, { priorState: null, config: { name: 'planned-twice', realm: 'elsewhere' } });
    expect(otherRealm.diagnostics.filter((d) => d.summary === 'Duplicate organization name')).toEqual([]);
  });
});

describe('orgadmin_organization_members: nothing half-applied is forgotten', () => {
  let t: ProviderTest;

  beforeAll(async () => {
    t = await startProviderTest();
  });

  afterAll(async () => {
    await t.close();
  });

  it('records the members it added when a create fails part-way on an unknown user id', async () => {
    const orgId = await t.client.createOrganization({ name: 'partial-set' });
    const alice = await t.svc.admin.createUser(t.realm, { username: 'partial-alice' });
    const bob = await t.svc.admin.createUser(t.realm, { username: 'partial-bob' });
    const config = { organization_id: orgId, user_ids: [alice.id, 'no-such-user', bob.id] };
    const { state, diagnostics } = await t.tf.planThenApply(ORGANIZATION_MEMBERS_RESOURCE_TYPE, { priorState: null, config });
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 'error', summary: 'Users not found', detail: expect.stringContaining('no-such-user') })]);
    expect(state).toMatchObject({ organization_id: orgId, user_ids: [alice.id, bob.id] });

    // Re-created without the bad id (Terraform replaces the tainted set): converges, nobody lost.
    const fixed = { organization_id: orgId, user_ids: [alice.id, bob.id] };
    const { state: recreated, diagnostics: again } = await t.tf.planThenApply(ORGANIZATION_MEMBERS_RESOURCE_TYPE, { priorState: null, config: fixed });
    expect(again).toEqual([]);
    expect(recreated).toMatchObject({ user_ids: [alice.id, bob.id] });
  });
});
