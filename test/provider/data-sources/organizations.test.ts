import { ORGANIZATIONS_DATA_SOURCE_TYPE as TYPE } from '../../../src/provider/data-sources/organizations';
import { errorsOf } from '../../../src/tfplugin/testing/harness';
import type { Value } from '../../../src/tfplugin/framework/types';
import { startProviderTest, type ProviderTest } from '../harness';

describe('orgadmin_organizations data source', () => {
  let t: ProviderTest;

  beforeAll(async () => {
    t = await startProviderTest();
    // 130 organizations: more than one page of 100.
    for (let i = 0; i < 130; i += 1) {
      await t.client.createOrganization({
        name: `org-${String(i).padStart(3, '0')}`,
        attributes: { tier: [i % 10 === 0 ? 'gold' : 'basic'], region: [i % 2 === 0 ? 'eu' : 'us'] },
      });
    }
  });

  afterAll(async () => {
    await t.close();
  });

  const read = (values: Record<string, Value>): ReturnType<typeof t.tf.readDataSource> => t.tf.readDataSource(TYPE, values);

  it('returns every organization across pages, with ids in the same order', async () => {
    const { state, diagnostics } = await read({});
    expect(diagnostics).toEqual([]);
    const organizations = state!['organizations'] as Array<Record<string, Value>>;
    expect(organizations).toHaveLength(130);
    expect(state!['ids']).toEqual(organizations.map((o) => o['id']));
    expect(organizations[0]).toEqual({
      id: expect.any(String),
      name: 'org-000',
      display_name: null,
      url: null,
      domains: [],
      attributes: { tier: ['gold'], region: ['eu'] },
    });
    expect(state!['realm']).toBe('acme');
  });

  it('filters by search text and by attribute values', async () => {
    const bySearch = await read({ search: 'org-12' });
    expect((bySearch.state!['organizations'] as Array<Record<string, Value>>).map((o) => o['name'])).toEqual(
      Array.from({ length: 10 }, (_, i) => `org-12${i}`),
    );
    const byAttributes = await read({ attributes: { tier: 'gold', region: 'eu' } });
    expect(byAttributes.diagnostics).toEqual([]);
    const names = (byAttributes.state!['organizations'] as Array<Record<string, Value>>).map((o) => o['name']);
    expect(names).toEqual(['org-000', 'org-010', 'org-020', 'org-030', 'org-040', 'org-050', 'org-060', 'org-070', 'org-080', 'org-090', 'org-100', 'org-110', 'org-120']);
    expect(byAttributes.state!['attributes']).toEqual({ tier: 'gold', region: 'eu' });
  });

  it('returns empty lists when nothing matches', async () => {
    const { state } = await read({ search: 'no-such-organization' });
    expect(state!['organizations']).toEqual([]);
    expect(state!['ids']).toEqual([]);
  });

  it('reports an empty attribute filter value on its key', async () => {
    const diagnostics = await t.tf.validateDataSource(TYPE, { attributes: { tier: '' } });
    expect(errorsOf(diagnostics)).toEqual([expect.objectContaining({ path: ['attributes', 'tier'] })]);
  });
});
