import { USER_DATA_SOURCE_TYPE as TYPE } from '../../../src/provider/data-sources/user';
import { errorsOf } from '../../../src/tfplugin/testing/harness';
import type { Value } from '../../../src/tfplugin/framework/types';
import { startProviderTest, type ProviderTest } from '../harness';

describe('orgadmin_user data source', () => {
  let t: ProviderTest;
  let aliceId: string;

  beforeAll(async () => {
    t = await startProviderTest();
    aliceId = (await t.svc.admin.createUser('acme', { username: 'alice', email: 'alice@example.com', firstName: 'Alice', lastName: 'Liddell' })).id;
    await t.svc.admin.createUser('acme', { username: 'alice2', email: 'alice2@example.com' });
  });

  afterAll(async () => {
    await t.close();
  });

  const read = (values: Record<string, Value>): ReturnType<typeof t.tf.readDataSource> => t.tf.readDataSource(TYPE, values);

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
    const { state, diagnostics } = await read({ username: 'alice' });
    expect(diagnostics).toEqual([]);
    expect(state).toEqual(alice());
  });

  it('finds a user by exact email', async () => {
    const { state, diagnostics } = await read({ email: 'alice@example.com' });
    expect(diagnostics).toEqual([]);
    expect(state).toEqual(alice());
  });

  it('reports a user that does not exist on the attribute used', async () => {
    const { state, diagnostics } = await read({ username: 'alic' });
    expect(state).toBeNull();
    expect(errorsOf(diagnostics)).toEqual([expect.objectContaining({ summary: 'User not found', path: ['username'] })]);
    expect(errorsOf(diagnostics)[0]!.detail).toContain('"alic"');
  });

  it('explains the missing view-users permission', async () => {
    const key = await t.svc.admin.createApiKey('acme', { name: 'no-users', permissions: ['view-organizations'] });
    const noUsers = await t.harness({ client_id: key.clientId, client_secret: key.clientSecret });
    const { state, diagnostics } = await noUsers.readDataSource(TYPE, { username: 'alice' });
    expect(state).toBeNull();
    expect(errorsOf(diagnostics)[0]!.detail).toContain('HTTP 403');
    expect(errorsOf(diagnostics)[0]!.detail).toContain('`view-users`');
  });

  it('requires exactly one of username and email', async () => {
    const validate = async (values: Record<string, string>): Promise<ReturnType<typeof errorsOf>> => errorsOf(await t.tf.validateDataSource(TYPE, values));
    expect(await validate({ username: 'a', email: 'b' })).toHaveLength(1);
    expect(await validate({})).toHaveLength(1);
    expect(await validate({ email: 'b' })).toHaveLength(0);
  });
});
