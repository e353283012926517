/**
 * Administration of the service (realms, API keys, users): what the `orgadmin` command line and
 * the tests use. Not exposed over HTTP. Every bad input throws {@link AdminError} before anything
 * is written.
 */
import { randomUUID } from 'node:crypto';
import { isPermission, MAX_NAME_LENGTH, type Member, type Permission } from '../api';
import { generateSigningKey } from './auth/jwt';
import { hasControlCharacter } from './text-checks';
import { generateClientId, generateClientSecret, hashSecret } from './auth/secrets';
import { newUser, StoreConflictError, toMember, type ApiKeyRecord, type RealmRecord, type Store } from './store/store';

/** Default lifetime of access tokens (SERVICE_API.md). */
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
}

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

/** Realm names are DNS labels so that `<realm>.<domain>` works: lowercase letters, digits, hyphens. */
const REALM_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
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
    createdTimestamp: realm.createdTimestamp,
  };
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
  };
}

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

/** Administration API over a {@link Store}. */
export class Admin {
  constructor(private readonly store: Store) {}

  /** Creates a realm with a fresh RS256 signing key. */
  async createRealm(name: string, opts: { tokenLifetimeSeconds?: number; createAdminUser?: boolean } = {}): Promise<RealmInfo> {
    if (typeof name !== 'string' || !REALM_NAME.test(name)) {
      throw new AdminError(
        `Realm name "${String(name)}" is not valid: use 1 to 63 lowercase letters, digits or hyphens, not starting or ending with a hyphen.`,
      );
    }
    const tokenLifetimeSeconds = opts.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS;
    checkTokenLifetime(tokenLifetimeSeconds);
    if (await this.store.getRealm(name)) throw new AdminError(`Realm "${name}" already exists.`);
    const key = generateSigningKey();
    const realm: RealmRecord = {
      name,
      enabled: true,
      tokenLifetimeSeconds,
      createAdminUser: opts.createAdminUser ?? true,
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

  /** Changes a realm's settings (enabled, token lifetime, whether organizations get a default admin user). */
  async updateRealm(
    name: string,
    update: { enabled?: boolean; tokenLifetimeSeconds?: number; createAdminUser?: boolean },
  ): Promise<RealmInfo> {
    if (update.tokenLifetimeSeconds !== undefined) checkTokenLifetime(update.tokenLifetimeSeconds);
    const realm = await this.store.updateRealm(name, update);
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
   * The secret is returned here once and stored only as a slow hash.
   */
  async createApiKey(realm: string, opts: { name: string; permissions: string[] }): Promise<CreatedApiKey> {
    await this.requireRealm(realm);
    const name = opts.name;
    if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME_LENGTH) {
      throw new AdminError(`API key name "${String(name)}" must be 1 to ${MAX_NAME_LENGTH} characters.`);
    }
    if (hasControlCharacter(name)) throw new AdminError('API key names must not contain control characters (U+0000 to U+001F).');
    if (!Array.isArray(opts.permissions) || opts.permissions.length === 0) {
      throw new AdminError(`API key "${name}" needs at least one permission.`);
    }
    for (const permission of opts.permissions) {
      if (!isPermission(permission)) throw new AdminError(`Unknown permission "${permission}".`);
    }
    const permissions = [...new Set(opts.permissions)] as Permission[];
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
          secretHash: await hashSecret(clientSecret),
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

  /** Revokes a key: no new tokens; tokens already issued stay valid until they expire. */
  async revokeApiKey(clientId: string): Promise<void> {
    if (!(await this.store.revokeApiKey(clientId, Date.now()))) {
      throw new AdminError(`API key "${clientId}" does not exist.`);
    }
  }

  /** Creates an end user (optionally with a password for the password grant). */
  async createUser(
    realm: string,
    opts: { username: string; email?: string; firstName?: string; lastName?: string; password?: string },
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
}
