import { organizationResource as resource } from '../../../src/provider/resources/organization';
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
    expect(created['attributes']).toBeNull();
    expect(created['domains']).toBeNull();
    const id = created['id'] as string;
    await h.ctx.client.updateOrganization(id, {
      name: 'unmanaged-attrs',
      displayName: 'Before',
      attributes: { billing: ['external'] },
      domains: ['outside.example.com'],
    });

    const readDiags = new Collector();
    const refreshed = await resource.read(h.ctx, { state: created }, readDiags);
    // Not managed: no drift reported.
    expect(refreshed).toEqual(created);

    const { state, diags } = await updateResource(resource, h.ctx, refreshed!, { name: 'unmanaged-attrs', display_name: 'After' });
    expect(diags.items).toEqual([]);
    expect(state).toMatchObject({ display_name: 'After', attributes: null, domains: null });
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
    it('imports by ID and by REALM/ID, leaving domains and attributes unmanaged', async () => {
      const id = await h.ctx.client.createOrganization({ name: 'importable', attributes: { k: ['v'] }, domains: ['importable.example.com'] });
      const diags = new Collector();
      const byId = await resource.importState!(h.ctx, { id }, diags);
      expect(byId).toEqual({
        id,
        realm: 'acme',
        name: 'importable',
        display_name: null,
        url: null,
        domains: null,
        attributes: null,
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
