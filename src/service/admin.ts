/**
 * Administration of the service (realms, API keys, users, the realm administrator role, public
 * OpenID Connect clients): what the `orgadmin` command line, the dashboard and the tests use. Not
 * a JSON API. Every bad input throws {@link AdminError} before anything is written.
 */
import { randomUUID } from 'node:crypto';
import { isPermission, MAX_NAME_LENGTH, realmNameProblem, type Member, type Permission } from '../api';
import { generateSigningKey, type SigningKey } from './auth/jwt';
import { hasControlCharacter } from './text-checks';
import { generateClientId, generateClientSecret, hashSecret } from './auth/secrets';
import { ApiKeySecrets } from './auth/api-key-secrets';
import { RESERVED_CLIENT_IDS, redirectUriProblem } from './auth/oidc-clients';
import { realmRateLimitProblem, type RealmRateLimit } from './rate-limit';
import {
  newUser,
  StoreConflictError,
  toMember,
  type ApiKeyRecord,
  type OidcClientRecord,
  type RealmRecord,
  type Store,
  type UserRecord,
} from './store/store';

/** Default lifetime of access tokens (docs/guides/service.md). */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 300;
/** Longest token lifetime an administrator may configure (one day). */
export const MAX_TOKEN_LIFETIME_SECONDS = 86400;

/** A realm as administrators see it (no key material). */
export interface RealmInfo {
  name: string;
  enabled: boolean;
  tokenLifetimeSeconds: number;
  /** Whether new organizations get a default admin user `org-admin-<orgId>`. */
  createAdminUser: boolean;
  /** Whether every token a user gets in the realm carries the `organizations` claim. */
  organizationsClaim: boolean;
  /** The realm's own rate limit: null follows the service default, `'off'` or a limit replaces it. */
  rateLimit: RealmRateLimit;
  /** Milliseconds since the epoch. */
  createdTimestamp: number;
}

/** An API key as administrators see it: never the secret. */
export interface ApiKeyInfo {
  clientId: string;
  realm: string;
  name: string;
  permissions: Permission[];
  /** The id of the service-account user `service-account-<clientId>`. */
  serviceAccountUserId: string;
  createdTimestamp: number;
  /** True once revoked: no new tokens. */
  revoked: boolean;
  revokedTimestamp: number | null;
  /** When the key last got a token (to the minute), or null when never. */
  lastUsedTimestamp: number | null;
}

/** An end user as administrators see it: the wire fields plus the administrator role. */
export interface UserInfo extends Member {
  /** Whether the user administers the realm (dashboard access; tokens carry every permission). */
  realmAdmin: boolean;
  /** Whether the user can sign in with a password. */
  hasPassword: boolean;
  /** `user`, or `org-admin` for an organization's default admin user. */
  kind: 'user' | 'org-admin';
}

/** A registered public OpenID Connect client (authorization code flow with PKCE). */
export type ClientInfo = OidcClientRecord;

/** A newly created API key; the only time the secret is shown. */
export interface CreatedApiKey {
  clientId: string;
  clientSecret: string;
  name: string;
  permissions: Permission[];
}

/** A refused administration request; the message is one sentence that names the value. */
export class AdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminError';
  }
}

/** A pragmatic email check: one @, no spaces, a dot in the domain. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Usernames the service itself uses for the users it creates. */
const RESERVED_USERNAME_PREFIXES = ['service-account-', 'org-admin-'];

function realmInfo(realm: RealmRecord): RealmInfo {
  return {
    name: realm.name,
    enabled: realm.enabled,
    tokenLifetimeSeconds: realm.tokenLifetimeSeconds,
    createAdminUser: realm.createAdminUser,
    organizationsClaim: realm.organizationsClaim,
    rateLimit: copyRateLimit(realm.rateLimit),
    createdTimestamp: realm.createdTimestamp,
  };
}

/** A copy of a rate limit setting, so callers cannot change a record through it. */
function copyRateLimit(setting: RealmRateLimit): RealmRateLimit {
  return setting === null || setting === 'off' ? setting : { requests: setting.requests, windowSeconds: setting.windowSeconds };
}

function apiKeyInfo(key: ApiKeyRecord): ApiKeyInfo {
  return {
    clientId: key.clientId,
    realm: key.realm,
    name: key.name,
    permissions: [...key.permissions],
    serviceAccountUserId: key.serviceAccountUserId,
    createdTimestamp: key.createdTimestamp,
    revoked: key.revokedTimestamp !== null,
    revokedTimestamp: key.revokedTimestamp,
    lastUsedTimestamp: key.lastUsedTimestamp,
  };
}

function userInfo(user: UserRecord): UserInfo {
  return { ...toMember(user), realmAdmin: user.realmAdmin, hasPassword: user.passwordHash !== null, kind: user.kind === 'org-admin' ? 'org-admin' : 'user' };
}

/** The permissions of an API key: at least one, each one of the four (duplicates dropped). */
function checkPermissions(keyName: string, permissions: unknown): Permission[] {
  if (!Array.isArray(permissions) || permissions.length === 0) {
    throw new AdminError(`API key "${keyName}" needs at least one permission.`);
  }
  for (const permission of permissions) {
    if (typeof permission !== 'string' || !isPermission(permission)) throw new AdminError(`Unknown permission "${String(permission)}".`);
  }
  return [...new Set(permissions as Permission[])];
}

/** Client ids of registered clients: 1–255 letters, digits, `.`, `_`, `-`. */
const CLIENT_ID = /^[A-Za-z0-9._-]{1,255}$/;

function checkTokenLifetime(seconds: number): void {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_TOKEN_LIFETIME_SECONDS) {
    throw new AdminError(`Token lifetime ${seconds} is not a whole number of seconds between 1 and ${MAX_TOKEN_LIFETIME_SECONDS}.`);
  }
}

/** Optional text field: undefined or null means absent; otherwise 1–255 characters. */
function optionalText(field: string, value: string | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > MAX_NAME_LENGTH) {
    throw new AdminError(`${field} must be a string of at most ${MAX_NAME_LENGTH} characters.`);
  }
  if (hasControlCharacter(value)) throw new AdminError(`${field} must not contain control characters (U+0000 to U+001F).`);
  return value === '' ? null : value;
}

/** Options of {@link Admin}. */
export interface AdminOptions {
  /**
   * Where new realms get their signing key pair. @default a fresh 2048-bit RSA key per realm.
   * Tests pass a pre-generated pool: RSA generation takes up to a second on a busy machine.
   */
  readonly signingKeys?: () => SigningKey;
}

/** Administration API over a {@link Store}. */
export class Admin {
  private readonly newSigningKey: () => SigningKey;

  constructor(
    private readonly store: Store,
    options: AdminOptions = {},
  ) {
    this.newSigningKey = options.signingKeys ?? generateSigningKey;
  }

  /** Creates a realm with a fresh RS256 signing key. */
  async createRealm(name: string, opts: { tokenLifetimeSeconds?: number; createAdminUser?: boolean } = {}): Promise<RealmInfo> {
    // Realm names are DNS labels so that `<realm>.<domain>` works (realmNameProblem).
    const problem = typeof name === 'string' ? realmNameProblem(name) : 'is not a string';
    if (problem) throw new AdminError(`Realm name "${String(name)}" ${problem}.`);
    const tokenLifetimeSeconds = opts.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS;
    checkTokenLifetime(tokenLifetimeSeconds);
    if (await this.store.getRealm(name)) throw new AdminError(`Realm "${name}" already exists.`);
    const key = this.newSigningKey();
    const realm: RealmRecord = {
      name,
      enabled: true,
      tokenLifetimeSeconds,
      createAdminUser: opts.createAdminUser ?? true,
      organizationsClaim: false,
      rateLimit: null,
      createdTimestamp: Date.now(),
      ...key,
    };
    try {
      await this.store.createRealm(realm);
    } catch (error) {
      if (error instanceof StoreConflictError) throw new AdminError(`Realm "${name}" already exists.`);
      throw error;
    }
    return realmInfo(realm);
  }

  /** All realms, ordered by name. */
  async listRealms(): Promise<RealmInfo[]> {
    return (await this.store.listRealms()).map(realmInfo);
  }

  /** One realm, or undefined. */
  async getRealm(name: string): Promise<RealmInfo | undefined> {
    const realm = await this.store.getRealm(name);
    return realm && realmInfo(realm);
  }

  /** Enables or disables a realm; a disabled realm issues no tokens (403 `access_denied`). */
  async setRealmEnabled(name: string, enabled: boolean): Promise<RealmInfo> {
    return this.updateRealm(name, { enabled });
  }

  /**
   * Changes a realm's settings (enabled, token lifetime, whether organizations get a default admin
   * user, whether users' tokens carry the `organizations` claim, the rate limit: null for the
   * service default, `'off'`, or `{ requests, windowSeconds }`).
   * Every value is checked before anything is written.
   */
  async updateRealm(
    name: string,
    update: { enabled?: boolean; tokenLifetimeSeconds?: number; createAdminUser?: boolean; organizationsClaim?: boolean; rateLimit?: RealmRateLimit },
  ): Promise<RealmInfo> {
    if (update.tokenLifetimeSeconds !== undefined) checkTokenLifetime(update.tokenLifetimeSeconds);
    if (update.rateLimit !== undefined) {
      const problem = realmRateLimitProblem(update.rateLimit);
      if (problem) throw new AdminError(problem);
    }
    const realm = await this.store.updateRealm(name, {
      enabled: update.enabled,
      tokenLifetimeSeconds: update.tokenLifetimeSeconds,
      createAdminUser: update.createAdminUser,
      organizationsClaim: update.organizationsClaim,
      rateLimit: update.rateLimit === undefined ? undefined : copyRateLimit(update.rateLimit),
    });
    if (!realm) throw new AdminError(`Realm "${name}" does not exist.`);
    return realmInfo(realm);
  }

  private async requireRealm(name: string): Promise<RealmRecord> {
    const realm = await this.store.getRealm(name);
    if (!realm) throw new AdminError(`Realm "${name}" does not exist.`);
    return realm;
  }

  /**
   * Creates an API key with its service-account user `service-account-<clientId>`.
   * The secret is returned here once and stored only as its HMAC under the store's server-side key.
   */
  async createApiKey(realm: string, opts: { name: string; permissions: string[] }): Promise<CreatedApiKey> {
    await this.requireRealm(realm);
    const name = opts.name;
    if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME_LENGTH) {
      throw new AdminError(`API key name "${String(name)}" must be 1 to ${MAX_NAME_LENGTH} characters.`);
    }
    if (hasControlCharacter(name)) throw new AdminError('API key names must not contain control characters (U+0000 to U+001F).');
    const permissions = checkPermissions(name, opts.permissions);
    const existing = await this.store.listApiKeys(realm);
    if (existing.some((key) => key.name === name && key.revokedTimestamp === null)) {
      throw new AdminError(`Realm "${realm}" already has an API key named "${name}".`);
    }
    const clientId = generateClientId();
    const clientSecret = generateClientSecret();
    const now = Date.now();
    const serviceAccountId = randomUUID();
    try {
      await this.store.createApiKey(
        {
          clientId,
          realm,
          name,
          // A keyed fast hash: the secret is 256 random bits, not a password (auth/secrets.ts).
          secretHash: await new ApiKeySecrets(this.store).hash(clientSecret),
          permissions,
          serviceAccountUserId: serviceAccountId,
          createdTimestamp: now,
          revokedTimestamp: null,
        },
        newUser({ id: serviceAccountId, realm, username: `service-account-${clientId}`, kind: 'service-account', createdTimestamp: now }),
      );
    } catch (error) {
      if (error instanceof StoreConflictError) throw new AdminError(`Realm "${realm}" already has an API key named "${name}".`);
      throw error;
    }
    return { clientId, clientSecret, name, permissions };
  }

  /** API keys of one realm or of all realms; never secrets or hashes. */
  async listApiKeys(realm?: string): Promise<ApiKeyInfo[]> {
    if (realm !== undefined) await this.requireRealm(realm);
    return (await this.store.listApiKeys(realm)).map(apiKeyInfo);
  }

  /** The key `clientId`, of `realm` when given; otherwise an {@link AdminError}. */
  private async requireApiKey(clientId: string, realm?: string): Promise<ApiKeyRecord> {
    const key = await this.store.getApiKey(clientId);
    if (!key || (realm !== undefined && key.realm !== realm)) {
      throw new AdminError(realm === undefined ? `API key "${clientId}" does not exist.` : `Realm "${realm}" has no API key "${clientId}".`);
    }
    return key;
  }

  /**
   * Revokes a key (of `realm` when given): no new tokens; tokens already issued stay valid until
   * they expire.
   */
  async revokeApiKey(clientId: string, realm?: string): Promise<void> {
    await this.requireApiKey(clientId, realm);
    if (!(await this.store.revokeApiKey(clientId, Date.now()))) {
      throw new AdminError(`API key "${clientId}" does not exist.`);
    }
  }

  /** Replaces the permissions of an active key of `realm`; tokens issued before keep theirs until they expire. */
  async setApiKeyPermissions(realm: string, clientId: string, permissions: string[]): Promise<ApiKeyInfo> {
    const key = await this.requireApiKey(clientId, realm);
    const checked = checkPermissions(key.name, permissions);
    if (!(await this.store.setApiKeyPermissions(clientId, checked))) throw new AdminError(`API key "${clientId}" is revoked.`);
    return apiKeyInfo({ ...key, permissions: checked });
  }

  /**
   * Gives an active key of `realm` a new secret and returns it (the only time it is shown); the
   * old secret stops working at once, tokens already issued stay valid until they expire.
   */
  async rotateApiKeySecret(realm: string, clientId: string): Promise<CreatedApiKey> {
    const key = await this.requireApiKey(clientId, realm);
    if (key.revokedTimestamp !== null) throw new AdminError(`API key "${clientId}" is revoked.`);
    const clientSecret = generateClientSecret();
    const newHash = await new ApiKeySecrets(this.store).hash(clientSecret);
    // Compare-and-set: of two rotations at once, one wins and the other is told to try again.
    if (!(await this.store.replaceApiKeySecretHash(clientId, key.secretHash, newHash))) {
      throw new AdminError(`The secret of API key "${clientId}" changed meanwhile; try again.`);
    }
    return { clientId, clientSecret, name: key.name, permissions: key.permissions };
  }

  /** Creates an end user (optionally with a password for the password grant). */
  async createUser(
    realm: string,
    opts: { username: string; email?: string; firstName?: string; lastName?: string; password?: string; realmAdmin?: boolean },
  ): Promise<Member> {
    await this.requireRealm(realm);
    const username = opts.username;
    if (typeof username !== 'string' || username.trim() === '' || username.length > MAX_NAME_LENGTH || /\s/.test(username)) {
      throw new AdminError(`Username "${String(username)}" must be 1 to ${MAX_NAME_LENGTH} characters without spaces.`);
    }
    if (hasControlCharacter(username)) throw new AdminError('Usernames must not contain control characters (U+0000 to U+001F).');
    const lower = username.toLowerCase();
    if (RESERVED_USERNAME_PREFIXES.some((prefix) => lower.startsWith(prefix))) {
      throw new AdminError(`Username "${username}" is reserved for users the service creates itself.`);
    }
    const email = optionalText('Email', opts.email);
    if (email !== null && !EMAIL.test(email)) throw new AdminError(`Email "${email}" is not a valid address.`);
    const firstName = optionalText('First name', opts.firstName);
    const lastName = optionalText('Last name', opts.lastName);
    if (opts.password !== undefined && (typeof opts.password !== 'string' || opts.password.length < 1)) {
      throw new AdminError(`The password of user "${username}" must not be empty.`);
    }
    if (await this.store.findUserByUsername(realm, username)) {
      throw new AdminError(`Realm "${realm}" already has a user named "${username}".`);
    }
    if (email !== null && (await this.store.findUsers(realm, { email, exact: true, max: 1 })).length > 0) {
      throw new AdminError(`Realm "${realm}" already has a user with email "${email}".`);
    }
    const user = newUser({
      id: randomUUID(),
      realm,
      username,
      email,
      firstName,
      lastName,
      createdTimestamp: Date.now(),
      kind: 'user',
      passwordHash: opts.password === undefined ? null : await hashSecret(opts.password),
      realmAdmin: opts.realmAdmin === true,
    });
    try {
      await this.store.createUser(user);
    } catch (error) {
      if (error instanceof StoreConflictError) {
        throw new AdminError(
          error.what === 'email'
            ? `Realm "${realm}" already has a user with email "${email}".`
            : `Realm "${realm}" already has a user named "${username}".`,
        );
      }
      throw error;
    }
    return toMember(user);
  }

  /** End users and organization admin users of a realm, ordered by username (no service accounts). */
  async listUsers(realm: string): Promise<Member[]> {
    await this.requireRealm(realm);
    return (await this.store.findUsers(realm, {})).map(toMember);
  }

  /** One user by username (case-insensitive), or undefined. */
  async findUserByUsername(realm: string, username: string): Promise<Member | undefined> {
    await this.requireRealm(realm);
    const user = await this.store.findUserByUsername(realm, username);
    return user && toMember(user);
  }

  /** End users and organization admin users matching `search`, one page, with the total count. */
  async findUsers(realm: string, opts: { search?: string; first?: number; max?: number } = {}): Promise<{ users: UserInfo[]; total: number }> {
    await this.requireRealm(realm);
    const filter = { search: opts.search, first: opts.first ?? 0, max: opts.max ?? 50 };
    const [users, total] = await Promise.all([this.store.findUsers(realm, filter), this.store.countUsers(realm, { search: opts.search })]);
    return { users: users.map(userInfo), total };
  }

  /** One end user by username with the administrator role, or undefined. */
  async getUserInfo(realm: string, username: string): Promise<UserInfo | undefined> {
    await this.requireRealm(realm);
    const user = await this.store.findUserByUsername(realm, username);
    return user && user.kind !== 'service-account' ? userInfo(user) : undefined;
  }

  /** The end user `username` of `realm`, or an {@link AdminError}. */
  private async requireEndUser(realm: string, by: { username?: string; id?: string }): Promise<UserRecord> {
    await this.requireRealm(realm);
    const user = by.id !== undefined ? await this.store.getUser(realm, by.id) : await this.store.findUserByUsername(realm, by.username ?? '');
    const name = by.username ?? by.id;
    if (!user || user.kind === 'service-account') throw new AdminError(`Realm "${realm}" has no user "${name}".`);
    return user;
  }

  /**
   * Gives or takes the realm administrator role (by username). Only end users may hold it: not
   * organizations' default admin users, not service accounts.
   */
  async setRealmAdmin(realm: string, username: string, realmAdmin: boolean): Promise<UserInfo> {
    const user = await this.requireEndUser(realm, { username });
    if (realmAdmin && user.kind !== 'user') {
      throw new AdminError(`User "${username}" is an organization's default admin user and cannot administer the realm.`);
    }
    const updated = await this.store.updateUser(realm, user.id, { realmAdmin });
    if (!updated) throw new AdminError(`Realm "${realm}" has no user "${username}".`);
    return userInfo(updated);
  }

  /** Sets a new password for an end user (by username). */
  async setPassword(realm: string, username: string, password: string): Promise<void> {
    const user = await this.requireEndUser(realm, { username });
    if (typeof password !== 'string' || password.length < 1) throw new AdminError(`The password of user "${username}" must not be empty.`);
    await this.store.updateUser(realm, user.id, { passwordHash: await hashSecret(password) });
  }

  /** Enables or disables a user (by id); a disabled user cannot sign in or get tokens. */
  async setUserEnabled(realm: string, userId: string, enabled: boolean): Promise<UserInfo> {
    await this.requireEndUser(realm, { id: userId });
    const updated = await this.store.updateUser(realm, userId, { enabled });
    if (!updated) throw new AdminError(`Realm "${realm}" has no user "${userId}".`);
    return userInfo(updated);
  }

  /**
   * Registers a public OpenID Connect client for the authorization code flow with PKCE. Redirect
   * URIs are kept and compared exactly; https only, except http for loopback hosts.
   */
  async createClient(realm: string, opts: { clientId: string; name?: string; redirectUris: string[]; organizationsClaim?: boolean }): Promise<ClientInfo> {
    await this.requireRealm(realm);
    const { clientId } = opts;
    if (typeof clientId !== 'string' || !CLIENT_ID.test(clientId)) {
      throw new AdminError(`Client id "${String(clientId)}" must be 1 to 255 letters, digits, ".", "_" or "-".`);
    }
    if (RESERVED_CLIENT_IDS.includes(clientId)) throw new AdminError(`Client id "${clientId}" is reserved for the service's own clients.`);
    const name = optionalText('Client name', opts.name) ?? clientId;
    if (!Array.isArray(opts.redirectUris) || opts.redirectUris.length === 0) {
      throw new AdminError(`Client "${clientId}" needs at least one redirect URI.`);
    }
    for (const uri of opts.redirectUris) {
      const problem = typeof uri === 'string' ? redirectUriProblem(uri) : 'is not a string';
      if (problem) throw new AdminError(`Redirect URI "${String(uri)}" ${problem}.`);
    }
    const client: OidcClientRecord = {
      realm,
      clientId,
      name,
      redirectUris: [...new Set(opts.redirectUris)],
      createdTimestamp: Date.now(),
      organizationsClaim: opts.organizationsClaim === true,
    };
    try {
      await this.store.createOidcClient(client);
    } catch (error) {
      if (error instanceof StoreConflictError) throw new AdminError(`Realm "${realm}" already has a client "${clientId}".`);
      throw error;
    }
    return client;
  }

  /** The registered clients of a realm, ordered by client id. */
  async listClients(realm: string): Promise<ClientInfo[]> {
    await this.requireRealm(realm);
    return this.store.listOidcClients(realm);
  }

  /** Turns the `organizations` claim of a registered client's user tokens on or off. */
  async setClientOrganizationsClaim(realm: string, clientId: string, organizationsClaim: boolean): Promise<ClientInfo> {
    await this.requireRealm(realm);
    if (!(await this.store.setOidcClientOrganizationsClaim(realm, clientId, organizationsClaim))) {
      throw new AdminError(`Realm "${realm}" has no client "${clientId}".`);
    }
    return (await this.store.getOidcClient(realm, clientId))!;
  }

  /** Removes a registered client; codes it already got can no longer be exchanged by anyone else. */
  async deleteClient(realm: string, clientId: string): Promise<void> {
    await this.requireRealm(realm);
    if (!(await this.store.deleteOidcClient(realm, clientId))) throw new AdminError(`Realm "${realm}" has no client "${clientId}".`);
  }
}
