/**
 * The dashboard's Organizations section without a browser (the real service on port 0, cookies by
 * hand): it meets the JSON API's rules through the organizations area (the default admin user
 * cannot be removed, with the API's 403 and sentence; an unknown organization is the API's 404),
 * and each of its operations counts against the realm's rate limit as the API's calls do. Its
 * roles part meets the roles area's rules (a grant needs a member, unknown roles and grants are the
 * API's 404s), changing nothing when it refuses. The browser test (dashboard.browser.test.ts) drives the same pages in Chromium.
 */
import { domainRecordValue, orgAdminUsername } from '../../../src/api';
import { Admin } from '../../../src/service/admin';
import { dnsTxtLookup } from '../../../src/service/domains/txt-lookup';
import { newUser } from '../../../src/service/store/store';
import { startDnsServer, type TestDnsServer } from '../../helpers/dns-server';
import { startTestService, type TestService } from '../../helpers/service';
import { Browser, hiddenFields } from '../login/browser-like';

const ORGANIZATIONS = '/realms/acme/dashboard/organizations';

let svc: TestService;
let dns: TestDnsServer;
let browser: Browser;
let orgId: string;

beforeAll(async () => {
  dns = await startDnsServer();
  svc = await startTestService();
  await svc.admin.createRealm('acme');
  await svc.admin.createUser('acme', { username: 'ada', password: 'ada-pw', realmAdmin: true });
  orgId = 'globex-id';
  await svc.store.createOrganization(
    { id: orgId, realm: 'acme', name: 'globex', displayName: null, url: null, domains: ['globex.example', 'globex.test'], attributes: {} },
    newUser({ id: 'globex-admin', realm: 'acme', username: orgAdminUsername(orgId), kind: 'org-admin', adminOfOrganization: orgId, createdTimestamp: 0 }),
    0,
  );
  await svc.store.addMember('acme', orgId, 'globex-admin', 0);
  browser = new Browser(svc.baseUrl);
  const start = await browser.go('GET', ORGANIZATIONS);
  const login = await browser.go('GET', start.location!);
  const posted = await browser.go('POST', '/realms/acme/protocol/openid-connect/auth', { ...hiddenFields(login.text), username: 'ada', password: 'ada-pw' });
  expect((await browser.go('GET', posted.location!)).location).toBe(ORGANIZATIONS);
});
afterAll(async () => {
  await svc.close();
  await dns.close();
});

/** The CSRF token of a page's dashboard forms (the one of the add-member form). */
const csrfOf = (text: string): string => /id="add-member"><input type="hidden" name="_csrf" value="([^"]+)"/.exec(text)![1]!;

it('shows each domain’s verification state and the record to publish, and the identity providers with their redirect URI', async () => {
  dns.setTxt('_org-domain-ownership.globex.example', [domainRecordValue(orgId, 'globex.example')]);
  // The service's own verification (its Admin asks the test's DNS server), as POST …/verify runs it.
  const withDns = new Admin(svc.store, { txtLookup: dnsTxtLookup({ server: dns.address }) });
  expect((await withDns.domains.verify('acme', orgId, 'globex.example')).verified).toBe(true);
  await svc.admin.identityProviders.create('acme', orgId, { alias: 'globex-okta', displayName: 'Globex Okta', enabled: false, config: { issuer: 'https://okta.globex.example', clientId: 'broker' } });
  const page = await browser.go('GET', `${ORGANIZATIONS}/${orgId}`);
  expect(page.status).toBe(200);
  const row = (attribute: string, value: string): string => new RegExp(`<tr ${attribute}="${value.replace(/\./g, '\\.')}">(.*?)</tr>`).exec(page.text)![1]!;
  const verified = row('data-domain', 'globex.example');
  expect(verified).toContain('>verified<');
  expect(verified).toContain('<code>_org-domain-ownership.globex.example</code>');
  expect(verified).toContain(`<code>${domainRecordValue(orgId, 'globex.example')}</code>`);
  const pending = row('data-domain', 'globex.test');
  expect(pending).toContain('>not verified<');
  expect(pending).toContain(`<code>${domainRecordValue(orgId, 'globex.test')}</code>`);
  const provider = row('data-alias', 'globex-okta');
  expect(provider).toContain('Globex Okta');
  expect(provider).toContain('>disabled<');
  expect(provider).toContain('https://okta.globex.example');
  expect(provider).toContain(`<code>${svc.baseUrl}/realms/acme/broker/globex-okta/endpoint</code>`);
});

it('refuses to remove the default admin user with the API’s 403 and sentence, and keeps the member', async () => {
  const page = await browser.go('GET', `${ORGANIZATIONS}/${orgId}`);
  expect(page.status).toBe(200);
  const refused = await browser.go('POST', `${ORGANIZATIONS}/${orgId}/members/globex-admin/remove`, { _csrf: csrfOf(page.text) });
  expect(refused.status).toBe(403);
  expect(refused.text).toContain('Cannot remove default organization user.');
  expect(await svc.store.isMember('acme', orgId, 'globex-admin')).toBe(true);
});

it('answers an unknown organization with the API’s 404 and sentence', async () => {
  const page = await browser.go('GET', `${ORGANIZATIONS}/no-such-org`);
  expect(page.status).toBe(404);
  expect(page.text).toContain('Organization no-such-org does not exist.');
});

it('lists the organization’s roles with their holders and refuses, with the API’s status and sentence, what the roles rules refuse', async () => {
  await svc.admin.createUser('acme', { username: 'outsider' });
  const outsider = (await svc.admin.findUserByUsername('acme', 'outsider'))!.id;
  await svc.admin.roles.create('acme', orgId, { name: 'billing', description: 'Pays <the> bills' });
  const page = await browser.go('GET', `${ORGANIZATIONS}/${orgId}`);
  expect(page.status).toBe(200);
  // Every default role, held by the default admin user, and the custom role, held by nobody, escaped.
  expect(page.text).toContain('<tr data-role="manage-roles"><td>manage-roles</td>');
  expect(page.text).toMatch(/<tr data-role="view-roles">.*<span class="holder" data-username="org-admin-globex-id">/);
  expect(page.text).toContain('<tr data-role="billing"><td>billing</td><td>Pays &#60;the&#62; bills</td><td><span class="muted">nobody</span>');
  const csrf = csrfOf(page.text);

  const notMember = await browser.go('POST', `${ORGANIZATIONS}/${orgId}/roles/grant`, { _csrf: csrf, userId: outsider, role: 'billing' });
  expect(notMember.status).toBe(400);
  expect(notMember.text).toContain(`User ${outsider} must be a member of organization ${orgId} to be granted a role.`);
  expect(await svc.store.hasRole('acme', orgId, 'billing', outsider)).toBe(false);

  const noRole = await browser.go('POST', `${ORGANIZATIONS}/${orgId}/roles/grant`, { _csrf: csrf, userId: 'globex-admin', role: 'auditor' });
  expect(noRole.status).toBe(404);
  expect(noRole.text).toContain(`Organization ${orgId} has no role auditor.`);

  const notHeld = await browser.go('POST', `${ORGANIZATIONS}/${orgId}/roles/revoke`, { _csrf: csrf, userId: 'globex-admin', role: 'billing' });
  expect(notHeld.status).toBe(404);
  expect(notHeld.text).toContain('User globex-admin does not have role billing.');

  const incomplete = await browser.go('POST', `${ORGANIZATIONS}/${orgId}/roles/grant`, { _csrf: csrf, role: 'billing' });
  expect(incomplete.status).toBe(400);
  expect(incomplete.text).toContain('Choose a member and a role.');

  const granted = await browser.go('POST', `${ORGANIZATIONS}/${orgId}/roles/grant`, { _csrf: csrf, userId: 'globex-admin', role: 'billing' });
  expect(granted.status).toBe(303);
  expect(granted.location).toBe(`${ORGANIZATIONS}/${orgId}?done=role-granted`);
  expect(await svc.store.hasRole('acme', orgId, 'billing', 'globex-admin')).toBe(true);
  expect((await svc.store.listMemberRoles('acme', orgId, 'globex-admin'))?.map((role) => role.name)).toContain('billing');
});

it('counts each organization operation against the realm’s rate limit', async () => {
  await svc.admin.updateRealm('acme', { rateLimit: { requests: 2, windowSeconds: 60 } });
  // The list page is two operations (a page and the count), so the second view is refused.
  expect((await browser.go('GET', ORGANIZATIONS)).status).toBe(200);
  const refused = await browser.go('GET', ORGANIZATIONS);
  expect(refused.status).toBe(429);
  expect(refused.text).toMatch(/Too many requests; retry after \d+ seconds\./);
});
