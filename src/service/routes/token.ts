/**
 * The token endpoint (OAuth 2.0, RFC 6749): `client_credentials` for API keys, `password` for end
 * users, `authorization_code` with PKCE for public clients after a browser login (it also answers
 * an OpenID Connect ID token). Errors follow the table in docs/guides/service.md exactly; every answer carries
 * `Cache-Control: no-store` and `Pragma: no-cache` (RFC 6749 §5.1).
 *
 * Credentials are checked in the same time whether the client id or username exists or not, and
 * failures are throttled per (realm, client id or username, source address) without locking the
 * legitimate client out (auth/client-auth.ts, auth/credential-throttle.ts). The optional rate limit
 * counts only requests whose credentials were right, so a guesser cannot spend a client's budget.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TokenResponseSchema, type Permission, type TokenResponse } from '../../api';
import { issueAccessToken, issueIdToken } from '../auth/access-tokens';
import { organizationsClaimFor } from '../auth/organizations-claim';
import { redeemAuthorizationCode } from '../auth/authorization-codes';
import { authenticateApiKey, presentedClient, readForm } from '../auth/client-auth';
import { authenticateCodeFlowClient } from '../auth/confidential-clients';
import { rateLimitKey, realmHook } from '../auth/guards';
import { PUBLIC_CLIENT_ID } from '../auth/public-client';
import { permissionsOfUser } from '../auth/realm-admin';
import { grantScope } from '../auth/scopes';
import { authenticateUser } from '../auth/user-auth';
import { realmOf, signingRealm, type ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { asOAuthEndpoint } from './oauth-endpoint';
import { hasControlCharacter } from '../text-checks';
import { recordAccess, type AccessAttempt } from '../events/access-events';
import type { AccessEventType } from '../../api';

/** The access event type of each grant (Keycloak's: an API key's grant is a client login). */
const ACCESS_TYPE_OF_GRANT: Record<string, AccessEventType> = {
  client_credentials: 'CLIENT_LOGIN',
  password: 'LOGIN',
  authorization_code: 'CODE_TO_TOKEN',
};

const invalidGrant = (): ServiceError => new ServiceError(400, 'invalid_grant', 'Invalid user credentials.');

/** Grants the token endpoint knows. */
const GRANT_TYPES = ['client_credentials', 'password', 'authorization_code'];

/** How often at most an API key's "last used" time is written (a write per token would be wasteful). */
const LAST_USED_RESOLUTION_MS = 60_000;

/** The body of a successful token answer (the fields the wire contract lists, as Keycloak sends them). */
function tokenBody(accessToken: string, expiresIn: number, scope: string): TokenResponse {
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: expiresIn,
    refresh_expires_in: 0,
    'not-before-policy': 0,
    scope,
  };
}

/** Registers the token endpoint. */
export async function tokenRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  await asOAuthEndpoint(app);

  app.post<{ Params: { realm: string } }>(
    '/realms/:realm/protocol/openid-connect/token',
    { onRequest: realmHook(ctx), schema: { response: { 200: TokenResponseSchema } } },
    async (request, reply) => {
      const attempt: AccessAttempt = { details: {} };
      try {
        const answer = await grant(request, reply, attempt);
        await recordAccess(ctx, request, realmOf(request).name, attempt);
        return answer;
      } catch (error) {
        await recordAccess(ctx, request, realmOf(request).name, attempt, error);
        throw error;
      }
    },
  );

  /** The grant itself; tells `attempt` what it learns (grant, client, user) for the access event. */
  async function grant(request: FastifyRequest<{ Params: { realm: string } }>, reply: FastifyReply, attempt: AccessAttempt): Promise<FastifyReply> {
      const realm = realmOf(request);
      if (!realm.enabled) throw new ServiceError(403, 'access_denied', `Realm ${realm.name} is disabled.`);
      const form = readForm(request);
      const grantType = form.grant_type;
      if (!grantType) throw new ServiceError(400, 'invalid_request', 'Missing form parameter: grant_type.');
      if (!GRANT_TYPES.includes(grantType)) {
        throw new ServiceError(400, 'unsupported_grant_type', `Unsupported grant_type ${grantType}.`);
      }
      attempt.type = ACCESS_TYPE_OF_GRANT[grantType];
      attempt.details.grant_type = grantType;
      const client = presentedClient(request, form);
      attempt.clientId = client.clientId;
      if (form.username !== undefined && grantType === 'password') attempt.username = form.username;
      // No user the service stores has a control character in its name.
      if (form.username !== undefined && hasControlCharacter(form.username)) throw invalidGrant();

      if (grantType === 'authorization_code') {
        // PKCE for every client; a confidential client proves itself with its secret too. The code
        // names the client it is for.
        await authenticateCodeFlowClient(ctx, request, realm, client);
        const { code, user, sessionId } = await redeemAuthorizationCode(ctx, realm, {
          code: form.code,
          clientId: client.clientId,
          redirectUri: form.redirect_uri,
          codeVerifier: form.code_verifier,
        });
        attempt.userId = user.id;
        attempt.username = user.username;
        attempt.details.redirect_uri = code.redirectUri;
        ctx.rateLimiter.hit(realm, rateLimitKey(realm.name, user.id));
        const granted = grantScope(code.scope, permissionsOfUser(user));
        const signing = await signingRealm(ctx, realm);
        const organizations = await organizationsClaimFor(ctx, realm, client.clientId, user.id);
        const access = issueAccessToken(ctx, request, signing, {
          subject: user.id,
          clientId: client.clientId,
          permissions: granted.permissions,
          scope: granted.scope,
          sessionId,
          organizations,
        });
        const idToken = issueIdToken(ctx, request, signing, user, { clientId: client.clientId, nonce: code.nonce, authTime: code.authTime, sessionId, organizations });
        return reply.status(200).send({ ...tokenBody(access.token, access.expiresIn, granted.scope), id_token: idToken });
      }

      let subject: string;
      let held: Permission[];
      // Only a user's token can carry the organizations claim, not a service account's.
      let endUser = false;
      if (client.clientId === PUBLIC_CLIENT_ID) {
        if (grantType !== 'password') {
          throw new ServiceError(401, 'unauthorized_client', 'The public client may only use the password grant.');
        }
        held = [];
        subject = '';
      } else {
        const key = await authenticateApiKey(ctx, request, realm, client);
        subject = key.serviceAccountUserId;
        if (grantType === 'client_credentials') attempt.userId = subject;
        held = key.permissions;
        const now = ctx.now();
        if (key.lastUsedTimestamp === null || now - key.lastUsedTimestamp >= LAST_USED_RESOLUTION_MS) {
          await ctx.store.touchApiKey(key.clientId, now);
        }
      }

      if (grantType === 'password') {
        const { username, password } = form;
        if (!username || password === undefined) {
          throw new ServiceError(400, 'invalid_request', 'The password grant needs the username and password parameters.');
        }
        const user = await authenticateUser(ctx, request, realm, username, password);
        if (!user) throw invalidGrant();
        // An end user's token carries the user's own rights: every permission for realm administrators, none otherwise.
        subject = user.id;
        attempt.userId = user.id;
        held = permissionsOfUser(user);
        endUser = true;
      }
      // Counted once the credentials are known to be right: failures are the throttle's business.
      ctx.rateLimiter.hit(realm, rateLimitKey(realm.name, subject));

      const granted = grantScope(form.scope, held);
      const access = issueAccessToken(ctx, request, await signingRealm(ctx, realm), {
        subject,
        clientId: client.clientId,
        permissions: granted.permissions,
        scope: granted.scope,
        organizations: endUser ? await organizationsClaimFor(ctx, realm, client.clientId, subject) : undefined,
      });
      const body: TokenResponse = tokenBody(access.token, access.expiresIn, granted.scope);
      return reply.status(200).send(body);
  }
}
