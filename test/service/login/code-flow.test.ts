/**
 * The authorization code flow with PKCE against the real service on port 0: the login page, the
 * code exchange at the token endpoint, and every refusal the flow must make (PKCE required and
 * checked, exact redirect URIs, single-use and short-lived codes, state round trip, login CSRF).
 * The service clock is injected so that code expiry is tested without waiting.
 */
import { orgsPath, revocationPath, tokenPath } from '../../../src/api';
import { REVOCATION_RECHECK_MS } from '../../../src/service/auth/revocations';
import { verifyJwt } from '../../../src/service/auth/jwt';
import { startTestService, type TestService } from '../../helpers/service';
import { Browser, hiddenFields, pkcePair, type Page } from './browser-like';

const REDIRECT = 'http://127.0.0.1:9/callback';
const AUTH = '/realms/acme/protocol/openid-connect/auth';

let svc: TestService;
let clock = Date.parse('2026-11-26T12:00:00Z');
let realmKey: { publicKeyPem: string; keyId: string };

beforeAll(async () => {
  svc = await startTestService({ now: () => clock });
  await svc.admin.createRealm('acme');
  await svc.admin.createUser('acme', { username: 'ada', password: 'ada-pw', email: 'ada@example.com', realmAdmin: true });
  await svc.admin.createUser('acme', { username: 'bob', password: 'bob-pw' });
  await svc.admin.createClient('acme', { clientId: 'spa', name: 'The SPA', redirectUris: [REDIRECT] });
  realmKey = (await svc.store.getRealm('acme'))!;
});
afterAll(async () => {
  await svc.close();
});

const authorizeUrl = (params: Record<string, string | undefined>): string => {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  return `${AUTH}?${query.toString()}`;
};

/** Opens the login page of a normal request and signs in; returns the redirect back and the PKCE pair. */
async function signIn(
  username = 'ada',
  password = 'ada-pw',
  extra: Record<string, string> = {},
): Promise<{ page: Page; back: URL | undefined; verifier: string; browser: Browser }> {
  const browser = new Browser(svc.baseUrl);
  const { verifier, challenge } = pkcePair();
  const params = { client_id: 'spa', redirect_uri: REDIRECT, response_type: 'code', scope: 'openid', state: 'st-123', nonce: 'no-456', code_challenge: challenge, code_challenge_method: 'S256', ...extra };
  const login = await browser.go('GET', authorizeUrl(params));
  expect(login.status).toBe(200);
  const page = await browser.go('POST', AUTH, { ...hiddenFields(login.text), username, password });
  return { page, back: page.location ? new URL(page.location) : undefined, verifier, browser };
}

const exchange = (form: Record<string, string | undefined>) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) if (value !== undefined) body.set(name, value);
  return fetch(`${svc.baseUrl}${tokenPath('acme')}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() });
};

it('shows a login page under a strict CSP, then redirects back with a code, the state and the issuer', async () => {
  const browser = new Browser(svc.baseUrl);
  const { challenge } = pkcePair();
  const login = await browser.go('GET', authorizeUrl({ client_id: 'spa', redirect_uri: REDIRECT, response_type: 'code', state: 's', code_challenge: challenge, code_challenge_method: 'S256' }));
  expect(login.status).toBe(200);
  expect(login.text).toContain('Sign in to acme');
  expect(login.text).toContain('The SPA');
  expect(login.text).not.toMatch(/<script>|style=|onclick=/);
  expect(login.headers['content-security-policy']).toBe(
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self' http://127.0.0.1:9; frame-ancestors 'none'; base-uri 'none'",
  );
  expect(String(browser.cookies.get('orgadmin_login'))).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(String(login.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);

  const { page, back } = await signIn();
  expect(page.status).toBe(303);
  expect(`${back!.origin}${back!.pathname}`).toBe(REDIRECT);
  expect(back!.searchParams.get('state')).toBe('st-123');
  expect(back!.searchParams.get('iss')).toBe(`${svc.baseUrl}/realms/acme`);
  expect(back!.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
});

it('exchanges the code once, with the verifier, for an access token with the user’s rights and an ID token with the nonce', async () => {
  const { back, verifier } = await signIn();
  const answer = await exchange({ grant_type: 'authorization_code', client_id: 'spa', code: back!.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: verifier });
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as Record<string, string>;
  const ada = (await svc.admin.findUserByUsername('acme', 'ada'))!;
  const access = verifyJwt(body.access_token, realmKey, { realm: 'acme', typ: 'Bearer', nowSeconds: Math.floor(clock / 1000) });
  expect(access).toMatchObject({ sub: ada.id, azp: 'spa', scope: 'openid view-organizations manage-organizations create-organization view-users introspect-tokens view-events manage-events' });
  const id = verifyJwt(body.id_token, realmKey, { realm: 'acme', typ: 'ID', audience: 'spa', nowSeconds: Math.floor(clock / 1000) });
  expect(id).toMatchObject({ sub: ada.id, nonce: 'no-456', preferred_username: 'ada', email: 'ada@example.com', auth_time: Math.floor(clock / 1000) });
  // Both name the login session (signing out ends it), which reveals neither the code nor its hash.
  expect(id.sid).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(access.sid).toBe(id.sid);

  // A non-administrator's token carries no permission.
  const bob = await signIn('bob', 'bob-pw');
  const bobAnswer = await exchange({ grant_type: 'authorization_code', client_id: 'spa', code: bob.back!.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: bob.verifier });
  const bobToken = ((await bobAnswer.json()) as Record<string, string>).access_token;
  expect(verifyJwt(bobToken, realmKey, { realm: 'acme', typ: 'Bearer', nowSeconds: Math.floor(clock / 1000) }).permissions).toEqual([]);
});

it('uses a code only once', async () => {
  const { back, verifier } = await signIn();
  const form = { grant_type: 'authorization_code', client_id: 'spa', code: back!.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: verifier };
  expect((await exchange(form)).status).toBe(200);
  const again = await exchange(form);
  expect(again.status).toBe(400);
  expect(await again.json()).toEqual({ error: 'invalid_grant', error_description: 'Code not valid.' });
});

it('refuses a code after its 60 seconds', async () => {
  const { back, verifier } = await signIn();
  clock += 60_001;
  const late = await exchange({ grant_type: 'authorization_code', client_id: 'spa', code: back!.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: verifier });
  expect(late.status).toBe(400);
  expect(await late.json()).toEqual({ error: 'invalid_grant', error_description: 'Code expired.' });
});

it('requires PKCE with S256 and sends the refusal back with the state', async () => {
  const browser = new Browser(svc.baseUrl);
  const missing = await browser.go('GET', authorizeUrl({ client_id: 'spa', redirect_uri: REDIRECT, response_type: 'code', state: 'keep-me' }));
  expect(missing.status).toBe(303);
  const missingBack = new URL(missing.location!);
  expect(Object.fromEntries(missingBack.searchParams)).toEqual({ error: 'invalid_request', error_description: 'code_challenge is required (PKCE with S256).', state: 'keep-me' });
  const plain = await browser.go('GET', authorizeUrl({ client_id: 'spa', redirect_uri: REDIRECT, response_type: 'code', state: 'x', code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }));
  expect(new URL(plain.location!).searchParams.get('error_description')).toBe('code_challenge_method must be S256.');
  const token = await browser.go('GET', authorizeUrl({ client_id: 'spa', redirect_uri: REDIRECT, response_type: 'token', code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' }));
  expect(new URL(token.location!).searchParams.get('error')).toBe('unsupported_response_type');
});

it('checks the verifier against the challenge, and a failed exchange burns the code', async () => {
  const { back, verifier } = await signIn();
  const code = back!.searchParams.get('code')!;
  const missing = await exchange({ grant_type: 'authorization_code', client_id: 'spa', code, redirect_uri: REDIRECT });
  expect(await missing.json()).toEqual({ error: 'invalid_request', error_description: 'Missing form parameter: code_verifier.' });
  const wrong = await exchange({ grant_type: 'authorization_code', client_id: 'spa', code, redirect_uri: REDIRECT, code_verifier: pkcePair().verifier });
  expect(wrong.status).toBe(400);
  expect(await wrong.json()).toEqual({ error: 'invalid_grant', error_description: 'PKCE verification failed.' });
  const right = await exchange({ grant_type: 'authorization_code', client_id: 'spa', code, redirect_uri: REDIRECT, code_verifier: verifier });
  expect(await right.json()).toEqual({ error: 'invalid_grant', error_description: 'Code not valid.' });
});

it('refuses a redirect URI that is not registered exactly, without redirecting to it', async () => {
  const browser = new Browser(svc.baseUrl);
  const { challenge } = pkcePair();
  for (const uri of [`${REDIRECT}/`, `${REDIRECT}?x=1`, 'http://127.0.0.1:9/Callback', 'https://evil.example/callback', undefined]) {
    const page = await browser.go('GET', authorizeUrl({ client_id: 'spa', redirect_uri: uri, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256' }));
    expect(page.status).toBe(400);
    expect(page.location).toBeUndefined();
    expect(page.text).toContain('is not one of the client’s registered redirect URIs');
  }
  const unknown = await browser.go('GET', authorizeUrl({ client_id: 'nope', redirect_uri: REDIRECT, response_type: 'code' }));
  expect(unknown.status).toBe(400);
  expect(unknown.text).toContain('Client nope is not registered in realm acme.');

  // At the exchange, the redirect URI must be the one of the authorization request.
  const { back, verifier } = await signIn();
  const mismatch = await exchange({ grant_type: 'authorization_code', client_id: 'spa', code: back!.searchParams.get('code')!, redirect_uri: `${REDIRECT}/other`, code_verifier: verifier });
  expect(await mismatch.json()).toEqual({ error: 'invalid_grant', error_description: 'Incorrect redirect_uri.' });
});

it('refuses a code presented by another client', async () => {
  await svc.admin.createClient('acme', { clientId: 'other-spa', redirectUris: [REDIRECT] });
  const { back, verifier } = await signIn();
  const stolen = await exchange({ grant_type: 'authorization_code', client_id: 'other-spa', code: back!.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: verifier });
  expect(await stolen.json()).toEqual({ error: 'invalid_grant', error_description: 'Code not valid.' });
});

it('answers a wrong password with the form again and no code, and refuses a login form without its CSRF cookie', async () => {
  const { page } = await signIn('ada', 'wrong');
  expect(page.status).toBe(401);
  expect(page.location).toBeUndefined();
  expect(page.text).toContain('Invalid username or password.');

  const browser = new Browser(svc.baseUrl);
  const { challenge } = pkcePair();
  const login = await browser.go('GET', authorizeUrl({ client_id: 'spa', redirect_uri: REDIRECT, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256' }));
  browser.cookies.clear();
  const forged = await browser.go('POST', AUTH, { ...hiddenFields(login.text), username: 'ada', password: 'ada-pw' });
  expect(forged.status).toBe(403);
  expect(forged.location).toBeUndefined();
  expect(forged.text).toContain('This sign-in form has expired.');
});

it('lists the authorization and end-session endpoints in discovery and signs a session out', async () => {
  const discovery = (await (await fetch(`${svc.baseUrl}/realms/acme/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
  expect(discovery.authorization_endpoint).toBe(`${svc.baseUrl}${AUTH}`);
  expect(discovery.end_session_endpoint).toBe(`${svc.baseUrl}/realms/acme/protocol/openid-connect/logout`);
  const browser = new Browser(svc.baseUrl);
  const out = await browser.go('GET', '/realms/acme/protocol/openid-connect/logout?post_logout_redirect_uri=https%3A%2F%2Fevil.example%2F&client_id=spa');
  expect(out.status).toBe(400);
  expect(out.location).toBeUndefined();
  const back = await browser.go('GET', `/realms/acme/protocol/openid-connect/logout?post_logout_redirect_uri=${encodeURIComponent(REDIRECT)}&client_id=spa&state=bye`);
  expect(back.status).toBe(303);
  expect(back.location).toBe(`${REDIRECT}?state=bye`);
});

/** Signs `username` in as `spa` and exchanges the code: the login's access and ID tokens. */
async function spaTokens(username = 'ada', password = `${username}-pw`): Promise<{ access: string; id: string }> {
  const { back, verifier } = await signIn(username, password);
  const answer = await exchange({ grant_type: 'authorization_code', client_id: 'spa', code: back!.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: verifier });
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as Record<string, string>;
  return { access: body.access_token, id: body.id_token };
}

const form = (path: string, fields: Record<string, string>) =>
  fetch(`${svc.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
const orgsStatus = async (token: string): Promise<number> => (await fetch(`${svc.baseUrl}${orgsPath('acme')}`, { headers: { authorization: `Bearer ${token}` } })).status;

it('lets a registered public client revoke its own code-flow token by client id alone, and no other client', async () => {
  const tokens = await spaTokens();
  expect(await orgsStatus(tokens.access)).toBe(200);
  // admin-cli is public too, but the token is not its own.
  const foreign = await form(revocationPath('acme'), { token: tokens.access, client_id: 'admin-cli' });
  expect(foreign.status).toBe(400);
  expect(((await foreign.json()) as { error: string }).error).toBe('unauthorized_client');
  expect(await orgsStatus(tokens.access)).toBe(200);
  // An unknown client without a secret is refused like any unauthenticated client.
  expect((await form(revocationPath('acme'), { token: tokens.access, client_id: 'nobody' })).status).toBe(401);
  expect((await form(revocationPath('acme'), { token: tokens.access, client_id: 'spa' })).status).toBe(200);
  expect(await orgsStatus(tokens.access)).toBe(401);
});

it('ends the login an id_token_hint names, with its access tokens, on every instance within the recheck time', async () => {
  const first = await spaTokens();
  const other = await spaTokens();
  const second = await startTestService({ dataFile: svc.dataFile, now: () => clock });
  try {
    expect(await orgsStatus(first.access)).toBe(200);
    const seenBySecond = async (): Promise<number> =>
      (await fetch(`${second.baseUrl}${orgsPath('acme')}`, { headers: { authorization: `Bearer ${first.access}` } })).status;
    expect(await seenBySecond()).toBe(200);
    // No dashboard session in this browser: the hint alone ends its own login.
    const out = await new Browser(svc.baseUrl).go('GET', `/realms/acme/protocol/openid-connect/logout?id_token_hint=${encodeURIComponent(first.id)}`);
    expect(out.status).toBe(200);
    expect(out.text).toContain('You are signed out');
    expect(await orgsStatus(first.access)).toBe(401);
    clock += REVOCATION_RECHECK_MS;
    expect(await seenBySecond()).toBe(401);
    // Another login of the same user is not ended.
    expect(await orgsStatus(other.access)).toBe(200);
    // An expired hint still signs out (as the spec allows) and stores nothing: its login's tokens are gone anyway.
    clock += 300_000 + 31_000;
    const late = await new Browser(svc.baseUrl).go('GET', `/realms/acme/protocol/openid-connect/logout?id_token_hint=${encodeURIComponent(other.id)}`);
    expect(late.status).toBe(200);
    const otherSid = (JSON.parse(Buffer.from(other.id.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
    expect((await svc.store.activeRevokedTokens(clock)).map((revocation) => revocation.jti)).not.toContain(`session:${otherSid}`);
  } finally {
    await second.close();
  }
});
