/**
 * Issuing tokens, the one place where their claims are decided: access tokens for every grant
 * (and for the dashboard's own calls to the API), and ID tokens for the authorization code flow.
 */
import type { FastifyRequest } from 'fastify';
import { issuer, ORGANIZATIONS_CLAIM, type OrganizationsClaim, type Permission } from '../../api';
import { baseUrlOf, nowSeconds, type ServiceContext } from '../context';
import type { RealmRecord, UserRecord } from '../store/store';
import { realmAudience, signJwt } from './jwt';

/** What an access token is for. */
export interface AccessTokenGrant {
  /** `sub`: the service account or end user. */
  subject: string;
  /** `azp`: the client the token is issued to. */
  clientId: string;
  permissions: Permission[];
  /** The `scope` claim and answer. */
  scope: string;
  /** A user's organizations and roles (auth/organizations-claim.ts), when the realm or client asks for them. */
  organizations?: OrganizationsClaim;
}

/** A signed access token and its lifetime in seconds. */
export interface IssuedAccessToken {
  token: string;
  expiresIn: number;
}

/** Signs an access token of `realm` valid for the realm's token lifetime from now. */
export function issueAccessToken(
  ctx: ServiceContext,
  request: FastifyRequest,
  realm: RealmRecord,
  grant: AccessTokenGrant,
): IssuedAccessToken {
  const now = nowSeconds(ctx);
  const token = signJwt(realm, {
    iss: issuer(baseUrlOf(request, ctx), realm.name),
    aud: realmAudience(realm.name),
    sub: grant.subject,
    azp: grant.clientId,
    typ: 'Bearer',
    iat: now,
    nbf: now,
    exp: now + realm.tokenLifetimeSeconds,
    permissions: grant.permissions,
    scope: grant.scope,
    ...(grant.organizations ? { [ORGANIZATIONS_CLAIM]: grant.organizations } : {}),
  });
  return { token, expiresIn: realm.tokenLifetimeSeconds };
}

/**
 * A user's standard claims (OpenID Connect Core §5.1), the same in ID tokens and userinfo: absent
 * values are left out, not null. `email_verified` comes with the email (orgadmin users
 * create --email-verified); a service brokering sign-ins to this realm links accounts by it.
 */
export function profileClaims(user: UserRecord): Record<string, string | boolean> {
  const name = [user.firstName, user.lastName].filter((part) => part).join(' ');
  return {
    preferred_username: user.username,
    ...(user.email !== null ? { email: user.email, email_verified: user.emailVerified } : {}),
    ...(user.firstName !== null ? { given_name: user.firstName } : {}),
    ...(user.lastName !== null ? { family_name: user.lastName } : {}),
    ...(name !== '' ? { name } : {}),
  };
}

/** Token type of ID tokens: never accepted where an access token (`Bearer`) is expected. */
export const ID_TOKEN_TYPE = 'ID';

/**
 * Signs an OpenID Connect ID token (Core §2) for `user`, audience the client, with the request's
 * `nonce` and the time of login, and the user's profile claims ({@link profileClaims}).
 */
export function issueIdToken(
  ctx: ServiceContext,
  request: FastifyRequest,
  realm: RealmRecord,
  user: UserRecord,
  opts: { clientId: string; nonce: string | null; authTime: number; organizations?: OrganizationsClaim },
): string {
  const now = nowSeconds(ctx);
  return signJwt(realm, {
    iss: issuer(baseUrlOf(request, ctx), realm.name),
    aud: opts.clientId,
    sub: user.id,
    azp: opts.clientId,
    typ: ID_TOKEN_TYPE,
    iat: now,
    exp: now + realm.tokenLifetimeSeconds,
    auth_time: opts.authTime,
    ...(opts.nonce !== null ? { nonce: opts.nonce } : {}),
    ...profileClaims(user),
    ...(opts.organizations ? { [ORGANIZATIONS_CLAIM]: opts.organizations } : {}),
  });
}
