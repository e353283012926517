import { USERS_DATA_SOURCE_TYPE as TYPE } from '../../../src/provider/data-sources/users';
import { SCAN_THRESHOLD } from '../../../src/provider/user-directory';
import { errorsOf } from '../../../src/tfplugin/testing/harness';
import type { Value } from '../../../src/tfplugin/framework/types';
import { startProviderTest, type ProviderTest } from '../harness';

describe('orgadmin_users data source', () => {
  let t: ProviderTest;
  /** Users `bulk-000` … `bulk-119`, by username. */
  const ids = new Map<string, string>();
  const BULK = 120;

  beforeAll(async () => {
    t = await startProviderTest();
    for (let i = 0; i < BULK; i += 1) {
      const username = `bulk-${String(i).padStart(3, '0')}`;
      ids.set(username, (await t.svc.admin.createUser('acme', { username, email: `${username}@example.com`, firstName: 'Bulk' })).id);
    }
  });

  afterAll(async () => {
    await t.close();
  });

  /** A read in a new provider process (nothing remembered from an earlier lookup). */
  const read = async (values: Record<string, Value>): ReturnType<typeof t.tf.readDataSource> => (await t.harness()).readDataSource(TYPE, values);

  const usersPageRequests = (since: number): number => t.svc.requests.slice(since).filter((r) => r.method === 'GET' && r.url.startsWith('/admin/realms/acme/users')).length;

  it('finds users by usernames and emails (any case), sorted by username, with their ids in that order', async () => {
    const { state, diagnostics } = await read({ usernames: ['bulk-002', 'BULK-000'], emails: ['bulk-001@example.com'] });
    expect(diagnostics).toEqual([]);
    const users = state!['users'] as Array<Record<string, Value>>;
    expect(users.map((u) => u['username'])).toEqual(['bulk-000', 'bulk-001', 'bulk-002']);
    expect(users[0]).toEqual({ id: ids.get('bulk-000'), username: 'bulk-000', email: 'bulk-000@example.com', first_name: 'Bulk', last_name: null, enabled: true });
    expect(state!['ids']).toEqual(['bulk-000', 'bulk-001', 'bulk-002'].map((u) => ids.get(u)));
  });

  it('names every unknown username and email in one error each, on its attribute', async () => {
    const { state, diagnostics } = await read({ usernames: ['bulk-000', 'nobody-1', 'nobody-2'], emails: ['ghost@example.com'] });
    expect(state).toBeNull();
    expect(errorsOf(diagnostics).map((d) => [d.summary, d.path])).toEqual([
      ['Users not found', ['usernames']],
      ['Users not found', ['emails']],
    ]);
    expect(errorsOf(diagnostics)[0]!.detail).toContain('"nobody-1", "nobody-2"');
    expect(errorsOf(diagnostics)[1]!.detail).toContain('"ghost@example.com"');
  });

  it(`asks one request per name up to ${SCAN_THRESHOLD} names, and reads the user list page by page above`, async () => {
    const few = [...ids.keys()].slice(0, 10);
    const beforeFew = t.svc.requests.length;
    expect((await read({ usernames: few })).diagnostics).toEqual([]);
    expect(usersPageRequests(beforeFew)).toBe(10);

    const many = [...ids.keys()].slice(0, BULK);
    const beforeMany = t.svc.requests.length;
    const { state, diagnostics } = await read({ usernames: many });
    expect(diagnostics).toEqual([]);
    expect((state!['ids'] as string[]).length).toBe(BULK);
    // One page holds every user of this realm.
    expect(usersPageRequests(beforeMany)).toBe(1);
  });

  it('finds every user whose name contains a search text', async () => {
    const { state, diagnostics } = await read({ search: 'bulk-11' });
    expect(diagnostics).toEqual([]);
    expect((state!['users'] as Array<Record<string, Value>>).map((u) => u['username'])).toEqual(
      Array.from({ length: 10 }, (_, i) => `bulk-11${i}`),
    );
  });

  it('refuses names together with a search, and a configuration with neither', async () => {
    const harness = await t.harness();
    expect(errorsOf(await harness.validateDataSource(TYPE, { usernames: ['a'], search: 'b' })).map((d) => d.path)).toEqual([['search']]);
    expect(errorsOf(await harness.validateDataSource(TYPE, {})).map((d) => d.path)).toEqual([['usernames']]);
  });
});
