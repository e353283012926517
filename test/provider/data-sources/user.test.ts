import { userDataSource as dataSource } from '../../../src/provider/data-sources/user';
import type { Value } from '../../../src/provider/framework/types';
import { Collector, readDataSource, resourceConfig, startHarness, type Harness } from '../resources/harness';

describe('orgadmin_user data source', () => {
  let h: Harness;
  let aliceId: string;

  beforeAll(async () => {
    h = await startHarness();
    aliceId = (await h.svc.admin.createUser('acme', { username: 'alice', email: 'alice@example.com', firstName: 'Alice', lastName: 'Liddell' })).id;
    await h.svc.admin.createUser('acme', { username: 'alice2', email: 'alice2@example.com' });
  });

  afterAll(async () => {
    await h.close();
  });

  const read = (values: Record<string, Value>): ReturnType<typeof readDataSource> => readDataSource(dataSource, h.ctx, values);

  const alice = (): Record<string, unknown> => ({
    id: aliceId,
    username: 'alice',
    email: 'alice@example.com',
    realm: 'acme',
    first_name: 'Alice',
    last_name: 'Liddell',
    enabled: true,
  });

  it('finds a user by exact username, not by prefix', async () => {
    const { state, diags } = await read({ username: 'alice' });
    expect(diags.items).toEqual([]);
    expect(state).toEqual(alice());
  });

  it('finds a user by exact email', async () => {
    const { state, diags } = await read({ email: 'alice@example.com' });
    expect(diags.items).toEqual([]);
    expect(state).toEqual(alice());
  });

  it('reports a user that does not exist on the attribute used', async () => {
    const { state, diags } = await read({ username: 'alic' });
    expect(state).toBeNull();
    expect(diags.errors).toEqual([expect.objectContaining({ summary: 'User not found', path: ['username'] })]);
    expect(diags.errors[0]!.detail).toContain('"alic"');
  });

  it('explains the missing view-users permission', async () => {
    const key = await h.svc.admin.createApiKey('acme', { name: 'no-users', permissions: ['view-organizations'] });
    const ctx = await h.configure({ client_id: key.clientId, client_secret: key.clientSecret });
    const diags = new Collector();
    expect(await dataSource.read(ctx!, { config: resourceConfig(dataSource, { username: 'alice' }) }, diags)).toBeNull();
    expect(diags.errors[0]!.detail).toContain('HTTP 403');
    expect(diags.errors[0]!.detail).toContain('`view-users`');
  });

  it('requires exactly one of username and email', () => {
    const validate = (values: Record<string, string>): Collector => {
      const diags = new Collector();
      dataSource.validate!(resourceConfig(dataSource, values), diags);
      return diags;
    };
    expect(validate({ username: 'a', email: 'b' }).errors).toHaveLength(1);
    expect(validate({}).errors).toHaveLength(1);
    expect(validate({ email: 'b' }).errors).toHaveLength(0);
  });
});
