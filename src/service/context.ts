/**
 * What every route area shares: the store, the configuration, and helpers to build absolute URLs.
 * Also declares the per-request fields the hooks fill in (realm, authentication, client id).
 */
import type { FastifyRequest } from 'fastify';
import type { Permission } from '../api';
import type { Admin } from './admin';
import type { ApiKeySecrets } from './auth/api-key-secrets';
import type { CredentialThrottle } from './auth/credential-throttle';
import type { HashGate } from './auth/hash-gate';
import type { RevocationList } from './auth/revocations';
import type { VerifiedTokenCache } from './auth/verified-tokens';
import type { UpstreamClients } from './broker/upstream';
import type { CompatMode } from './compat';
import type { RateLimiter } from './rate-limit';
import { ServiceError } from './errors';
import type { RealmRecord, RealmSettings, Store } from './store/store';
import type { ChangeOrigin } from './events/event';

/** The authenticated caller of a bearer-protected request. */
export interface AuthContext {
  /** The token's subject: a service-account user id or an end user id. */
  userId: string;
  /** The client the token was issued to (`azp`). */
  clientId: string;
  /** Permissions carried by the token. */
  permissions: Permission[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The realm addressed by the path (set by the realm hook); without its private key (see {@link signingRealm}). */
    realm?: RealmSettings;
    /** The authenticated caller (set by the bearer hook). */
    auth?: AuthContext;
    /** The client id behind the request, when known (bearer token's `azp`, or the token request's client). */
    clientId?: string;
  }
}

/** Shared state handed to every route area. */
export interface ServiceContext {
  store: Store;
  /** The administration areas (realms, API keys, users, clients, organizations) over the store: the dashboard's one way in. */
  admin: Admin;
  /** The service's DNS domain; `<realm>.<domain>` pins a request to a realm. */
  domain: string;
  /** Fixed public base address (no trailing slash), or undefined to derive it from each request. */
  publicBaseUrl?: string;
  /** The hosts a request's `Host` may name (host-header.ts `hostAllowed`); undefined: any. */
  allowedHosts?: readonly string[];
  /** Per-client rate limiter; applies each realm's effective limit (none when neither realm nor service sets one). */
  rateLimiter: RateLimiter;
  /** Bearer tokens whose signature is already checked (per app, so apps never share it). */
  verifiedTokens: VerifiedTokenCache;
  /** Failed-credential throttle (per realm, client id or username, and source address). */
  credentialThrottle: CredentialThrottle;
  /** The bound on slow credential hashes (scrypt), per source address and overall. */
  hashGate: HashGate;
  /** API-key secret hashing and checking under the store's server-side key. */
  apiKeySecrets: ApiKeySecrets;
  /** Revoked access tokens (RFC 7009). */
  revocations: RevocationList;
  /** The service's clock: milliseconds since the epoch (injected by tests). */
  now: () => number;
  /** The service as a client of organizations' upstream identity providers (discovery and key caches). */
  upstreams: UpstreamClients;
  /** `standard` (the contract) or `hosted` (the hosted service's quirks, compat.ts). */
  compat: CompatMode;
}

/** The service's clock in whole seconds, as JWT claims count time. */
export function nowSeconds(ctx: Pick<ServiceContext, 'now'>): number {
  return Math.floor(ctx.now() / 1000);
}

/**
 * The base address the caller used (or the configured public one), without a trailing slash. The
 * Host it is built from has been checked by `host-header.ts` (exactly one, well-formed), so the
 * result is always a valid origin.
 */
export function baseUrlOf(request: FastifyRequest, ctx: ServiceContext): string {
  if (ctx.publicBaseUrl) return ctx.publicBaseUrl.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

/** The absolute URL of this request without its query string. */
export function requestUrlOf(request: FastifyRequest, ctx: ServiceContext): string {
  const path = request.url.split('?')[0].replace(/\/+$/, '');
  return `${baseUrlOf(request, ctx)}${path}`;
}

/** The realm of a request; the realm hook guarantees it on every realm route. */
export function realmOf(request: FastifyRequest): RealmSettings {
  if (!request.realm) throw new Error('realm hook did not run for this route');
  return request.realm;
}

/**
 * A realm with its private signing key, for the routes that sign tokens: read from
 * the store on each call, so the key never sits in the realm cache of the request path. A realm
 * gone since the realm hook ran is a 404 like any unknown realm.
 */
export async function signingRealm(ctx: Pick<ServiceContext, 'store'>, realm: Pick<RealmSettings, 'name'>): Promise<RealmRecord> {
  const signing = await ctx.store.getRealm(realm.name);
  if (!signing) throw new ServiceError(404, 'realm_not_found', 'Realm does not exist');
  return signing;
}

/**
 * Who a request acts for and from where, as its changes' events record it: the bearer token's
 * client and subject (an API key's client id and service-account user, or an end user), or the
 * client a token request names; and the caller's address.
 */
export function originOf(request: FastifyRequest): ChangeOrigin {
  return { clientId: request.auth?.clientId ?? request.clientId ?? null, userId: request.auth?.userId ?? null, ipAddress: request.ip };
}

/** The caller of a request; the bearer hook guarantees it on every protected route. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error('bearer hook did not run for this route');
  return request.auth;
}
