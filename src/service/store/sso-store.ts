/**
 * The part of the store behind verified domains, identity providers and the login broker
 * (`Store.sso`): its records and its contract. Both stores implement it on the tables of migration
 * 011, under the same rules as the rest of the store (every method atomic, uniqueness in the
 * schema, lookups that find nothing answer undefined or false). Every write that changes something
 * records its admin event (events/changes.ts) in its transaction, naming `origin` as the actor.
 */
import type { ChangeOrigin } from '../events/event';
import type { NewUser } from './store';

/** An upstream identity provider as stored. */
export interface IdentityProviderRecord {
  realm: string;
  alias: string;
  /** A UUID, Keycloak's `internalId`. */
  internalId: string;
  /** The organization that owns it, or null while unlinked. */
  organizationId: string | null;
  /** `oidc` or `keycloak-oidc`. */
  providerId: string;
  displayName: string | null;
  enabled: boolean;
  /** Whether the upstream's email addresses count as verified without its `email_verified` claim. */
  trustEmail: boolean;
  /** Keycloak's config strings without the client secret. */
  config: Record<string, string>;
  /** The client secret sealed under the service's key (auth/sealed-secrets.ts), or null for a public client. */
  sealedClientSecret: string | null;
  /** Milliseconds since the epoch. */
  createdTimestamp: number;
}

/** The fields of an identity provider an update replaces (alias, id, owner and creation time stay). */
export type IdentityProviderUpdate = Pick<IdentityProviderRecord, 'displayName' | 'enabled' | 'trustEmail' | 'config' | 'sealedClientSecret' | 'providerId'>;

/** A mapper of an identity provider as stored. */
export interface IdentityProviderMapperRecord {
  id: string;
  realm: string;
  alias: string;
  name: string;
  /** One of `SUPPORTED_MAPPER_TYPES` (src/api/identity-providers.ts). */
  mapperType: string;
  config: Record<string, string>;
  createdTimestamp: number;
}

/** An upstream account and the local user it is. */
export interface FederatedIdentity {
  realm: string;
  alias: string;
  /** The upstream's issuer when the link was made. */
  issuer: string;
  /** The upstream's `sub`. */
  subject: string;
  userId: string;
}

/** A sign-in sent to an upstream and not yet back. */
export interface BrokerLoginRecord {
  /** base64url SHA-256 of the `state` sent upstream. */
  stateHash: string;
  realm: string;
  alias: string;
  /** base64url SHA-256 of the random value in the browser's broker cookie. */
  browserHash: string;
  /** PKCE verifier of the upstream request. */
  codeVerifier: string;
  /** `nonce` sent upstream; the ID token must carry it. */
  nonce: string;
  /** The service's own authorization request to complete afterwards (its parameters). */
  request: Record<string, string>;
  /** Milliseconds since the epoch; after it the sign-in is refused. */
  expiresTimestamp: number;
}

/** Outcome of {@link SsoStore.verifyDomain}. */
export type DomainClaim =
  /** The organization holds the domain's verification (now or already). */
  | { outcome: 'verified' }
  /** The organization does not exist in the realm, or does not list the domain. */
  | { outcome: 'not_listed' }
  /** Another organization of the realm holds the verification. */
  | { outcome: 'taken'; organizationId: string };

/** An enabled identity provider that signs in addresses of a verified domain. */
export interface DomainRoute {
  organizationId: string;
  provider: IdentityProviderRecord;
}

/** Everything a first (or later) brokered sign-in writes, in one transaction. */
export interface FederatedSignIn {
  /** The realm of the user and the organization. */
  realm: string;
  /** A user to create first, or undefined when `userId` already exists. */
  newUser?: NewUser;
  userId: string;
  /** The link to record, when it does not exist yet. */
  link?: FederatedIdentity;
  /** The organization the user becomes (or stays) a member of. */
  organizationId: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  /**
   * Organization roles to grant the member in the same transaction (those the provider's role
   * mappers grant at this sign-in): a sign-in is never admitted without them.
   */
  roles?: readonly string[];
}

/** Storage of verified domains, identity providers, their mappers, federated identities and broker sign-ins. */
export interface SsoStore {
  // Domains -------------------------------------------------------------------------------------

  /** The verified domains among an organization's domains. */
  verifiedDomains(realm: string, organizationId: string): Promise<string[]>;
  /**
   * Records that the organization proved `domain`, if it lists it and no other organization of
   * the realm holds the domain's verification; idempotent. Atomic with respect to changes of the
   * organization's domain list.
   */
  verifyDomain(realm: string, organizationId: string, domain: string, verifiedTimestamp: number, origin?: ChangeOrigin): Promise<DomainClaim>;
  /** The enabled identity providers of the organization that verified `domain`, ordered by alias (none when no organization did). */
  routesForDomain(realm: string, domain: string): Promise<DomainRoute[]>;

  // Identity providers ----------------------------------------------------------------------------

  /** Inserts a provider. Throws `StoreConflictError` (`identity provider alias`) when the realm has one with the alias. */
  createIdentityProvider(provider: IdentityProviderRecord, origin?: ChangeOrigin): Promise<void>;
  /** One provider of a realm by alias. */
  getIdentityProvider(realm: string, alias: string): Promise<IdentityProviderRecord | undefined>;
  /** The providers an organization owns, ordered by alias. */
  listIdentityProviders(realm: string, organizationId: string): Promise<IdentityProviderRecord[]>;
  /** Replaces a provider's settings while `organizationId` owns it. False when it does not. */
  updateIdentityProvider(realm: string, alias: string, organizationId: string, update: IdentityProviderUpdate, origin?: ChangeOrigin): Promise<boolean>;
  /**
   * Gives the provider to `organizationId` (link) when it is unlinked or already that
   * organization's, or takes it away (null, unlink) when `from` owns it. Answers the owner before
   * the change, or undefined when there is no such provider; nothing changes when the rule fails.
   */
  setIdentityProviderOwner(realm: string, alias: string, to: string | null, from: string | null, origin?: ChangeOrigin): Promise<{ previousOwner: string | null } | undefined>;
  /** Deletes a provider owned by `organizationId`, with its mappers, links and pending sign-ins. False when there is none. */
  deleteIdentityProvider(realm: string, alias: string, organizationId: string, origin?: ChangeOrigin): Promise<boolean>;

  // Mappers ---------------------------------------------------------------------------------------

  /** Inserts a mapper. Throws `StoreConflictError` (`mapper name`) when the provider has one with the name. */
  createMapper(mapper: IdentityProviderMapperRecord, origin?: ChangeOrigin): Promise<void>;
  /** The mappers of a provider, in creation order. */
  listMappers(realm: string, alias: string): Promise<IdentityProviderMapperRecord[]>;
  /** One mapper of a provider. */
  getMapper(realm: string, alias: string, id: string): Promise<IdentityProviderMapperRecord | undefined>;
  /** Replaces a mapper's name, type and config. False when there is none; `StoreConflictError` on a name clash. */
  updateMapper(realm: string, alias: string, id: string, update: Pick<IdentityProviderMapperRecord, 'name' | 'mapperType' | 'config'>, origin?: ChangeOrigin): Promise<boolean>;
  /** Deletes a mapper. False when there is none. */
  deleteMapper(realm: string, alias: string, id: string, origin?: ChangeOrigin): Promise<boolean>;

  // Brokered sign-in ------------------------------------------------------------------------------

  /** The local user an upstream account is linked to, if any. */
  findFederatedUser(realm: string, alias: string, issuer: string, subject: string): Promise<string | undefined>;
  /**
   * Creates the user (when new), records the link (when new), makes the user a member and grants
   * `roles`, in one transaction: a failure at any step writes nothing. Throws `StoreConflictError`
   * (`username`, `email` or `federated identity`) when a rule is broken. The new user, a new
   * membership and each new grant record their events (as `origin`, or nobody known); the link is
   * the sign-in's, which its access event records. Answers the names of `roles` the organization
   * has no role of (not granted).
   */
  admitFederatedUser(signIn: FederatedSignIn, origin?: ChangeOrigin): Promise<string[]>;
  /** Stores a pending sign-in; also forgets the ones that expired before `nowTimestamp`. */
  saveBrokerLogin(login: BrokerLoginRecord, nowTimestamp: number): Promise<void>;
  /** Deletes and returns the pending sign-in with this state hash, atomically (one callback wins). */
  consumeBrokerLogin(stateHash: string): Promise<BrokerLoginRecord | undefined>;
}
