/**
 * The dashboard end to end in a real browser: Debian's headless Chromium (`/usr/bin/chromium`,
 * installed by .ci/run) driven by playwright-core, against the real service on port 0 with a real
 * SQLite file. Signs in through the authorization code flow, creates an API key and reads its
 * secret from the page, uses it with the SDK, revokes it, adds a member, grants and revokes an
 * organization role, changes realm settings, adds a webhook (its generated secret copied), turns it off and deletes it,
 * and checks the refusals: a forged CSRF request, a non-administrator. Every page is saved as a
 * screenshot under test-artifacts/dashboard/ (git-ignored).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { memberPath, orgsPath, tokenPath, userinfoPath } from '../../../src/api';
import { ClientCredentialsTokenSource, OrgAdminClient } from '../../../src/client';
import { createTestRealm, getToken, startTestService, type TestService } from '../../helpers/service';
import { call } from '../support';
import { codeFlowTokens } from '../login/browser-like';

jest.setTimeout(60_000);

const SCREENSHOTS = join(__dirname, '..', '..', '..', 'test-artifacts', 'dashboard');
/** Flags that keep Chromium from reaching out to the internet (refused here) or touching the host. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let svc: TestService;
let profile: string;
let context: BrowserContext;
let page: Page;
let dashboard: string;

const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  svc = await startTestService();
  await svc.admin.createRealm('acme');
  await svc.admin.createUser('acme', { username: 'ada', password: 'ada-pw', realmAdmin: true });
  await svc.admin.createUser('acme', { username: 'bob', password: 'bob-pw' });
  await svc.admin.createUser('acme', { username: 'carol', email: 'carol@example.com' });
  dashboard = `${svc.baseUrl}/realms/acme/dashboard`;
  profile = mkdtempSync(join(tmpdir(), 'orgadmin-chromium-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: svc.baseUrl });
  page = context.pages()[0] ?? (await context.newPage());
  // Revoke and remove ask for confirmation: the user says yes.
  page.on('dialog', (dialog) => void dialog.accept());
});

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await svc?.close();
});

it('starts the code flow for a visitor without a session and signs an administrator in', async () => {
  await page.goto(dashboard);
  expect(page.url()).toContain('/realms/acme/protocol/openid-connect/auth?client_id=orgadmin-dashboard');
  expect(page.url()).toContain('code_challenge_method=S256');
  await shot('01-login');
  await page.fill('#username', 'ada');
  await Promise.all([page.waitForSelector('#password'), page.click('#next')]);
  await page.fill('#password', 'ada-pw');
  await Promise.all([page.waitForURL(`${dashboard}/api-keys`), page.click('#sign-in')]);
  expect(await page.textContent('#signed-in-as')).toBe('ada');
  await shot('02-api-keys-empty');
  const cookies = await context.cookies();
  expect(cookies.find((cookie) => cookie.name === 'orgadmin_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/realms/acme/' });
});

it('creates an API key, shows its secret once, and the secret works with the SDK until the key is revoked', async () => {
  await page.fill('#key-name', 'ci-pipeline');
  for (const permission of ['view-organizations', 'manage-organizations', 'create-organization']) await page.check(`#new-${permission}`);
  await page.click('#create-api-key');
  await page.waitForSelector('#client-secret');
  await shot('03-api-key-created');
  const clientId = (await page.textContent('#client-id'))!;
  const clientSecret = (await page.textContent('#client-secret'))!;
  expect(await page.textContent('.warning')).toContain('it will not be shown again');
  await page.click('button[data-copy="client-secret"]');
  // Runs in the page (a browser), hence globalThis rather than the DOM typings this project does not load.
  expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(clientSecret);

  const sdk = new OrgAdminClient({
    baseUrl: svc.baseUrl,
    realm: 'acme',
    tokenSource: new ClientCredentialsTokenSource({ baseUrl: svc.baseUrl, clientId, clientSecret, maxRetries: 0 }),
  });
  const orgId = await sdk.createOrganization({ name: 'made-with-dashboard-key', domains: ['dash.example.com'] });
  expect((await svc.store.getOrganization('acme', orgId))?.name).toBe('made-with-dashboard-key');

  // The secret is not on the list page, nor anywhere after this one page.
  await page.click('#back-to-api-keys');
  const row = page.locator(`tr[data-client-id="${clientId}"]`);
  expect(await row.textContent()).toContain('ci-pipeline');
  expect(await page.content()).not.toContain(clientSecret);
  expect(await row.locator('td').nth(4).textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/); // last used
  await shot('04-api-keys-list');

  // A token fetched before the revocation: the revocation must end it, not only stop new ones.
  const held = await getToken(svc, 'acme', clientId, clientSecret);
  expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token: held })).status).toBe(200);
  await row.locator('button', { hasText: 'Revoke' }).click();
  await page.waitForSelector('.notice');
  expect(await row.locator('td').nth(5).textContent()).toMatch(/^Revoked/);
  const ended = await call(svc, { method: 'POST', url: orgsPath('acme'), token: held, payload: { name: 'after-revocation' } });
  expect(ended.status).toBe(401);
  expect(ended.json.error_description).toBe('The access token has been revoked.');
  const refused = await fetch(`${svc.baseUrl}${tokenPath('acme')}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString(),
  });
  expect(refused.status).toBe(401);
  expect(((await refused.json()) as { error: string }).error).toBe('invalid_client');
  await shot('05-api-key-revoked');
});

it('changes the permissions of a key and rotates its secret', async () => {
  const key = await svc.admin.createApiKey('acme', { name: 'reader', permissions: ['view-organizations'] });
  await page.reload();
  const row = page.locator(`tr[data-client-id="${key.clientId}"]`);
  await row.locator(`input[value="view-users"]`).check();
  await row.locator('button', { hasText: 'Save permissions' }).click();
  await page.waitForSelector('.notice');
  expect((await svc.store.getApiKey(key.clientId))?.permissions).toEqual(['view-organizations', 'view-users']);
  await page.locator(`tr[data-client-id="${key.clientId}"] button`, { hasText: 'Rotate secret' }).click();
  await page.waitForSelector('#client-secret');
  const rotated = (await page.textContent('#client-secret'))!;
  expect(rotated).not.toBe(key.clientSecret);
  await expect(getToken(svc, 'acme', key.clientId, key.clientSecret)).rejects.toThrow(/401/);
  expect(await getToken(svc, 'acme', key.clientId, rotated)).toMatch(/^ey/);
});

it('lists, searches, creates and disables users', async () => {
  await page.goto(`${dashboard}/users`);
  // ada, bob, carol and the default admin user of the organization made with the SDK above.
  expect(await page.locator('#users tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-username')))).toEqual([
    'ada',
    'bob',
    'carol',
    expect.stringMatching(/^org-admin-/),
  ]);
  await page.fill('#new-username', 'dave');
  await page.fill('#new-email', 'dave@example.com');
  await page.click('#create-user-button');
  await page.waitForSelector('.notice');
  await page.fill('#user-search', 'dave');
  await Promise.all([page.waitForURL(/search=dave/), page.click('form[method="get"] button')]);
  expect(await page.locator('#users tbody tr').count()).toBe(1);
  await shot('06-users');
  await page.locator('tr[data-username="dave"] button', { hasText: 'Disable' }).click();
  await page.waitForSelector('.notice');
  expect((await svc.admin.getUserInfo('acme', 'dave'))?.enabled).toBe(false);
  expect((await svc.admin.getUserInfo('acme', 'dave'))?.hasPassword).toBe(false);
});

it('shows organizations with search and paging, adds a member (the membership check answers 204) and creates a portal link', async () => {
  const admin = await createTestRealm(svc, 'acme');
  const token = await getToken(svc, 'acme', admin.clientId, admin.clientSecret);
  for (let i = 0; i < 21; i += 1) {
    await call(svc, { method: 'POST', url: '/realms/acme/orgs', token, payload: { name: `team-${String(i).padStart(2, '0')}`, domains: [] } });
  }
  await page.goto(`${dashboard}/organizations`);
  expect(await page.locator('#organizations tbody tr').count()).toBe(20);
  await page.click('#next-page');
  await page.waitForURL(/first=20/);
  expect(await page.locator('#organizations tbody tr').count()).toBe(2);
  await page.fill('#org-search', 'made-with');
  await Promise.all([page.waitForURL(/search=made-with/), page.click('form[method="get"] button')]);
  await shot('07-organizations');
  await page.click('text=made-with-dashboard-key');
  await page.waitForSelector('#organization-fields');
  expect(await page.textContent('#organization-fields')).toContain('dash.example.com');

  await page.fill('#member-username', 'carol');
  await page.click('#add-member-button');
  await page.waitForSelector('.notice');
  expect(await page.textContent('#members')).toContain('carol@example.com');
  const orgId = page.url().split('/organizations/')[1].split('?')[0];
  const carol = (await svc.admin.findUserByUsername('acme', 'carol'))!;
  expect((await call(svc, { method: 'GET', url: memberPath('acme', orgId, carol.id), token })).status).toBe(204);

  await page.click('#create-portal-link-button');
  await page.waitForSelector('#portal-link');
  const portalLink = (await page.textContent('#portal-link'))!.trim();
  expect(portalLink).toContain('/portal');
  await shot('08-organization');

  // The portal page (its token in the URL) opens on its own, but no other page can frame it.
  const framer = await context.newPage();
  try {
    const orgName = (await svc.store.getOrganization('acme', orgId))!.name;
    // A page of no origin (about:blank, no CSP of its own) frames the link: the browser refuses.
    await framer.setContent(`<iframe id="portal" src="${portalLink}"></iframe>`);
    const frame = await (await framer.waitForSelector('#portal')).contentFrame();
    await frame!.waitForLoadState();
    expect(frame!.url()).not.toBe(portalLink);
    expect(await frame!.content()).not.toContain(orgName);
    await framer.goto(portalLink);
    expect(await framer.textContent('body')).toContain(orgName);
  } finally {
    await framer.close();
  }

  await page.locator('tr[data-username="carol"] button', { hasText: 'Remove' }).click();
  await page.waitForSelector('.notice');
  expect((await call(svc, { method: 'GET', url: memberPath('acme', orgId, carol.id), token })).status).toBe(404);
});

it('lists an organization’s roles with their holders, grants a role to a member and revokes it', async () => {
  const [org] = await svc.admin.organizations.list('acme', { search: 'made-with-dashboard-key', first: 0, max: 1 });
  const bob = (await svc.admin.findUserByUsername('acme', 'bob'))!;
  await svc.admin.organizations.addMember('acme', org!.id, bob.id);
  await svc.admin.roles.create('acme', org!.id, { name: 'billing admin', description: 'Pays the bills' });
  await page.goto(`${dashboard}/organizations/${org!.id}`);
  await page.waitForSelector('#roles');
  // The 11 default roles and the custom one, by name; the default admin user holds every default role.
  const roleNames = await page.locator('#roles tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-role')));
  expect(roleNames).toHaveLength(12);
  expect(roleNames).toEqual(expect.arrayContaining(['billing admin', 'manage-roles', 'view-roles', 'delete-organization']));
  expect(await page.locator('tr[data-role="manage-roles"] .holder').evaluateAll((holders) => holders.map((h) => h.getAttribute('data-username')))).toEqual([
    `org-admin-${org!.id}`,
  ]);
  expect(await page.textContent('tr[data-role="billing admin"]')).toContain('nobody');

  await page.selectOption('#grant-member', { label: 'bob' });
  await page.selectOption('#grant-role-name', 'billing admin');
  await page.click('#grant-role-button');
  await page.waitForSelector('.notice');
  expect(await page.textContent('.notice')).toContain('The role was granted.');
  expect(await page.textContent('tr[data-role="billing admin"] .holder')).toContain('bob');
  expect(await svc.store.hasRole('acme', org!.id, 'billing admin', bob.id)).toBe(true);
  await shot('08b-organization-roles');

  // Revoking asks for confirmation (accepted above); the grant is gone, the membership stays.
  await page.locator('tr[data-role="billing admin"] .holder[data-username="bob"] button', { hasText: 'Revoke' }).click();
  await page.waitForSelector('text=The role was revoked.');
  expect(await page.textContent('tr[data-role="billing admin"]')).toContain('nobody');
  expect(await svc.store.hasRole('acme', org!.id, 'billing admin', bob.id)).toBe(false);
  expect(await svc.store.isMember('acme', org!.id, bob.id)).toBe(true);
});

it('changes the realm settings, including the realm’s own rate limit', async () => {
  await page.goto(`${dashboard}/settings`);
  expect(await page.isChecked('#rate-limit-default')).toBe(true);
  expect(await page.textContent('#rate-limit')).toBe('off');
  await page.fill('#token-lifetime', '600');
  await page.uncheck('#create-admin-user');
  await page.check('#rate-limit-custom');
  // A bad number: the browser's own check stops the form first…
  await page.fill('#rate-limit-requests', '0');
  await page.fill('#rate-limit-window', '30');
  await page.click('#save-settings');
  expect(await page.$eval('#rate-limit-requests', (input) => (input as unknown as { validity: { valid: boolean } }).validity.valid)).toBe(false);
  // …and without it, the service answers with a clear error and changes nothing.
  await page.$eval('#realm-settings', (form) => {
    (form as unknown as { noValidate: boolean }).noValidate = true;
  });
  await Promise.all([page.waitForSelector('[role="alert"]'), page.click('#save-settings')]);
  expect(await page.textContent('[role="alert"]')).toBe('Rate limit requests 0 is not a whole number between 1 and 1000000.');
  await shot('09-settings-refused');
  expect(await svc.admin.getRealm('acme')).toMatchObject({ tokenLifetimeSeconds: 300, createAdminUser: true, rateLimit: null });

  await page.fill('#rate-limit-requests', '2');
  await page.click('#save-settings');
  await page.waitForSelector('.notice');
  await shot('09-settings');
  expect(await svc.admin.getRealm('acme')).toMatchObject({
    tokenLifetimeSeconds: 600,
    createAdminUser: false,
    rateLimit: { requests: 2, windowSeconds: 30 },
  });
  expect(await page.textContent('#rate-limit')).toBe('2 requests per 30 s');
  // The realm's API callers get the new limit.
  const key = await createTestRealm(svc, 'acme', { permissions: ['view-organizations'] });
  const token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
  expect((await call(svc, { method: 'GET', url: '/realms/acme/orgs', token })).status).toBe(200);
  const limited = await call(svc, { method: 'GET', url: '/realms/acme/orgs', token });
  expect(limited.status).toBe(429);
  expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);

  // Back to the service default (none here), so the dashboard's own API calls are not limited.
  await page.check('#rate-limit-default');
  await page.click('#save-settings');
  await page.waitForSelector('.notice');
  expect(await svc.admin.getRealm('acme')).toMatchObject({ rateLimit: null });
});

it('adds a webhook whose generated secret is shown once and copied, turns it off and deletes it', async () => {
  await page.goto(`${dashboard}/webhooks`);
  expect(await page.textContent('#webhooks')).toContain('No webhooks yet.');
  await page.fill('#webhook-url', 'https://203.0.113.10/hooks/orgadmin');
  await page.fill('#webhook-event-types', 'admin.ORGANIZATION-*, access.LOGIN_ERROR');
  await page.click('#create-webhook');
  await page.waitForSelector('#webhook-secret-value');
  await shot('10-webhook-created');
  const secret = (await page.textContent('#webhook-secret-value'))!;
  const [webhook] = await svc.store.events.listWebhooks('acme', 0, 10);
  expect(webhook).toMatchObject({ url: 'https://203.0.113.10/hooks/orgadmin', eventTypes: ['admin.ORGANIZATION-*', 'access.LOGIN_ERROR'], enabled: true, secret });
  await page.click('button[data-copy="webhook-secret-value"]');
  expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(secret);

  await page.click('#back-to-webhooks');
  const row = page.locator(`tr[data-webhook-id="${webhook!.id}"]`);
  expect(await page.content()).not.toContain(secret);
  await row.locator('button', { hasText: 'Turn off' }).click();
  await page.waitForSelector('.notice');
  expect(await row.locator('td').nth(2).textContent()).toBe('Off');
  expect((await svc.store.events.getWebhook('acme', webhook!.id))?.enabled).toBe(false);
  await shot('11-webhook-off');
  await row.locator('button', { hasText: 'Delete' }).click();
  await page.waitForSelector('.notice');
  expect(await page.textContent('.notice')).toBe('The webhook was deleted, with its delivery log.');
  expect(await svc.store.events.getWebhook('acme', webhook!.id)).toBeUndefined();
});

it('refuses forged CSRF requests and changes nothing', async () => {
  await page.goto(`${dashboard}/users`);
  const forged = await page.evaluate(async (url) => {
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=eve&_csrf=forged-token',
    });
    return answer.status;
  }, `${dashboard}/users`);
  expect(forged).toBe(403);
  // With the session cookie but no token at all (what a cross-site form would send).
  const missing = await context.request.post(`${dashboard}/users`, { form: { username: 'eve' } });
  expect(missing.status()).toBe(403);
  // The right token from a foreign origin.
  const csrf = await page.getAttribute('#create-user input[name="_csrf"]', 'value');
  const foreign = await context.request.post(`${dashboard}/users`, { form: { username: 'eve', _csrf: csrf! }, headers: { origin: 'https://evil.example' } });
  expect(foreign.status()).toBe(403);
  expect(await svc.admin.getUserInfo('acme', 'eve')).toBeUndefined();
});

it('is not signed out by a link carrying another user’s ID token; a hint naming the administrator signs out and ends that login’s tokens', async () => {
  await svc.admin.createClient('acme', { clientId: 'spa', name: 'The SPA', redirectUris: ['http://127.0.0.1:9/callback'] });
  const spa = { clientId: 'spa', redirectUri: 'http://127.0.0.1:9/callback' };
  const logout = (idToken: string) => `${svc.baseUrl}/realms/acme/protocol/openid-connect/logout?id_token_hint=${encodeURIComponent(idToken)}`;
  // The attacker's page links to the end-session endpoint with the attacker's own (valid) ID token.
  const attacker = await codeFlowTokens(svc.baseUrl, 'acme', { username: 'bob', password: 'bob-pw' }, spa);
  await page.setContent(`<a id="lure" href="${logout(attacker.idToken)}">prize</a>`);
  await Promise.all([page.waitForURL(/\/logout\?/), page.click('#lure')]);
  expect(await page.textContent('h1')).toBe('Sign out of acme?');
  await page.goto(`${dashboard}/api-keys`);
  expect(await page.textContent('#signed-in-as')).toBe('ada');

  // The administrator's own client signs out with the administrator's ID token: no question asked,
  // and the access token of that login is refused from then on.
  const own = await codeFlowTokens(svc.baseUrl, 'acme', { username: 'ada', password: 'ada-pw' }, spa);
  expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token: own.accessToken })).status).toBe(200);
  await page.goto(logout(own.idToken));
  expect(await page.textContent('h1')).toBe('You are signed out');
  expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token: own.accessToken })).status).toBe(401);
  // Bob's login is not the one that ended.
  expect((await call(svc, { method: 'GET', url: userinfoPath('acme'), token: attacker.accessToken })).status).toBe(200);

  await page.goto(`${dashboard}/api-keys`);
  await page.fill('#username', 'ada');
  await Promise.all([page.waitForSelector('#password'), page.click('#next')]);
  await page.fill('#password', 'ada-pw');
  await Promise.all([page.waitForURL(`${dashboard}/api-keys`), page.click('#sign-in')]);
});

it('signs out, and refuses a user who is not an administrator', async () => {
  await page.click('#sign-out');
  await page.waitForSelector('#sign-in-again');
  await shot('10-signed-out');
  await page.goto(`${dashboard}/api-keys`);
  await page.waitForSelector('#username');
  await page.fill('#username', 'bob');
  await Promise.all([page.waitForSelector('#password'), page.click('#next')]);
  await page.fill('#password', 'bob-pw');
  await page.click('#sign-in');
  await page.waitForSelector('text=Not an administrator');
  expect(await page.textContent('[role="alert"]')).toContain('You are signed in as bob, who is not an administrator of realm acme.');
  await shot('11-not-an-administrator');
  const direct = await context.request.get(`${dashboard}/users`, { maxRedirects: 0 });
  expect(direct.status()).toBe(403);
});
