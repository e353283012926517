/**
 * Dashboard sessions without a browser (the real service on port 0, cookies by hand): forged,
 * expired, signed-out and foreign-realm session cookies start a new login; taking the
 * administrator role away or disabling the user ends access at once; a POST without a session
 * changes nothing. The service clock is injected to expire sessions without waiting.
 */
import { SESSION_LIFETIME_MS } from '../../../src/service/auth/sessions';
import { startTestService, type TestService } from '../../helpers/service';
import { Browser, hiddenFields } from '../login/browser-like';

let svc: TestService;
let clock = Date.parse('2026-11-26T12:00:00Z');

beforeAll(async () => {
  svc = await startTestService({ now: () => clock });
  await svc.admin.createRealm('acme');
  await svc.admin.createRealm('other');
  await svc.admin.createUser('acme', { username: 'ada', password: 'ada-pw', realmAdmin: true });
  await svc.admin.createUser('acme', { username: 'eve', password: 'eve-pw', realmAdmin: true });
});
afterAll(async () => {
  await svc.close();
});

/** Signs in through the dashboard's own code flow; returns the browser on the API keys page. */
async function signedIn(username: string, password: string): Promise<Browser> {
  const browser = new Browser(svc.baseUrl);
  const start = await browser.go('GET', '/realms/acme/dashboard/users');
  expect(start.status).toBe(303);
  const login = await browser.go('GET', start.location!);
  const posted = await browser.go('POST', '/realms/acme/protocol/openid-connect/auth', { ...hiddenFields(login.text), username, password });
  const callback = await browser.go('GET', posted.location!);
  expect(callback.location).toBe('/realms/acme/dashboard/users');
  return browser;
}

const startsLogin = (page: { status: number; location: string | undefined }): boolean =>
  page.status === 303 && (page.location ?? '').includes('/realms/acme/protocol/openid-connect/auth?client_id=orgadmin-dashboard');

it('keeps a session for its lifetime, then starts a new login', async () => {
  const browser = await signedIn('ada', 'ada-pw');
  expect((await browser.go('GET', '/realms/acme/dashboard/users')).status).toBe(200);
  clock += SESSION_LIFETIME_MS - 1000;
  expect((await browser.go('GET', '/realms/acme/dashboard/users')).status).toBe(200);
  clock += 1000;
  expect(startsLogin(await browser.go('GET', '/realms/acme/dashboard/users'))).toBe(true);
});

it('refuses a forged or altered cookie, and a session of another realm', async () => {
  const browser = await signedIn('ada', 'ada-pw');
  const cookie = browser.cookies.get('orgadmin_session')!;
  const [payload, mac] = cookie.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  const eve = (await svc.admin.findUserByUsername('acme', 'eve'))!;
  browser.cookies.set('orgadmin_session', `${Buffer.from(JSON.stringify({ ...claims, sub: eve.id })).toString('base64url')}.${mac}`);
  expect(startsLogin(await browser.go('GET', '/realms/acme/dashboard/users'))).toBe(true);
  browser.cookies.set('orgadmin_session', cookie);
  const elsewhere = await browser.go('GET', '/realms/other/dashboard/users');
  expect(elsewhere.status).toBe(303);
  expect(elsewhere.location).toContain('/realms/other/protocol/openid-connect/auth');
});

it('ends access at once when the role is taken away or the user is disabled', async () => {
  const browser = await signedIn('eve', 'eve-pw');
  await svc.admin.setRealmAdmin('acme', 'eve', false);
  const refused = await browser.go('GET', '/realms/acme/dashboard/api-keys');
  expect(refused.status).toBe(403);
  expect(refused.text).toContain('You are signed in as eve, who is not an administrator of realm acme.');
  await svc.admin.setRealmAdmin('acme', 'eve', true);
  expect((await browser.go('GET', '/realms/acme/dashboard/api-keys')).status).toBe(200);
  const eve = (await svc.admin.findUserByUsername('acme', 'eve'))!;
  await svc.admin.setUserEnabled('acme', eve.id, false);
  expect(startsLogin(await browser.go('GET', '/realms/acme/dashboard/api-keys'))).toBe(true);
  await svc.admin.setUserEnabled('acme', eve.id, true);
});

it('signs out through the end-session endpoint: the old cookie no longer works', async () => {
  const browser = await signedIn('ada', 'ada-pw');
  const cookie = browser.cookies.get('orgadmin_session')!;
  const page = await browser.go('GET', '/realms/acme/dashboard/users');
  const logoutCsrf = /action="\/realms\/acme\/protocol\/openid-connect\/logout"><input type="hidden" name="_csrf" value="([^"]+)"/.exec(page.text)![1];
  // A link alone does not sign out: it asks first.
  const asked = await browser.go('GET', '/realms/acme/protocol/openid-connect/logout');
  expect(asked.status).toBe(200);
  expect(asked.text).toContain('Sign out of acme?');
  const out = await browser.go('POST', '/realms/acme/protocol/openid-connect/logout', { _csrf: logoutCsrf });
  expect(out.status).toBe(200);
  expect(out.text).toContain('You are signed out');
  expect(String(out.headers['set-cookie'])).toContain('orgadmin_session=; Path=/realms/acme/; Max-Age=0');
  browser.cookies.set('orgadmin_session', cookie);
  expect(startsLogin(await browser.go('GET', '/realms/acme/dashboard/users'))).toBe(true);
});

it('refuses a change without a session and changes nothing', async () => {
  const browser = new Browser(svc.baseUrl);
  const refused = await browser.go('POST', '/realms/acme/dashboard/users', { username: 'mallory' });
  expect(refused.status).toBe(403);
  expect(await svc.admin.getUserInfo('acme', 'mallory')).toBeUndefined();
});

it('refuses a sign-in answer whose state is not this browser’s', async () => {
  const browser = new Browser(svc.baseUrl);
  await browser.go('GET', '/realms/acme/dashboard');
  const page = await browser.go('GET', '/realms/acme/dashboard/callback?code=abc&state=not-mine');
  expect(page.status).toBe(400);
  expect(page.text).toContain('state mismatch');
  expect(browser.cookies.has('orgadmin_session')).toBe(false);
});
