/**
 * The dashboard's Realm settings form without a browser (the real service on port 0, cookies by
 * hand): the rate limit can be set to the realm's own limit, off, or back to the service default,
 * and the new limit applies to the realm's API callers at once; bad input answers 400 with a clear
 * message and changes nothing; a post without the CSRF token is refused. The browser test
 * (dashboard.browser.test.ts) drives the same form in Chromium.
 */
import { orgsPath } from '../../../src/api';
import type { RealmRateLimit } from '../../../src/service/rate-limit';
import { createTestRealm, getToken, startTestService, type TestService } from '../../helpers/service';
import { Browser, hiddenFields } from '../login/browser-like';
import { call } from '../support';

const SETTINGS = '/realms/acme/dashboard/settings';

let svc: TestService;
let browser: Browser;

/** Signs in through the dashboard's own code flow; returns the browser on the settings page. */
async function signedIn(username: string, password: string): Promise<Browser> {
  const signingIn = new Browser(svc.baseUrl);
  const start = await signingIn.go('GET', SETTINGS);
  expect(start.status).toBe(303);
  const login = await signingIn.go('GET', start.location!);
  const posted = await signingIn.go('POST', '/realms/acme/protocol/openid-connect/auth', { ...hiddenFields(login.text), username, password });
  const callback = await signingIn.go('GET', posted.location!);
  expect(callback.location).toBe(SETTINGS);
  return signingIn;
}

/** The settings page and the CSRF token of its form. */
async function settingsPage(): Promise<{ text: string; csrf: string }> {
  const page = await browser.go('GET', SETTINGS);
  expect(page.status).toBe(200);
  const csrf = /id="realm-settings"><input type="hidden" name="_csrf" value="([^"]+)">/.exec(page.text)?.[1];
  expect(csrf).toBeDefined();
  return { text: page.text, csrf: csrf! };
}

/** Posts the settings form with the page's CSRF token. */
async function save(fields: Record<string, string>) {
  const { csrf } = await settingsPage();
  return browser.go('POST', SETTINGS, { _csrf: csrf, tokenLifetimeSeconds: '300', createAdminUser: 'on', ...fields });
}

const rateLimitOf = async (): Promise<RealmRateLimit | undefined> => (await svc.admin.getRealm('acme'))?.rateLimit;

beforeAll(async () => {
  svc = await startTestService({ rateLimit: { requests: 100, windowSeconds: 60 } });
  await svc.admin.createRealm('acme');
  await svc.admin.createUser('acme', { username: 'ada', password: 'ada-pw', realmAdmin: true });
  browser = await signedIn('ada', 'ada-pw');
});
afterAll(async () => {
  await svc.close();
});

it('shows the service default in force, with the default chosen', async () => {
  const { text } = await settingsPage();
  expect(text).toContain('In force now: <strong id="rate-limit">100 requests per 60 s</strong>');
  expect(text).toMatch(/id="rate-limit-default" name="rateLimitMode" value="default" checked>/);
  expect(text).toContain('name="rateLimitRequests" min="1" max="1000000" value="100"');
});

it('sets the realm’s own limit, which applies to its API callers at once', async () => {
  const saved = await save({ rateLimitMode: 'custom', rateLimitRequests: '2', rateLimitWindowSeconds: '40' });
  expect(saved.status).toBe(303);
  expect(saved.location).toBe(`${SETTINGS}?done=settings`);
  expect(await rateLimitOf()).toEqual({ requests: 2, windowSeconds: 40 });
  const { text } = await settingsPage();
  expect(text).toContain('In force now: <strong id="rate-limit">2 requests per 40 s</strong>');
  expect(text).toMatch(/id="rate-limit-custom" name="rateLimitMode" value="custom" checked>/);

  const key = await createTestRealm(svc, 'acme');
  const token = await getToken(svc, 'acme', key.clientId, key.clientSecret); // 1
  expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token })).status).toBe(200); // 2
  const refused = await call(svc, { method: 'GET', url: orgsPath('acme'), token });
  expect(refused.status).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(40);
});

it.each([
  [{ rateLimitMode: 'custom', rateLimitRequests: 'many', rateLimitWindowSeconds: '60' }, 'Rate limit requests &#34;many&#34; is not a whole number.'],
  [{ rateLimitMode: 'custom', rateLimitRequests: '', rateLimitWindowSeconds: '60' }, 'Rate limit requests &#34;&#34; is not a whole number.'],
  [{ rateLimitMode: 'custom', rateLimitRequests: '0', rateLimitWindowSeconds: '60' }, 'Rate limit requests 0 is not a whole number between 1 and 1000000.'],
  [{ rateLimitMode: 'custom', rateLimitRequests: '5', rateLimitWindowSeconds: '-1' }, 'Rate limit window &#34;-1&#34; is not a whole number.'],
  [{ rateLimitMode: 'custom', rateLimitRequests: '5', rateLimitWindowSeconds: '86401' }, 'Rate limit window 86401 is not a whole number of seconds between 1 and 86400.'],
  [{ rateLimitMode: 'sometimes' }, 'Rate limit choice &#34;sometimes&#34; is not one of default, off or custom.'],
  [{ rateLimitMode: 'off', tokenLifetimeSeconds: '0' }, 'Token lifetime 0 is not a whole number of seconds between 1 and 86400.'],
])('refuses %j with a clear error and changes nothing', async (fields, message) => {
  const before = await svc.admin.getRealm('acme');
  const refused = await save({ ...fields, createAdminUser: '' });
  expect(refused.status).toBe(400);
  expect(refused.text).toContain(message);
  // What was typed is shown again, so it can be corrected.
  if ('rateLimitRequests' in fields) expect(refused.text).toContain(`name="rateLimitRequests" min="1" max="1000000" value="${fields.rateLimitRequests}"`);
  expect(await svc.admin.getRealm('acme')).toEqual(before);
});

it('turns the rate limit off for the realm, then returns it to the service default', async () => {
  expect((await save({ rateLimitMode: 'off', rateLimitRequests: 'ignored', rateLimitWindowSeconds: '' })).status).toBe(303);
  expect(await rateLimitOf()).toBe('off');
  expect((await settingsPage()).text).toContain('In force now: <strong id="rate-limit">off</strong>');
  expect((await save({ rateLimitMode: 'default' })).status).toBe(303);
  expect(await rateLimitOf()).toBeNull();
  expect((await settingsPage()).text).toContain('In force now: <strong id="rate-limit">100 requests per 60 s</strong>');
});

it('leaves the rate limit as it is when a post does not choose one', async () => {
  await svc.admin.updateRealm('acme', { rateLimit: { requests: 9, windowSeconds: 9 } });
  expect((await save({ tokenLifetimeSeconds: '400' })).status).toBe(303);
  expect(await svc.admin.getRealm('acme')).toMatchObject({ tokenLifetimeSeconds: 400, rateLimit: { requests: 9, windowSeconds: 9 } });
});

it('refuses a post without the CSRF token, or with a forged one, and changes nothing', async () => {
  const before = await svc.admin.getRealm('acme');
  const form = { rateLimitMode: 'off', tokenLifetimeSeconds: '300' };
  expect((await browser.go('POST', SETTINGS, form)).status).toBe(403);
  expect((await browser.go('POST', SETTINGS, { ...form, _csrf: 'forged' })).status).toBe(403);
  expect(await svc.admin.getRealm('acme')).toEqual(before);
});

it('sets how long the audit log keeps events, back to for ever when emptied, and refuses a bad number changing nothing', async () => {
  expect((await save({ eventRetentionDays: '30' })).status).toBe(303);
  expect(await svc.admin.realms.eventRetentionDays('acme')).toBe(30);
  expect((await settingsPage()).text).toContain('name="eventRetentionDays" min="1" max="3650" value="30"');
  // A post without the field (an older form) leaves it as it is.
  expect((await save({ tokenLifetimeSeconds: '300' })).status).toBe(303);
  expect(await svc.admin.realms.eventRetentionDays('acme')).toBe(30);
  for (const [typed, message] of [
    ['0', 'Event retention 0 is not a whole number of days between 1 and 3650'],
    ['a week', 'Event retention &#34;a week&#34; is not a whole number.'],
  ]) {
    const refused = await save({ eventRetentionDays: typed, tokenLifetimeSeconds: '301' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(message);
    expect(refused.text).toContain(`name="eventRetentionDays" min="1" max="3650" value="${typed}"`);
    expect(await svc.admin.realms.eventRetentionDays('acme')).toBe(30);
    expect((await svc.admin.getRealm('acme'))?.tokenLifetimeSeconds).toBe(300);
  }
  expect((await save({ eventRetentionDays: '' })).status).toBe(303);
  expect(await svc.admin.realms.eventRetentionDays('acme')).toBeNull();
});
