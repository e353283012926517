/**
 * Paths of the standard OpenID Connect / OAuth endpoints beyond the token endpoint and JWKS (which
 * are in paths.ts): userinfo, token introspection (RFC 7662) and revocation (RFC 7009), at the
 * same places as in Keycloak. Discovery lists them.
 */
import { realmPath } from './paths';

const openidConnect = (realm: string): string => `${realmPath(realm)}/protocol/openid-connect`;

/** OpenID Connect userinfo (GET or POST with a bearer token). */
export const userinfoPath = (realm: string): string => `${openidConnect(realm)}/userinfo`;
/** Token introspection, RFC 7662 (POST, client authentication). */
export const introspectionPath = (realm: string): string => `${openidConnect(realm)}/token/introspect`;
/** Token revocation, RFC 7009 (POST, client authentication). */
export const revocationPath = (realm: string): string => `${openidConnect(realm)}/revoke`;
