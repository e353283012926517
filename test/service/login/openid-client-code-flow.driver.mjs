// Drives openid-client (an ES module, which jest's CommonJS runtime cannot load) through the whole
// authorization code flow with PKCE against a running service, for openid-client-code-flow.test.ts:
// discovery, the authorization URL, the service's login form (read and posted like a browser
// would, cookies included), the callback with state, nonce and iss checks, userinfo, and the
// end-session URL. Prints one JSON object with what each step saw, or {"failed": {...}}.
import * as oidc from 'openid-client';

const input = JSON.parse(process.argv[2]);
const out = {};
let step = 'start';

/** Cookies of the login page, as a browser keeps them. */
const jar = new Map();
const remember = (response) => {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair.indexOf('=');
    jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
};
const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

try {
  step = 'discovery';
  const config = await oidc.discovery(new URL(input.issuer), input.clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
  const metadata = config.serverMetadata();
  out.metadata = {
    authorization_endpoint: metadata.authorization_endpoint,
    end_session_endpoint: metadata.end_session_endpoint,
    code_challenge_methods_supported: metadata.code_challenge_methods_supported,
    supportsPKCE: metadata.supportsPKCE(),
  };

  step = 'authorization URL';
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: input.redirectUri,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });

  step = 'login page';
  const page = await fetch(url, { redirect: 'manual' });
  remember(page);
  const html = await page.text();
  // Identifier first: the page asks for the username; username and password may be posted together.
  out.loginPage = { status: page.status, hasForm: html.includes('name="username"') };
  const form = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    form.set(match[1], match[2].replace(/&#(\d+);/g, (_m, code) => String.fromCharCode(Number(code))));
  }
  form.set('username', input.username);
  form.set('password', input.password);
  const action = new URL(/<form method="post" action="([^"]+)"/.exec(html)[1], url);

  step = 'login';
  const signedIn = await fetch(action, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader() },
    body: form.toString(),
  });
  const location = signedIn.headers.get('location');
  out.login = { status: signedIn.status, backToRedirectUri: location.startsWith(`${input.redirectUri}?`) };

  step = 'authorization code grant';
  const tokens = await oidc.authorizationCodeGrant(config, new URL(location), {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  out.tokens = { token_type: tokens.token_type, scope: tokens.scope, sub: claims.sub, nonce: claims.nonce, aud: claims.aud, preferred_username: claims.preferred_username };
  out.accessToken = tokens.access_token;

  step = 'userinfo';
  const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
  out.userinfo = { sub: userinfo.sub, preferred_username: userinfo.preferred_username };

  step = 'state mismatch is caught by the client';
  try {
    await oidc.authorizationCodeGrant(config, new URL(location), { pkceCodeVerifier: verifier, expectedState: 'another-state', expectedNonce: nonce });
    out.stateMismatch = { refused: false };
  } catch (error) {
    out.stateMismatch = { refused: true, code: error.code };
  }

  step = 'end session URL';
  out.endSession = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token, post_logout_redirect_uri: input.redirectUri, state: 'bye' }).href;
  const logout = await fetch(out.endSession, { redirect: 'manual' });
  out.logout = { status: logout.status, location: logout.headers.get('location') };
} catch (error) {
  out.failed = { step, name: error?.name, code: error?.code, message: error?.message, cause: String(error?.cause?.message ?? error?.cause ?? '') };
}
process.stdout.write(JSON.stringify(out));
