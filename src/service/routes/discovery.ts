/**
 * OpenID Connect discovery and the realm's JWKS, so that standard clients can find the token,
 * authorization and end-session endpoints and verify the service's tokens.
 */
import type { FastifyInstance } from 'fastify';
import { certsPath, DiscoveryDocumentSchema, introspectionPath, issuer, JwksSchema, ORGANIZATIONS_CLAIM, revocationPath, tokenPath, userinfoPath } from '../../api';
import { realmHook } from '../auth/guards';
import { publicJwk } from '../auth/jwt';
import { PKCE_METHOD } from '../auth/pkce';
import { SUPPORTED_SCOPES } from '../auth/scopes';
import { baseUrlOf, realmOf, type ServiceContext } from '../context';
import { authorizationPath, endSessionPath } from '../login-paths';

/** Registers discovery and JWKS. */
export async function discoveryRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;

  app.get<{ Params: { realm: string } }>(
    '/realms/:realm/.well-known/openid-configuration',
    { onRequest: realmHook(ctx), schema: { response: { 200: DiscoveryDocumentSchema } } },
    async (request) => {
      const realm = realmOf(request);
      const base = baseUrlOf(request, ctx);
      const clientAuthMethods = ['client_secret_post', 'client_secret_basic'];
      return {
        issuer: issuer(base, realm.name),
        authorization_endpoint: `${base}${authorizationPath(realm.name)}`,
        token_endpoint: `${base}${tokenPath(realm.name)}`,
        end_session_endpoint: `${base}${endSessionPath(realm.name)}`,
        jwks_uri: `${base}${certsPath(realm.name)}`,
        userinfo_endpoint: `${base}${userinfoPath(realm.name)}`,
        introspection_endpoint: `${base}${introspectionPath(realm.name)}`,
        revocation_endpoint: `${base}${revocationPath(realm.name)}`,
        grant_types_supported: ['client_credentials', 'password', 'authorization_code'],
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        code_challenge_methods_supported: [PKCE_METHOD],
        authorization_response_iss_parameter_supported: true,
        subject_types_supported: ['public'],
        // `none`: registered public clients exchange codes with PKCE instead of a secret.
        token_endpoint_auth_methods_supported: [...clientAuthMethods, 'none'],
        introspection_endpoint_auth_methods_supported: clientAuthMethods,
        revocation_endpoint_auth_methods_supported: clientAuthMethods,
        id_token_signing_alg_values_supported: ['RS256'],
        // `organizations`: opt-in per realm or client (auth/organizations-claim.ts).
        claims_supported: ['sub', 'iss', 'aud', 'nonce', 'auth_time', 'preferred_username', 'email', 'email_verified', 'given_name', 'family_name', 'name', ORGANIZATIONS_CLAIM],
        scopes_supported: [...SUPPORTED_SCOPES],
      };
    },
  );

  app.get<{ Params: { realm: string } }>(
    '/realms/:realm/protocol/openid-connect/certs',
    { onRequest: realmHook(ctx), schema: { response: { 200: JwksSchema } } },
    async (request) => ({ keys: [publicJwk(realmOf(request))] }),
  );
}
