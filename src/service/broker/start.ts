/**
 * The start of a brokered sign-in, from the login page's identifier step: an email address whose
 * domain an organization of the realm verified, and whose organization has an enabled identity
 * provider (signing in that domain), is sent to that provider. Anything else (a username, an
 * unverified domain, a disabled provider) goes on to the password form.
 *
 * What the callback will need is kept in the store (broker_logins) under the SHA-256 of a fresh
 * `state`, bound to this browser by a random value in an `HttpOnly` cookie (its SHA-256 stored):
 * the upstream's answer is accepted once, from this browser, within {@link BROKER_LOGIN_LIFETIME_MS}.
 *
 * The answer is a small page that sends the browser on (a refresh and a link), not a redirect:
 * browsers apply the login form's `form-action` policy to redirects after a form post, and that
 * policy names only the service and the client (authorization-response.ts, `sendOnPage`).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import { brokerEndpointPath, configList, IDP_CONFIG, normalizeDomain } from '../../api';
import { secretContext } from '../admin/identity-providers';
import { baseUrlOf, type ServiceContext } from '../context';
import type { DomainRoute } from '../store/sso-store';
import type { RealmSettings } from '../store/store';
import { setCookie } from '../web/cookies';
import { CARRIED, errorPage, sendOnPage, type AuthorizationParams } from '../routes/authorization-response';
import { UpstreamError } from './upstream';

/** How long a sign-in sent upstream may take to come back. */
export const BROKER_LOGIN_LIFETIME_MS = 10 * 60_000;
/** Cookie binding a sign-in sent upstream to the browser that started it. */
export const BROKER_COOKIE = 'orgadmin_broker';

/** base64url SHA-256, how state and browser values are kept. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('base64url');

/** Where the broker's cookie is sent: the realm's broker callbacks only. */
export const brokerCookiePath = (realm: string): string => `/realms/${encodeURIComponent(realm)}/broker/`;

/**
 * The identity provider that signs in `identifier`, or undefined: the identifier must be an email
 * address whose domain an organization verified; of that organization's enabled providers, the
 * first (by alias) whose `home.idp.discovery.domains` names the domain, or that names none.
 */
export async function routeForIdentifier(ctx: ServiceContext, realm: string, identifier: string): Promise<DomainRoute | undefined> {
  const at = identifier.lastIndexOf('@');
  if (at <= 0 || at === identifier.length - 1) return undefined;
  const domain = normalizeDomain(identifier.slice(at + 1));
  const routes = await ctx.store.sso.routesForDomain(realm, domain);
  return routes.find(({ provider }) => {
    const domains = configList(provider.config[IDP_CONFIG.domains]);
    return domains.length === 0 || domains.includes(domain);
  });
}

/**
 * Sends the person to their organization's identity provider when `identifier` routes to one
 * (see the module comment); undefined when it does not. `params` is the checked authorization
 * request, completed when the person comes back.
 */
export async function brokerRedirect(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  realm: RealmSettings,
  params: AuthorizationParams & { redirect_uri: string },
  identifier: string,
): Promise<FastifyReply | undefined> {
  const route = await routeForIdentifier(ctx, realm.name, identifier);
  if (!route) return undefined;
  const { provider } = route;
  const name = provider.displayName ?? provider.alias;
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const browser = randomBytes(32).toString('base64url');
  let upstreamUrl: URL;
  try {
    const clientSecret = provider.sealedClientSecret === null ? undefined : await ctx.admin.sealedSecrets.open(provider.sealedClientSecret, secretContext(realm.name, provider.alias));
    upstreamUrl = await ctx.upstreams.authorizationUrl(
      { config: provider.config, clientSecret },
      { redirectUri: `${baseUrlOf(request, ctx)}${brokerEndpointPath(realm.name, provider.alias)}`, state, nonce, codeVerifier, loginHint: identifier },
    );
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    return errorPage(reply, 400, `Sign-in through ${name} is not available`, `${error.message} Ask an administrator of your organization.`);
  }
  const carried: Record<string, string> = {};
  for (const key of CARRIED) if (params[key] !== undefined) carried[key] = params[key];
  const now = ctx.now();
  await ctx.store.sso.saveBrokerLogin(
    { stateHash: sha256(state), realm: realm.name, alias: provider.alias, browserHash: sha256(browser), codeVerifier, nonce, request: carried, expiresTimestamp: now + BROKER_LOGIN_LIFETIME_MS },
    now,
  );
  // Lax: the upstream sends the browser back with a top-level GET from its own site.
  setCookie(reply, ctx, request, BROKER_COOKIE, browser, { path: brokerCookiePath(realm.name), maxAge: BROKER_LOGIN_LIFETIME_MS / 1000, sameSite: 'Lax' });
  return sendOnPage(reply, upstreamUrl.toString(), `Sign in with ${name}`, `${identifier} signs in through ${name}, your organization's identity provider.`, `Continue to ${name}`);
}
