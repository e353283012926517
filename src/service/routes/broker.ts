/**
 * The broker's callback, `GET /realms/{realm}/broker/{alias}/endpoint` (Keycloak's place for it;
 * each identity provider's representation shows it as `redirectUri`, to register at the
 * upstream): where an upstream identity provider sends the browser back after a sign-in the login
 * page started (broker/start.ts).
 *
 * In order, each refusal an error page that issues nothing:
 * 1. the `state` must name a pending sign-in of this realm and provider (used once, whatever
 *    follows), started in this browser (the broker cookie) and not expired;
 * 2. the provider must still be enabled and owned by an organization, and the original client and
 *    its redirect URI still registered;
 * 3. an `error` from the upstream goes back to the client as `access_denied`;
 * 4. the code is exchanged and the ID token checked (broker/upstream.ts: state, issuer of the
 *    answer, signature, issuer, audience, expiry, nonce);
 * 5. the person is admitted by the linking rule (broker/sign-in.ts);
 * then the original authorization request completes with a code for its client, sent by a page
 * that moves the browser on (a redirect would meet the upstream login form's `form-action`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { secretContext } from '../admin/identity-providers';
import { realmHook } from '../auth/guards';
import { codeFlowClient, isRegisteredRedirect } from '../auth/oidc-clients';
import { admitUpstreamIdentity, SignInRefused } from '../broker/sign-in';
import { BROKER_COOKIE, brokerCookiePath, sha256 } from '../broker/start';
import { UpstreamError } from '../broker/upstream';
import { baseUrlOf, realmOf, type ServiceContext } from '../context';
import { clearCookie, readCookies } from '../web/cookies';
import { completeSignIn, errorPage, sendBack } from './authorization-response';

const TITLE = 'Sign-in failed';

/** Registers the broker's callback. */
export async function brokerRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;

  app.get<{ Params: { realm: string; alias: string }; Querystring: Record<string, unknown> }>(
    '/realms/:realm/broker/:alias/endpoint',
    { onRequest: realmHook(ctx) },
    async (request, reply) => callback(ctx, request, reply),
  );
}

async function callback(
  ctx: ServiceContext,
  request: FastifyRequest<{ Params: { realm: string; alias: string }; Querystring: Record<string, unknown> }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const realm = realmOf(request);
  const { alias } = request.params;
  const query = request.query;
  const state = typeof query.state === 'string' ? query.state : undefined;
  const browser = readCookies(request)[BROKER_COOKIE];
  clearCookie(reply, ctx, request, BROKER_COOKIE, brokerCookiePath(realm.name));

  const login = state === undefined ? undefined : await ctx.store.sso.consumeBrokerLogin(sha256(state));
  if (!login || login.realm !== realm.name || login.alias !== alias) {
    return errorPage(reply, 400, TITLE, 'This sign-in is unknown, was already used, or was not started here. Please sign in again.');
  }
  if (browser === undefined || sha256(browser) !== login.browserHash) {
    return errorPage(reply, 400, TITLE, 'This sign-in was started in another browser (or its cookie is gone). Please sign in again.');
  }
  if (login.expiresTimestamp <= ctx.now()) return errorPage(reply, 400, TITLE, 'This sign-in took too long. Please sign in again.');

  const provider = await ctx.store.sso.getIdentityProvider(realm.name, alias);
  if (!provider || !provider.enabled || provider.organizationId === null) {
    return errorPage(reply, 400, TITLE, `Sign-in through ${alias} has been turned off meanwhile. Please sign in again.`);
  }
  const params = login.request;
  const client = params.client_id === undefined ? undefined : await codeFlowClient(ctx, request, realm, params.client_id);
  if (!client || !isRegisteredRedirect(client, params.redirect_uri)) {
    return errorPage(reply, 400, TITLE, 'The application that asked for this sign-in is no longer registered.');
  }
  const name = provider.displayName ?? alias;
  if (typeof query.error === 'string') {
    const why = typeof query.error_description === 'string' ? `: ${query.error_description}` : '';
    return sendBack(reply, 'page', params.redirect_uri, { error: 'access_denied', error_description: `${name} did not sign you in (${query.error}${why}).`, state: params.state });
  }

  const callbackUrl = new URL(`${baseUrlOf(request, ctx)}${request.url}`);
  try {
    const clientSecret = provider.sealedClientSecret === null ? undefined : await ctx.admin.sealedSecrets.open(provider.sealedClientSecret, secretContext(realm.name, alias));
    const identity = await ctx.upstreams.exchange({ config: provider.config, clientSecret }, callbackUrl, { state: state!, nonce: login.nonce, codeVerifier: login.codeVerifier });
    const { user, skippedRoles } = await admitUpstreamIdentity(ctx, { ...provider, organizationId: provider.organizationId }, identity, { clientId: client.clientId, ipAddress: request.ip });
    if (skippedRoles) request.log.warn({ realm: realm.name, alias, roles: skippedRoles }, 'role mappers name roles the organization does not have; they were not granted');
    // By page: the browser came from the upstream's login form, whose form-action policy would
    // block a redirect to the client's origin.
    return completeSignIn(ctx, request, reply, realm, client.clientId, { ...params, redirect_uri: params.redirect_uri }, user, 'page');
  } catch (error) {
    if (error instanceof UpstreamError) return errorPage(reply, 400, TITLE, `Sign-in through ${name} failed. ${error.message}`);
    if (error instanceof SignInRefused) return errorPage(reply, 403, TITLE, error.message);
    throw error;
  }
}
