/**
 * The dashboard's Organizations section without a browser (the real service on port 0, cookies by
 * hand): it meets the JSON API's rules through the organizations area (the default admin user
 * cannot be removed, with the API's 403 and sentence; an unknown organization is the API's 404),
 * and each of its operations counts against the realm's rate limit as the API's calls do. The
 * browser test (dashboard.browser.test.ts) drives the same pages in Chromium.
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

it('counts each organization operation against the realm’s rate limit', async () => {
  await svc.admin.updateRealm('acme', { rateLimit: { requests: 2, windowSeconds: 60 } });
  // The list page is two operations (a page and the count), so the second view is refused.
  expect((await browser.go('GET', ORGANIZATIONS)).status).toBe(200);
  const refused = await browser.go('GET', ORGANIZATIONS);
  expect(refused.status).toBe(429);
  expect(refused.text).toMatch(/Too many requests; retry after \d+ seconds\./);
});
