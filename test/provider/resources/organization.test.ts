import { ProviderHarness } from '../../../src/provider/framework/testing';
import type { ObjectValue } from '../../../src/provider/framework/types';
import { organizationResource as resource, ORGANIZATION_RESOURCE_TYPE as TYPE } from '../../../src/provider/resources/organization';
import { UNKNOWN } from '../../../src/provider/protocol/unknown';
import { Collector, createResource, plan, resourceConfig, startHarness, updateResource, type Harness } from './harness';

describe('orgadmin_organization', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h.close();
  });

  it('creates, reads back the same state, updates in place and deletes', async () => {
    const created = await createResource(resource, h.ctx, {
      name: 'crud-org',
      display_name: 'CRUD Org',
      url: 'https://crud.example.com',
      domains: ['crud.example.com'],
      attributes: { tier: ['gold'] },
    });
    expect(created).toEqual({
      id: expect.any(String),
      realm: 'acme',
      name: 'crud-org',
      display_name: 'CRUD Org',
      url: 'https://crud.example.com',
      domains: ['crud.example.com'],
      attributes: { tier: ['gold'] },
    });
    const remote = await h.ctx.client.getOrganization(created['id'] as string);
    expect(remote).toMatchObject({ name: 'crud-org', displayName: 'CRUD Org', domains: ['crud.example.com'], attributes: { tier: ['gold'] } });

    const readDiags = new Collector();
    expect(await resource.read(h.ctx, { state: created }, readDiags)).toEqual(created);
    expect(readDiags.items).toEqual([]);

    const updated = await updateResource(resource, h.ctx, created, {
      name: 'crud-org-renamed',
      display_name: null,
      url: 'http://crud.example.org',
      domains: ['crud.example.org'],
      attributes: { tier: ['silver'], region: ['eu'] },
    });
    expect(updated.diags.items).toEqual([]);
    expect(updated.requiresReplace).toEqual([]);
    expect(updated.state).toMatchObject({ id: created['id'], name: 'crud-org-renamed', display_name: null, domains: ['crud.example.org'] });
    expect(await h.ctx.client.getOrganization(created['id'] as string)).toMatchObject({
      id: created['id'],
      name: 'crud-org-renamed',
      displayName: null,
      url: 'http://crud.example.org',
      domains: ['crud.example.org'],
      attributes: { tier: ['silver'], region: ['eu'] },
    });

    const deleteDiags = new Collector();
    await resource.delete(h.ctx, { priorState: updated.state! }, deleteDiags);
    expect(deleteDiags.items).toEqual([]);
    await expect(h.ctx.client.getOrganization(created['id'] as string)).rejects.toMatchObject({ status: 404 });
  });

  it('treats deleting an organization that is already gone as done', async () => {
    const created = await createResource(resource, h.ctx, { name: 'gone-before-delete' });
    await h.ctx.client.deleteOrganization(created['id'] as string);
    const diags = new Collector();
    await resource.delete(h.ctx, { priorState: created }, diags);
    expect(diags.items).toEqual([]);
  });

  it('returns the new name when the organization was renamed outside Terraform', async () => {
    const created = await createResource(resource, h.ctx, { name: 'drift-before' });
    await h.ctx.client.updateOrganization(created['id'] as string, { name: 'drift-after' });
    const diags = new Collector();
    const state = await resource.read(h.ctx, { state: created }, diags);
    expect(state).toMatchObject({ id: created['id'], name: 'drift-after' });
    expect(diags.items).toEqual([]);
  });

  it('removes the organization from state with a warning when it was deleted outside Terraform', async () => {
    const created = await createResource(resource, h.ctx, { name: 'deleted-outside' });
    await h.ctx.client.deleteOrganization(created['id'] as string);
    const diags = new Collector();
    expect(await resource.read(h.ctx, { state: created }, diags)).toBeNull();
    expect(diags.errors).toEqual([]);
    expect(diags.warnings).toHaveLength(1);
    expect(diags.warnings[0]!.summary).toMatch(/removed outside Terraform/);
    expect(diags.warnings[0]!.detail).toContain(created['id'] as string);
  });

  it('names the existing organization\'s id and the import command when the name is taken', async () => {
    const existingId = await h.ctx.client.createOrganization({ name: 'taken-name' });
    const config = resourceConfig(resource, { name: 'taken-name' });
    const planned = await plan(resource, h.ctx, config, null);
    const diags = new Collector();
    expect(await resource.create(h.ctx, { plannedState: planned.plannedState, config }, diags)).toBeNull();
    expect(diags.errors).toHaveLength(1);
    const [error] = diags.errors;
    expect(error!.path).toEqual(['name']);
    expect(error!.detail).toContain(existingId);
    expect(error!.detail).toContain(`terraform import orgadmin_organization.<name> ${existingId}`);
    expect(error!.detail).toContain('409');
  });

  it('reports a rename onto a taken name as an error naming the holder', async () => {
    const holderId = await h.ctx.client.createOrganization({ name: 'rename-holder' });
    const created = await createResource(resource, h.ctx, { name: 'rename-source' });
    const { state, diags } = await updateResource(resource, h.ctx, created, { name: 'rename-holder' });
    expect(state).toBeNull();
    expect(diags.errors).toHaveLength(1);
    expect(diags.errors[0]!.detail).toContain(holderId);
    expect((await h.ctx.client.getOrganization(created['id'] as string)).name).toBe('rename-source');
  });

  it('keeps attributes and domains set outside Terraform when they are not configured', async () => {
    const created = await createResource(resource, h.ctx, { name: 'unmanaged-attrs', display_name: 'Before' });
    expect(created['attributes']).toEqual({});
    expect(created['domains']).toEqual([]);
    const id = created['id'] as string;
    await h.ctx.client.updateOrganization(id, {
      name: 'unmanaged-attrs',
      displayName: 'Before',
      attributes: { billing: ['external'] },
      domains: ['outside.example.com'],
    });

    const readDiags = new Collector();
    const refreshed = await resource.read(h.ctx, { state: created }, readDiags);
    // Read records the service's values; not configured, they are not drift (see the plans below).
    expect(refreshed).toEqual({ ...created, attributes: { billing: ['external'] }, domains: ['outside.example.com'] });

    const { state, diags } = await updateResource(resource, h.ctx, refreshed!, { name: 'unmanaged-attrs', display_name: 'After' });
    expect(diags.items).toEqual([]);
    expect(state).toMatchObject({ display_name: 'After', attributes: { billing: ['external'] }, domains: ['outside.example.com'] });
    expect(await h.ctx.client.getOrganization(id)).toMatchObject({
      displayName: 'After',
      attributes: { billing: ['external'] },
      domains: ['outside.example.com'],
    });
  });

  it('removes every attribute when attributes is set to an empty map', async () => {
    const created = await createResource(resource, h.ctx, { name: 'clear-attrs', attributes: { a: ['1'] } });
    const { diags } = await updateResource(resource, h.ctx, created, { name: 'clear-attrs', attributes: {} });
    expect(diags.items).toEqual([]);
    expect((await h.ctx.client.getOrganization(created['id'] as string)).attributes).toEqual({});
  });

  it('sends domains lowercase and shows no drift for the configured spelling', async () => {
    const created = await createResource(resource, h.ctx, { name: 'mixed-case-domains', domains: ['Example.COM', 'docs.example.com'] });
    expect((await h.ctx.client.getOrganization(created['id'] as string)).domains.sort()).toEqual(['docs.example.com', 'example.com']);
    const diags = new Collector();
    const refreshed = await resource.read(h.ctx, { state: created }, diags);
    expect(refreshed!['domains']).toEqual(['Example.COM', 'docs.example.com']);
  });

  it('reports domains changed outside Terraform as drift when domains are managed', async () => {
    const created = await createResource(resource, h.ctx, { name: 'managed-domains', domains: ['a.example.com'] });
    await h.ctx.client.updateOrganization(created['id'] as string, { name: 'managed-domains', domains: ['b.example.com'] });
    const refreshed = await resource.read(h.ctx, { state: created }, new Collector());
    expect(refreshed!['domains']).toEqual(['b.example.com']);
  });

  it('plans the provider\'s realm by default and forces replacement when the realm changes', async () => {
    const created = await createResource(resource, h.ctx, { name: 'realm-plan' });
    expect(created['realm']).toBe('acme');
    const same = await plan(resource, h.ctx, resourceConfig(resource, { name: 'realm-plan' }), created);
    expect(same.plannedState['realm']).toBe('acme');
    expect(same.requiresReplace).toEqual([]);
    const other = await plan(resource, h.ctx, resourceConfig(resource, { name: 'realm-plan', realm: 'other' }), created);
    expect(other.plannedState['realm']).toBe('other');
    expect(other.requiresReplace).toEqual([['realm']]);
    const unknown = await plan(resource, h.ctx, resourceConfig(resource, { name: 'realm-plan', realm: UNKNOWN }), null);
    expect(unknown.plannedState['realm']).toBe(UNKNOWN);
    expect(resource.schema.attributes['realm']!.requiresReplace).toBe(true);
  });

  it('works in the realm the resource names, and explains that an API key belongs to one realm', async () => {
    await h.svc.admin.createRealm('second');
    // The provider's key is a key of realm "acme": the service does not know it in "second".
    const config = resourceConfig(resource, { name: 'in-second-realm', realm: 'second' });
    const planned = await plan(resource, h.ctx, config, null);
    const diags = new Collector();
    expect(await resource.create(h.ctx, { plannedState: planned.plannedState, config }, diags)).toBeNull();
    expect(diags.errors).toHaveLength(1);
    expect(diags.errors[0]!.detail).toContain('HTTP 401 invalid_client');
    expect(diags.errors[0]!.detail).toContain('alias = "second"');

    // With a provider configured with a key of realm "second", the resource works there.
    const key = await h.svc.admin.createApiKey('second', { name: 'second-key', permissions: ['view-organizations', 'manage-organizations', 'create-organization'] });
    const second = await h.configure({ realm: 'second', client_id: key.clientId, client_secret: key.clientSecret });
    const created = await createResource(resource, second!, { name: 'in-second-realm', realm: 'second' });
    expect(created['realm']).toBe('second');
    expect((await second!.client.getOrganization(created['id'] as string)).name).toBe('in-second-realm');
    await expect(h.ctx.client.getOrganization(created['id'] as string)).rejects.toMatchObject({ status: 404 });
  });

  describe('optional and computed domains and attributes, through the provider service', () => {
    let tf: ProviderHarness<unknown>;
    let counter = 0;
    const uniqueName = (prefix: string): string => `${prefix}-${(counter += 1)}`;

    beforeAll(async () => {
      tf = new ProviderHarness(h.provider as never);
      expect(await tf.configure({ base_url: h.svc.baseUrl, realm: h.realm, client_id: h.clientId, client_secret: h.clientSecret, max_retries: 0 })).toEqual([]);
    });

    /**
     * Plans and applies like `terraform apply`, and checks what Terraform checks after an apply:
     * every value the plan knew is the value in the applied state.
     */
    const applyAsTerraform = async (priorState: ObjectValue | null, config: ObjectValue): Promise<ObjectValue> => {
      const plan = await tf.plan(TYPE, { priorState, config });
      expect(plan.diagnostics).toEqual([]);
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
      const id = await h.ctx.client.createOrganization({ name, domains: ['a.example.com', 'b.example.com'], attributes: { tier: ['gold'], region: ['eu', 'us'] } });
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
      const id = await h.ctx.client.createOrganization({ name, domains: ['c.example.com'], attributes: { k: ['v'] } });
      const state = await imported(id);
      const plan = await tf.plan(TYPE, { priorState: state, config: { name } });
      expect(plan.diagnostics).toEqual([]);
      expect(plan.changed).toBe(false);
      expect(plan.plannedState).toMatchObject({ domains: ['c.example.com'], attributes: { k: ['v'] } });
    });

    it('enforces configured values that differ from the imported ones', async () => {
      const name = uniqueName('import-differs');
      const id = await h.ctx.client.createOrganization({ name, domains: ['old.example.com'], attributes: { tier: ['gold'], extra: ['x'] } });
      const state = await imported(id);
      const config = { name, domains: ['New.example.com'], attributes: { tier: ['silver'] } };
      const plan = await tf.plan(TYPE, { priorState: state, config });
      expect(plan.changed).toBe(true);
      expect(plan.plannedState).toMatchObject({ domains: ['New.example.com'], attributes: { tier: ['silver'] } });
      const applied = await tf.update(TYPE, state, config);
      expect(applied.diagnostics).toEqual([]);
      expect(applied.state).toMatchObject({ domains: ['New.example.com'], attributes: { tier: ['silver'] } });
      expect(await h.ctx.client.getOrganization(id)).toMatchObject({ domains: ['new.example.com'], attributes: { tier: ['silver'] } });
      const refreshed = await tf.read(TYPE, applied.state!);
      expect(refreshed.state).toEqual(applied.state);
      expect((await tf.plan(TYPE, { priorState: refreshed.state, config })).changed).toBe(false);
    });

    it('plans empty domains and attributes on create when left out, and the applied state matches the plan', async () => {
      const name = uniqueName('create-unmanaged');
      const plan = await tf.plan(TYPE, { priorState: null, config: { name } });
      expect(plan.plannedState).toMatchObject({ id: UNKNOWN, domains: [], attributes: {} });
      const created = await applyAsTerraform(null, { name });
      expect(created).toMatchObject({ name, domains: [], attributes: {} });
      const remote = await h.ctx.client.getOrganization(created['id'] as string);
      expect(remote).toMatchObject({ domains: [], attributes: {} });
    });

    it('neither reports nor wipes values set outside Terraform when domains and attributes are left out', async () => {
      const name = uniqueName('outside-values');
      const created = await tf.create(TYPE, { name, display_name: 'Before' });
      const id = created.state!['id'] as string;
      await h.ctx.client.updateOrganization(id, { name, displayName: 'Before', domains: ['outside.example.com'], attributes: { billing: ['external'] } });
      const refreshed = await tf.read(TYPE, created.state!);
      expect(refreshed.state).toMatchObject({ domains: ['outside.example.com'], attributes: { billing: ['external'] } });
      expect((await tf.plan(TYPE, { priorState: refreshed.state, config: { name, display_name: 'Before' } })).changed).toBe(false);

      // An in-place update of something else keeps them, on the service and in state.
      const updated = await applyAsTerraform(refreshed.state!, { name, display_name: 'After' });
      expect(updated).toMatchObject({ display_name: 'After', domains: ['outside.example.com'], attributes: { billing: ['external'] } });
      expect(await h.ctx.client.getOrganization(id)).toMatchObject({ displayName: 'After', domains: ['outside.example.com'], attributes: { billing: ['external'] } });
    });

    it('stops managing domains and attributes removed from the configuration without deleting them', async () => {
      const name = uniqueName('stop-managing');
      const created = await tf.create(TYPE, { name, domains: ['kept.example.com'], attributes: { kept: ['yes'] } });
      const plan = await tf.plan(TYPE, { priorState: created.state, config: { name } });
      expect(plan.changed).toBe(false);
      const updated = await tf.update(TYPE, created.state!, { name, display_name: 'Renamed display' });
      expect(updated.diagnostics).toEqual([]);
      expect(await h.ctx.client.getOrganization(created.state!['id'] as string)).toMatchObject({
        displayName: 'Renamed display',
        domains: ['kept.example.com'],
        attributes: { kept: ['yes'] },
      });
    });

    it('shows drift of configured domains and attributes and brings them back on apply', async () => {
      const name = uniqueName('managed-drift');
      const config = { name, domains: ['Managed.example.com'], attributes: { tier: ['gold'] } };
      const created = await tf.create(TYPE, config);
      expect(created.state).toMatchObject({ domains: ['Managed.example.com'], attributes: { tier: ['gold'] } });
      const id = created.state!['id'] as string;
      // The service holds the domain lowercase: the configured spelling is no drift.
      const clean = await tf.read(TYPE, created.state!);
      expect(clean.state).toEqual(created.state);
      expect((await tf.plan(TYPE, { priorState: clean.state, config })).changed).toBe(false);

      await h.ctx.client.updateOrganization(id, { name, domains: ['other.example.com'], attributes: { tier: ['bronze'], added: ['x'] } });
      const drifted = await tf.read(TYPE, created.state!);
      expect(drifted.state).toMatchObject({ domains: ['other.example.com'], attributes: { tier: ['bronze'], added: ['x'] } });
      const plan = await tf.plan(TYPE, { priorState: drifted.state, config });
      expect(plan.changed).toBe(true);
      const applied = await tf.update(TYPE, drifted.state!, config);
      expect(applied.diagnostics).toEqual([]);
      expect(await h.ctx.client.getOrganization(id)).toMatchObject({ domains: ['managed.example.com'], attributes: { tier: ['gold'] } });
    });

    it('treats a case-only change of a configured domain as no change', async () => {
      const name = uniqueName('case-only');
      const created = await tf.create(TYPE, { name, domains: ['case.example.com'] });
      const plan = await tf.plan(TYPE, { priorState: created.state, config: { name, domains: ['CASE.example.com'] } });
      expect(plan.diagnostics).toEqual([]);
      expect(plan.changed).toBe(false);
      expect(plan.plannedState!['domains']).toEqual(['case.example.com']);
    });
  });

  describe('validate', () => {
    const validate = (values: Record<string, unknown>): Collector => {
      const diags = new Collector();
      resource.validate!(resourceConfig(resource, values as never), diags);
      return diags;
    };

    it('accepts a complete, valid configuration', () => {
      expect(validate({ name: 'ok', url: 'https://ok.example.com/path', domains: ['ok.example.com', 'localhost'], attributes: { a: ['b'] } }).items).toEqual([]);
    });

    it('reports an empty name on name', () => {
      expect(validate({ name: '' }).errors).toEqual([expect.objectContaining({ path: ['name'] })]);
    });

    it('reports a relative or non-http url on url', () => {
      expect(validate({ name: 'x', url: 'example.com' }).errors).toEqual([expect.objectContaining({ path: ['url'] })]);
      expect(validate({ name: 'x', url: 'ftp://example.com' }).errors[0]!.detail).toContain('"ftp"');
    });

    it('reports every bad domain on domains', () => {
      const diags = validate({ name: 'x', domains: ['bad domain', 'https://example.com', 'a..b', 'ok.example.com', 'OK.example.com'] });
      expect(diags.errors).toHaveLength(4);
      expect(diags.errors.every((e) => e.path?.[0] === 'domains')).toBe(true);
      expect(diags.text()).toContain('"bad domain"');
      expect(diags.text()).toContain('Duplicate domain');
    });

    it('skips values that are unknown', () => {
      expect(validate({ name: UNKNOWN, url: UNKNOWN, domains: UNKNOWN, attributes: UNKNOWN, realm: UNKNOWN }).items).toEqual([]);
    });
  });

  describe('import', () => {
    it('imports by ID and by REALM/ID, with the organization\'s domains and attributes', async () => {
      const id = await h.ctx.client.createOrganization({ name: 'importable', attributes: { k: ['v'] }, domains: ['importable.example.com'] });
      const diags = new Collector();
      const byId = await resource.importState!(h.ctx, { id }, diags);
      expect(byId).toEqual({
        id,
        realm: 'acme',
        name: 'importable',
        display_name: null,
        url: null,
        domains: ['importable.example.com'],
        attributes: { k: ['v'] },
      });
      const byRealm = await resource.importState!(h.ctx, { id: `acme/${id}` }, diags);
      expect(byRealm).toEqual(byId);
      // The framework reads after importing: the read keeps the imported state.
      expect(await resource.read(h.ctx, { state: byId! }, diags)).toEqual(byId);
      expect(diags.items).toEqual([]);
    });

    it('refuses malformed ids with the accepted forms', async () => {
      for (const id of ['', 'a/b/c', '/x', 'acme/']) {
        const diags = new Collector();
        expect(await resource.importState!(h.ctx, { id }, diags)).toBeNull();
        expect(diags.errors).toHaveLength(1);
        expect(diags.errors[0]!.detail).toContain('`ID` or `REALM/ID`');
      }
    });

    it('refuses an id that names no organization', async () => {
      const diags = new Collector();
      expect(await resource.importState!(h.ctx, { id: 'no-such-org' }, diags)).toBeNull();
      expect(diags.errors[0]!.detail).toContain('no organization with id "no-such-org"');
    });
  });

  describe('errors', () => {
    it('reports an update refused for a missing permission with the status and the permission', async () => {
      const created = await createResource(resource, h.ctx, { name: 'no-manage' });
      const viewer = await h.svc.admin.createApiKey('acme', { name: 'viewer', permissions: ['view-organizations'] });
      const ctx = await h.configure({ client_id: viewer.clientId, client_secret: viewer.clientSecret });
      const { state, diags } = await updateResource(resource, ctx!, created, { name: 'no-manage', display_name: 'x' });
      expect(state).toBeNull();
      expect(diags.errors).toHaveLength(1);
      expect(diags.errors[0]!.summary).toBe('Failed to update organization');
      expect(diags.errors[0]!.detail).toContain('HTTP 403');
      expect(diags.errors[0]!.detail).toContain('`manage-organizations`');
      expect(diags.text()).not.toContain(viewer.clientSecret);
    });

    it('reports a read in a realm that does not exist as an error, not as drift', async () => {
      const diags = new Collector();
      const state = resourceConfig(resource, { id: 'x', name: 'x', realm: 'nowhere' });
      expect(await resource.read(h.ctx, { state }, diags)).toEqual(state);
      expect(diags.errors).toHaveLength(1);
      expect(diags.errors[0]!.detail).toContain('"nowhere"');
    });
  });
});
