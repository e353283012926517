/**
 * The persistence contract of the service. Routes and the {@link Admin} API talk only to this
 * interface, so a PostgreSQL implementation can follow without touching them.
 *
 * Rules every implementation keeps:
 * - Every method is async and returns plain objects (no live rows, no cursors).
 * - Every method is atomic: it either fully happens or leaves no trace (one transaction each).
 * - Uniqueness is enforced by the database, not by a read-then-write in the caller, so concurrent
 *   requests cannot create duplicates: an organization name per realm, an organization id, a
 *   membership per organization and user, a username and an email per realm, an active API key
 *   name per realm, a role name per organization, a grant per role and user. A violated rule is
 *   reported as {@link StoreConflictError}.
 * - A role grant exists only for a member of the role's organization (the database refuses
 *   anything else): removing the member, deleting the role or the organization removes it.
 * - Lookups that find nothing return `undefined` (or `false`), never throw.
 * - Every change records its event (events/changes.ts) in the same transaction: no change without
 *   its event, no event without its change. A write that changes nothing (a repeated member add, a
 *   missing row) records nothing. The optional `origin` of a write says who made it and from where
 *   (default: nobody known); the store stamps the event with its own clock.
 */
import type { Attributes, Member, Organization, Permission } from '../../api';
import type { ChangeOrigin } from '../events/event';
import type { RealmRateLimit } from '../rate-limit';
import type { EventStore } from './event-store';
import type { SsoStore } from './sso-store';

/** A realm (tenant) with its signing key. */
export interface RealmRecord {
  name: string;
  enabled: boolean;
  /** Lifetime of access tokens issued in this realm. */
  tokenLifetimeSeconds: number;
  /** Whether creating an organization also creates its default admin user `org-admin-<orgId>`. */
  createAdminUser: boolean;
  /** Whether every token a user gets in this realm carries the `organizations` claim (roles included). */
  organizationsClaim: boolean;
  /** The realm's own rate limit: null follows the service default, `'off'` or a limit replaces it. */
  rateLimit: RealmRateLimit;
  /** Milliseconds since the epoch. */
  createdTimestamp: number;
  /** The realm's RS256 signing key (PKCS#8 PEM). Never leaves the service. */
  privateKeyPem: string;
  /** The matching public key (SPKI PEM), published as JWKS. */
  publicKeyPem: string;
  /** Key id (`kid`) of the signing key. */
  keyId: string;
}

/**
 * A realm as the request path needs it: everything but the private half of its signing key, which
 * only the routes that sign tokens read ({@link Store.getRealm}).
 */
export type RealmSettings = Omit<RealmRecord, 'privateKeyPem'>;

/** Fields of a realm that can change after creation. */
export interface RealmUpdate {
  enabled?: boolean;
  tokenLifetimeSeconds?: number;
  createAdminUser?: boolean;
  organizationsClaim?: boolean;
  /** A new rate limit setting; null returns the realm to the service default. */
  rateLimit?: RealmRateLimit;
}

/** What kind of user a row is; end users are created by administrators. */
export type UserKind = 'user' | 'service-account' | 'org-admin';

/** A user of a realm as stored (the wire {@link Member} plus service-side fields). */
export interface UserRecord {
  id: string;
  realm: string;
  username: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  emailVerified: boolean;
  enabled: boolean;
  /** Milliseconds since the epoch. */
  createdTimestamp: number;
  kind: UserKind;
  /** For `org-admin` users: the organization whose default admin this is (deleted with it). */
  adminOfOrganization: string | null;
  /** Slow hash of the password (see auth/secrets.ts), or null for users without a password. */
  passwordHash: string | null;
  /** Whether the user administers the realm (may use the dashboard; tokens carry every permission). */
  realmAdmin: boolean;
}

/** Fields of a user that can change after creation. */
export interface UserUpdate {
  enabled?: boolean;
  realmAdmin?: boolean;
  /** A new password hash (auth/secrets.ts); null removes the password. */
  passwordHash?: string | null;
}

/** An API key (confidential client) as stored. The secret itself is never stored. */
export interface ApiKeyRecord {
  clientId: string;
  realm: string;
  name: string;
  /** Hash of the client secret: `hmac-sha256$…` under the server-side key, or a legacy scrypt hash (auth/secrets.ts). */
  secretHash: string;
  permissions: Permission[];
  /** The id of the key's service-account user, the subject of its tokens. */
  serviceAccountUserId: string;
  /** Milliseconds since the epoch. */
  createdTimestamp: number;
  /** Milliseconds since the epoch, or null while the key is active. */
  revokedTimestamp: number | null;
  /** When the key last got a token (ms since the epoch; recorded at most once a minute), or null. */
  lastUsedTimestamp: number | null;
}

/** A new API key row: never used yet unless said otherwise. */
export type NewApiKey = Omit<ApiKeyRecord, 'lastUsedTimestamp'> & { lastUsedTimestamp?: number | null };

/** A registered OpenID Connect client of a realm (authorization code flow with PKCE; public, or confidential with a secret). */
export interface OidcClientRecord {
  realm: string;
  clientId: string;
  /** Shown on the login page. */
  name: string;
  /** Absolute URIs a code may be sent to, compared exactly (no patterns, no prefixes). */
  redirectUris: string[];
  /** Whether the tokens this client gets for users carry the `organizations` claim (also when the realm does not ask for it). */
  organizationsClaim: boolean;
  /** Milliseconds since the epoch. */
  createdTimestamp: number;
  /**
   * For a confidential client, the HMAC of its secret (auth/secrets.ts, under the API-key secrets'
   * server-side key); null for a public client. Either way the code flow requires PKCE.
   */
  secretHash: string | null;
}

/** An issued, not yet exchanged authorization code (only its SHA-256 is stored). */
export interface AuthorizationCodeRecord {
  /** base64url SHA-256 of the code. */
  codeHash: string;
  realm: string;
  clientId: string;
  /** The exact `redirect_uri` of the authorization request; the exchange must repeat it. */
  redirectUri: string;
  userId: string;
  /** PKCE S256 challenge (RFC 7636). */
  codeChallenge: string;
  /** The request's `nonce`, echoed in the ID token, or null. */
  nonce: string | null;
  /** The requested scope (space-separated). */
  scope: string;
  /** When the user logged in (seconds since the epoch), the ID token's `auth_time`. */
  authTime: number;
  /** Milliseconds since the epoch; after it the code is refused. */
  expiresTimestamp: number;
}

/** A revoked access token: its realm and `jti`, and when it would have expired (ms). */
export interface RevokedToken {
  /** Order of recording, increasing. */
  seq: number;
  realm: string;
  jti: string;
  /** Milliseconds since the epoch; after it the token is refused anyway and the row is forgotten. */
  expiresTimestamp: number;
  /** Milliseconds since the epoch. */
  revokedTimestamp: number;
}

/** Filter and page of "get organizations" and "count organizations". */
export interface OrganizationFilter {
  /** Case-insensitive substring of `name` or `displayName`. */
  search?: string;
  /** Exact attribute matches that must all hold: attribute key → one value it must contain. */
  attributes?: Array<[key: string, value: string]>;
  /** Offset into the list as it is now (default 0); a page costs its own rows, not its offset (store/page-boundaries.ts). Ignored by counts. */
  first?: number;
  /** Page size (callers cap it). Ignored by counts. */
  max?: number;
}

/** Filter and page of the member list and count. */
export interface MemberFilter {
  /** Terms, any of which may match username, email, first or last name (case-insensitive substring). */
  searchTerms?: string[];
  /** Leave out organizations' default admin users. */
  excludeAdminAccounts?: boolean;
  /** Offset into the list as it is now (default 0); a page costs its own rows, not its offset (store/page-boundaries.ts). Ignored by counts. */
  first?: number;
  /** Page size (callers cap it). Ignored by counts. */
  max?: number;
}

/** Filter and page of the user lookup. Service-account users are never returned. */
export interface UserFilter {
  username?: string;
  email?: string;
  /** Substring of username, email, first or last name. */
  search?: string;
  /** `username` and `email` match exactly (case-insensitive) instead of as substrings. */
  exact?: boolean;
  first?: number;
  max?: number;
}

/** A new user row; the store fills nothing in (not a realm administrator unless said so). */
export type NewUser = Omit<UserRecord, 'realmAdmin'> & { realmAdmin?: boolean };

/**
 * A new, enabled user row from the fields that tell users apart; the profile fields, the password
 * and the organization link are empty unless given. One place, so the three kinds of user the
 * service creates (end users, service accounts, organization admins) cannot drift apart.
 */
export function newUser(
  fields: Pick<UserRecord, 'id' | 'realm' | 'username' | 'kind' | 'createdTimestamp'> & Partial<UserRecord>,
): UserRecord {
  return {
    email: null,
    firstName: null,
    lastName: null,
    emailVerified: false,
    enabled: true,
    adminOfOrganization: null,
    passwordHash: null,
    realmAdmin: false,
    ...fields,
  };
}

/** An organization role as stored. */
export interface RoleRecord {
  id: string;
  organizationId: string;
  /** Unique in the organization; compared exactly. */
  name: string;
  description: string | null;
  /** Milliseconds since the epoch. */
  createdTimestamp: number;
}

/** A role to create: its id is chosen by the caller. */
export interface NewRole {
  id: string;
  name: string;
  description: string | null;
}

/** What creating one role of a list did: `created`, or the role of that name was there already. */
export interface RoleCreation {
  created: boolean;
  /** The new role, or the one that was there. */
  role: RoleRecord;
}

/** What one role of a grant or revoke list did. */
export type RoleChange =
  | { outcome: 'changed' | 'unchanged'; role: RoleRecord }
  /** The organization has no role of that name. */
  | { outcome: 'no-role'; name: string };

/**
 * What a grant or revoke of a member's roles did: per role, in the order asked, or why nothing
 * was done (no such organization or user in the realm, or the user is not a member).
 */
export type MemberRolesChange =
  | { kind: 'no-organization' }
  | { kind: 'no-user' }
  | { kind: 'not-member' }
  | { kind: 'done'; changes: RoleChange[] };

/** One organization a user belongs to, with the roles the user holds there (ordered by name). */
export interface OrganizationWithRoles {
  organization: Organization;
  roles: RoleRecord[];
}

/** Reported when a write would break a uniqueness rule; nothing was written. */
export class StoreConflictError extends Error {
  /** What collided, e.g. `organization name`, `organization id`, `username`. */
  readonly what: string;
  constructor(what: string, message?: string) {
    super(message ?? `The ${what} is already taken.`);
    this.name = 'StoreConflictError';
    this.what = what;
  }
}

/** The service's persistence. See the module comment for the rules every implementation keeps. */
export interface Store {
  // Realms ---------------------------------------------------------------------------------------

  /** Inserts a realm. Throws {@link StoreConflictError} (`realm name`) when it exists. */
  createRealm(realm: RealmRecord, origin?: ChangeOrigin): Promise<void>;
  /** One realm by name, with its private signing key: read from the database on every call (for the routes that sign). */
  getRealm(name: string): Promise<RealmRecord | undefined>;
  /**
   * One realm's settings (no private key), for the request path: cached (store/realm-cache.ts), so
   * a change made through another connection or instance shows within the store's recheck interval.
   */
  getRealmSettings(name: string): Promise<RealmSettings | undefined>;
  /**
   * What {@link Store.getRealmSettings} would answer, when the cache can say it without reading the
   * database; undefined when it cannot (then call `getRealmSettings`). For the request path, which
   * then need not wait for a promise.
   */
  cachedRealmSettings(name: string): RealmSettings | undefined;
  /** All realms ordered by name. */
  listRealms(): Promise<RealmRecord[]>;
  /** Changes the given fields; returns the updated realm, or undefined when it does not exist. */
  updateRealm(name: string, update: RealmUpdate, origin?: ChangeOrigin): Promise<RealmRecord | undefined>;

  // Users ----------------------------------------------------------------------------------------

  /** Inserts a user. Throws {@link StoreConflictError} (`username` or `email`) on a duplicate in the realm. */
  createUser(user: NewUser, origin?: ChangeOrigin): Promise<void>;
  /** One user of a realm by id. */
  getUser(realm: string, id: string): Promise<UserRecord | undefined>;
  /** One user of a realm by username (case-insensitive). */
  findUserByUsername(realm: string, username: string): Promise<UserRecord | undefined>;
  /** Users of a realm matching the filter, ordered by username; service accounts excluded. */
  findUsers(realm: string, filter: UserFilter): Promise<UserRecord[]>;
  /** How many users match the filter (`first`/`max` ignored); service accounts excluded. */
  countUsers(realm: string, filter: UserFilter): Promise<number>;
  /**
   * Changes the given fields of a user; returns the updated user, or undefined when it does not
   * exist. Records one event: the realm administrator role given or taken when only `realmAdmin`
   * changes, the password action when only `passwordHash` changes, else the user's update.
   */
  updateUser(realm: string, id: string, update: UserUpdate, origin?: ChangeOrigin): Promise<UserRecord | undefined>;

  // API keys -------------------------------------------------------------------------------------

  /**
   * Inserts an API key together with its service-account user, atomically.
   * Throws {@link StoreConflictError} (`API key name`) when an active key of the realm has the name.
   */
  createApiKey(key: NewApiKey, serviceAccount: NewUser, origin?: ChangeOrigin): Promise<void>;
  /** One API key by client id (revoked keys included). */
  getApiKey(clientId: string): Promise<ApiKeyRecord | undefined>;
  /** API keys of one realm, or of all realms, ordered by realm then creation. */
  listApiKeys(realm?: string): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked (keeps the row). Returns false when there is no such key. */
  revokeApiKey(clientId: string, revokedTimestamp: number, origin?: ChangeOrigin): Promise<boolean>;
  /**
   * Replaces a key's secret hash only while it still is `expectedHash` (compare-and-set), so two
   * instances migrating the same key at once cannot undo each other. True when it was replaced.
   * With `rotatedBy`, the key got a new secret and the rotation is recorded; without, only the
   * hash's form changed (auth/api-key-secrets.ts) and nothing is recorded.
   */
  replaceApiKeySecretHash(clientId: string, expectedHash: string, newHash: string, rotatedBy?: ChangeOrigin): Promise<boolean>;
  /** Replaces an active key's permissions. False when there is no such key or it is revoked. */
  setApiKeyPermissions(clientId: string, permissions: Permission[], origin?: ChangeOrigin): Promise<boolean>;
  /** Records when a key last got a token (not a change of the key: no event; the grant's access event tells it). */
  touchApiKey(clientId: string, lastUsedTimestamp: number): Promise<void>;

  // OpenID Connect clients and authorization codes -----------------------------------------------

  /** Registers a public client. Throws {@link StoreConflictError} (`client id`) when the realm has it. */
  createOidcClient(client: OidcClientRecord, origin?: ChangeOrigin): Promise<void>;
  /** One registered client of a realm. */
  getOidcClient(realm: string, clientId: string): Promise<OidcClientRecord | undefined>;
  /** The registered clients of a realm, ordered by client id. */
  listOidcClients(realm: string): Promise<OidcClientRecord[]>;
  /** Turns the `organizations` claim of a registered client's tokens on or off. False when there is no such client. */
  setOidcClientOrganizationsClaim(realm: string, clientId: string, organizationsClaim: boolean, origin?: ChangeOrigin): Promise<boolean>;
  /** Removes a registered client. False when there was none. */
  deleteOidcClient(realm: string, clientId: string, origin?: ChangeOrigin): Promise<boolean>;
  /** Stores an issued authorization code; also forgets codes that expired before `nowTimestamp`. */
  saveAuthorizationCode(code: AuthorizationCodeRecord, nowTimestamp: number): Promise<void>;
  /**
   * Deletes and returns the code with this hash, atomically: of two concurrent exchanges of the
   * same code, exactly one gets it. Expired codes are returned too (the caller refuses them).
   */
  consumeAuthorizationCode(codeHash: string): Promise<AuthorizationCodeRecord | undefined>;

  // Service secrets ------------------------------------------------------------------------------

  /**
   * The value of a secret the service keeps for itself (e.g. the key API-key secrets are hashed
   * under). When there is none yet, stores `candidate` and returns it; when another instance got
   * there first, returns theirs (first writer wins, atomically).
   */
  serverSecret(name: string, candidate: string, createdTimestamp: number): Promise<string>;

  // Revoked tokens -------------------------------------------------------------------------------

  /**
   * Records a revoked token (idempotent per realm and `jti`), kept until `expiresTimestamp`. Also
   * forgets revocations whose token expired before `revokedTimestamp` (revocations are rare, so
   * the table is tidied here rather than on the frequent reads).
   */
  revokeToken(revocation: Omit<RevokedToken, 'seq'>): Promise<void>;
  /**
   * Every revocation whose token has not expired at `nowTimestamp`, in `seq` order. Small: only
   * revocations of tokens still alive (at most a token lifetime's worth).
   */
  activeRevokedTokens(nowTimestamp: number): Promise<RevokedToken[]>;

  // Organizations --------------------------------------------------------------------------------

  /**
   * Inserts an organization with its default roles (`DEFAULT_ORGANIZATION_ROLES` of src/api) and,
   * when given, its default admin user, that user's membership and its grant of every default role,
   * atomically. Throws {@link StoreConflictError} (`organization name` or `organization id`).
   */
  createOrganization(org: Organization, adminUser?: NewUser, createdTimestamp?: number, origin?: ChangeOrigin): Promise<void>;
  /** One organization of a realm. */
  getOrganization(realm: string, id: string): Promise<Organization | undefined>;
  /** Organizations of a realm matching the filter, ordered by name. */
  listOrganizations(realm: string, filter: OrganizationFilter): Promise<Organization[]>;
  /** How many organizations of a realm match the filter (`first`/`max` ignored). */
  countOrganizations(realm: string, filter: OrganizationFilter): Promise<number>;
  /**
   * Replaces name, displayName, url, attributes, and domains when `domains` is given.
   * Returns false when the organization does not exist; throws {@link StoreConflictError} on a name clash.
   */
  updateOrganization(
    realm: string,
    id: string,
    update: { name: string; displayName: string | null; url: string | null; attributes: Attributes; domains?: string[] },
    origin?: ChangeOrigin,
  ): Promise<boolean>;
  /** Deletes an organization, its memberships, roles and grants, and its default admin user. False when it does not exist. */
  deleteOrganization(realm: string, id: string, origin?: ChangeOrigin): Promise<boolean>;

  // Memberships ----------------------------------------------------------------------------------

  /**
   * Makes a user a member; a no-op when it already is (idempotent, safe under concurrency).
   * Returns false when the organization or the user does not exist in the realm.
   */
  addMember(realm: string, orgId: string, userId: string, createdTimestamp: number, origin?: ChangeOrigin): Promise<boolean>;
  /** Removes a membership and the member's role grants in that organization. False when there was none. */
  removeMember(realm: string, orgId: string, userId: string, origin?: ChangeOrigin): Promise<boolean>;
  /** Whether the user is a member of the organization (both in the realm). */
  isMember(realm: string, orgId: string, userId: string): Promise<boolean>;
  /** Members ordered by membership creation. */
  listMembers(realm: string, orgId: string, filter: MemberFilter): Promise<UserRecord[]>;
  /** How many members match the filter (`first`/`max` ignored). */
  countMembers(realm: string, orgId: string, filter: MemberFilter): Promise<number>;
  /** Organizations a user belongs to, ordered by name. */
  listUserOrganizations(realm: string, userId: string): Promise<Organization[]>;

  // Domains, identity providers, the login broker ------------------------------------------------

  /** Verified domains, identity providers and brokered sign-ins (sso-store.ts). */
  readonly sso: SsoStore;
  // Organization roles ---------------------------------------------------------------------------

  /**
   * Creates roles of an organization, in order, atomically: a name the organization has already
   * (also one earlier in the same list) is not created and reported with the role that has it.
   * Undefined when the organization does not exist in the realm.
   */
  createRoles(realm: string, orgId: string, roles: readonly NewRole[], createdTimestamp: number, origin?: ChangeOrigin): Promise<RoleCreation[] | undefined>;
  /** One role of an organization by name. */
  getRole(realm: string, orgId: string, name: string): Promise<RoleRecord | undefined>;
  /** The roles of an organization, ordered by name; undefined when the organization does not exist in the realm. */
  listRoles(realm: string, orgId: string): Promise<RoleRecord[] | undefined>;
  /** Replaces a role's description; returns the updated role, or undefined when there is no such role. */
  updateRoleDescription(realm: string, orgId: string, name: string, description: string | null, origin?: ChangeOrigin): Promise<RoleRecord | undefined>;
  /**
   * Deletes roles of an organization by name, with their grants, atomically: per name, the role
   * deleted, or undefined when there was none. Undefined when the organization does not exist in
   * the realm. (Default roles are the caller's to refuse.)
   */
  deleteRoles(realm: string, orgId: string, names: readonly string[], origin?: ChangeOrigin): Promise<Array<RoleRecord | undefined> | undefined>;
  /**
   * Grants (or revokes) roles of an organization to (from) one of its members, in order,
   * atomically, after checking in the same transaction that the organization, the user and the
   * membership exist. Granting a held role or revoking one not held changes nothing (`unchanged`).
   */
  changeMemberRoles(
    realm: string,
    orgId: string,
    userId: string,
    names: readonly string[],
    change: 'grant' | 'revoke',
    createdTimestamp: number,
    origin?: ChangeOrigin,
  ): Promise<MemberRolesChange>;
  /** Whether the user holds the role (all in the realm). */
  hasRole(realm: string, orgId: string, name: string, userId: string): Promise<boolean>;
  /**
   * The users holding a role, ordered by when they were granted it (optionally without
   * organizations' default admin users); undefined when the organization has no such role.
   */
  listRoleUsers(realm: string, orgId: string, name: string, filter: { excludeAdminAccounts?: boolean }): Promise<UserRecord[] | undefined>;
  /** A member's roles in an organization, ordered by name; undefined when the user is not a member of it (or either does not exist). */
  listMemberRoles(realm: string, orgId: string, userId: string): Promise<RoleRecord[] | undefined>;
  /** The organizations a user belongs to (ordered by name), each with the user's roles there. */
  listUserOrganizationRoles(realm: string, userId: string): Promise<OrganizationWithRoles[]>;

  // Operations -----------------------------------------------------------------------------------

  /** Versions of the applied migrations, oldest first. */
  appliedMigrations(): Promise<Array<{ version: number; name: string }>>;
  /**
   * Versions of this build's migrations that the database has not applied (empty when the schema
   * is current). One query, so readiness (operations/health.ts) also learns that the database answers.
   */
  pendingMigrations(): Promise<number[]>;

  // Events ---------------------------------------------------------------------------------------

  /** The audit log, webhooks and their delivery outbox (store/event-store.ts). */
  readonly events: EventStore;

  /** Releases the database. Idempotent. */
  close(): Promise<void>;
}

/** The wire representation of a stored user. */
export function toMember(user: UserRecord): Member {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    emailVerified: user.emailVerified,
    enabled: user.enabled,
    createdTimestamp: user.createdTimestamp,
  };
}
