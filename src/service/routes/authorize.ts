/**
 * The browser side of OpenID Connect: the authorization endpoint (code flow, PKCE S256 required,
 * exact redirect URIs, `state` and `nonce` carried through) with the service's own login page, and
 * the end-session endpoint (RP-initiated logout). Codes are exchanged at the token endpoint.
 *
 * Order of checks (RFC 6749 §4.1.2.1): an unknown client or a redirect URI that is not registered
 * exactly is shown as an error page and never redirected to; every later problem goes back to the
 * client's redirect URI as `error=...` with the request's `state`.
 *
 * The login page asks for the email address (or username) first: an address in a verified domain
 * of an organization with an enabled identity provider is sent there (broker/start.ts); any other
 * identifier gets the password form. The forms are protected against login CSRF with a
 * double-submit token: a random value in a `SameSite=Strict`, `HttpOnly` cookie, and its HMAC
 * under the service's key in the form. Username and password are checked by the same rule as the
 * password grant (auth/user-auth.ts: same timing, same throttle).
 */
import formbody from '@fastify/formbody';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ID_TOKEN_TYPE } from '../auth/access-tokens';
import { realmHook } from '../auth/guards';
import { CLOCK_SKEW_SECONDS, realmOfIssuer, verifySignature } from '../auth/jwt';
import { codeFlowClient, isRegisteredRedirect, type CodeFlowClient } from '../auth/oidc-clients';
import { challengeProblem } from '../auth/pkce';
import { SUPPORTED_SCOPES } from '../auth/scopes';
import { csrfMatches, csrfToken, CSRF_FIELD, endLoginSession, endSession, readSession, SESSION_COOKIE } from '../auth/sessions';
import { authenticateUser } from '../auth/user-auth';
import { recordAccess, type AccessAttempt } from '../events/access-events';
import { brokerRedirect } from '../broker/start';
import { realmOf, type ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { authorizationPath, dashboardPath, endSessionPath } from '../login-paths';
import type { RealmSettings, UserRecord } from '../store/store';
import { clearCookie, readCookies, setCookie } from '../web/cookies';
import { html, layout, sendPage, type Html } from '../web/html';
import { CARRIED, completeSignIn, errorPage, redirectBack, type AuthorizationParams } from './authorization-response';

/** Cookie of the login form's double-submit CSRF token. */
const LOGIN_COOKIE = 'orgadmin_login';
/** How long a login form stays usable. */
const LOGIN_FORM_SECONDS = 30 * 60;


/** Query or form values; a repeated parameter is refused (RFC 6749 §3.1). */
function singleValues(source: unknown): Record<string, string> | string {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries((source ?? {}) as Record<string, unknown>)) {
    if (Array.isArray(value)) return `Parameter ${name} must not be repeated.`;
    if (typeof value === 'string') values[name] = value;
  }
  return values;
}

/** A checked authorization request: either trusted enough to answer by redirect, or not at all. */
type Checked =
  | { ok: true; client: CodeFlowClient; params: AuthorizationParams & { redirect_uri: string } }
  | { ok: false; untrusted: true; message: string }
  | { ok: false; untrusted: false; client: CodeFlowClient; redirectUri: string; error: string; description: string };

/** Applies the authorization request rules in order (see the module comment). */
async function checkRequest(ctx: ServiceContext, request: FastifyRequest, realm: RealmSettings, params: AuthorizationParams): Promise<Checked> {
  if (!params.client_id) return { ok: false, untrusted: true, message: 'The request names no client (client_id).' };
  const client = await codeFlowClient(ctx, request, realm, params.client_id);
  if (!client) return { ok: false, untrusted: true, message: `Client ${params.client_id} is not registered in realm ${realm.name}.` };
  const redirectUri = params.redirect_uri;
  if (!isRegisteredRedirect(client, redirectUri)) {
    return { ok: false, untrusted: true, message: 'The redirect_uri is missing or is not one of the client’s registered redirect URIs.' };
  }
  const fail = (error: string, description: string): Checked => ({ ok: false, untrusted: false, client, redirectUri, error, description });
  if (!realm.enabled) return fail('access_denied', `Realm ${realm.name} is disabled.`);
  if (params.response_type !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
  const pkce = challengeProblem(params.code_challenge, params.code_challenge_method);
  if (pkce) return fail('invalid_request', pkce);
  const scopes = (params.scope ?? '').split(' ').filter((value) => value !== '');
  const unknown = scopes.find((value) => !SUPPORTED_SCOPES.includes(value));
  if (unknown !== undefined) return fail('invalid_scope', `Unknown scope ${JSON.stringify(unknown)}.`);
  if (params.prompt === 'none') return fail('login_required', 'The user must log in.');
  return { ok: true, client, params: { ...params, redirect_uri: redirectUri } };
}

/**
 * The login page: the identifier step (email address or username, then Continue) unless the
 * identifier is known, then the password step (the identifier shown and carried, the password).
 */
async function loginPage(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  realm: RealmSettings,
  checked: Extract<Checked, { ok: true }>,
  opts: { status?: number; error?: string; username?: string } = {},
): Promise<FastifyReply> {
  const passwordStep = opts.username !== undefined && opts.username !== '';
  let nonce = readCookies(request)[LOGIN_COOKIE];
  if (!nonce || !/^[A-Za-z0-9_-]{43}$/.test(nonce)) {
    nonce = randomBytes(32).toString('base64url');
    setCookie(reply, ctx, request, LOGIN_COOKIE, nonce, { path: authorizationPath(realm.name), maxAge: LOGIN_FORM_SECONDS, sameSite: 'Strict' });
  }
  const hidden = Object.entries(carriedParams(checked.params)).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  const body: Html = html`<div class="card login">
<h1>Sign in to ${realm.name}</h1>
<p class="muted">to continue to ${checked.client.name}</p>
${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : ''}
<form method="post" action="${authorizationPath(realm.name)}">
${hidden}
<input type="hidden" name="${CSRF_FIELD}" value="${await csrfToken(ctx, `login:${nonce}`)}">
${
  passwordStep
    ? html`<label for="username">Email or username</label>
<input type="text" id="username" name="username" autocomplete="username" readonly required value="${opts.username}">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" autofocus required>
<p><button type="submit" id="sign-in">Sign in</button> <a id="other-account" href="${authorizationPath(realm.name)}?${new URLSearchParams(carriedParams(checked.params)).toString()}">Use another account</a></p>`
    : html`<label for="username">Email or username</label>
<input type="text" id="username" name="username" autocomplete="username" autofocus required>
<p><button type="submit" id="next">Continue</button></p>`
}
</form>
</div>`;
  // Browsers apply form-action to the redirect after the post: allow the client's redirect origin.
  return sendPage(reply, opts.status ?? 200, layout({ title: 'Sign in', body }), {
    formTargets: [new URL(checked.params.redirect_uri).origin],
  });
}

/** The parameters of an authorization request that its forms carry. */
function carriedParams(params: AuthorizationParams): Record<string, string> {
  const carried: Record<string, string> = {};
  for (const name of CARRIED) if (params[name] !== undefined) carried[name] = params[name];
  return carried;
}

/** Registers the authorization and end-session endpoints. */
export async function authorizeRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  await app.register(formbody);

  const answer = async (request: FastifyRequest, reply: FastifyReply, source: unknown, submitted: boolean) => {
    const realm = realmOf(request);
    const values = singleValues(source);
    if (typeof values === 'string') return errorPage(reply, 400, 'Bad sign-in request', values);
    const checked = await checkRequest(ctx, request, realm, values);
    if (!checked.ok) {
      if (checked.untrusted) return errorPage(reply, 400, 'Bad sign-in request', checked.message);
      return redirectBack(reply, checked.redirectUri, { error: checked.error, error_description: checked.description, state: values.state });
    }
    if (!submitted) return loginPage(ctx, request, reply, realm, checked);

    const nonce = readCookies(request)[LOGIN_COOKIE];
    if (!nonce || !(await csrfMatches(ctx, `login:${nonce}`, values[CSRF_FIELD]))) {
      return loginPage(ctx, request, reply, realm, checked, { status: 403, error: 'This sign-in form has expired. Please sign in again.' });
    }
    const username = values.username ?? '';
    // An address of a domain that signs in through its organization's identity provider goes there.
    const brokered = await brokerRedirect(ctx, request, reply, realm, checked.params, username);
    if (brokered) return brokered;
    if (values.password === undefined) return loginPage(ctx, request, reply, realm, checked, { username });
    let user: UserRecord | undefined;
    try {
      user = await authenticateUser(ctx, request, realm, username, values.password ?? '');
    } catch (error) {
      if (error instanceof ServiceError && error.statusCode === 429) {
        return loginPage(ctx, request, reply, realm, checked, { status: 429, error: error.message, username });
      }
      throw error;
    }
    const attempt: AccessAttempt = { type: 'LOGIN', clientId: checked.client.clientId, username, details: { auth_method: 'openid-connect', redirect_uri: checked.params.redirect_uri } };
    if (!user) {
      // Keycloak's error of a failed login.
      await recordAccess(ctx, request, realm.name, attempt, 'invalid_user_credentials');
      return loginPage(ctx, request, reply, realm, checked, { status: 401, error: 'Invalid username or password.', username });
    }
    await recordAccess(ctx, request, realm.name, { ...attempt, userId: user.id });
    clearCookie(reply, ctx, request, LOGIN_COOKIE, authorizationPath(realm.name));
    return completeSignIn(ctx, request, reply, realm, checked.client.clientId, checked.params, user);
  };

  app.get<{ Params: { realm: string } }>('/realms/:realm/protocol/openid-connect/auth', { onRequest: realmHook(ctx) }, (request, reply) =>
    answer(request, reply, request.query, false),
  );
  app.post<{ Params: { realm: string } }>('/realms/:realm/protocol/openid-connect/auth', { onRequest: realmHook(ctx) }, (request, reply) =>
    answer(request, reply, request.body, true),
  );

  const logout = async (request: FastifyRequest, reply: FastifyReply, source: unknown, submitted: boolean) => {
    const realm = realmOf(request);
    const values = singleValues(source);
    if (typeof values === 'string') return errorPage(reply, 400, 'Bad sign-out request', values);
    const session = await readSession(ctx, realm.name, readCookies(request)[SESSION_COOKIE]);
    const hint = values.id_token_hint ? idTokenHint(realm, values.id_token_hint) : undefined;
    if (values.id_token_hint && !hint) return errorPage(reply, 400, 'Bad sign-out request', 'The id_token_hint is not an ID token of this realm.');
    const clientId = values.client_id ?? hint?.aud;
    let redirect: string | undefined;
    if (values.post_logout_redirect_uri !== undefined) {
      const client = clientId ? await codeFlowClient(ctx, request, realm, clientId) : undefined;
      if (!client || !isRegisteredRedirect(client, values.post_logout_redirect_uri)) {
        return errorPage(reply, 400, 'Bad sign-out request', 'The post_logout_redirect_uri is not a registered redirect URI of the client.');
      }
      redirect = values.post_logout_redirect_uri;
    }
    // A signed-in browser is signed out only with proof that the request comes from that user's own
    // client: an ID token naming the signed-in user, or the confirmation form with its CSRF token.
    // Anyone's ID token of the realm is not enough (an attacker's page could link with its own), so
    // otherwise ask first: a link must not sign anyone out.
    const confirmed =
      session === undefined ||
      hint?.sub === session.sub ||
      (submitted && (await csrfMatches(ctx, `logout:${session.sid}`, values[CSRF_FIELD])));
    if (session && !confirmed) {
      const carried = ['client_id', 'id_token_hint', 'post_logout_redirect_uri', 'state'].filter((name) => values[name] !== undefined);
      return sendPage(
        reply,
        submitted ? 403 : 200,
        layout({
          title: 'Sign out',
          body: html`<div class="card login"><h1>Sign out of ${realm.name}?</h1>
${submitted ? html`<p class="error">This sign-out form has expired; confirm again.</p>` : ''}
<form method="post" action="${endSessionPath(realm.name)}">
${carried.map((name) => html`<input type="hidden" name="${name}" value="${values[name]}">`)}
<input type="hidden" name="${CSRF_FIELD}" value="${await csrfToken(ctx, `logout:${session.sid}`)}">
<button type="submit" id="sign-out">Sign out</button>
</form></div>`,
        }),
        { formTargets: redirect ? [new URL(redirect).origin] : [] },
      );
    }
    if (session) await endSession(ctx, session);
    // The login the hint was issued for ends with its tokens: whoever holds its ID token may end it.
    // Its access tokens were issued with it and expire with it, so the revocation is kept only that long.
    const loginEnds = hint?.sid === undefined ? 0 : (hint.exp + CLOCK_SKEW_SECONDS) * 1000;
    if (hint?.sid !== undefined && loginEnds > ctx.now()) await endLoginSession(ctx, realm.name, hint.sid, loginEnds);
    clearCookie(reply, ctx, request, SESSION_COOKIE, `/realms/${encodeURIComponent(realm.name)}/`);
    if (redirect) return redirectBack(reply, redirect, { state: values.state });
    return sendPage(
      reply,
      200,
      layout({
        title: 'Signed out',
        body: html`<div class="card login"><h1>You are signed out</h1><p><a id="sign-in-again" href="${dashboardPath(realm.name)}">Sign in to the ${realm.name} dashboard again</a></p></div>`,
      }),
    );
  };
  app.get<{ Params: { realm: string } }>('/realms/:realm/protocol/openid-connect/logout', { onRequest: realmHook(ctx) }, (request, reply) =>
    logout(request, reply, request.query, false),
  );
  app.post<{ Params: { realm: string } }>('/realms/:realm/protocol/openid-connect/logout', { onRequest: realmHook(ctx) }, (request, reply) =>
    logout(request, reply, request.body, true),
  );
}

/**
 * The claims of an ID token this realm signed (expired ones too, as RP-initiated logout allows), or
 * undefined: its user, its client, its expiry and its login session (absent in ID tokens issued
 * before logins had one).
 */
function idTokenHint(realm: RealmSettings, token: string): { sub: string; aud: string; exp: number; sid?: string } | undefined {
  try {
    const claims = verifySignature(token, realm);
    if (claims.typ !== ID_TOKEN_TYPE || realmOfIssuer(claims.iss) !== realm.name) return undefined;
    if (typeof claims.sub !== 'string' || typeof claims.aud !== 'string' || typeof claims.exp !== 'number') return undefined;
    return { sub: claims.sub, aud: claims.aud, exp: claims.exp, ...(typeof claims.sid === 'string' && claims.sid !== '' ? { sid: claims.sid } : {}) };
  } catch {
    return undefined;
  }
}
