import { PERMISSIONS, tokenPath } from '../../../src/api';
import { createTestRealm, getToken, startTestService, type TestService } from '../../helpers/service';
import { call, postForm } from '../support';

/** The claims of a JWT (not verified: the service's own tests of verification live elsewhere). */
function claimsOf(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

const basic = (id: string, secret: string): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('POST /realms/{realm}/protocol/openid-connect/token', () => {
  let svc: TestService;
  let key: { realm: string; clientId: string; clientSecret: string };
  const url = tokenPath('acme');

  beforeAll(async () => {
    svc = await startTestService();
    key = await createTestRealm(svc, 'acme');
  });
  afterAll(async () => {
    await svc.close();
  });

  describe('client_credentials', () => {
    it('issues a bearer token with form client authentication and no-store headers', async () => {
      const res = await postForm(svc, url, { grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.pragma).toBe('no-cache');
      expect(res.json).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 300,
        refresh_expires_in: 0,
        'not-before-policy': 0,
        scope: expect.any(String),
      });
      expect(res.json.scope.split(' ').sort()).toEqual([...PERMISSIONS].sort());
    });

    it('puts iss, sub, azp, exp, iat, jti and the permissions in the token', async () => {
      const res = await postForm(svc, url, { grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret });
      const claims = claimsOf(res.json.access_token);
      const [info] = (await svc.admin.listApiKeys('acme')).filter((k) => k.clientId === key.clientId);
      expect(claims.iss).toBe(`${svc.baseUrl}/realms/acme`);
      expect(claims.sub).toBe(info.serviceAccountUserId);
      expect(claims.azp).toBe(key.clientId);
      expect(claims.exp - claims.iat).toBe(300);
      expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(10);
      expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
      expect([...claims.permissions].sort()).toEqual([...PERMISSIONS].sort());
      expect(JSON.parse(Buffer.from(res.json.access_token.split('.')[0], 'base64url').toString()).alg).toBe('RS256');
    });

    it('accepts HTTP Basic client authentication with url-encoded id and secret', async () => {
      const res = await postForm(svc, url, { grant_type: 'client_credentials' }, { authorization: basic(key.clientId, key.clientSecret) });
      expect(res.status).toBe(200);
      expect(claimsOf(res.json.access_token).azp).toBe(key.clientId);
    });

    it('lets form fields win over HTTP Basic when both are present', async () => {
      const res = await postForm(
        svc,
        url,
        { grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret },
        { authorization: basic('someone-else', 'wrong') },
      );
      expect(res.status).toBe(200);
      const wrongForm = await postForm(
        svc,
        url,
        { grant_type: 'client_credentials', client_id: key.clientId, client_secret: 'wrong' },
        { authorization: basic(key.clientId, key.clientSecret) },
      );
      expect(wrongForm.status).toBe(401);
      expect(wrongForm.json.error).toBe('invalid_client');
    });

    it('uses the realm token lifetime', async () => {
      const short = await createTestRealm(svc, 'short', { tokenLifetimeSeconds: 42 });
      const res = await postForm(svc, tokenPath('short'), {
        grant_type: 'client_credentials',
        client_id: short.clientId,
        client_secret: short.clientSecret,
      });
      expect(res.json.expires_in).toBe(42);
      const claims = claimsOf(res.json.access_token);
      expect(claims.exp - claims.iat).toBe(42);
    });

    it('puts only the key permissions in the token', async () => {
      const viewer = await createTestRealm(svc, 'acme', { permissions: ['view-organizations'] });
      const token = await getToken(svc, 'acme', viewer.clientId, viewer.clientSecret);
      expect(claimsOf(token).permissions).toEqual(['view-organizations']);
      expect(claimsOf(token).scope).toBe('view-organizations');
    });
  });

  describe('error table', () => {
    it('answers 401 invalid_client for a client_id with a control character', async () => {
      const res = await postForm(svc, url, { grant_type: 'client_credentials', client_id: `${key.clientId}\u0000`, client_secret: key.clientSecret });
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ error: 'invalid_client', error_description: 'Invalid client or client credentials.' });
    });

    it('answers 400 invalid_grant for a username with a control character', async () => {
      const res = await postForm(svc, url, { grant_type: 'password', client_id: 'admin-cli', username: 'al\u0000ice', password: 'x' });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'invalid_grant', error_description: 'Invalid user credentials.' });
    });

    it('answers 400 invalid_request without grant_type', async () => {
      const res = await postForm(svc, url, { client_id: key.clientId, client_secret: key.clientSecret });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('answers 400 unsupported_grant_type for an unknown grant', async () => {
      const deviceCode = 'urn:ietf:params:oauth:grant-type:device_code';
      const res = await postForm(svc, url, { grant_type: deviceCode, client_id: key.clientId, client_secret: key.clientSecret });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('unsupported_grant_type');
    });

    it('answers 400 invalid_client without client_id', async () => {
      const res = await postForm(svc, url, { grant_type: 'client_credentials', client_secret: key.clientSecret });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_client');
    });

    it('answers 401 invalid_client for an unknown client', async () => {
      const res = await postForm(svc, url, { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' });
      expect(res.status).toBe(401);
      expect(res.json.error).toBe('invalid_client');
    });

    it('answers 401 invalid_client for a key of another realm', async () => {
      const other = await createTestRealm(svc, 'other');
      const res = await postForm(svc, url, { grant_type: 'client_credentials', client_id: other.clientId, client_secret: other.clientSecret });
      expect(res.status).toBe(401);
      expect(res.json.error).toBe('invalid_client');
    });

    // That the tokens it was given end too is routes/oidc.test.ts's (with a clock to step).
    it('answers 401 invalid_client for a revoked key', async () => {
      const doomed = await createTestRealm(svc, 'acme');
      await getToken(svc, 'acme', doomed.clientId, doomed.clientSecret);
      await svc.admin.revokeApiKey(doomed.clientId);
      const res = await postForm(svc, url, { grant_type: 'client_credentials', client_id: doomed.clientId, client_secret: doomed.clientSecret });
      expect(res.status).toBe(401);
      expect(res.json.error).toBe('invalid_client');
    });

    it('answers an unknown client, a revoked key, a wrong and a missing secret identically: 401 invalid_client (RFC 6749 §5.2)', async () => {
      const revoked = await createTestRealm(svc, 'acme');
      await svc.admin.revokeApiKey(revoked.clientId);
      const answers = await Promise.all([
        postForm(svc, url, { grant_type: 'client_credentials', client_id: 'key-doesnotexist', client_secret: 'wrong' }),
        postForm(svc, url, { grant_type: 'client_credentials', client_id: revoked.clientId, client_secret: revoked.clientSecret }),
        postForm(svc, url, { grant_type: 'client_credentials', client_id: key.clientId, client_secret: 'wrong' }),
        postForm(svc, url, { grant_type: 'client_credentials', client_id: key.clientId }),
      ]);
      for (const answer of answers) {
        expect({ status: answer.status, body: answer.json, challenge: answer.headers['www-authenticate'] }).toEqual({
          status: 401,
          body: { error: 'invalid_client', error_description: 'Invalid client or client credentials.' },
          challenge: undefined,
        });
      }
    });

    it('answers 403 access_denied when the realm is disabled', async () => {
      const off = await createTestRealm(svc, 'off');
      await svc.admin.setRealmEnabled('off', false);
      const res = await postForm(svc, tokenPath('off'), { grant_type: 'client_credentials', client_id: off.clientId, client_secret: off.clientSecret });
      expect(res.status).toBe(403);
      expect(res.json.error).toBe('access_denied');
    });

    it('answers 404 realm_not_found for an unknown realm', async () => {
      const res = await postForm(svc, tokenPath('nowhere'), { grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: 'realm_not_found', error_description: 'Realm does not exist' });
    });

    it('answers 400 invalid_request to a JSON body', async () => {
      const res = await call(svc, {
        method: 'POST',
        url,
        payload: { grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret },
      });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_request');
    });

    it('never echoes the secret in an error', async () => {
      const res = await postForm(svc, url, { grant_type: 'client_credentials', client_id: key.clientId, client_secret: 'my-wrong-secret-value' });
      expect(res.text).not.toContain('my-wrong-secret-value');
    });
  });

  describe('password grant', () => {
    beforeAll(async () => {
      await svc.admin.createUser('acme', { username: 'alice', email: 'alice@example.com', password: 'correct horse' });
    });

    it('issues a user token whose subject is the user and which carries no permissions', async () => {
      const res = await postForm(svc, url, { grant_type: 'password', client_id: 'admin-cli', username: 'alice', password: 'correct horse' });
      expect(res.status).toBe(200);
      const claims = claimsOf(res.json.access_token);
      const alice = await svc.admin.findUserByUsername('acme', 'alice');
      expect(claims.sub).toBe(alice!.id);
      expect(claims.azp).toBe('admin-cli');
      expect(claims.permissions).toEqual([]);
    });

    it('accepts an API key as the client of a password grant', async () => {
      const res = await postForm(svc, url, {
        grant_type: 'password',
        client_id: key.clientId,
        client_secret: key.clientSecret,
        username: 'alice',
        password: 'correct horse',
      });
      expect(res.status).toBe(200);
      expect(claimsOf(res.json.access_token).azp).toBe(key.clientId);
    });

    it('answers 400 invalid_grant for a wrong password', async () => {
      const res = await postForm(svc, url, { grant_type: 'password', client_id: 'admin-cli', username: 'alice', password: 'nope' });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_grant');
    });

    it('answers 400 invalid_request without username or password', async () => {
      const res = await postForm(svc, url, { grant_type: 'password', client_id: 'admin-cli', username: 'alice' });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_request');
    });

    it('refuses client_credentials for the public client', async () => {
      const res = await postForm(svc, url, { grant_type: 'client_credentials', client_id: 'admin-cli' });
      expect(res.status).toBe(401);
      expect(res.json.error).toBe('unauthorized_client');
    });
  });
});
