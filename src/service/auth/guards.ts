/**
 * Request hooks that run before the body is read: which realm a request addresses (path, pinned
 * by Host), who the caller is (bearer token), and whether the caller may do this operation.
 * Order of answers: 400 bad path parameter, 404 realm, 401 token, 403 realm disabled,
 * 429 rate limit, 403 permission.
 */
import type { onRequestAsyncHookHandler } from 'fastify';
import { hasPermission, isPermission, MAX_NAME_LENGTH, type Permission } from '../../api';
import { nowSeconds, type ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { hasControlCharacter } from '../text-checks';
import { realmAudience, TokenError, type TokenClaims } from './jwt';
import { PUBLIC_CLIENT_ID } from './public-client';
import type { RealmSettings } from '../store/store';

/** The realm a Host header pins to, or undefined when the host is the bare domain, an IP or foreign. */
export function realmPinnedByHost(host: string | undefined, domain: string): string | undefined {
  if (!host) return undefined;
  let hostname = host.toLowerCase();
  if (hostname.startsWith('[')) return undefined; // IPv6 literal
  hostname = hostname.replace(/:\d+$/, '').replace(/\.$/, '');
  const suffix = `.${domain.toLowerCase()}`;
  if (!hostname.endsWith(suffix)) return undefined;
  const label = hostname.slice(0, -suffix.length);
  return label !== '' && !label.includes('.') ? label : undefined;
}

/**
 * Path parameters are opaque strings of 1–255 characters without control characters (nothing the
 * service stores can contain one, and PostgreSQL text cannot even be asked about U+0000).
 * Throws 400 `invalid_request` naming the first parameter that breaks the rule.
 */
export function checkPathParameters(params: Record<string, unknown>): void {
  for (const name in params) {
    const value = params[name];
    if (typeof value !== 'string') continue;
    if (value.length < 1 || value.length > MAX_NAME_LENGTH) {
      throw new ServiceError(400, 'invalid_request', `Path parameter ${name} must be 1 to ${MAX_NAME_LENGTH} characters long.`);
    }
    if (hasControlCharacter(value)) {
      throw new ServiceError(400, 'invalid_request', `Path parameter ${name} must not contain control characters (U+0000 to U+001F).`);
    }
  }
}

/**
 * The rate-limit key of a caller: per realm, and per client, except that end users, who all share
 * the public client, each get their own budget (keyed by their user id).
 */
export function rateLimitKey(realm: string, clientId: string, userId?: string): string {
  return clientId === PUBLIC_CLIENT_ID && userId !== undefined ? `${realm}/user/${userId}` : `${realm}/client/${clientId}`;
}

/**
 * onRequest hook of every realm route: checks path parameters, Host pinning and that the realm
 * exists, and sets `request.realm`.
 */
export function realmHook(ctx: ServiceContext): onRequestAsyncHookHandler {
  return async (request) => {
    checkPathParameters((request.params ?? {}) as Record<string, unknown>);
    const name = (request.params as { realm?: string }).realm ?? '';
    checkHostPin(ctx, request.headers.host, name);
    const realm = await ctx.store.getRealmSettings(name);
    if (!realm) throw new ServiceError(404, 'realm_not_found', 'Realm does not exist');
    request.realm = realm;
  };
}

/** Throws 404 `realm_mismatch` when the `Host` pins another realm than `realm` (see {@link realmPinnedByHost}). */
export function checkHostPin(ctx: Pick<ServiceContext, 'domain'>, host: string | undefined, realm: string): void {
  const pinned = realmPinnedByHost(host, ctx.domain);
  if (pinned !== undefined && pinned !== realm) {
    throw new ServiceError(404, 'realm_mismatch', `This host serves realm ${pinned}, not ${realm}.`);
  }
}

/** 401 with the RFC 6750 challenge naming the realm. */
export function invalidToken(realm: string, description: string): ServiceError {
  return new ServiceError(401, 'invalid_token', description, {
    'WWW-Authenticate': `Bearer realm="${realm}", error="invalid_token"`,
  });
}

/** 403 `insufficient_scope` naming the permission that is missing. */
export function insufficientScope(realm: string, needed: string): ServiceError {
  return new ServiceError(403, 'insufficient_scope', `The access token lacks the ${needed} permission.`, {
    'WWW-Authenticate': `Bearer realm="${realm}", error="insufficient_scope", scope="${needed}"`,
  });
}

/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1), or undefined when the
 * header is missing or of another form.
 */
export function bearerTokenOf(header: string | undefined): string | undefined {
  const match = header ? /^Bearer[ ]+([^\s]+)\s*$/i.exec(header) : null;
  return match ? match[1] : undefined;
}

/**
 * The claims of an access token whose signature (remembered per token), issuer realm, type,
 * audience and times are valid in `realm` now; otherwise 401 `invalid_token` with the RFC 6750
 * challenge. Whether it was revoked is the next question (see {@link acceptedAccessToken}).
 */
export function verifiedAccessToken(ctx: ServiceContext, realm: Pick<RealmSettings, 'name' | 'publicKeyPem' | 'keyId'>, token: string): TokenClaims {
  const realmName = realm.name;
  try {
    return ctx.verifiedTokens.verify(token, realm, {
      realm: realmName,
      typ: 'Bearer',
      audience: realmAudience(realmName),
      nowSeconds: nowSeconds(ctx),
    });
  } catch (error) {
    if (!(error instanceof TokenError)) throw error;
    const reason = error.message === 'expired' ? 'The access token has expired.' : 'The access token is not valid for this realm.';
    throw invalidToken(realmName, reason);
  }
}

/**
 * The claims of an access token that is valid in `realm` now: signature (remembered per token),
 * issuer realm, type, audience, times, and not revoked (read fresh on every use, so the signature
 * cache never hides a revocation). Otherwise 401 `invalid_token` with the RFC 6750 challenge.
 */
export async function acceptedAccessToken(
  ctx: ServiceContext,
  realm: Pick<RealmSettings, 'name' | 'publicKeyPem' | 'keyId'>,
  token: string,
): Promise<TokenClaims> {
  const claims = verifiedAccessToken(ctx, realm, token);
  if (await ctx.revocations.isRevoked(realm.name, claims.jti)) throw invalidToken(realm.name, 'The access token has been revoked.');
  return claims;
}

/** The permissions an access token carries: its `permissions` claim, unknown names left out. */
export function tokenPermissions(claims: TokenClaims): Permission[] {
  return (Array.isArray(claims.permissions) ? claims.permissions : []).filter((p): p is Permission => typeof p === 'string' && isPermission(p));
}

/** What a bearer route needs from its caller. */
export interface Requirement {
  /** The permission needed; undefined means any valid token (e.g. "get member info"). */
  permission?: Permission;
  /**
   * Also let members of the addressed organization (`:orgId`) through without the permission:
   * an end user may read the organizations they belong to.
   */
  orMemberOfOrg?: boolean;
  /**
   * Also let through, without the permission, a caller who holds every one of these roles in the
   * addressed organization (`:orgId`): the hosted service's organization roles (`view-roles`,
   * `manage-roles`) give their holders those rights in that organization only.
   */
  orOrgRoles?: readonly string[];
}

/**
 * onRequest hook of every bearer-protected route (runs after {@link realmHook}): verifies the
 * token, sets `request.auth` and `request.clientId`, applies the rate limit, checks the permission.
 */
export function bearerHook(ctx: ServiceContext, requirement: Requirement): onRequestAsyncHookHandler {
  return async (request) => {
    const realm = request.realm;
    if (!realm) throw new Error('realm hook must run before the bearer hook');
    const token = bearerTokenOf(request.headers.authorization);
    if (token === undefined) throw invalidToken(realm.name, 'A bearer access token is required.');
    const claims = await acceptedAccessToken(ctx, realm, token);
    if (!realm.enabled) throw new ServiceError(403, 'access_denied', `Realm ${realm.name} is disabled.`);
    const permissions = tokenPermissions(claims);
    request.auth = { userId: claims.sub, clientId: claims.azp, permissions };
    request.clientId = claims.azp;
    ctx.rateLimiter.hit(realm, rateLimitKey(realm.name, claims.azp, claims.sub));
    const needed = requirement.permission;
    if (needed === undefined || hasPermission(permissions, needed)) return;
    const orgId = (request.params as { orgId?: string }).orgId;
    if (requirement.orMemberOfOrg && orgId !== undefined) {
      if (await ctx.store.isMember(realm.name, orgId, claims.sub)) return;
    }
    if (requirement.orOrgRoles && orgId !== undefined && (await holdsRoles(ctx, realm.name, orgId, claims.sub, requirement.orOrgRoles))) return;
    throw insufficientScope(realm.name, needed);
  };
}

/** Whether `userId` holds every one of `roles` in the organization. */
async function holdsRoles(ctx: ServiceContext, realm: string, orgId: string, userId: string, roles: readonly string[]): Promise<boolean> {
  for (const role of roles) if (!(await ctx.store.hasRole(realm, orgId, role, userId))) return false;
  return true;
}
