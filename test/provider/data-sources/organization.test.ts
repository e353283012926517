import { closeNames, editDistance, ORGANIZATION_DATA_SOURCE_TYPE as TYPE } from '../../../src/provider/data-sources/organization';
import { errorsOf } from '../../../src/tfplugin/testing/harness';
import type { ObjectValue, Value } from '../../../src/tfplugin/framework/types';
import { UNKNOWN } from '../../../src/tfplugin/protocol/unknown';
import { startProviderTest, type ProviderTest } from '../harness';

describe('orgadmin_organization data source', () => {
  let t: ProviderTest;
  let acmeId: string;

  beforeAll(async () => {
    t = await startProviderTest();
    acmeId = await t.client.createOrganization({
      name: 'Acme Corp',
      displayName: 'ACME Corporation',
      url: 'https://acme.example.com',
      domains: ['acme.example.com'],
      attributes: { tier: ['gold'] },
    });
    await t.client.createOrganization({ name: 'Globex' });
    await t.client.createOrganization({ name: 'Initech' });
  });

  afterAll(async () => {
    await t.close();
  });

  const read = (values: Record<string, Value>): ReturnType<typeof t.tf.readDataSource> => t.tf.readDataSource(TYPE, values);

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
    const { state, diagnostics } = await read({ id: acmeId });
    expect(diagnostics).toEqual([]);
    expect(state).toEqual(expected());
  });

  it('finds an organization by exact name', async () => {
    const { state, diagnostics } = await read({ name: 'Acme Corp' });
    expect(diagnostics).toEqual([]);
    expect(state).toEqual(expected());
  });

  it('lists close names when no organization has the name', async () => {
    const { state, diagnostics } = await read({ name: 'Acme Crop' });
    expect(state).toBeNull();
    expect(errorsOf(diagnostics)).toHaveLength(1);
    expect(errorsOf(diagnostics)[0]!.path).toEqual(['name']);
    expect(errorsOf(diagnostics)[0]!.detail).toContain('"Acme Corp"');
    expect(errorsOf(diagnostics)[0]!.detail).not.toContain('"Initech"');
  });

  it('does not match a name by substring or case', async () => {
    const { state, diagnostics } = await read({ name: 'acme corp' });
    expect(state).toBeNull();
    expect(errorsOf(diagnostics)[0]!.detail).toContain('Close names');
    expect(errorsOf(diagnostics)[0]!.detail).toContain('"Acme Corp"');
  });

  it('reports an unknown id on id', async () => {
    const { state, diagnostics } = await read({ id: 'nope' });
    expect(state).toBeNull();
    expect(errorsOf(diagnostics)).toEqual([expect.objectContaining({ summary: 'Organization not found', path: ['id'] })]);
  });

  it('requires exactly one of id and name, skipping unknown values', async () => {
    const validate = async (values: Record<string, unknown>): Promise<ReturnType<typeof errorsOf>> =>
      errorsOf(await t.tf.validateDataSource(TYPE, values as ObjectValue));
    expect(await validate({ id: 'a', name: 'b' })).toHaveLength(1);
    expect(await validate({})).toHaveLength(1);
    expect(await validate({ id: 'a' })).toHaveLength(0);
    expect(await validate({ id: UNKNOWN })).toHaveLength(0);
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
