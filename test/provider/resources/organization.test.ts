import { diagnosticsText, errorsOf, ProviderHarness, stateOf, warningsOf } from '../../../src/tfplugin/testing/harness';
import type { OrgAdminProviderContext } from '../../../src/provider/context';
import type { ObjectValue } from '../../../src/tfplugin/framework/types';
import { organizationResource as resource, ORGANIZATION_RESOURCE_TYPE as TYPE } from '../../../src/provider/resources/organization';
import { UNKNOWN } from '../../../src/tfplugin/protocol/unknown';
import { startProviderTest, type ProviderTest } from '../harness';

describe('orgadmin_organization', () => {
  let t: ProviderTest;

  beforeAll(async () => {
    t = await startProviderTest();
  });

  afterAll(async () => {
    await t.close();
  });

  it('creates, reads back the same state, updates in place and deletes', async () => {
    const created = stateOf(
      await t.tf.create(TYPE, {
        name: 'crud-org',
        display_name: 'CRUD Org',
        url: 'https://crud.example.com',
        domains: ['crud.example.com'],
        attributes: { tier: ['gold'] },
      }),
    );
    expect(created).toEqual({
      id: expect.any(String),
      realm: 'acme',
      name: 'crud-org',
      display_name: 'CRUD Org',
      url: 'https://crud.example.com',
      domains: ['crud.example.com'],
      attributes: { tier: ['gold'] },
    });
    const remote = await t.client.getOrganization(created['id'] as string);
    expect(remote).toMatchObject({ name: 'crud-org', displayName: 'CRUD Org', domains: ['crud.example.com'], attributes: { tier: ['gold'] } });

    const read = await t.tf.read(TYPE, created);
    expect(read.state).toEqual(created);
    expect(read.diagnostics).toEqual([]);

    const updated = await t.tf.planThenApply(TYPE, {
      priorState: created,
      config: {
        name: 'crud-org-renamed',
        display_name: null,
        url: 'http://crud.example.org',
        domains: ['crud.example.org'],
        attributes: { tier: ['silver'], region: ['eu'] },
      },
    });
    expect(updated.diagnostics).toEqual([]);
    expect(updated.plan.requiresReplace).toEqual([]);
    expect(updated.state).toMatchObject({ id: created['id'], name: 'crud-org-renamed', display_name: null, domains: ['crud.example.org'] });
    expect(await t.client.getOrganization(created['id'] as string)).toMatchObject({
      id: created['id'],
      name: 'crud-org-renamed',
      displayName: null,
      url: 'http://crud.example.org',
      domains: ['crud.example.org'],
      attributes: { tier: ['silver'], region: ['eu'] },
    });

    const deleted = await t.tf.destroy(TYPE, updated.state!);
    expect(deleted.diagnostics).toEqual([]);
    await expect(t.client.getOrganization(created['id'] as string)).rejects.toMatchObject({ status: 404 });
  });

  it('treats deleting an organization that is already gone as done', async () => {
    const created = stateOf(await t.tf.create(TYPE, { name: 'gone-before-delete' }));
    await t.client.deleteOrganization(created['id'] as string);
    expect((await t.tf.destroy(TYPE, created)).diagnostics).toEqual([]);
  });

  it('returns the new name when the organization was renamed outside Terraform', async () => {
    const created = stateOf(await t.tf.create(TYPE, { name: 'drift-before' }));
    await t.client.updateOrganization(created['id'] as string, { name: 'drift-after' });
    const { state, diagnostics } = await t.tf.read(TYPE, created);
    expect(state).toMatchObject({ id: created['id'], name: 'drift-after' });
    expect(diagnostics).toEqual([]);
  });

  it('removes the organization from state with a warning when it was deleted outside Terraform', async () => {
    const created = stateOf(await t.tf.create(TYPE, { name: 'deleted-outside' }));
    await t.client.deleteOrganization(created['id'] as string);
    const { state, diagnostics } = await t.tf.read(TYPE, created);
    expect(state).toBeNull();
    expect(errorsOf(diagnostics)).toEqual([]);
    expect(warningsOf(diagnostics)).toHaveLength(1);
    expect(warningsOf(diagnostics)[0]!.summary).toMatch(/removed outside Terraform/);
    expect(warningsOf(diagnostics)[0]!.detail).toContain(created['id'] as string);
  });

  it('names the existing organization\'s id and the import command when the name is taken', async () => {
    // Taken after the plan: the create itself meets the 409.
    const existingId = await t.client.createOrganization({ name: 'taken-name' });
    const { state, diagnostics } = await t.tf.planThenApply(TYPE, { priorState: null, config: { name: 'taken-name' } });
    expect(state).toBeNull();
    expect(errorsOf(diagnostics)).toHaveLength(1);
    const [error] = errorsOf(diagnostics);
    expect(error!.path).toEqual(['name']);
    expect(error!.detail).toContain(existingId);
    expect(error!.detail).toContain(`terraform import orgadmin_organization.<name> ${existingId}`);
    expect(error!.detail).toContain('409');
  });

  it('reports a rename onto a taken name as an error naming the holder', async () => {
    const holderId = await t.client.createOrganization({ name: 'rename-holder' });
    const created = stateOf(await t.tf.create(TYPE, { name: 'rename-source' }));
    const { state, diagnostics } = await t.tf.planThenApply(TYPE, { priorState: created, config: { name: 'rename-holder' } });
    // The update produced no new state: the framework keeps the prior one.
    expect(state).toEqual(created);
    expect(errorsOf(diagnostics)).toHaveLength(1);
    expect(errorsOf(diagnostics)[0]!.detail).toContain(holderId);
    expect((await t.client.getOrganization(created['id'] as string)).name).toBe('rename-source');
  });

  it('keeps attributes and domains set outside Terraform when they are not configured', async () => {
    const created = stateOf(await t.tf.create(TYPE, { name: 'unmanaged-attrs', display_name: 'Before' }));
    expect(created['attributes']).toEqual({});
    expect(created['domains']).toEqual([]);
    const id = created['id'] as string;
    await t.client.updateOrganization(id, {
      name: 'unmanaged-attrs',
      displayName: 'Before',
      attributes: { billing: ['external'] },
      domains: ['outside.example.com'],
    });

    const refreshed = (await t.tf.read(TYPE, created)).state;
    // Read records the service's values; not configured, they are not drift (see the plans below).
    expect(refreshed).toEqual({ ...created, attributes: { billing: ['external'] }, domains: ['outside.example.com'] });

    const { state, diagnostics } = await t.tf.update(TYPE, refreshed!, { name: 'unmanaged-attrs', display_name: 'After' });
    expect(diagnostics).toEqual([]);
    expect(state).toMatchObject({ display_name: 'After', attributes: { billing: ['external'] }, domains: ['outside.example.com'] });
    expect(await t.client.getOrganization(id)).toMatchObject({
      displayName: 'After',
      attributes: { billing: ['external'] },
      domains: ['outside.example.com'],
    });
  });

  it('removes every attribute when attributes is set to an empty map', async () => {
    const created = stateOf(await t.tf.create(TYPE, { name: 'clear-attrs', attributes: { a: ['1'] } }));
    const { diagnostics } = await t.tf.update(TYPE, created, { name: 'clear-attrs', attributes: {} });
    expect(diagnostics).toEqual([]);
    expect((await t.client.getOrganization(created['id'] as string)).attributes).toEqual({});
  });

  it('refuses a domain not written as the service stores it, before anything is sent, and keeps the stored form in state', async () => {
    const refused = await t.tf.create(TYPE, { name: 'mixed-case-domains', domains: ['Example.COM', 'docs.example.com'] });
    expect(errorsOf(refused.diagnostics)).toEqual([expect.objectContaining({ summary: 'Domain not in its stored form', path: ['domains'] })]);
    expect(errorsOf(refused.diagnostics)[0]!.detail).toContain('"example.com"');
    expect((await t.client.listOrganizations({ search: 'mixed-case-domains' })).length).toBe(0);
    const created = stateOf(await t.tf.create(TYPE, { name: 'mixed-case-domains', domains: ['example.com', 'docs.example.com'] }));
    expect((await t.client.getOrganization(created['id'] as string)).domains.sort()).toEqual(['docs.example.com', 'example.com']);
    const refreshed = (await t.tf.read(TYPE, created)).state;
    expect([...(refreshed!['domains'] as string[])].sort()).toEqual(['docs.example.com', 'example.com']);
  });

  it('reports domains changed outside Terraform as drift when domains are managed', async () => {
    const created = stateOf(await t.tf.create(TYPE, { name: 'managed-domains', domains: ['a.example.com'] }));
    await t.client.updateOrganization(created['id'] as string, { name: 'managed-domains', domains: ['b.example.com'] });
    const refreshed = (await t.tf.read(TYPE, created)).state;
    expect(refreshed!['domains']).toEqual(['b.example.com']);
  });

  it('plans the provider\'s realm by default and forces replacement when the realm changes', async () => {
    const created = stateOf(await t.tf.create(TYPE, { name: 'realm-plan' }));
    expect(created['realm']).toBe('acme');
    const same = await t.tf.plan(TYPE, { priorState: created, config: { name: 'realm-plan' } });
    expect(same.plannedState!['realm']).toBe('acme');
    expect(same.requiresReplace).toEqual([]);
    const other = await t.tf.plan(TYPE, { priorState: created, config: { name: 'realm-plan', realm: 'other' } });
    expect(other.plannedState!['realm']).toBe('other');
    expect(other.requiresReplace).toEqual([['realm']]);
    const unknown = await t.tf.plan(TYPE, { priorState: null, config: { name: 'realm-plan', realm: UNKNOWN } });
    expect(unknown.plannedState!['realm']).toBe(UNKNOWN);
    expect(resource.schema.attributes['realm']!.requiresReplace).toBe(true);
  });

  it('works in the realm the resource names, and explains that an API key belongs to one realm', async () => {
    await t.svc.admin.createRealm('second');
    // The provider's key is a key of realm "acme": the service does not know it in "second".
    const refused = await t.tf.planThenApply(TYPE, { priorState: null, config: { name: 'in-second-realm', realm: 'second' } });
    expect(refused.state).toBeNull();
    expect(errorsOf(refused.diagnostics)).toHaveLength(1);
    expect(errorsOf(refused.diagnostics)[0]!.detail).toContain('HTTP 401 invalid_client');
    expect(errorsOf(refused.diagnostics)[0]!.detail).toContain('alias = "second"');

    // With a provider configured with a key of realm "second", the resource works there.
    const key = await t.svc.admin.createApiKey('second', { name: 'second-key', permissions: ['view-organizations', 'manage-organizations', 'create-organization'] });
    const second = await t.harness({ realm: 'second', client_id: key.clientId, client_secret: key.clientSecret });
    const created = stateOf(await second.create(TYPE, { name: 'in-second-realm', realm: 'second' }));
    expect(created['realm']).toBe('second');
    const secondClient = t.sdk({ realm: 'second', clientId: key.clientId, clientSecret: key.clientSecret });
    expect((await secondClient.getOrganization(created['id'] as string)).name).toBe('in-second-realm');
    await expect(t.client.getOrganization(created['id'] as string)).rejects.toMatchObject({ status: 404 });
  });

  describe('optional and computed domains and attributes, through the provider service', () => {
    let tf: ProviderHarness<OrgAdminProviderContext>;
    let counter = 0;
    const uniqueName = (prefix: string): string => `${prefix}-${(counter += 1)}`;

    beforeAll(async () => {
      tf = await t.harness();
    });

    /**
     * Plans and applies like `terraform apply`, and checks what Terraform checks after an apply:
     * every value the plan knew is the value in the applied state.
     */
    const applyAsTerraform = async (
      priorState: ObjectValue | null,
      config: ObjectValue,
      onPlan?: (plannedState: ObjectValue) => void,
    ): Promise<ObjectValue> => {
      const plan = await tf.plan(TYPE, { priorState, config });
      expect(plan.diagnostics).toEqual([]);
      onPlan?.(plan.plannedState!);
      const applied = await tf.apply(TYPE, { priorState, plannedState: plan.plannedState, config });
      expect(applied.diagnostics).toEqual([]);
      for (const [name, planned] of Object.entries(plan.plannedState!)) {
        if (planned !== UNKNOWN) expect({ [name]: applied.state![name] }).toEqual({ [name]: planned });
      }
      return applied.state!;
    };

    /** Imports `id` the way `terraform import` does (import, then read). */
    const imported = async (id: string): Promise<ObjectValue> => {
      const result = await tf.importState(TYPE, id);
      expect(result.diagnostics).toEqual([]);
      return result.state!;
    };

    it('plans no change right after an import when the configuration sets the same domains (in any case) and attributes', async () => {
      const name = uniqueName('import-managed');
      const id = await t.client.createOrganization({ name, domains: ['a.example.com', 'b.example.com'], attributes: { tier: ['gold'], region: ['eu', 'us'] } });
      const state = await imported(id);
      expect(state).toMatchObject({ domains: expect.arrayContaining(['a.example.com', 'b.example.com']), attributes: { tier: ['gold'], region: ['eu', 'us'] } });

      const config = { name, domains: ['A.Example.com', 'b.example.com'], attributes: { region: ['eu', 'us'], tier: ['gold'] } };
      const plan = await tf.plan(TYPE, { priorState: state, config });
      expect(plan.diagnostics).toEqual([]);
      expect(plan.changed).toBe(false);
      // A refresh keeps the state as it is: still no change.
      const refreshed = await tf.read(TYPE, state);
      expect(refreshed.state).toEqual(state);
      expect((await tf.plan(TYPE, { priorState: refreshed.state, config })).changed).toBe(false);
    });

    it('plans no change right after an import when the configuration leaves domains and attributes out', async () => {
      const name = uniqueName('import-unmanaged');
      const id = await t.client.createOrganization({ name, domains: ['c.example.com'], attributes: { k: ['v'] } });
      const state = await imported(id);
      const plan = await tf.plan(TYPE, { priorState: state, config: { name } });
      expect(plan.diagnostics).toEqual([]);
      expect(plan.changed).toBe(false);
      expect(plan.plannedState).toMatchObject({ domains: ['c.example.com'], attributes: { k: ['v'] } });
    });

    it('enforces configured values that differ from the imported ones', async () => {
      const name = uniqueName('import-differs');
      const id = await t.client.createOrganization({ name, domains: ['old.example.com'], attributes: { tier: ['gold'], extra: ['x'] } });
      const state = await imported(id);
      const config = { name, domains: ['new.example.com'], attributes: { tier: ['silver'] } };
      const plan = await tf.plan(TYPE, { priorState: state, config });
      expect(plan.changed).toBe(true);
      expect(plan.plannedState).toMatchObject({ domains: ['new.example.com'], attributes: { tier: ['silver'] } });
      const applied = await tf.update(TYPE, state, config);
      expect(applied.diagnostics).toEqual([]);
      expect(applied.state).toMatchObject({ domains: ['new.example.com'], attributes: { tier: ['silver'] } });
      expect(await t.client.getOrganization(id)).toMatchObject({ domains: ['new.example.com'], attributes: { tier: ['silver'] } });
      const refreshed = await tf.read(TYPE, applied.state!);
      expect(refreshed.state).toEqual(applied.state);
      expect((await tf.plan(TYPE, { priorState: refreshed.state, config })).changed).toBe(false);
    });

    it('plans empty domains and attributes on create when left out, and the applied state matches the plan', async () => {
      const name = uniqueName('create-unmanaged');
      // One plan per resource and provider process, as Terraform does (a second plan of the same
      // create in one process would be taken for a second resource with the same name).
      let planned: ObjectValue | undefined;
      const created = await applyAsTerraform(null, { name }, (plannedState) => (planned = plannedState));
      expect(planned).toMatchObject({ id: UNKNOWN, domains: [], attributes: {} });
      expect(created).toMatchObject({ name, domains: [], attributes: {} });
      const remote = await t.client.getOrganization(created['id'] as string);
      expect(remote).toMatchObject({ domains: [], attributes: {} });
    });

    it('neither reports nor wipes values set outside Terraform when domains and attributes are left out', async () => {
      const name = uniqueName('outside-values');
      const created = await tf.create(TYPE, { name, display_name: 'Before' });
      const id = created.state!['id'] as string;
      await t.client.updateOrganization(id, { name, displayName: 'Before', domains: ['outside.example.com'], attributes: { billing: ['external'] } });
      const refreshed = await tf.read(TYPE, created.state!);
      expect(refreshed.state).toMatchObject({ domains: ['outside.example.com'], attributes: { billing: ['external'] } });
      expect((await tf.plan(TYPE, { priorState: refreshed.state, config: { name, display_name: 'Before' } })).changed).toBe(false);

      // An in-place update of something else keeps them, on the service and in state.
      const updated = await applyAsTerraform(refreshed.state!, { name, display_name: 'After' });
      expect(updated).toMatchObject({ display_name: 'After', domains: ['outside.example.com'], attributes: { billing: ['external'] } });
      expect(await t.client.getOrganization(id)).toMatchObject({ displayName: 'After', domains: ['outside.example.com'], attributes: { billing: ['external'] } });
    });

    it('stops managing domains and attributes removed from the configuration without deleting them', async () => {
      const name = uniqueName('stop-managing');
      const created = await tf.create(TYPE, { name, domains: ['kept.example.com'], attributes: { kept: ['yes'] } });
      const plan = await tf.plan(TYPE, { priorState: created.state, config: { name } });
      expect(plan.changed).toBe(false);
      const updated = await tf.update(TYPE, created.state!, { name, display_name: 'Renamed display' });
      expect(updated.diagnostics).toEqual([]);
      expect(await t.client.getOrganization(created.state!['id'] as string)).toMatchObject({
        displayName: 'Renamed display',
        domains: ['kept.example.com'],
        attributes: { kept: ['yes'] },
      });
    });

    it('shows drift of configured domains and attributes and brings them back on apply', async () => {
      const name = uniqueName('managed-drift');
      const config = { name, domains: ['managed.example.com'], attributes: { tier: ['gold'] } };
      const created = await tf.create(TYPE, config);
      expect(created.state).toMatchObject({ domains: ['managed.example.com'], attributes: { tier: ['gold'] } });
      const id = created.state!['id'] as string;
      const clean = await tf.read(TYPE, created.state!);
      expect(clean.state).toEqual(created.state);
      expect((await tf.plan(TYPE, { priorState: clean.state, config })).changed).toBe(false);

      await t.client.updateOrganization(id, { name, domains: ['other.example.com'], attributes: { tier: ['bronze'], added: ['x'] } });
      const drifted = await tf.read(TYPE, created.state!);
      expect(drifted.state).toMatchObject({ domains: ['other.example.com'], attributes: { tier: ['bronze'], added: ['x'] } });
      const plan = await tf.plan(TYPE, { priorState: drifted.state, config });
      expect(plan.changed).toBe(true);
      const applied = await tf.update(TYPE, drifted.state!, config);
      expect(applied.diagnostics).toEqual([]);
      expect(await t.client.getOrganization(id)).toMatchObject({ domains: ['managed.example.com'], attributes: { tier: ['gold'] } });
    });

    it('refuses a case-only change of a configured domain at validation, and keeps the stored form', async () => {
      const name = uniqueName('case-only');
      const created = await tf.create(TYPE, { name, domains: ['case.example.com'] });
      expect(errorsOf(await tf.validateResource(TYPE, { name, domains: ['CASE.example.com'] })).map((d) => d.summary)).toEqual(['Domain not in its stored form']);
      const plan = await tf.plan(TYPE, { priorState: created.state, config: { name, domains: ['case.example.com'] } });
      expect(plan.changed).toBe(false);
    });
  });

  describe('validate', () => {
    const validate = (values: Record<string, unknown>): ReturnType<typeof t.tf.validateResource> => t.tf.validateResource(TYPE, values as ObjectValue);

    it('accepts a complete, valid configuration', async () => {
      expect(await validate({ name: 'ok', url: 'https://ok.example.com/path', domains: ['ok.example.com', 'localhost'], attributes: { a: ['b'] } })).toEqual([]);
    });

    it('reports an empty name on name', async () => {
      expect(errorsOf(await validate({ name: '' }))).toEqual([expect.objectContaining({ path: ['name'] })]);
    });

    it('reports a relative or non-http url on url', async () => {
      expect(errorsOf(await validate({ name: 'x', url: 'example.com' }))).toEqual([expect.objectContaining({ path: ['url'] })]);
      expect(errorsOf(await validate({ name: 'x', url: 'ftp://example.com' }))[0]!.detail).toContain('"ftp"');
    });

    it('reports every bad domain on domains', async () => {
      const diagnostics = await validate({ name: 'x', domains: ['bad domain', 'https://example.com', 'a..b', 'ok.example.com', 'OK.example.com'] });
      expect(errorsOf(diagnostics)).toHaveLength(4);
      expect(errorsOf(diagnostics).every((e) => e.path?.[0] === 'domains')).toBe(true);
      expect(diagnosticsText(diagnostics)).toContain('"bad domain"');
      expect(diagnosticsText(diagnostics)).toContain('"OK.example.com" is stored by the service as "ok.example.com"');
    });

    it('refuses a domain in another case, with surrounding spaces or a trailing dot, naming the form the service stores (src/api/validation.ts)', async () => {
      const diagnostics = await validate({ name: 'x', domains: ['Example.COM', 'other.example.', ' third.example ', 'fine.example'] });
      expect(errorsOf(diagnostics).map((d) => d.detail.match(/stored by the service as "([^"]+)"/)?.[1])).toEqual(['example.com', 'other.example', 'third.example']);
      expect(errorsOf(diagnostics).every((d) => d.path?.[0] === 'domains')).toBe(true);
    });

    it('reports a realm that is not a realm name the service can have on realm', async () => {
      expect(errorsOf(await validate({ name: 'x', realm: 'Acme' }))).toEqual([expect.objectContaining({ summary: 'Invalid realm', path: ['realm'] })]);
    });

    it('skips values that are unknown', async () => {
      expect(await validate({ name: UNKNOWN, url: UNKNOWN, domains: UNKNOWN, attributes: UNKNOWN, realm: UNKNOWN })).toEqual([]);
    });
  });

  describe('import', () => {
    it('imports by ID and by REALM/ID, with the organization\'s domains and attributes', async () => {
      const id = await t.client.createOrganization({ name: 'importable', attributes: { k: ['v'] }, domains: ['importable.example.com'] });
      const byId = await t.tf.importResource(TYPE, id);
      expect(byId.state).toEqual({
        id,
        realm: 'acme',
        name: 'importable',
        display_name: null,
        url: null,
        domains: ['importable.example.com'],
        attributes: { k: ['v'] },
      });
      const byRealm = await t.tf.importResource(TYPE, `acme/${id}`);
      expect(byRealm.state).toEqual(byId.state);
      // The framework reads after importing: the read keeps the imported state.
      const read = await t.tf.read(TYPE, byId.state!);
      expect(read.state).toEqual(byId.state);
      expect([...byId.diagnostics, ...byRealm.diagnostics, ...read.diagnostics]).toEqual([]);
    });

    it('refuses malformed ids with the accepted forms', async () => {
      for (const id of ['', 'a/b/c', '/x', 'acme/']) {
        const { state, diagnostics } = await t.tf.importResource(TYPE, id);
        expect(state).toBeNull();
        expect(errorsOf(diagnostics)).toHaveLength(1);
        expect(errorsOf(diagnostics)[0]!.detail).toContain('`ID` or `REALM/ID`');
      }
    });

    it('refuses an id that names no organization', async () => {
      const { state, diagnostics } = await t.tf.importResource(TYPE, 'no-such-org');
      expect(state).toBeNull();
      expect(errorsOf(diagnostics)[0]!.detail).toContain('no organization with id "no-such-org"');
    });
  });

  describe('errors', () => {
    it('reports an update refused for a missing permission with the status and the permission', async () => {
      const created = stateOf(await t.tf.create(TYPE, { name: 'no-manage' }));
      const viewer = await t.svc.admin.createApiKey('acme', { name: 'viewer', permissions: ['view-organizations'] });
      const viewerTf = await t.harness({ client_id: viewer.clientId, client_secret: viewer.clientSecret });
      const { state, diagnostics } = await viewerTf.update(TYPE, created, { name: 'no-manage', display_name: 'x' });
      // The update produced no new state: the framework keeps the prior one.
      expect(state).toEqual(created);
      expect(errorsOf(diagnostics)).toHaveLength(1);
      expect(errorsOf(diagnostics)[0]!.summary).toBe('Failed to update organization');
      expect(errorsOf(diagnostics)[0]!.detail).toContain('HTTP 403');
      expect(errorsOf(diagnostics)[0]!.detail).toContain('`manage-organizations`');
      expect(diagnosticsText(diagnostics)).not.toContain(viewer.clientSecret);
    });

    it('reports a read in a realm that does not exist as an error, not as drift', async () => {
      const state = { id: 'x', name: 'x', realm: 'nowhere', display_name: null, url: null, domains: null, attributes: null };
      const read = await t.tf.read(TYPE, state);
      expect(read.state).toEqual(state);
      expect(errorsOf(read.diagnostics)).toHaveLength(1);
      expect(errorsOf(read.diagnostics)[0]!.detail).toContain('"nowhere"');
    });
  });
});
