import { closeNames, editDistance, organizationDataSource as dataSource } from '../../../src/provider/data-sources/organization';
import type { Value } from '../../../src/provider/framework/types';
import { UNKNOWN } from '../../../src/provider/protocol/unknown';
import { Collector, readDataSource, resourceConfig, startHarness, type Harness } from '../resources/harness';

describe('orgadmin_organization data source', () => {
  let h: Harness;
  let acmeId: string;

  beforeAll(async () => {
    h = await startHarness();
    acmeId = await h.ctx.client.createOrganization({
      name: 'Acme Corp',
      displayName: 'ACME Corporation',
      url: 'https://acme.example.com',
      domains: ['acme.example.com'],
      attributes: { tier: ['gold'] },
    });
    await h.ctx.client.createOrganization({ name: 'Globex' });
    await h.ctx.client.createOrganization({ name: 'Initech' });
  });

  afterAll(async () => {
    await h.close();
  });

  const read = (values: Record<string, Value>): ReturnType<typeof readDataSource> => readDataSource(dataSource, h.ctx, values);

  const expected = (): Record<string, unknown> => ({
    id: acmeId,
    name: 'Acme Corp',
    realm: 'acme',
    display_name: 'ACME Corporation',
    url: 'https://acme.example.com',
    domains: ['acme.example.com'],
    attributes: { tier: ['gold'] },
  });

  it('finds an organization by id', async () => {
    const { state, diags } = await read({ id: acmeId });
    expect(diags.items).toEqual([]);
    expect(state).toEqual(expected());
  });

  it('finds an organization by exact name', async () => {
    const { state, diags } = await read({ name: 'Acme Corp' });
    expect(diags.items).toEqual([]);
    expect(state).toEqual(expected());
  });

  it('lists close names when no organization has the name', async () => {
    const { state, diags } = await read({ name: 'Acme Crop' });
    expect(state).toBeNull();
    expect(diags.errors).toHaveLength(1);
    expect(diags.errors[0]!.path).toEqual(['name']);
    expect(diags.errors[0]!.detail).toContain('"Acme Corp"');
    expect(diags.errors[0]!.detail).not.toContain('"Initech"');
  });

  it('does not match a name by substring or case', async () => {
    const { state, diags } = await read({ name: 'acme corp' });
    expect(state).toBeNull();
    expect(diags.errors[0]!.detail).toContain('Close names');
    expect(diags.errors[0]!.detail).toContain('"Acme Corp"');
  });

  it('reports an unknown id on id', async () => {
    const { state, diags } = await read({ id: 'nope' });
    expect(state).toBeNull();
    expect(diags.errors).toEqual([expect.objectContaining({ summary: 'Organization not found', path: ['id'] })]);
  });

  it('requires exactly one of id and name, skipping unknown values', () => {
    const validate = (values: Record<string, unknown>): Collector => {
      const diags = new Collector();
      dataSource.validate!(resourceConfig(dataSource, values as never), diags);
      return diags;
    };
    expect(validate({ id: 'a', name: 'b' }).errors).toHaveLength(1);
    expect(validate({}).errors).toHaveLength(1);
    expect(validate({ id: 'a' }).errors).toHaveLength(0);
    expect(validate({ id: UNKNOWN }).errors).toHaveLength(0);
  });

  describe('close names', () => {
    it('measures edits', () => {
      expect(editDistance('kitten', 'sitting')).toBe(3);
      expect(editDistance('', 'abc')).toBe(3);
      expect(editDistance('same', 'same')).toBe(0);
    });

    it('ranks case-insensitive matches first, then substrings, then small edit distances', () => {
      expect(closeNames('acme', ['Globex', 'acme-eu', 'ACME', 'acne', 'Initech'])).toEqual(['ACME', 'acme-eu', 'acne']);
      expect(closeNames('zzz', ['Globex', 'Initech'])).toEqual([]);
    });
  });
});
