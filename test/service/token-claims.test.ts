/**
 * What an access token must be to be accepted (`aud`, `nbf`, `iat` with the documented clock skew)
 * and what it carries (a requested `scope` narrows the key's permissions). Tokens with chosen
 * claims are signed with the realm's own key, read from the store: the only way anyone but the
 * service could make one, and the hardest case for the checks.
 */
import { orgsPath, tokenPath } from '../../src/api';
import { CLOCK_SKEW_SECONDS, realmAudience, signJwt } from '../../src/service/auth/jwt';
import { createTestRealm, startTestService, type TestService } from '../helpers/service';
import { call, postForm } from './support';

let svc: TestService;
let clock = Date.UTC(2026, 0, 1);
const nowSeconds = () => Math.floor(clock / 1000);

beforeAll(async () => {
  svc = await startTestService({ now: () => clock });
});
afterAll(async () => {
  await svc.close();
});

/** A token signed with the realm's key: the service's own claims, changed by `changes`. */
async function forge(realm: string, serviceAccountUserId: string, changes: Record<string, unknown>): Promise<string> {
  const record = (await svc.store.getRealm(realm))!;
  const now = nowSeconds();
  const claims: Record<string, unknown> = {
    iss: `${svc.baseUrl}/realms/${realm}`,
    aud: realmAudience(realm),
    sub: serviceAccountUserId,
    azp: 'forged-client',
    typ: 'Bearer',
    iat: now,
    nbf: now,
    exp: now + 300,
    permissions: ['view-organizations'],
    ...changes,
  };
  for (const [name, value] of Object.entries(changes)) if (value === undefined) delete claims[name];
  return signJwt(record, claims as Parameters<typeof signJwt>[1]);
}

const claimsOf = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;

async function token(realm: string, clientId: string, clientSecret: string, scope?: string) {
  return postForm(svc, tokenPath(realm), {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
    ...(scope !== undefined ? { scope } : {}),
  });
}

describe('times: nbf and iat', () => {
  it('issues tokens with iat = nbf = now and exp = now + lifetime, by the service clock', async () => {
    const key = await createTestRealm(svc, 'times');
    const res = await token('times', key.clientId, key.clientSecret);
    const claims = claimsOf(res.json.access_token);
    expect(claims).toMatchObject({ iat: nowSeconds(), nbf: nowSeconds(), exp: nowSeconds() + 300, aud: realmAudience('times') });
  });

  it.each([
    ['nbf an hour in the future', 401, { nbf: 3600 }],
    ['nbf just beyond the skew', 401, { nbf: CLOCK_SKEW_SECONDS + 1 }],
    ['nbf within the skew', 200, { nbf: CLOCK_SKEW_SECONDS }],
    ['iat an hour in the future', 401, { iat: 3600 }],
    ['iat within the skew', 200, { iat: CLOCK_SKEW_SECONDS }],
    ['no iat', 401, { iat: undefined }],
    ['a string nbf', 401, { nbf: 'soon' }],
  ])('answers %s with %i', async (_what, status, offsets) => {
    await createTestRealm(svc, 'times');
    const changes: Record<string, unknown> = {};
    for (const [claim, offset] of Object.entries(offsets)) {
      changes[claim] = typeof offset === 'number' ? nowSeconds() + offset : offset;
    }
    const forged = await forge('times', 'someone', changes);
    const res = await call(svc, { method: 'GET', url: orgsPath('times'), token: forged });
    expect(res.status).toBe(status);
    if (status === 401) {
      expect(res.json.error).toBe('invalid_token');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="times", error="invalid_token"');
    }
  });

  it('accepts a token whose nbf is in the future once the clock reaches it', async () => {
    await createTestRealm(svc, 'times');
    const forged = await forge('times', 'someone', { nbf: nowSeconds() + 120, exp: nowSeconds() + 600 });
    expect((await call(svc, { method: 'GET', url: orgsPath('times'), token: forged })).status).toBe(401);
    clock += (120 - CLOCK_SKEW_SECONDS) * 1000;
    expect((await call(svc, { method: 'GET', url: orgsPath('times'), token: forged })).status).toBe(200);
  });
});

describe('audience', () => {
  it('refuses a token of the right realm and key whose aud names another realm, or none', async () => {
    await createTestRealm(svc, 'aud-a');
    for (const aud of [realmAudience('aud-b'), undefined, [realmAudience('aud-b'), 'account'], 'aud-a', '']) {
      const forged = await forge('aud-a', 'someone', { aud });
      const res = await call(svc, { method: 'GET', url: orgsPath('aud-a'), token: forged });
      expect(res.status).toBe(401);
      expect(res.json.error).toBe('invalid_token');
    }
    const listed = await forge('aud-a', 'someone', { aud: ['account', realmAudience('aud-a')] });
    expect((await call(svc, { method: 'GET', url: orgsPath('aud-a'), token: listed })).status).toBe(200);
  });

  it('refuses a real token of realm B on realm A, and realm A accepts its own', async () => {
    const a = await createTestRealm(svc, 'aud-a');
    const b = await createTestRealm(svc, 'aud-b');
    const tokenB = (await token('aud-b', b.clientId, b.clientSecret)).json.access_token as string;
    expect(claimsOf(tokenB).aud).toBe(realmAudience('aud-b'));
    expect((await call(svc, { method: 'GET', url: orgsPath('aud-a'), token: tokenB })).status).toBe(401);
    const tokenA = (await token('aud-a', a.clientId, a.clientSecret)).json.access_token as string;
    expect((await call(svc, { method: 'GET', url: orgsPath('aud-a'), token: tokenA })).status).toBe(200);
  });
});

describe('scope: down-scoping a token', () => {
  it('gives a token only the permissions asked for, and the service enforces them', async () => {
    const key = await createTestRealm(svc, 'scopes');
    const res = await token('scopes', key.clientId, key.clientSecret, 'view-organizations');
    expect(res.status).toBe(200);
    expect(res.json.scope).toBe('view-organizations');
    const narrow = res.json.access_token as string;
    expect(claimsOf(narrow)).toMatchObject({ scope: 'view-organizations', permissions: ['view-organizations'] });
    expect((await call(svc, { method: 'GET', url: orgsPath('scopes'), token: narrow })).status).toBe(200);
    const create = await call(svc, { method: 'POST', url: orgsPath('scopes'), token: narrow, payload: { name: 'nope' } });
    expect(create.status).toBe(403);
    expect(create.json.error).toBe('insufficient_scope');
    expect(await svc.store.countOrganizations('scopes', {})).toBe(0);
  });

  it('grants an implied permission (manage implies view), openid, and several values', async () => {
    const manager = await createTestRealm(svc, 'scopes', { permissions: ['manage-organizations', 'view-users'] });
    expect((await token('scopes', manager.clientId, manager.clientSecret, 'view-organizations')).json.scope).toBe('view-organizations');
    expect((await token('scopes', manager.clientId, manager.clientSecret, 'openid view-users')).json.scope).toBe('openid view-users');
    // openid alone narrows nothing.
    expect((await token('scopes', manager.clientId, manager.clientSecret, 'openid')).json.scope).toBe('openid manage-organizations view-users');
    expect((await token('scopes', manager.clientId, manager.clientSecret, '')).json.scope).toBe('manage-organizations view-users');
  });

  it('answers 400 invalid_scope for an unknown scope or one the key does not hold', async () => {
    const viewer = await createTestRealm(svc, 'scopes', { permissions: ['view-organizations'] });
    for (const scope of ['admin', 'view-organizations admin', 'create-organization', 'manage-organizations']) {
      const res = await token('scopes', viewer.clientId, viewer.clientSecret, scope);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'invalid_scope', error_description: expect.any(String) });
    }
  });

  it('judges credentials before scope: a wrong secret with a bad scope is still 401', async () => {
    const key = await createTestRealm(svc, 'scopes');
    const res = await token('scopes', key.clientId, 'wrong', 'admin');
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('invalid_client');
  });
});
