/**
 * Who may see a dashboard page: a signed-in realm administrator. A visit without a session starts
 * the authorization code flow with PKCE against the service's own authorization endpoint (the
 * dashboard is the built-in client `orgadmin-dashboard`); the callback redeems the code with the
 * same rule as the token endpoint and starts a session.
 *
 * Every state-changing request (POST) must carry the session's CSRF token and, when the browser
 * sends an `Origin`, come from the service's own origin; otherwise it is refused with 403 and
 * changes nothing.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { redeemAuthorizationCode } from '../auth/authorization-codes';
import { codeFlowClient, DASHBOARD_CLIENT_ID } from '../auth/oidc-clients';
import { s256 } from '../auth/pkce';
import { isRealmAdmin } from '../auth/realm-admin';
import {
  csrfMatches,
  csrfToken,
  CSRF_FIELD,
  readSession,
  seal,
  SESSION_COOKIE,
  SESSION_LIFETIME_MS,
  startSession,
  unseal,
  type Session,
} from '../auth/sessions';
import { baseUrlOf, realmOf, type ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { authorizationPath, dashboardCallbackPath, dashboardPath } from '../login-paths';
import type { RealmSettings, UserRecord } from '../store/store';
import { clearCookie, readCookies, setCookie } from '../web/cookies';
import { html, layout, sendPage } from '../web/html';
import type { Admin } from '../admin';

/** Cookie that carries the dashboard's own `state` and PKCE verifier across the login. */
const LOGIN_COOKIE = 'orgadmin_dashboard_login';
const LOGIN_SECONDS = 30 * 60;

/** Everything a dashboard page needs about its caller. */
export interface DashboardCaller {
  realm: RealmSettings;
  user: UserRecord;
  session: Session;
  /** The CSRF token every form of the page must carry. */
  csrf: string;
  /** The CSRF token of the sign-out form (end-session endpoint). */
  logoutCsrf: string;
}

/**
 * The administration acting for a signed-in dashboard user: the changes' events name the user, the
 * dashboard client and the user's address.
 */
export function adminFor(ctx: ServiceContext, request: FastifyRequest, caller: DashboardCaller): Admin {
  return ctx.admin.as({ clientId: DASHBOARD_CLIENT_ID, userId: caller.user.id, username: caller.user.username, ipAddress: request.ip });
}

/** Path of the session cookie: the realm, so the end-session endpoint sees it too. */
export const sessionCookiePath = (realm: string): string => `/realms/${encodeURIComponent(realm)}/`;

/** Redirects to the authorization endpoint, remembering where to come back to. */
async function startLogin(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply, realm: RealmSettings): Promise<FastifyReply> {
  const state = randomBytes(16).toString('base64url');
  const verifier = randomBytes(32).toString('base64url');
  const path = request.url.split('?')[0];
  const returnTo = request.method === 'GET' && path.startsWith(dashboardPath(realm.name)) ? request.url : dashboardPath(realm.name);
  setCookie(reply, ctx, request, LOGIN_COOKIE, await seal(ctx, 'dashboard-login', { state, verifier, returnTo }), {
    path: dashboardPath(realm.name),
    maxAge: LOGIN_SECONDS,
    sameSite: 'Lax',
  });
  const client = await codeFlowClient(ctx, request, realm, DASHBOARD_CLIENT_ID);
  const url = new URL(`${baseUrlOf(request, ctx)}${authorizationPath(realm.name)}`);
  url.search = new URLSearchParams({
    client_id: DASHBOARD_CLIENT_ID,
    redirect_uri: client!.redirectUris[0],
    response_type: 'code',
    scope: 'openid',
    state,
    code_challenge: s256(verifier),
    code_challenge_method: 'S256',
  }).toString();
  return reply.header('cache-control', 'no-store').redirect(url.toString(), 303);
}

/** A page that tells the caller why it was refused. */
export function refusalPage(reply: FastifyReply, status: number, title: string, message: string, realm: RealmSettings): FastifyReply {
  return sendPage(
    reply,
    status,
    layout({
      title,
      body: html`<div class="card login"><h1>${title}</h1><p class="error" role="alert">${message}</p>
<p><a href="${dashboardPath(realm.name)}">Back to the ${realm.name} dashboard</a></p></div>`,
    }),
  );
}

/**
 * The caller of a dashboard request, or undefined when the answer has been sent (login started,
 * or refused: not an administrator, CSRF token missing or wrong, foreign origin).
 */
export async function dashboardCaller(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply): Promise<DashboardCaller | undefined> {
  const realm = realmOf(request);
  if (!realm.enabled) throw new ServiceError(403, 'access_denied', `Realm ${realm.name} is disabled.`);
  const session = await readSession(ctx, realm.name, readCookies(request)[SESSION_COOKIE]);
  const user = session && (await ctx.store.getUser(realm.name, session.sub));
  const changing = request.method !== 'GET' && request.method !== 'HEAD';
  if (!session || !user || !user.enabled) {
    if (changing) {
      refusalPage(reply, 403, 'Not signed in', 'Your session has ended. Sign in again and repeat the change.', realm);
      return undefined;
    }
    await startLogin(ctx, request, reply, realm);
    return undefined;
  }
  const logoutCsrf = await csrfToken(ctx, `logout:${session.sid}`);
  if (!isRealmAdmin(user)) {
    sendPage(
      reply,
      403,
      layout({
        title: 'Not an administrator',
        body: html`<div class="card login"><h1>Not an administrator</h1>
<p class="error" role="alert">You are signed in as ${user.username}, who is not an administrator of realm ${realm.name}.</p>
<form method="post" action="${`/realms/${encodeURIComponent(realm.name)}/protocol/openid-connect/logout`}">
<input type="hidden" name="${CSRF_FIELD}" value="${logoutCsrf}"><button type="submit" id="sign-out">Sign out</button></form></div>`,
      }),
    );
    return undefined;
  }
  if (changing) {
    const origin = request.headers.origin;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const sameOrigin = origin === undefined || origin === new URL(baseUrlOf(request, ctx)).origin;
    if (!sameOrigin || !(await csrfMatches(ctx, `dashboard:${session.sid}`, body[CSRF_FIELD]))) {
      refusalPage(reply, 403, 'Request refused', 'The request did not carry this session’s CSRF token; nothing was changed.', realm);
      return undefined;
    }
  }
  return { realm, user, session, csrf: await csrfToken(ctx, `dashboard:${session.sid}`), logoutCsrf };
}

/** The callback of the dashboard's own login: checks `state`, redeems the code, starts the session. */
export async function dashboardCallback(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const realm = realmOf(request);
  const query = (request.query ?? {}) as Record<string, unknown>;
  const login = await unseal(ctx, 'dashboard-login', readCookies(request)[LOGIN_COOKIE]);
  const state = typeof query.state === 'string' ? query.state : undefined;
  if (!login || typeof login.state !== 'string' || state !== login.state) {
    return refusalPage(reply, 400, 'Sign-in failed', 'The sign-in answer does not belong to this browser (state mismatch). Please sign in again.', realm);
  }
  if (typeof query.error === 'string') {
    const description = typeof query.error_description === 'string' ? query.error_description : query.error;
    return refusalPage(reply, 400, 'Sign-in failed', description, realm);
  }
  const client = await codeFlowClient(ctx, request, realm, DASHBOARD_CLIENT_ID);
  let user: UserRecord;
  let sessionId: string;
  try {
    ({ user, sessionId } = await redeemAuthorizationCode(ctx, realm, {
      code: typeof query.code === 'string' ? query.code : undefined,
      clientId: DASHBOARD_CLIENT_ID,
      redirectUri: client!.redirectUris[0],
      codeVerifier: typeof login.verifier === 'string' ? login.verifier : undefined,
    }));
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return refusalPage(reply, 400, 'Sign-in failed', error.message, realm);
  }
  clearCookie(reply, ctx, request, LOGIN_COOKIE, dashboardPath(realm.name));
  setCookie(reply, ctx, request, SESSION_COOKIE, await startSession(ctx, realm.name, user.id, sessionId), {
    path: sessionCookiePath(realm.name),
    maxAge: Math.floor(SESSION_LIFETIME_MS / 1000),
    sameSite: 'Lax',
  });
  const returnTo = typeof login.returnTo === 'string' && login.returnTo.startsWith(`${dashboardPath(realm.name)}`) ? login.returnTo : dashboardPath(realm.name);
  // The callback URL itself is never a place to come back to.
  const target = returnTo.startsWith(dashboardCallbackPath(realm.name)) ? dashboardPath(realm.name) : returnTo;
  return reply.header('cache-control', 'no-store').redirect(target, 303);
}

/** A dashboard route handler that runs only for a signed-in administrator (see {@link dashboardCaller}). */
export function guarded<R extends FastifyRequest>(
  ctx: ServiceContext,
  handler: (request: R, reply: FastifyReply, caller: DashboardCaller) => Promise<FastifyReply>,
): (request: R, reply: FastifyReply) => Promise<FastifyReply> {
  return async (request, reply) => {
    const caller = await dashboardCaller(ctx, request, reply);
    return caller ? handler(request, reply, caller) : reply;
  };
}
