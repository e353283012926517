import { createPublicKey, verify } from 'node:crypto';
import { certsPath, discoveryPath } from '../../../src/api';
import { createTestRealm, getToken, startTestService, type TestService } from '../../helpers/service';
import { call } from '../support';

describe('discovery and JWKS', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
    await createTestRealm(svc, 'acme');
  });
  afterAll(async () => {
    await svc.close();
  });

  it('GET /.well-known/openid-configuration names the issuer, token endpoint and JWKS', async () => {
    const res = await call(svc, { method: 'GET', url: discoveryPath('acme') });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      issuer: `${svc.baseUrl}/realms/acme`,
      token_endpoint: `${svc.baseUrl}/realms/acme/protocol/openid-connect/token`,
      jwks_uri: `${svc.baseUrl}/realms/acme/protocol/openid-connect/certs`,
      authorization_endpoint: `${svc.baseUrl}/realms/acme/protocol/openid-connect/auth`,
      end_session_endpoint: `${svc.baseUrl}/realms/acme/protocol/openid-connect/logout`,
      grant_types_supported: ['client_credentials', 'password', 'authorization_code'],
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
  });

  it('GET /protocol/openid-connect/certs publishes a key that verifies the realm tokens', async () => {
    const key = await createTestRealm(svc, 'acme');
    const token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
    const res = await call(svc, { method: 'GET', url: certsPath('acme') });
    expect(res.status).toBe(200);
    expect(res.json.keys).toHaveLength(1);
    const [jwk] = res.json.keys;
    expect(jwk).toEqual({ kty: 'RSA', use: 'sig', alg: 'RS256', kid: expect.any(String), n: expect.any(String), e: 'AQAB' });
    const [header, payload, signature] = token.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString()).kid).toBe(jwk.kid);
    const publicKey = createPublicKey({ key: { kty: jwk.kty, n: jwk.n, e: jwk.e }, format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
  });

  it('publishes a different key per realm', async () => {
    await createTestRealm(svc, 'other');
    const a = await call(svc, { method: 'GET', url: certsPath('acme') });
    const b = await call(svc, { method: 'GET', url: certsPath('other') });
    expect(a.json.keys[0].n).not.toBe(b.json.keys[0].n);
  });

  it('answers 404 realm_not_found for an unknown realm', async () => {
    const res = await call(svc, { method: 'GET', url: discoveryPath('nowhere') });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'realm_not_found', error_description: 'Realm does not exist' });
  });
});
