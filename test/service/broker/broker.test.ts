/**
 * Sign-in by email domain through an organization's identity provider, over real HTTP: the
 * service on its port, a DNS server and an upstream OpenID Connect provider started by the test,
 * and a cookie-keeping client in place of a browser (the Chromium run is sso.browser.test.ts).
 * Covers identifier-first routing, the whole round trip to a code of the original client, the
 * linking rule, and every refusal of a forged or stale answer.
 */
import { generateKeyPairSync } from 'node:crypto';
import { domainRecordValue, domainVerifyPath, idpMappersPath, idpPath, idpsPath, MAPPER_TYPES, orgPath, orgsPath, rolesPath, tokenPath, brokerEndpointPath } from '../../../src/api';
import { verifyJwt } from '../../../src/service/auth/jwt';
import { startDnsServer, type TestDnsServer } from '../../helpers/dns-server';
import { startOidcProvider, type TestOidcProvider } from '../../helpers/oidc-provider';
import { createTestRealm, getToken, startTestService, type TestService } from '../../helpers/service';
import { Browser, hiddenFields, pkcePair, type Page } from '../login/browser-like';
import { call } from '../support';

const REDIRECT = 'http://127.0.0.1:9/callback';
const AUTH = '/realms/acme/protocol/openid-connect/auth';

let svc: TestService;
let dns: TestDnsServer;
let upstream: TestOidcProvider;
let token: string;
let globex: string;
let initech: string;
let clock = Date.now();

const decode = (text: string): string => text.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));

async function createOrg(name: string, domains: string[]): Promise<string> {
  const res = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: { name, domains } });
  return decodeURIComponent(String(res.headers.location).split('/').pop()!);
}

const idpBody = (alias: string, overrides: Record<string, unknown> = {}) => ({
  alias,
  displayName: 'Globex SSO',
  config: { metadataDescriptorUrl: upstream.discoveryUrl, issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret },
  ...overrides,
});

beforeAll(async () => {
  dns = await startDnsServer();
  upstream = await startOidcProvider();
  svc = await startTestService({ now: () => clock, app: { dnsServer: dns.address } });
  const key = await createTestRealm(svc, 'acme');
  token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
  await svc.admin.createClient('acme', { clientId: 'spa', name: 'The SPA', redirectUris: [REDIRECT] });
  globex = await createOrg('globex', ['globex.example', 'globex-unverified.example']);
  initech = await createOrg('initech', ['initech.example']);
  dns.setTxt('_org-domain-ownership.globex.example', [domainRecordValue(globex, 'globex.example')]);
  expect((await call(svc, { method: 'POST', url: domainVerifyPath('acme', globex, 'globex.example'), token })).json.verified).toBe(true);
  expect((await call(svc, { method: 'POST', url: idpsPath('acme', globex), token, payload: idpBody('globex-oidc') })).status).toBe(201);
  // Initech has a provider but never verified its domain.
  expect((await call(svc, { method: 'POST', url: idpsPath('acme', initech), token, payload: idpBody('initech-oidc') })).status).toBe(201);
});
afterAll(async () => {
  await svc.close();
  await upstream.close();
  await dns.close();
});

/** Opens the login page for the SPA and submits the identifier; answers the page and the PKCE verifier. */
async function identify(browser: Browser, identifier: string): Promise<{ page: Page; verifier: string }> {
  const { verifier, challenge } = pkcePair();
  const query = new URLSearchParams({ client_id: 'spa', redirect_uri: REDIRECT, response_type: 'code', scope: 'openid', state: 'client-state', nonce: 'client-nonce', code_challenge: challenge, code_challenge_method: 'S256' });
  const login = await browser.go('GET', `${AUTH}?${query.toString()}`);
  expect(login.status).toBe(200);
  const page = await browser.go('POST', AUTH, { ...hiddenFields(login.text), username: identifier });
  return { page, verifier };
}

/** The upstream URL the redirect page sends the browser to. */
function continueUrl(page: Page): URL {
  const href = /<a id="continue" href="([^"]+)"/.exec(page.text)?.[1];
  expect(href).toBeDefined();
  return new URL(decode(href!));
}

/** Goes to the upstream (which answers at once) and back to the broker's callback; answers the callback's answer. */
async function roundTrip(browser: Browser, upstreamUrl: URL): Promise<Page> {
  const atUpstream = await browser.go('GET', upstreamUrl.toString());
  expect(atUpstream.status).toBe(302);
  return browser.go('GET', atUpstream.location!);
}

/** A whole sign-in of `email`; answers the callback's answer and the verifier. */
async function signIn(email = 'bob@globex.example', browser = new Browser(svc.baseUrl)): Promise<{ back: Page; verifier: string }> {
  const { page, verifier } = await identify(browser, email);
  expect(page.status).toBe(200);
  return { back: await roundTrip(browser, continueUrl(page)), verifier };
}

async function exchange(code: string, verifier: string) {
  const body = new URLSearchParams({ grant_type: 'authorization_code', client_id: 'spa', code, redirect_uri: REDIRECT, code_verifier: verifier });
  const res = await fetch(`${svc.baseUrl}${tokenPath('acme')}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  return { status: res.status, json: (await res.json()) as Record<string, string> };
}

/** Expects a refusal page and no code anywhere. */
function expectRefused(page: Page, status: number, text: string | RegExp): void {
  expect(page.status).toBe(status);
  expect(page.location).toBeUndefined();
  expect(page.text).not.toContain('id="continue"');
  expect(decode(page.text)).toMatch(text);
}

describe('identifier first', () => {
  it('asks for the email address or username first, with no password field', async () => {
    const browser = new Browser(svc.baseUrl);
    const login = await browser.go('GET', `${AUTH}?${new URLSearchParams({ client_id: 'spa', redirect_uri: REDIRECT, response_type: 'code', code_challenge: pkcePair().challenge, code_challenge_method: 'S256' })}`);
    expect(login.text).toContain('<label for="username">Email or username</label>');
    expect(login.text).toContain('id="next"');
    expect(login.text).not.toContain('type="password"');
  });

  it('gives a username, an unverified domain, and a domain without a provider the password form', async () => {
    for (const identifier of ['bob', 'bob@initech.example', 'bob@globex-unverified.example', 'bob@nowhere.example']) {
      const { page } = await identify(new Browser(svc.baseUrl), identifier);
      expect(page.status).toBe(200);
      expect(page.text).toContain('type="password"');
      expect(page.text).toContain(`value="${identifier}"`);
      expect(page.text).not.toContain('id="continue"');
    }
    expect(upstream.authorizeRequests).toHaveLength(0);
  });

  it('sends an address of a verified domain to the organization’s provider: code flow, PKCE S256, state, nonce, login hint', async () => {
    const { page } = await identify(new Browser(svc.baseUrl), 'Bob@Globex.Example');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<meta http-equiv="refresh" content="0;url=');
    const url = continueUrl(page);
    expect(`${url.origin}${url.pathname}`).toBe(`${upstream.issuer}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: upstream.clientId,
      redirect_uri: `${svc.baseUrl}${brokerEndpointPath('acme', 'globex-oidc')}`,
      response_type: 'code',
      scope: 'openid email profile',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
      login_hint: 'Bob@Globex.Example',
    });
    expect(String(page.headers['set-cookie'])).toMatch(/orgadmin_broker=[A-Za-z0-9_-]{43}; Path=\/realms\/acme\/broker\/; Max-Age=600; HttpOnly; SameSite=Lax/);
  });

  it('falls back to the password form while the provider is disabled', async () => {
    const body = idpBody('globex-oidc', { enabled: false, config: { ...idpBody('globex-oidc').config, clientSecret: '**********' } });
    expect((await call(svc, { method: 'PUT', url: idpPath('acme', globex, 'globex-oidc'), token, payload: body })).status).toBe(204);
    try {
      const { page } = await identify(new Browser(svc.baseUrl), 'bob@globex.example');
      expect(page.text).toContain('type="password"');
    } finally {
      await call(svc, { method: 'PUT', url: idpPath('acme', globex, 'globex-oidc'), token, payload: { ...body, enabled: true } });
    }
  });
});

describe('the round trip', () => {
  it('creates bob on first sign-in, makes him a member, and completes the original request with a code', async () => {
    const { back, verifier } = await signIn();
    // A page sends the browser on to the client (a redirect would meet the upstream form's form-action).
    expect(back.status).toBe(200);
    expect(back.text).toContain('<meta http-equiv="refresh"');
    const location = continueUrl(back);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('client-state');
    expect(location.searchParams.get('iss')).toBe(`${svc.baseUrl}/realms/acme`);
    // The upstream was asked with PKCE and this service's client secret (client_secret_post).
    const tokenRequest = upstream.tokenRequests.at(-1)!;
    expect(tokenRequest.form).toMatchObject({ grant_type: 'authorization_code', client_id: upstream.clientId, client_secret: upstream.clientSecret, code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });

    const tokens = await exchange(location.searchParams.get('code')!, verifier);
    expect(tokens.status).toBe(200);
    const realmKey = (await svc.store.getRealm('acme'))!;
    const idClaims = verifyJwt(tokens.json.id_token!, realmKey, { realm: 'acme', typ: 'ID', audience: 'spa', nowSeconds: Math.floor(clock / 1000) });
    expect(idClaims).toMatchObject({ nonce: 'client-nonce', preferred_username: 'bob@globex.example', email: 'bob@globex.example', email_verified: true });
    const bob = (await svc.store.findUserByUsername('acme', 'bob@globex.example'))!;
    expect(bob).toMatchObject({ email: 'bob@globex.example', firstName: 'Bob', lastName: 'Builder', emailVerified: true, kind: 'user', passwordHash: null });
    expect(idClaims.sub).toBe(bob.id);
    expect(await svc.store.isMember('acme', globex, bob.id)).toBe(true);
    expect(await svc.store.sso.findFederatedUser('acme', 'globex-oidc', upstream.issuer, 'upstream-bob')).toBe(bob.id);

    // The next sign-in is the same user, and makes him a member again if he was removed.
    await svc.store.removeMember('acme', globex, bob.id);
    const again = await signIn();
    expect(continueUrl(again.back).searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await svc.store.findUsers('acme', { email: 'bob@globex.example', exact: true })).map((u) => u.id)).toEqual([bob.id]);
    expect(await svc.store.isMember('acme', globex, bob.id)).toBe(true);
  });

  it('passes the upstream’s refusal back to the client as access_denied with the client’s state', async () => {
    upstream.refuseWith = 'access_denied';
    try {
      const { back } = await signIn();
      const location = continueUrl(back);
      expect(location.searchParams.get('error')).toBe('access_denied');
      expect(location.searchParams.get('state')).toBe('client-state');
      expect(location.searchParams.get('code')).toBeNull();
    } finally {
      upstream.refuseWith = undefined;
    }
  });
});

describe('refusals', () => {
  it('refuses a forged state', async () => {
    const browser = new Browser(svc.baseUrl);
    const { page } = await identify(browser, 'bob@globex.example');
    const url = continueUrl(page);
    url.searchParams.set('state', 'forged-state-value-forged-state-value-forged');
    const back = await roundTrip(browser, url);
    expectRefused(back, 400, 'This sign-in is unknown, was already used, or was not started here.');
  });

  it('refuses a replayed answer and an answer in another browser', async () => {
    const browser = new Browser(svc.baseUrl);
    const { page } = await identify(browser, 'bob@globex.example');
    const atUpstream = await browser.go('GET', continueUrl(page).toString());
    const stranger = new Browser(svc.baseUrl);
    expectRefused(await stranger.go('GET', atUpstream.location!), 400, 'This sign-in was started in another browser');
    // The stranger's try used the sign-in up: the rightful browser cannot replay it either.
    expectRefused(await browser.go('GET', atUpstream.location!), 400, 'This sign-in is unknown, was already used');
  });

  it.each([
    ['a forged nonce', { claims: (c: Record<string, unknown>) => ({ ...c, nonce: 'forged-nonce' }) }, /nonce/],
    ['a wrong issuer', { claims: (c: Record<string, unknown>) => ({ ...c, iss: 'https://evil.example' }) }, /iss/],
    ['an expired ID token', { claims: (c: Record<string, unknown>) => ({ ...c, iat: Number(c.iat) - 3600, exp: Number(c.iat) - 1800 }) }, /exp/],
    ['another audience', { claims: (c: Record<string, unknown>) => ({ ...c, aud: 'someone-else' }) }, /aud/],
    ['a signature of another key', { key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey }, /signature/],
  ])('refuses %s', async (_what, tamper, why) => {
    upstream.tamper = tamper;
    const { back } = await signIn('carol@globex.example');
    expectRefused(back, 400, /^[\s\S]*Sign-in through Globex SSO failed\. The identity provider's answer was refused/);
    expect(decode(back.text)).toMatch(why);
    expect(await svc.store.findUserByUsername('acme', 'carol@globex.example')).toBeUndefined();
  });

  it('refuses an ID token that expired while the person was away (the service’s clock)', async () => {
    const browser = new Browser(svc.baseUrl);
    const { page } = await identify(browser, 'dave@globex.example');
    const atUpstream = await browser.go('GET', continueUrl(page).toString());
    clock += 400_000; // past the token's 300 s and openid-client's 30 s tolerance, within the sign-in's 10 minutes
    try {
      expectRefused(await browser.go('GET', atUpstream.location!), 400, /"exp" \(expiration time\) claim value, expiration is past current timestamp/);
    } finally {
      clock -= 400_000;
    }
  });

  it('refuses a sign-in that took longer than ten minutes', async () => {
    const browser = new Browser(svc.baseUrl);
    const { page } = await identify(browser, 'erin@globex.example');
    const atUpstream = await browser.go('GET', continueUrl(page).toString());
    clock += 11 * 60_000;
    try {
      expectRefused(await browser.go('GET', atUpstream.location!), 400, 'This sign-in took too long.');
    } finally {
      clock -= 11 * 60_000;
    }
  });

  it('refuses an address outside the organization’s verified domains', async () => {
    upstream.person = { ...upstream.person, sub: 'upstream-mallory', email: 'mallory@initech.example' };
    try {
      const { back } = await signIn('mallory@globex.example');
      expectRefused(back, 403, 'but initech.example is not a verified domain it signs in for');
      expect(await svc.store.findUserByUsername('acme', 'mallory@initech.example')).toBeUndefined();
    } finally {
      upstream.person = { ...upstream.person, sub: 'upstream-bob', email: 'bob@globex.example' };
    }
  });
});

/** Runs `run` while the upstream signs `person` in. */
const as = async (person: Record<string, unknown>, run: () => Promise<void>) => {
  const saved = upstream.person;
  upstream.person = person;
  try {
    await run();
  } finally {
    upstream.person = saved;
  }
};

describe('accounts that already exist', () => {

  it('never links by email when the upstream does not assert email_verified', async () => {
    const frank = await svc.admin.createUser('acme', { username: 'frank', email: 'frank@globex.example', password: 'pw' });
    await as({ sub: 'upstream-frank', email: 'frank@globex.example', email_verified: false }, async () => {
      const { back } = await signIn('frank@globex.example');
      expectRefused(back, 403, 'It is linked to Globex SSO only when that provider says the address is verified (email_verified)');
    });
    await as({ sub: 'upstream-frank', email: 'frank@globex.example' }, async () => {
      expectRefused((await signIn('frank@globex.example')).back, 403, /only when that provider says the address is verified/);
    });
    expect(await svc.store.sso.findFederatedUser('acme', 'globex-oidc', upstream.issuer, 'upstream-frank')).toBeUndefined();
    expect(await svc.store.isMember('acme', globex, frank.id)).toBe(false);
  });

  it('links an existing user when the upstream asserts email_verified, and never a realm administrator', async () => {
    const grace = await svc.admin.createUser('acme', { username: 'grace', email: 'grace@globex.example' });
    await as({ sub: 'upstream-grace', email: 'grace@globex.example', email_verified: true }, async () => {
      const { back } = await signIn('grace@globex.example');
      expect(continueUrl(back).searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });
    expect(await svc.store.sso.findFederatedUser('acme', 'globex-oidc', upstream.issuer, 'upstream-grace')).toBe(grace.id);
    expect(await svc.store.isMember('acme', globex, grace.id)).toBe(true);

    await svc.admin.createUser('acme', { username: 'heidi', email: 'heidi@globex.example', realmAdmin: true });
    await as({ sub: 'upstream-heidi', email: 'heidi@globex.example', email_verified: true }, async () => {
      expectRefused((await signIn('heidi@globex.example')).back, 403, 'cannot be signed in through Globex SSO');
    });
  });
});

describe('roles of the provider\'s role mappers', () => {
  const rolesOf = async (userId: string): Promise<string[]> => ((await svc.store.listMemberRoles('acme', globex, userId)) ?? []).map((role) => role.name);
  const addMapper = async (name: string, config: Record<string, string>): Promise<string> => {
    const res = await call(svc, { method: 'POST', url: idpMappersPath('acme', globex, 'globex-oidc'), token, payload: { name, identityProviderMapper: MAPPER_TYPES.orgRoles, config } });
    expect(res.status).toBe(201);
    return decodeURIComponent(String(res.headers.location).split('/').pop()!);
  };

  it('grants IMPORT roles on the first sign-in only, FORCE roles on every one, and skips a role the organization lost', async () => {
    for (const name of ['billing', 'support', 'gone']) expect((await call(svc, { method: 'POST', url: rolesPath('acme', globex), token, payload: { name } })).status).toBe(201);
    const mappers = [await addMapper('first admins', { org_role: 'billing##gone', syncMode: 'IMPORT' }), await addMapper('support', { org_role: 'support', syncMode: 'FORCE' })];
    expect((await call(svc, { method: 'DELETE', url: `${rolesPath('acme', globex)}/gone`, token })).status).toBe(204);
    try {
      await as({ sub: 'upstream-judy', email: 'judy@globex.example', email_verified: true }, async () => {
        expect(continueUrl((await signIn('judy@globex.example')).back).searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
        const judy = (await svc.store.sso.findFederatedUser('acme', 'globex-oidc', upstream.issuer, 'upstream-judy'))!;
        expect(await rolesOf(judy)).toEqual(['billing', 'support']);
        // Revoked by an administrator: the next sign-in grants the FORCE role again, not the IMPORT one.
        await svc.store.changeMemberRoles('acme', globex, judy, ['billing', 'support'], 'revoke', clock);
        expect(continueUrl((await signIn('judy@globex.example')).back).searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(await rolesOf(judy)).toEqual(['support']);
      });
    } finally {
      for (const id of mappers) await call(svc, { method: 'DELETE', url: `${idpMappersPath('acme', globex, 'globex-oidc')}/${id}`, token });
    }
  });
});

it('deleting the organization ends its sign-ins: its provider and pending sign-ins go with it', async () => {
  const temp = await createOrg('temp', ['temp.example']);
  dns.setTxt('_org-domain-ownership.temp.example', [domainRecordValue(temp, 'temp.example')]);
  await call(svc, { method: 'POST', url: domainVerifyPath('acme', temp, 'temp.example'), token });
  await call(svc, { method: 'POST', url: idpsPath('acme', temp), token, payload: idpBody('temp-oidc') });
  const browser = new Browser(svc.baseUrl);
  const { page } = await identify(browser, 'ivan@temp.example');
  const atUpstream = await browser.go('GET', continueUrl(page).toString());
  expect((await call(svc, { method: 'DELETE', url: orgPath('acme', temp), token })).status).toBe(204);
  expectRefused(await browser.go('GET', atUpstream.location!), 400, 'This sign-in is unknown');
  expect((await identify(new Browser(svc.baseUrl), 'ivan@temp.example')).page.text).toContain('type="password"');
});
