/**
 * OpenID Connect discovery and the realm's JWKS, so that standard clients can find the token
 * endpoint and verify the service's tokens.
 */
import type { FastifyInstance } from 'fastify';
import { certsPath, issuer, tokenPath } from '../../api';
import { realmHook } from '../auth/guards';
import { publicJwk } from '../auth/jwt';
import { baseUrlOf, realmOf, type ServiceContext } from '../context';

/** Registers discovery and JWKS. */
export async function discoveryRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;

  app.get<{ Params: { realm: string } }>(
    '/realms/:realm/.well-known/openid-configuration',
    { onRequest: realmHook(ctx) },
    async (request) => {
      const realm = realmOf(request);
      const base = baseUrlOf(request, ctx);
      return {
        issuer: issuer(base, realm.name),
        token_endpoint: `${base}${tokenPath(realm.name)}`,
        jwks_uri: `${base}${certsPath(realm.name)}`,
        grant_types_supported: ['client_credentials', 'password'],
        response_types_supported: ['token'],
        subject_types_supported: ['public'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['view-organizations', 'manage-organizations', 'create-organization', 'view-users'],
      };
    },
  );

  app.get<{ Params: { realm: string } }>(
    '/realms/:realm/protocol/openid-connect/certs',
    { onRequest: realmHook(ctx) },
    async (request) => ({ keys: [publicJwk(realmOf(request))] }),
  );
}
