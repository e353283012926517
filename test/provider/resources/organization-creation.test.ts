/**
 * Safe creation of organizations (src/provider/resources/organization-creation.ts) against the real
 * service: lost create answers are recognised, interrupted creates are adopted at plan with a
 * warning, somebody else's organization is never taken over, duplicate names fail at plan, and the
 * reserved creation marker never shows in state and is cleared once a state holds the organization.
 */
import { randomUUID } from 'node:crypto';
import type { OrgAdminProviderContext } from '../../../src/provider/context';
import { errorsOf, stateOf, type ProviderHarness } from '../../../src/tfplugin/testing/harness';
import { startFaultProxy } from '../../helpers/fault-proxy';
import type { ObjectValue } from '../../../src/tfplugin/framework/types';
import { ORGANIZATION_MEMBERS_RESOURCE_TYPE } from '../../../src/provider/resources/organization-members';
import { ORGANIZATION_RESOURCE_TYPE as TYPE } from '../../../src/provider/resources/organization';
import { CREATION_MARKER } from '../../../src/provider/resources/organization-creation';
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

  it('refuses a rename onto the name of an organization this same configuration manages, without the import advice', async () => {
    const tf = await freshProvider();
    const first = stateOf(await tf.create(TYPE, { name: 'swap-a' }));
    const second = stateOf(await tf.create(TYPE, { name: 'swap-b' }));
    // The next plan (a new process) refreshes both from the state, then plans the rename.
    const later = await freshProvider();
    const refreshedFirst = stateOf(await later.read(TYPE, first));
    stateOf(await later.read(TYPE, second));
    const planned = await later.plan(TYPE, { priorState: refreshedFirst, config: { name: 'swap-b' } });
    expect(planned.diagnostics).toEqual([expect.objectContaining({ severity: 'error', summary: 'The name "swap-b" is taken', path: ['name'] })]);
    const detail = planned.diagnostics[0]!.detail;
    expect(detail).toContain('another orgadmin_organization of this configuration manages it');
    expect(detail).toContain(second['id'] as string);
    expect(detail).not.toContain('terraform import');
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

  it('records the members it added when a create fails part-way, and its replacement only adds what is missing', async () => {
    const orgId = await t.client.createOrganization({ name: 'partial-set' });
    const users: string[] = [];
    for (let i = 0; i < 12; i += 1) users.push((await t.svc.admin.createUser(t.realm, { username: `partial-${i}` })).id);
    const config = { organization_id: orgId, user_ids: users };
    // Every add of the second half fails at a gateway (the service never sees it).
    const failing = new Set(users.slice(6));
    const proxy = await startFaultProxy({
      upstream: t.svc.baseUrl,
      rate: 1,
      seed: 1,
      kinds: ['bad-gateway'],
      eligible: (method, path) => method === 'PUT' && failing.has(path.split('/').pop()!),
    });
    try {
      const faulty = await t.harness({ base_url: proxy.baseUrl });
      const { state, diagnostics } = await faulty.planThenApply(ORGANIZATION_MEMBERS_RESOURCE_TYPE, { priorState: null, config });
      expect(errorsOf(diagnostics).map((d) => d.summary)).toEqual(['Failed to add organization members']);
      // Terraform keeps this state, tainted: exactly the members reached.
      expect([...(state!['user_ids'] as string[])].sort()).toEqual(users.slice(0, 6).sort());
      const count = async (): Promise<number> => (await t.client.listAllMembers(orgId, { excludeAdminAccounts: true })).length;
      expect(await count()).toBe(6);

      // The next apply replaces the tainted set as Terraform does: it plans a create (no prior
      // state), applies the destroy half with that plan's private data, then the create.
      const later = await t.harness();
      const refreshed = (await later.read(ORGANIZATION_MEMBERS_RESOURCE_TYPE, state!)).state!;
      const plan = await later.plan(ORGANIZATION_MEMBERS_RESOURCE_TYPE, { priorState: null, config });
      expect(errorsOf(plan.diagnostics)).toEqual([]);
      const apply = await t.harness();
      const before = t.svc.requests.length;
      const destroyed = await apply.apply(ORGANIZATION_MEMBERS_RESOURCE_TYPE, { priorState: refreshed, plannedState: null, config: null, plannedPrivate: plan.plannedPrivate! });
      expect(destroyed.diagnostics).toEqual([]);
      expect(await count()).toBe(6);
      const recreated = await apply.apply(ORGANIZATION_MEMBERS_RESOURCE_TYPE, { priorState: null, plannedState: plan.plannedState, config, plannedPrivate: plan.plannedPrivate! });
      expect(recreated.diagnostics).toEqual([]);
      expect(recreated.state).toMatchObject({ user_ids: users });
      expect(await count()).toBe(12);
      // Nobody was removed and re-added: only the six missing members were sent.
      const changes = t.svc.requests.slice(before).filter((r) => r.method !== 'GET' && r.url.includes('/members/'));
      expect(changes.map((r) => r.method)).toEqual(Array(6).fill('PUT'));
    } finally {
      await proxy.close();
    }
  });
});
