/**
 * The `organizations` claim of users' tokens, checked with a standard JWT library (jose, against the
 * realm's published JWKS, in a `node` child process since jose is an ES module that jest's CommonJS
 * runtime cannot load: jose-verify.driver.mjs): the hosted service's mapper format, opt-in per realm
 * or per registered client, never in a service account's token, and in userinfo and the ID token
 * when asked for.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Value } from '@sinclair/typebox/value';
import { memberPath, memberRolesPath, OrganizationsClaimSchema, orgsPath, tokenPath, userinfoPath } from '../../src/api';
import { realmAudience } from '../../src/service/auth/jwt';
import { Browser, hiddenFields, pkcePair } from './login/browser-like';
import type { TestService } from '../helpers/service';
import { call, postForm, startServiceWithToken } from './support';

let svc: TestService;
let adminToken: string;
let acme: string;
let globex: string;
let alice: string;

const REDIRECT = 'http://127.0.0.1:9/callback';

beforeAll(async () => {
  ({ svc, token: adminToken } = await startServiceWithToken());
  alice = (await svc.admin.createUser('acme', { username: 'alice', password: 'alice-pw' })).id;
  await svc.admin.createUser('acme', { username: 'loner', password: 'loner-pw' });
  const create = async (name: string) =>
    decodeURIComponent(String((await call(svc, { method: 'POST', url: orgsPath('acme'), token: adminToken, payload: { name } })).headers.location).split('/').pop()!);
  acme = await create('acme-inc');
  globex = await create('globex');
  for (const org of [acme, globex]) await call(svc, { method: 'PUT', url: memberPath('acme', org, alice), token: adminToken });
  await call(svc, { method: 'PUT', url: memberRolesPath('acme', alice, acme), token: adminToken, payload: [{ name: 'view-members' }, { name: 'manage-members' }] });
  await svc.admin.createClient('acme', { clientId: 'claims-app', redirectUris: [REDIRECT], organizationsClaim: true });
  await svc.admin.createClient('acme', { clientId: 'plain-app', redirectUris: [REDIRECT] });
});
afterAll(async () => {
  await svc.close();
});

const run = promisify(execFile);

/** What jose saw: each token's verified payload, and the discovery document's claims_supported. */
interface Verified {
  payloads: Array<Record<string, unknown>>;
  claimsSupported: string[];
}

/** Verifies tokens the standard way, with jose: signature against the JWKS, issuer, audience (default the realm's API, `urn:orgadmin:realm:acme`). */
async function verified(...tokens: Array<string | { token: string; audience: string }>): Promise<Verified> {
  const input = {
    issuer: `${svc.baseUrl}/realms/acme`,
    tokens: tokens.map((token) => (typeof token === 'string' ? { token, audience: realmAudience('acme') } : token)),
  };
  const { stdout } = await run(process.execPath, [join(__dirname, 'jose-verify.driver.mjs'), JSON.stringify(input)], { timeout: 30_000 });
  const seen = JSON.parse(stdout) as Verified & { failed?: string };
  expect(seen.failed).toBeUndefined();
  return seen;
}

async function passwordToken(username: string): Promise<string> {
  const res = await postForm(svc, tokenPath('acme'), { grant_type: 'password', client_id: 'admin-cli', username, password: `${username}-pw` });
  expect(res.status).toBe(200);
  return res.json.access_token;
}

/** The authorization code flow of `clientId` for alice: the token answer. */
async function codeFlowTokens(clientId: string): Promise<{ access_token: string; id_token: string }> {
  const browser = new Browser(svc.baseUrl);
  const { verifier, challenge } = pkcePair();
  const auth = '/realms/acme/protocol/openid-connect/auth';
  const query = new URLSearchParams({ client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', scope: 'openid', state: 's', code_challenge: challenge, code_challenge_method: 'S256' });
  const login = await browser.go('GET', `${auth}?${query}`);
  const back = await browser.go('POST', auth, { ...hiddenFields(login.text), username: 'alice', password: 'alice-pw' });
  const code = new URL(back.location!).searchParams.get('code')!;
  const res = await postForm(svc, tokenPath('acme'), { grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: REDIRECT, code_verifier: verifier });
  expect(res.status).toBe(200);
  return res.json;
}

it('leaves the claim out while neither the realm nor the client asks for it', async () => {
  const plain = await codeFlowTokens('plain-app');
  const { payloads } = await verified(await passwordToken('alice'), plain.access_token, { token: plain.id_token, audience: 'plain-app' });
  for (const payload of payloads) expect(payload).not.toHaveProperty('organizations');
  expect(payloads[0]!.sub).toBe(alice);
});

it('puts the user\'s organizations and roles into a registered client\'s tokens when the client asks: access, ID token and userinfo', async () => {
  const expected = {
    [acme]: { name: 'acme-inc', roles: ['manage-members', 'view-members'] },
    [globex]: { name: 'globex', roles: [] },
  };
  const tokens = await codeFlowTokens('claims-app');
  // Another client of the same realm still gets none.
  const { payloads } = await verified(tokens.access_token, { token: tokens.id_token, audience: 'claims-app' }, await passwordToken('alice'));
  const [access, id, other] = payloads;
  expect(access!.organizations).toEqual(expected);
  expect(Value.Check(OrganizationsClaimSchema, access!.organizations)).toBe(true);
  expect(id!.organizations).toEqual(expected);
  expect(other).not.toHaveProperty('organizations');
  const info = await call(svc, { method: 'GET', url: userinfoPath('acme'), token: tokens.access_token });
  expect(info.json.organizations).toEqual(expected);
});

it('puts it into every user token of a realm that turns it on, with what holds at issue time; never into an API key\'s token', async () => {
  await svc.admin.updateRealm('acme', { organizationsClaim: true });
  try {
    const before = await passwordToken('alice');
    await call(svc, { method: 'PATCH', url: memberRolesPath('acme', alice, acme), token: adminToken, payload: [{ name: 'manage-members' }] });
    await call(svc, { method: 'PUT', url: memberRolesPath('acme', alice, globex), token: adminToken, payload: [{ name: 'view-roles' }] });
    const { payloads, claimsSupported } = await verified(before, await passwordToken('alice'), await passwordToken('loner'), adminToken);
    expect(payloads[0]!.organizations).toEqual({ [acme]: { name: 'acme-inc', roles: ['manage-members', 'view-members'] }, [globex]: { name: 'globex', roles: [] } });
    expect(payloads[1]!.organizations).toEqual({ [acme]: { name: 'acme-inc', roles: ['view-members'] }, [globex]: { name: 'globex', roles: ['view-roles'] } });
    expect(payloads[2]!.organizations).toEqual({});
    expect(payloads[3]).not.toHaveProperty('organizations');
    expect(claimsSupported).toContain('organizations');
  } finally {
    await svc.admin.updateRealm('acme', { organizationsClaim: false });
  }
});
