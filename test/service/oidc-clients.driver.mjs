// Drives openid-client (an ES module, which jest's CommonJS runtime cannot load) against a running
// service, for test/service/oidc-clients.test.ts: the test starts the service and runs this file
// with `node`, passing the issuer and credentials as one JSON argument; this file prints one JSON
// object with what each step saw, or `{"failed": {step, name, code, message, cause}}`.
import * as oidc from 'openid-client';

const input = JSON.parse(process.argv[2]);
const out = {};
let step = 'start';

/** Discovery for one client, allowing plain http (the test service listens on 127.0.0.1). */
const discover = (clientId, auth) =>
  oidc.discovery(new URL(input.issuer), clientId, undefined, auth, { execute: [oidc.allowInsecureRequests] });

try {
  step = 'discovery (client_secret_post)';
  const post = await discover(input.clientId, oidc.ClientSecretPost(input.clientSecret));
  const metadata = post.serverMetadata();
  out.metadata = {
    issuer: metadata.issuer,
    token_endpoint: metadata.token_endpoint,
    userinfo_endpoint: metadata.userinfo_endpoint,
    introspection_endpoint: metadata.introspection_endpoint,
    revocation_endpoint: metadata.revocation_endpoint,
    jwks_uri: metadata.jwks_uri,
  };

  step = 'client_credentials (client_secret_post)';
  const viaPost = await oidc.clientCredentialsGrant(post, { scope: 'view-organizations' });
  out.post = { token_type: viaPost.token_type, scope: viaPost.scope, expires_in: viaPost.expiresIn() };

  step = 'discovery and client_credentials (client_secret_basic)';
  const basic = await discover(input.clientId, oidc.ClientSecretBasic(input.clientSecret));
  const viaBasic = await oidc.clientCredentialsGrant(basic);
  out.basic = { token_type: viaBasic.token_type, scope: viaBasic.scope };

  step = 'client_credentials with a wrong secret';
  try {
    await oidc.clientCredentialsGrant(await discover(input.clientId, oidc.ClientSecretPost('wrong-secret')));
    out.wrongSecret = { refused: false };
  } catch (error) {
    out.wrongSecret = { refused: true, error: error.error, status: error.status };
  }

  step = 'introspection (active)';
  const active = await oidc.tokenIntrospection(post, viaPost.access_token);
  out.introspection = { active: active.active, client_id: active.client_id, scope: active.scope, aud: active.aud, token_type: active.token_type };

  step = 'password grant for an end user (public client)';
  const publicClient = await discover('admin-cli', oidc.None());
  const user = await oidc.genericGrantRequest(publicClient, 'password', { username: input.username, password: input.password });

  step = 'userinfo';
  const userinfo = await oidc.fetchUserInfo(publicClient, user.access_token, oidc.skipSubjectCheck);
  out.userinfo = { ...userinfo };

  step = 'revocation';
  await oidc.tokenRevocation(post, viaPost.access_token);
  const revoked = await oidc.tokenIntrospection(post, viaPost.access_token);
  out.afterRevocation = { active: revoked.active };
  const stillActive = await oidc.tokenIntrospection(basic, viaBasic.access_token);
  out.otherTokenAfterRevocation = { active: stillActive.active };

  step = 'userinfo with a revoked user token';
  await oidc.tokenRevocation(publicClient, user.access_token);
  try {
    await oidc.fetchUserInfo(publicClient, user.access_token, oidc.skipSubjectCheck);
    out.revokedUserinfo = { refused: false };
  } catch (error) {
    out.revokedUserinfo = { refused: true, status: error.status ?? error.cause?.status };
  }
  out.tokens = { post: viaPost.access_token, basic: viaBasic.access_token };
  process.stdout.write(JSON.stringify(out));
} catch (error) {
  process.stdout.write(
    JSON.stringify({ failed: { step, name: error?.name, code: error?.code, message: error?.message, cause: String(error?.cause ?? '') } }),
  );
}
