/**
 * Single sign-on in a real browser (Debian's Chromium driven by playwright-core). The upstream
 * identity provider is a second orgadmin service in a process of its own (`orgadmin serve` from
 * this checkout's sources), reached only over HTTP: its realm `corp` has the user
 * bob@corp.example (email verified) and a confidential client for the broker, all made with the
 * command line. The broker is the service under test (realm `acme`): organization globex verified
 * corp.example through a DNS server started by the test and links the upstream as its identity
 * provider; the registered public client `spa` starts every sign-in.
 *
 * Identifier first → upstream login → back → code exchanged → token with the organizations claim
 * and the role the provider's mapper grants → membership and role visible through the API; an unverified domain is not redirected; a forged state or nonce, a wrong issuer and an
 * expired ID token are refused. Screenshots go to test-artifacts/sso/ (git-ignored).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { brokerEndpointPath, domainRecordValue, domainVerifyPath, idpMappersPath, idpPath, idpsPath, MAPPER_TYPES, membersPath, memberRolesPath, orgsPath, rolesPath, tokenPath } from '../../../src/api';
import { realmAudience, verifyJwt } from '../../../src/service/auth/jwt';
import { createSandbox, type CliSandbox } from '../../cli/harness';
import { startDnsServer, type TestDnsServer } from '../../helpers/dns-server';
import { createTestRealm, getToken, startTestService, type TestService } from '../../helpers/service';
import { pkcePair } from '../login/browser-like';
import { call } from '../support';

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..', '..');
const SCREENSHOTS = join(ROOT, 'test-artifacts', 'sso');
const REDIRECT = 'http://127.0.0.1:3999/callback';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** The upstream realm's token lifetime: short, so the broker's clock can outrun an ID token. */
const UPSTREAM_TOKEN_SECONDS = 60;

let broker: TestService;
let dns: TestDnsServer;
let sandbox: CliSandbox;
let upstream: { child: ChildProcessWithoutNullStreams; url: string };
let token: string;
let globex: string;
let clientSecret: string;
let profile: string;
let context: BrowserContext;
let page: Page;
let clock = Date.now();

const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
const corpIssuer = () => `${upstream.url}/realms/corp`;
const idpConfig = (extra: Record<string, string> = {}) => ({ issuer: corpIssuer(), clientId: 'broker', clientSecret, ...extra });

/** Starts `orgadmin serve` from the sources in a process of its own; answers its URL. */
async function startUpstream(dataFile: string): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  const child = spawn(process.execPath, ['--require', join(ROOT, 'examples', 'register.js'), join(__dirname, 'orgadmin-from-source.ts'), 'serve', '--port', '0', '--data', dataFile, '--json'], {
    cwd: ROOT,
    env: { ...process.env, ORGADMIN_DATA: '' },
  });
  let out = '';
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve((JSON.parse(line!) as { url: string }).url);
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`the upstream service exited with ${code}: ${err}`)));
  });
  return { child, url };
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  dns = await startDnsServer();
  broker = await startTestService({ now: () => clock, app: { dnsServer: dns.address } });
  const key = await createTestRealm(broker, 'acme');
  token = await getToken(broker, 'acme', key.clientId, key.clientSecret);
  // The SPA's user tokens carry the organizations claim.
  await broker.admin.createClient('acme', { clientId: 'spa', name: 'Acme App', redirectUris: [REDIRECT], organizationsClaim: true });

  // The upstream: its realm, user and confidential client made with the command line.
  sandbox = createSandbox();
  for (const argv of [
    ['realms', 'create', 'corp', '--token-lifetime', String(UPSTREAM_TOKEN_SECONDS)],
    ['users', 'create', '--realm', 'corp', '--username', 'bob', '--email', 'bob@corp.example', '--email-verified', '--first-name', 'Bob', '--password', 'bob-pw'],
  ]) {
    const result = await sandbox.run(...argv);
    expect(result).toMatchObject({ code: 0, stderr: '' });
  }
  const redirectUris = ['corp', 'initech-corp'].map((alias) => `${broker.baseUrl}${brokerEndpointPath('acme', alias)}`).join(',');
  const client = await sandbox.json<{ clientId: string; confidential: boolean; clientSecret: string }>('clients', 'create', 'broker', '--realm', 'corp', '--redirect-uri', redirectUris, '--confidential');
  expect(client).toMatchObject({ clientId: 'broker', confidential: true });
  clientSecret = client.clientSecret;
  upstream = await startUpstream(sandbox.dataFile);

  // Globex verifies corp.example and links the upstream; Initech links it without verifying its domain.
  const createOrg = async (name: string, domains: string[]) =>
    decodeURIComponent(String((await call(broker, { method: 'POST', url: orgsPath('acme'), token, payload: { name, domains } })).headers.location).split('/').pop()!);
  globex = await createOrg('globex', ['corp.example']);
  const initech = await createOrg('initech', ['initech.example']);
  dns.setTxt('_org-domain-ownership.corp.example', [domainRecordValue(globex, 'corp.example')]);
  expect((await call(broker, { method: 'POST', url: domainVerifyPath('acme', globex, 'corp.example'), token })).json.verified).toBe(true);
  expect((await call(broker, { method: 'POST', url: idpsPath('acme', globex), token, payload: { alias: 'corp', displayName: 'Corp', config: idpConfig() } })).status).toBe(201);
  expect((await call(broker, { method: 'POST', url: idpsPath('acme', initech), token, payload: { alias: 'initech-corp', config: idpConfig() } })).status).toBe(201);
  // Globex's first administrators: the provider's role mapper grants "admin" on first sign-in.
  expect((await call(broker, { method: 'POST', url: rolesPath('acme', globex), token, payload: { name: 'admin', description: 'Administers globex' } })).status).toBe(201);
  const mapper = { name: 'first admins', identityProviderMapper: MAPPER_TYPES.orgRoles, config: { org_role: 'admin', syncMode: 'IMPORT' } };
  expect((await call(broker, { method: 'POST', url: idpMappersPath('acme', globex, 'corp'), token, payload: mapper })).status).toBe(201);

  profile = mkdtempSync(join(tmpdir(), 'orgadmin-chromium-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  // The client's redirect URI: answer it, so the browser shows where it landed.
  await context.route(`${REDIRECT}**`, (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the client' }));
  page = context.pages()[0] ?? (await context.newPage());
}, 120_000);

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (upstream) {
    const exited = new Promise((resolve) => upstream.child.on('exit', resolve));
    upstream.child.kill('SIGTERM');
    await exited;
  }
  sandbox?.cleanup();
  await broker?.close();
  await dns?.close();
});

/** Opens the broker's login page for the SPA; answers the PKCE verifier. */
async function openLogin(): Promise<string> {
  await context.clearCookies();
  const { verifier, challenge } = pkcePair();
  const query = new URLSearchParams({ client_id: 'spa', redirect_uri: REDIRECT, response_type: 'code', scope: 'openid', state: 'spa-state', nonce: 'spa-nonce', code_challenge: challenge, code_challenge_method: 'S256' });
  await page.goto(`${broker.baseUrl}/realms/acme/protocol/openid-connect/auth?${query}`);
  return verifier;
}

/** Types the identifier on the broker's page and waits for the upstream's login page, optionally changing the upstream request first. */
async function identifyAndReachUpstream(email: string, tamper?: (url: URL) => void): Promise<void> {
  const upstreamAuth = `${corpIssuer()}/protocol/openid-connect/auth`;
  if (tamper) {
    // Hold the first request to the upstream, and go there again with the changed parameters.
    const seen = new Promise<URL>((resolve) => {
      void page.route(`${upstreamAuth}?**`, async (route) => {
        resolve(new URL(route.request().url()));
        await route.fulfill({ status: 200, contentType: 'text/html', body: '<p id="held">held by the test</p>' });
      });
    });
    await page.fill('#username', email);
    await page.click('#next');
    const url = await seen;
    await page.waitForSelector('#held');
    await page.unroute(`${upstreamAuth}?**`);
    tamper(url);
    await page.goto(url.toString());
  } else {
    await page.fill('#username', email);
    await Promise.all([page.waitForURL(`${upstreamAuth}?**`), page.click('#next')]);
  }
  await page.waitForSelector('#username');
  expect(page.url().startsWith(upstreamAuth)).toBe(true);
}

/** Signs bob in at the upstream (identifier, then password); `beforePassword` runs before the last click. */
async function upstreamLogin(beforePassword?: () => void): Promise<void> {
  await page.fill('#username', 'bob');
  await Promise.all([page.waitForSelector('#password'), page.click('#next')]);
  await page.fill('#password', 'bob-pw');
  beforePassword?.();
  await Promise.all([page.waitForLoadState('load'), page.click('#sign-in')]);
}

/** Waits until the browser rests on the broker's refusal page; answers its message. */
async function refusal(): Promise<string> {
  await page.waitForSelector('text=Sign-in failed');
  expect(page.url().startsWith(`${broker.baseUrl}${brokerEndpointPath('acme', 'corp')}`)).toBe(true);
  return (await page.textContent('[role="alert"]')) ?? '';
}

it('signs bob in through the upstream: identifier first, upstream login, back, code, token, membership', async () => {
  const verifier = await openLogin();
  await shot('01-identifier');
  expect(await page.$('#password')).toBeNull();
  await identifyAndReachUpstream('bob@corp.example');
  await shot('02-upstream-login');
  await page.fill('#username', 'bob');
  await Promise.all([page.waitForSelector('#password'), page.click('#next')]);
  await page.fill('#password', 'bob-pw');
  await Promise.all([page.waitForURL(`${REDIRECT}?**`), page.click('#sign-in')]);
  const back = new URL(page.url());
  expect(back.searchParams.get('state')).toBe('spa-state');
  expect(back.searchParams.get('iss')).toBe(`${broker.baseUrl}/realms/acme`);

  const form = new URLSearchParams({ grant_type: 'authorization_code', client_id: 'spa', code: back.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: verifier });
  const answer = await fetch(`${broker.baseUrl}${tokenPath('acme')}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  expect(answer.status).toBe(200);
  const tokens = (await answer.json()) as { access_token: string; id_token: string };
  const realmKey = (await broker.store.getRealm('acme'))!;
  const idClaims = verifyJwt(tokens.id_token, realmKey, { realm: 'acme', typ: 'ID', audience: 'spa', nowSeconds: Math.floor(clock / 1000) });
  expect(idClaims).toMatchObject({ nonce: 'spa-nonce', email: 'bob@corp.example', email_verified: true, preferred_username: 'bob@corp.example' });
  const access = verifyJwt(tokens.access_token, realmKey, { realm: 'acme', typ: 'Bearer', audience: realmAudience('acme'), nowSeconds: Math.floor(clock / 1000) });
  expect(access.sub).toBe(idClaims.sub);
  // The organizations claim: globex, with the role its mapper grants.
  expect(access.organizations).toEqual({ [globex]: { name: 'globex', roles: ['admin'] } });

  const members = await call(broker, { method: 'GET', url: `${membersPath('acme', globex)}?excludeAdminAccounts=true`, token });
  expect(members.json).toEqual([expect.objectContaining({ id: idClaims.sub, username: 'bob@corp.example', email: 'bob@corp.example', firstName: 'Bob', emailVerified: true })]);
  const roles = await call(broker, { method: 'GET', url: memberRolesPath('acme', idClaims.sub as string, globex), token });
  expect((roles.json as Array<{ name: string }>).map((role) => role.name)).toEqual(['admin']);
});

it('does not redirect an address of a domain that is not verified', async () => {
  await openLogin();
  await page.fill('#username', 'bob@initech.example');
  await Promise.all([page.waitForSelector('#password'), page.click('#next')]);
  expect(page.url().startsWith(`${broker.baseUrl}/realms/acme/protocol/openid-connect/auth`)).toBe(true);
  await shot('03-unverified-domain-password');
});

it('refuses a forged state', async () => {
  await openLogin();
  await identifyAndReachUpstream('bob@corp.example', (url) => url.searchParams.set('state', 'forged-state-0123456789-forged-state-0123456789'));
  await upstreamLogin();
  expect(await refusal()).toContain('This sign-in is unknown, was already used, or was not started here.');
  await shot('04-forged-state');
});

it('refuses a forged nonce', async () => {
  await openLogin();
  await identifyAndReachUpstream('bob@corp.example', (url) => url.searchParams.set('nonce', 'forged-nonce'));
  await upstreamLogin();
  expect(await refusal()).toMatch(/Sign-in through Corp failed\. The identity provider's answer was refused \(.*"nonce".*\)/);
});

it('refuses an ID token of a wrong issuer', async () => {
  // The upstream names its issuer after the host it is asked at: its token endpoint asked at
  // localhost signs ID tokens as http://localhost:PORT/realms/corp, not the configured issuer.
  const localhostTokens = `${corpIssuer().replace('127.0.0.1', 'localhost')}/protocol/openid-connect/token`;
  const put = (config: Record<string, string>) => call(broker, { method: 'PUT', url: idpPath('acme', globex, 'corp'), token, payload: { alias: 'corp', displayName: 'Corp', config } });
  expect((await put(idpConfig({ clientSecret: '**********', tokenUrl: localhostTokens }))).status).toBe(204);
  try {
    await openLogin();
    await identifyAndReachUpstream('bob@corp.example');
    await upstreamLogin();
    expect(await refusal()).toMatch(/unexpected JWT "iss" \(issuer\) claim value/);
    await shot('05-wrong-issuer');
  } finally {
    expect((await put(idpConfig({ clientSecret: '**********' }))).status).toBe(204);
  }
});

it('refuses an ID token that expired before the browser came back', async () => {
  await openLogin();
  await identifyAndReachUpstream('bob@corp.example');
  try {
    // The broker's clock moves past the upstream token's lifetime and the 30 s tolerance.
    await upstreamLogin(() => (clock += (UPSTREAM_TOKEN_SECONDS + 60) * 1000));
    expect(await refusal()).toMatch(/"exp" \(expiration time\) claim value, expiration is past current timestamp/);
  } finally {
    clock = Date.now();
  }
});
