/**
 * `orgadmin_portal_link`: opened through the provider service against the real service; the link
 * it returns opens the organization's portal page.
 */
import { PORTAL_LINK_EPHEMERAL_TYPE as TYPE } from '../../../src/provider/ephemeral-resources/portal-link';
import { errorsOf } from '../../../src/tfplugin/testing/harness';
import { startProviderTest, type ProviderTest } from '../harness';

describe('orgadmin_portal_link ephemeral resource', () => {
  let t: ProviderTest;
  let orgId: string;
  let aliceId: string;

  beforeAll(async () => {
    t = await startProviderTest();
    orgId = await t.client.createOrganization({ name: 'portal-org', displayName: 'Portal Org' });
    aliceId = (await t.svc.admin.createUser('acme', { username: 'alice', email: 'alice@example.com' })).id;
    await t.client.addMember(orgId, aliceId);
  });

  afterAll(async () => {
    await t.close();
  });

  it('opens a link for the organization\'s admin user that opens the portal page', async () => {
    const opened = await t.tf.openEphemeral(TYPE, { organization_id: orgId });
    expect(opened.diagnostics).toEqual([]);
    expect(opened.renewAt).toBeUndefined();
    const result = opened.result!;
    const admin = (await t.svc.admin.findUserByUsername('acme', `org-admin-${orgId}`))!;
    expect(result).toMatchObject({ organization_id: orgId, realm: 'acme', user_id: admin.id, base_uri: null });
    expect(result.link).toMatch(new RegExp(`^${t.svc.baseUrl}/realms/acme/orgs/${orgId}/portal\\?token=`));
    expect(result.redirect).toBe(result.link);
    const page = await fetch(String(result.link));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Portal Org');
  });

  it('acts for a member and sends back to base_uri', async () => {
    const { result, diagnostics } = await t.tf.openEphemeral(TYPE, { organization_id: orgId, user_id: aliceId, base_uri: 'https://app.example.com/back' });
    expect(diagnostics).toEqual([]);
    expect(result).toMatchObject({ user_id: aliceId, redirect: 'https://app.example.com/back' });
    expect(await (await fetch(String(result!.link))).text()).toContain('Signed in as alice');
  });

  it('reports a user who is not a member, and an unknown organization, with the service\'s answer', async () => {
    const bob = await t.svc.admin.createUser('acme', { username: 'bob' });
    const notMember = await t.tf.openEphemeral(TYPE, { organization_id: orgId, user_id: bob.id });
    expect(notMember.result).toBeNull();
    expect(errorsOf(notMember.diagnostics)).toEqual([expect.objectContaining({ summary: 'Failed to create portal link' })]);
    expect(notMember.diagnostics[0]!.detail).toContain(`is not a member of organization ${orgId}`);
    const unknown = await t.tf.openEphemeral(TYPE, { organization_id: 'no-such-org' });
    expect(unknown.diagnostics[0]!.detail).toContain('HTTP 404');
  });

  it('checks its configuration before opening, on the attribute', async () => {
    const opened = await t.tf.openEphemeral(TYPE, { organization_id: '', base_uri: 'ftp://x', realm: 'Not A Realm' });
    expect(opened.result).toBeNull();
    expect(errorsOf(opened.diagnostics).map((d) => d.path)).toEqual([['realm'], ['organization_id'], ['base_uri']]);
  });

  it('names the permission it needs when the API key lacks it', async () => {
    const viewer = await t.svc.admin.createApiKey('acme', { name: 'viewer', permissions: ['view-organizations'] });
    const tf = await t.harness({ client_id: viewer.clientId, client_secret: viewer.clientSecret });
    const opened = await tf.openEphemeral(TYPE, { organization_id: orgId });
    expect(opened.diagnostics[0]!.detail).toContain('manage-organizations');
  });
});
