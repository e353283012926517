/**
 * `orgadmin_access_token`: tokens issued through the provider service by the real service, used
 * against it, and revoked when the resource is closed.
 */
import { orgsPath, PERMISSIONS, userinfoPath } from '../../../src/api';
import { ACCESS_TOKEN_EPHEMERAL_TYPE as TYPE } from '../../../src/provider/ephemeral-resources/access-token';
import { diagnosticsText, errorsOf, warningsOf } from '../../../src/tfplugin/testing/harness';
import { getToken } from '../../helpers/service';
import { startProviderTest, type ProviderTest } from '../harness';

describe('orgadmin_access_token ephemeral resource', () => {
  let t: ProviderTest;

  beforeAll(async () => {
    t = await startProviderTest();
  });

  afterAll(async () => {
    await t.close();
  });

  /** GET on the service with `token`: the status. */
  const statusWith = async (token: string, path = orgsPath('acme')): Promise<number> =>
    (await fetch(`${t.svc.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } })).status;

  it('issues a token of the provider\'s API key that works until the resource is closed', async () => {
    const before = Date.now();
    const opened = await t.tf.openEphemeral(TYPE, {});
    expect(opened.diagnostics).toEqual([]);
    const result = opened.result!;
    expect(result).toMatchObject({ realm: 'acme', token_type: 'Bearer', client_id: null });
    // The test realm's key holds every permission.
    expect([...(result.permissions as string[])].sort()).toEqual([...PERMISSIONS].sort());
    const expiresAt = Date.parse(String(result.expires_at));
    expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 299_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 301_000);
    const token = String(result.access_token);
    expect(await statusWith(token)).toBe(200);
    // Its own token: the provider's keeps working after the close.
    expect(await t.tf.closeEphemeral(TYPE, opened.private)).toEqual([]);
    expect(await statusWith(token)).toBe(401);
    expect((await t.tf.readDataSource('orgadmin_organizations', {})).diagnostics).toEqual([]);
  });

  it('narrows the token to the permissions asked for', async () => {
    const { result } = await t.tf.openEphemeral(TYPE, { permissions: ['view-organizations'] });
    const token = String(result!.access_token);
    expect(await statusWith(token)).toBe(200);
    const create = await fetch(`${t.svc.baseUrl}${orgsPath('acme')}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'not-allowed' }),
    });
    expect(create.status).toBe(403);
  });

  it('issues for another API key given by client_id and client_secret', async () => {
    const other = await t.svc.admin.createApiKey('acme', { name: 'ci-reader', permissions: ['view-organizations'] });
    const opened = await t.tf.openEphemeral(TYPE, { client_id: other.clientId, client_secret: other.clientSecret });
    expect(opened.diagnostics).toEqual([]);
    const token = String(opened.result!.access_token);
    const info = (await (await fetch(`${t.svc.baseUrl}${userinfoPath('acme')}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { preferred_username?: string };
    expect(info.preferred_username).toBe(`service-account-${other.clientId}`);
    expect(opened.result!.permissions).toEqual(['view-organizations']);
    expect(await t.tf.closeEphemeral(TYPE, opened.private)).toEqual([]);
    expect(await statusWith(token)).toBe(401);
  });

  it('reports a wrong secret without repeating it', async () => {
    const other = await t.svc.admin.createApiKey('acme', { name: 'other', permissions: ['view-organizations'] });
    const wrong = 'not-the-Secret-5c7e';
    const opened = await t.tf.openEphemeral(TYPE, { client_id: other.clientId, client_secret: wrong });
    expect(opened.result).toBeNull();
    expect(errorsOf(opened.diagnostics)).toEqual([expect.objectContaining({ summary: 'Failed to issue access token' })]);
    expect(diagnosticsText(opened.diagnostics)).not.toContain(wrong);
  });

  it('checks its configuration before opening, on the attribute', async () => {
    expect((await t.tf.openEphemeral(TYPE, { client_id: 'x' })).diagnostics).toEqual([expect.objectContaining({ summary: 'Incomplete API key', path: ['client_secret'] })]);
    expect((await t.tf.openEphemeral(TYPE, { permissions: ['admin'] })).diagnostics).toEqual([expect.objectContaining({ summary: 'Unknown permission', path: ['permissions'] })]);
  });

  it('hands out the provider\'s own access token as it is, and leaves it valid on close', async () => {
    const userToken = await getToken(t.svc, 'acme', t.clientId, t.clientSecret);
    const tf = await t.harness({ client_id: null, client_secret: null, access_token: userToken });
    const opened = await tf.openEphemeral(TYPE, {});
    expect(opened.result).toMatchObject({ access_token: userToken, expires_at: null, permissions: null });
    expect(await tf.closeEphemeral(TYPE, opened.private)).toEqual([]);
    expect(await statusWith(userToken)).toBe(200);
    expect((await tf.openEphemeral(TYPE, { permissions: ['view-users'] })).diagnostics[0]).toMatchObject({ path: ['permissions'] });
  });

  it('warns when asked to close a token another provider process issued', async () => {
    const opened = await t.tf.openEphemeral(TYPE, {});
    const other = await t.harness();
    expect(warningsOf(await other.closeEphemeral(TYPE, opened.private))).toEqual([expect.objectContaining({ summary: 'Access token not revoked' })]);
    await t.tf.closeEphemeral(TYPE, opened.private);
  });
});
