/**
 * openid-client (a real, third-party OpenID Connect client) runs the whole authorization code flow
 * with PKCE against the real service on port 0, driving the service's login form as a browser
 * would. openid-client is an ES module that jest's CommonJS runtime cannot load, so it runs in a
 * `node` child process (openid-client-code-flow.driver.mjs) that reports what it saw.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { orgsPath } from '../../../src/api';
import { startTestService, type TestService } from '../../helpers/service';
import { call } from '../support';

const run = promisify(execFile);

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.close();
});

it('works with openid-client: discovery, PKCE, login form, code exchange with state and nonce checks, userinfo, logout', async () => {
  await svc.admin.createRealm('acme');
  await svc.admin.createUser('acme', { username: 'ada', password: 'ada-pw', realmAdmin: true });
  const redirectUri = 'http://127.0.0.1:8765/callback';
  await svc.admin.createClient('acme', { clientId: 'web-app', redirectUris: [redirectUri] });
  const issuer = `${svc.baseUrl}/realms/acme`;
  const input = { issuer, clientId: 'web-app', redirectUri, username: 'ada', password: 'ada-pw' };
  const { stdout } = await run(process.execPath, [join(__dirname, 'openid-client-code-flow.driver.mjs'), JSON.stringify(input)], { timeout: 30_000 });
  const seen = JSON.parse(stdout);
  expect(seen.failed).toBeUndefined();

  const ada = (await svc.admin.findUserByUsername('acme', 'ada'))!;
  expect(seen.metadata).toEqual({
    authorization_endpoint: `${issuer}/protocol/openid-connect/auth`,
    end_session_endpoint: `${issuer}/protocol/openid-connect/logout`,
    code_challenge_methods_supported: ['S256'],
    supportsPKCE: true,
  });
  expect(seen.loginPage).toEqual({ status: 200, hasForm: true });
  expect(seen.login).toEqual({ status: 303, backToRedirectUri: true });
  expect(seen.tokens).toEqual({
    token_type: 'bearer',
    scope: 'openid view-organizations manage-organizations create-organization view-users introspect-tokens view-events manage-events',
    sub: ada.id,
    nonce: expect.any(String),
    aud: 'web-app',
    preferred_username: 'ada',
  });
  expect(seen.userinfo).toEqual({ sub: ada.id, preferred_username: 'ada' });
  expect(seen.stateMismatch).toEqual({ refused: true, code: 'OAUTH_INVALID_RESPONSE' });
  expect(seen.logout).toEqual({ status: 303, location: `${redirectUri}?state=bye` });

  // The access token served userinfo above; the logout with its login's ID token ended that login,
  // its access token with it (the revocation list is read at once in this process).
  expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token: seen.accessToken })).status).toBe(401);
});
