/**
 * The standard endpoints OpenID Connect and OAuth clients expect next to the token endpoint, at
 * Keycloak's paths (listed in discovery):
 * - userinfo (OpenID Connect Core §5.3): the token's subject, for a bearer access token;
 * - token introspection (RFC 7662): whether a token is active and what it carries, for an
 *   authenticated API key holding the `introspect-tokens` permission (a resource server);
 * - token revocation (RFC 7009): ends an access token before `exp`, for the client it was issued
 *   to (public clients by their client id alone). A revoked token is refused everywhere from then
 *   on (auth/revocations.ts).
 * Introspection and revocation authenticate the client like the token endpoint (either method,
 * same throttle, same timing); they answer `Cache-Control: no-store`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasPermission, IntrospectionSchema, introspectionPath, ORGANIZATIONS_CLAIM, revocationPath, UserinfoSchema, userinfoPath } from '../../api';
import { profileClaims } from '../auth/access-tokens';
import { authenticateApiKey, presentedClient, readForm, type PresentedClient } from '../auth/client-auth';
import { acceptedAccessToken, bearerTokenOf, invalidToken, realmHook } from '../auth/guards';
import { organizationsClaimFor } from '../auth/organizations-claim';
import type { TokenClaims } from '../auth/jwt';
import { codeFlowClient } from '../auth/oidc-clients';
import { PUBLIC_CLIENT_ID } from '../auth/public-client';
import { realmOf, type ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { asOAuthEndpoint } from './oauth-endpoint';
import type { RealmSettings } from '../store/store';
import { recordAccess } from '../events/access-events';

/** Route pattern of a realm path builder (`{realm}` → `:realm`). */
const pattern = (path: (realm: string) => string): string => path(':realm').replace('/%3Arealm/', '/:realm/');

/** The claims of a token valid in the realm now, or undefined (any reason: bad, expired, revoked). */
async function activeClaims(ctx: ServiceContext, realm: RealmSettings, token: string | undefined): Promise<TokenClaims | undefined> {
  if (!token) return undefined;
  try {
    return await acceptedAccessToken(ctx, realm, token);
  } catch (error) {
    if (error instanceof ServiceError && error.statusCode === 401) return undefined;
    throw error;
  }
}

const refuseDisabled = (realm: RealmSettings): void => {
  if (!realm.enabled) throw new ServiceError(403, 'access_denied', `Realm ${realm.name} is disabled.`);
};

/** Registers userinfo, introspection and revocation. */
export async function oidcRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  await asOAuthEndpoint(app);

  const userinfo = async (request: FastifyRequest) => {
    const realm = realmOf(request);
    const token = bearerTokenOf(request.headers.authorization);
    if (token === undefined) throw invalidToken(realm.name, 'A bearer access token is required.');
    const claims = await acceptedAccessToken(ctx, realm, token);
    refuseDisabled(realm);
    request.clientId = claims.azp;
    const user = await ctx.store.getUser(realm.name, claims.sub);
    if (!user || !user.enabled) throw invalidToken(realm.name, 'The user of the access token does not exist or is disabled.');
    // As the hosted service's mapper: in userinfo too when the realm or the token's client asks for it.
    const organizations = user.kind === 'user' ? await organizationsClaimFor(ctx, realm, claims.azp, user.id) : undefined;
    return { sub: user.id, ...profileClaims(user), ...(organizations ? { [ORGANIZATIONS_CLAIM]: organizations } : {}) };
  };
  const userinfoOptions = { onRequest: realmHook(ctx), schema: { response: { 200: UserinfoSchema } } };
  app.get<{ Params: { realm: string } }>(pattern(userinfoPath), userinfoOptions, userinfo);
  app.post<{ Params: { realm: string } }>(pattern(userinfoPath), userinfoOptions, userinfo);

  const introspectionOptions = { onRequest: realmHook(ctx), schema: { response: { 200: IntrospectionSchema } } };
  app.post<{ Params: { realm: string } }>(pattern(introspectionPath), introspectionOptions, async (request) => {
    const realm = realmOf(request);
    refuseDisabled(realm);
    const form = readForm(request);
    const client = presentedClient(request, form);
    if (client.clientId === PUBLIC_CLIENT_ID) {
      throw new ServiceError(401, 'unauthorized_client', 'The public client may not introspect tokens; use an API key.');
    }
    const key = await authenticateApiKey(ctx, request, realm, client);
    // What a token carries is the realm's business: only keys trusted with it may ask (RFC 7662 §4).
    if (!hasPermission(key.permissions, 'introspect-tokens')) {
      throw new ServiceError(403, 'insufficient_scope', 'The API key lacks the introspect-tokens permission.');
    }
    if (!form.token) throw new ServiceError(400, 'invalid_request', 'Missing form parameter: token.');
    const claims = await activeClaims(ctx, realm, form.token);
    if (!claims) return { active: false };
    const user = await ctx.store.getUser(realm.name, claims.sub);
    return {
      active: true,
      scope: typeof claims.scope === 'string' ? claims.scope : '',
      client_id: claims.azp,
      ...(user ? { username: user.username } : {}),
      token_type: 'Bearer',
      exp: claims.exp,
      iat: claims.iat,
      ...(typeof claims.nbf === 'number' ? { nbf: claims.nbf } : {}),
      sub: claims.sub,
      aud: claims.aud,
      iss: claims.iss,
      jti: claims.jti,
    };
  });

  /** Whether the request names a public client of the realm without a secret (an empty one counts as none). */
  const isPublicClient = async (request: FastifyRequest, realm: RealmSettings, client: PresentedClient): Promise<boolean> =>
    !client.secret && (client.clientId === PUBLIC_CLIENT_ID || (await codeFlowClient(ctx, request, realm, client.clientId)) !== undefined);

  app.post<{ Params: { realm: string } }>(pattern(revocationPath), { onRequest: realmHook(ctx) }, async (request, reply) => {
    const realm = realmOf(request);
    refuseDisabled(realm);
    const form = readForm(request);
    const client = presentedClient(request, form);
    // Public clients have no secret (admin-cli, the dashboard, registered code-flow clients): each
    // may revoke its own tokens, named by client id alone (RFC 7009 §2.1), as Keycloak allows.
    // Anything else, or any client presenting a secret, is an API key and must authenticate.
    if (!(await isPublicClient(request, realm, client))) await authenticateApiKey(ctx, request, realm, client);
    if (!form.token) throw new ServiceError(400, 'invalid_request', 'Missing form parameter: token.');
    const claims = await activeClaims(ctx, realm, form.token);
    // RFC 7009 §2.2: an invalid, expired or already revoked token is not an error.
    if (claims) {
      if (claims.azp !== client.clientId) {
        throw new ServiceError(400, 'unauthorized_client', 'The token was issued to another client.');
      }
      await ctx.revocations.revoke(realm.name, claims.jti, claims.exp * 1000);
      await recordAccess(ctx, request, realm.name, { type: 'REVOKE_GRANT', clientId: client.clientId, userId: claims.sub, details: { token_id: claims.jti } });
    }
    return reply.status(200).send();
  });
}
