/**
 * The fast path of the service's hottest request, "check membership"
 * (`GET /realms/{realm}/orgs/{orgId}/members/{userId}`, answered 204), in front of fastify's
 * router: a request of exactly the successful shape is answered here, without fastify's request
 * and reply objects, hook chain and validation; every other request, and every request that is
 * not plainly a success, goes to fastify untouched, so every error answer stays fastify's.
 *
 * Why: a check does little work of its own (the rules below and one batched read), so fastify's
 * machinery around it is a visible share of its cost (bench:service, check membership).
 *
 * It asks what the route asks, with the same rule functions (auth/guards.ts, host-header.ts,
 * MEMBER_CHECK_REQUIREMENT): Host, path parameters, Host pinning, realm, bearer token (signature,
 * claims, revocation), realm enabled, permission, then membership, then the realm's rate limit
 * (RateLimiter.admit). Where a rule could only be answered by waiting (a realm not in the cache,
 * revocations due to be read), or would cost a signature check that fastify then repeats (a token
 * not yet verified), the request goes to fastify instead. A request goes to fastify too when it
 * is not the plain form: another method (HEAD included), a query, a body, a path the router gives
 * to another route (`…/members/count`) or to none; and not a member, a failed read, or a check
 * over the rate limit. Which route a path reaches, and its decoded parameters, are asked of
 * fastify's router.
 *
 * Every check is counted against the rate limit once: here when answered here, else by fastify.
 * This path counts after the membership read, where fastify counts before it; the answers are the
 * same, and of checks racing for a window's last request another one may be the one let through.
 *
 * It skips fastify's hooks, so it is only for an app whose hooks are the service's own:
 * `startServer` turns it on (its app is closed to further hooks once it listens); `buildApp`
 * leaves it off unless asked, since its caller may add hooks (tests record every answer in an
 * onResponse hook). Each request it answers is logged and counted as fastify's are, through the
 * app's request observer (operations/request-observer.ts). Off while the app closes (fastify
 * answers then, with `Connection: close`).
 *
 * A check of a non-member reaches fastify a turn of the event loop later than without the fast
 * path (after the membership read); its answer is the same. (A client that half-closes its
 * connection right after the request may miss a late answer: Node's server drops such a
 * connection once it reads the end, as it does for any answer not ready by then.)
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { hasPermission, type Permission } from '../api';
import { bearerTokenOf, checkHostPin, checkPathParameters, rateLimitKey, tokenPermissions, verifiedAccessToken } from './auth/guards';
import type { ServiceContext } from './context';
import { hostProblem } from './host-header';
import type { RequestObserver } from './operations/request-observer';
import { MEMBER_CHECK_REQUIREMENT } from './routes/memberships';
import type { RealmSettings } from './store/store';

/** The route template of the check, as the request log and the metrics name it. */
const CHECK_ROUTE = '/realms/:realm/orgs/:orgId/members/:userId';

/** The parameters of the check route, as fastify's router gives them (decoded). */
type CheckParams = { realm: string; orgId: string; userId: string };

/** See the module comment. */
export class MemberCheckFastPath {
  private closing = false;

  /** Notes when the app starts closing (call before it is ready). */
  track(app: FastifyInstance): void {
    app.addHook('preClose', (done) => {
      this.closing = true;
      done();
    });
  }

  /**
   * Puts the fast path in front of fastify's request handler on `app.server` (call once every
   * route is registered); `observer` logs and counts what it answers.
   */
  install(app: FastifyInstance, ctx: ServiceContext, observer: RequestObserver): void {
    const server = app.server;
    const handlers = server.listeners('request') as RequestListener[];
    // fastify hands its one handler to http.createServer; any other shape is left alone.
    if (handlers.length !== 1) return;
    const fastify = handlers[0];
    server.removeListener('request', fastify);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (!this.answer(app, ctx, observer, request, response, fastify)) fastify(request, response);
    });
  }

  /**
   * The parameters of a GET that fastify's router gives to the check route (asked of the router
   * itself, so static routes such as `…/members/count` keep their paths), or undefined.
   */
  private checkParamsOf(app: FastifyInstance, request: IncomingMessage): CheckParams | undefined {
    const url = request.url ?? '';
    if (request.method !== 'GET' || url.includes('?')) return undefined;
    const parts = url.split('/');
    const trailingSlash = parts.length === 8 && parts[7] === '';
    if ((parts.length !== 7 && !trailingSlash) || parts[0] !== '' || parts[1] !== 'realms' || parts[3] !== 'orgs' || parts[5] !== 'members') return undefined;
    let route;
    try {
      route = app.findRoute({ method: 'GET', url });
    } catch {
      return undefined; // e.g. bad percent-encoding: fastify's answer
    }
    const params = route?.params as Record<string, unknown> | undefined;
    if (params === undefined || Object.keys(params).length !== 3) return undefined;
    const { realm, orgId, userId } = params;
    if (typeof realm !== 'string' || typeof orgId !== 'string' || typeof userId !== 'string') return undefined;
    return { realm, orgId, userId };
  }

  /**
   * Answers `request` when it is plainly a successful check, or takes it and hands it to
   * `fastify` once the membership read says otherwise; false when fastify should have it now.
   */
  private answer(
    app: FastifyInstance,
    ctx: ServiceContext,
    observer: RequestObserver,
    request: IncomingMessage,
    response: ServerResponse,
    fastify: RequestListener,
  ): boolean {
    if (this.closing) return false;
    const started = observer.active ? performance.now() : 0;
    const params = this.checkParamsOf(app, request);
    if (params === undefined) return false;
    const headers = request.headers;
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    if (hostProblem(request.rawHeaders) !== undefined) return false;
    const realm = acceptedRealm(ctx, params, headers.host);
    if (realm === undefined) return false;
    const caller = admittedCaller(ctx, realm, headers.authorization, MEMBER_CHECK_REQUIREMENT.permission);
    if (caller === undefined) return false;
    ctx.store.isMember(realm.name, params.orgId, params.userId).then(
      (member) => {
        // Counted here, after the read, so that a check handed to fastify is counted once, by
        // fastify; one over the limit goes to fastify uncounted, which counts and refuses it.
        if (!member || !ctx.rateLimiter.admit(realm, rateLimitKey(realm.name, caller.azp, caller.sub))) return fastify(request, response);
        // A check read before the app began closing may be answered after: like fastify's answers
        // then, it ends its connection, which a graceful shutdown would otherwise wait for.
        if (this.closing) response.setHeader('connection', 'close');
        response.writeHead(204);
        response.end();
        if (observer.active) observer.fastPathAnswered(request, CHECK_ROUTE, 204, started);
      },
      () => fastify(request, response),
    );
    return true;
  }
}

/** The realm of a plain check when every realm rule lets it through without waiting, else undefined. */
function acceptedRealm(ctx: ServiceContext, params: CheckParams, host: string | undefined): RealmSettings | undefined {
  try {
    checkPathParameters(params);
    checkHostPin(ctx, host, params.realm);
  } catch {
    return undefined;
  }
  const realm = ctx.store.cachedRealmSettings(params.realm);
  return realm !== undefined && realm.enabled ? realm : undefined;
}

/**
 * The caller (client and subject) whose bearer token of `authorization` is accepted in `realm`
 * with `permission`, decided without waiting; undefined when not, or not without waiting.
 */
function admittedCaller(
  ctx: ServiceContext,
  realm: RealmSettings,
  authorization: string | undefined,
  permission: Permission | undefined,
): { azp: string; sub: string } | undefined {
  const token = bearerTokenOf(authorization);
  // A token whose signature is not remembered goes to the route, which checks it (once, not twice).
  if (token === undefined || !ctx.verifiedTokens.remembers(token, realm)) return undefined;
  let claims;
  try {
    claims = verifiedAccessToken(ctx, realm, token);
  } catch {
    return undefined;
  }
  if (ctx.revocations.knownRevoked(realm.name, claims.jti) !== false) return undefined;
  return permission === undefined || hasPermission(tokenPermissions(claims), permission) ? claims : undefined;
}
