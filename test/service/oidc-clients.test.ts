/**
 * openid-client (a real, third-party OpenID Connect client) against the real service on port 0:
 * discovery, client_credentials with client_secret_post and client_secret_basic, userinfo,
 * introspection and revocation. openid-client is an ES module that jest's CommonJS runtime cannot
 * load, so it runs in a `node` child process (oidc-clients.driver.mjs) that reports what it saw.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { orgsPath } from '../../src/api';
import { realmAudience } from '../../src/service/auth/jwt';
import { createTestRealm, startTestService, type TestService } from '../helpers/service';
import { call } from './support';

const run = promisify(execFile);

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.close();
});

it('works with openid-client: discovery, both client authentication methods, userinfo, introspection, revocation', async () => {
  const key = await createTestRealm(svc, 'acme');
  await svc.admin.createUser('acme', { username: 'alice', email: 'alice@example.com', firstName: 'Alice', password: 'alice-pw' });
  const issuer = `${svc.baseUrl}/realms/acme`;
  const input = { issuer, clientId: key.clientId, clientSecret: key.clientSecret, username: 'alice', password: 'alice-pw' };
  const { stdout } = await run(process.execPath, [join(__dirname, 'oidc-clients.driver.mjs'), JSON.stringify(input)], { timeout: 30_000 });
  const seen = JSON.parse(stdout);
  expect(seen.failed).toBeUndefined();

  expect(seen.metadata).toEqual({
    issuer,
    token_endpoint: `${issuer}/protocol/openid-connect/token`,
    userinfo_endpoint: `${issuer}/protocol/openid-connect/userinfo`,
    introspection_endpoint: `${issuer}/protocol/openid-connect/token/introspect`,
    revocation_endpoint: `${issuer}/protocol/openid-connect/revoke`,
    jwks_uri: `${issuer}/protocol/openid-connect/certs`,
  });
  // openid-client's expiresIn() counts down from the answer's 300 s: a second may have passed.
  expect(seen.post).toEqual({ token_type: 'bearer', scope: 'view-organizations', expires_in: expect.any(Number) });
  expect(seen.post.expires_in).toBeGreaterThanOrEqual(298);
  expect(seen.post.expires_in).toBeLessThanOrEqual(300);
  expect(seen.basic.token_type).toBe('bearer');
  expect(seen.basic.scope.split(' ').sort()).toEqual(['create-organization', 'introspect-tokens', 'manage-events', 'manage-organizations', 'view-events', 'view-organizations', 'view-users']);
  expect(seen.wrongSecret).toEqual({ refused: true, error: 'invalid_client', status: 401 });
  expect(seen.introspection).toEqual({
    active: true,
    client_id: key.clientId,
    scope: 'view-organizations',
    aud: realmAudience('acme'),
    token_type: 'Bearer',
  });
  const alice = (await svc.admin.findUserByUsername('acme', 'alice'))!;
  expect(seen.userinfo).toEqual({
    sub: alice.id,
    preferred_username: 'alice',
    email: 'alice@example.com',
    email_verified: false,
    given_name: 'Alice',
    name: 'Alice',
  });
  expect(seen.afterRevocation).toEqual({ active: false });
  expect(seen.otherTokenAfterRevocation).toEqual({ active: true });
  expect(seen.revokedUserinfo).toEqual({ refused: true, status: 401 });

  // The revoked token is refused by the API too; the other one still works.
  expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token: seen.tokens.post })).status).toBe(401);
  expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token: seen.tokens.basic })).status).toBe(200);
});
