/**
 * API keys: create (with the key's service-account user), list, revoke, change permissions and
 * rotate the secret. Secrets are shown once and stored only as their HMAC under the store's
 * server-side key ({@link ApiKeySecrets}).
 */
import { randomUUID } from 'node:crypto';
import { isPermission, MAX_NAME_LENGTH, serviceAccountUsername, spoofingProblem, type Permission } from '../../api';
import type { ApiKeySecrets } from '../auth/api-key-secrets';
import { clientRevocationId, MAX_TOKEN_LIFETIME_MS } from '../auth/revocations';
import { generateClientId, generateClientSecret } from '../auth/secrets';
import { hasControlCharacter } from '../text-checks';
import { newUser, StoreConflictError, type ApiKeyRecord, type Store } from '../store/store';
import { AdminError } from './admin-error';
import { requireRealm } from './realms';
import { UNKNOWN_ORIGIN, type ChangeOrigin } from '../events/event';

/** An API key as administrators see it: never the secret. */
export interface ApiKeyInfo {
  clientId: string;
  realm: string;
  name: string;
  permissions: Permission[];
  /** The id of the service-account user `service-account-<clientId>`. */
  serviceAccountUserId: string;
  createdTimestamp: number;
  /** True once revoked: no new tokens, and the ones it was given are refused. */
  revoked: boolean;
  revokedTimestamp: number | null;
  /** When the key last got a token (to the minute), or null when never. */
  lastUsedTimestamp: number | null;
}

/** A newly created API key; the only time the secret is shown. */
export interface CreatedApiKey {
  clientId: string;
  clientSecret: string;
  name: string;
  permissions: Permission[];
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

/** The permissions of an API key: at least one, each one of the documented permissions (`PERMISSIONS`) (duplicates dropped). */
function checkPermissions(keyName: string, permissions: unknown): Permission[] {
  if (!Array.isArray(permissions) || permissions.length === 0) {
    throw new AdminError(`API key "${keyName}" needs at least one permission.`);
  }
  for (const permission of permissions) {
    if (typeof permission !== 'string' || !isPermission(permission)) throw new AdminError(`Unknown permission "${String(permission)}".`);
  }
  return [...new Set(permissions as Permission[])];
}

/** Administration of API keys over a {@link Store}. */
export class ApiKeyAdmin {
  constructor(
    private readonly store: Store,
    private readonly secrets: ApiKeySecrets,
    private readonly now: () => number = Date.now,
    /** Who the changes are made by and from where: written into their events. */
    private readonly origin: ChangeOrigin = UNKNOWN_ORIGIN,
    /** Called after tokens were revoked in the store: the service re-reads its revocation list. */
    private readonly onTokensRevoked: () => void = () => {},
  ) {}

  /**
   * Creates an API key with its service-account user `service-account-<clientId>`.
   * The secret is returned here once and stored only as its HMAC under the store's server-side key.
   */
  async create(realm: string, opts: { name: string; permissions: string[] }): Promise<CreatedApiKey> {
    await requireRealm(this.store, realm);
    const name = opts.name;
    if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME_LENGTH) {
      throw new AdminError(`API key name "${String(name)}" must be 1 to ${MAX_NAME_LENGTH} characters.`);
    }
    if (hasControlCharacter(name)) throw new AdminError('API key names must not contain control characters (U+0000 to U+001F).');
    const spoofing = spoofingProblem(name);
    if (spoofing) throw new AdminError(`API key names ${spoofing}.`);
    const permissions = checkPermissions(name, opts.permissions);
    const existing = await this.store.listApiKeys(realm);
    if (existing.some((key) => key.name === name && key.revokedTimestamp === null)) {
      throw new AdminError(`Realm "${realm}" already has an API key named "${name}".`);
    }
    const clientId = generateClientId();
    const clientSecret = generateClientSecret();
    const now = this.now();
    const serviceAccountId = randomUUID();
    try {
      await this.store.createApiKey(
        {
          clientId,
          realm,
          name,
          // A keyed fast hash: the secret is 256 random bits, not a password (auth/secrets.ts).
          secretHash: await this.secrets.hash(clientSecret),
          permissions,
          serviceAccountUserId: serviceAccountId,
          createdTimestamp: now,
          revokedTimestamp: null,
        },
        newUser({ id: serviceAccountId, realm, username: serviceAccountUsername(clientId), kind: 'service-account', createdTimestamp: now }),
        this.origin,
      );
    } catch (error) {
      if (error instanceof StoreConflictError) throw new AdminError(`Realm "${realm}" already has an API key named "${name}".`);
      throw error;
    }
    return { clientId, clientSecret, name, permissions };
  }

  /** API keys of one realm or of all realms; never secrets or hashes. */
  async list(realm?: string): Promise<ApiKeyInfo[]> {
    if (realm !== undefined) await requireRealm(this.store, realm);
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
   * Revokes a key (of `realm` when given): no new tokens, and the tokens already issued to it are
   * refused too (auth/revocations.ts: at once by this process's service, within the revocation
   * recheck time by every other instance on the store). The tokens' revocation is written first,
   * so a failure between the two writes never leaves a revoked key with living tokens.
   */
  async revoke(clientId: string, realm?: string): Promise<void> {
    const key = await this.requireApiKey(clientId, realm);
    const now = this.now();
    await this.store.revokeToken({ realm: key.realm, jti: clientRevocationId(clientId), expiresTimestamp: now + MAX_TOKEN_LIFETIME_MS, revokedTimestamp: now });
    if (!(await this.store.revokeApiKey(clientId, now, this.origin))) {
      throw new AdminError(`API key "${clientId}" does not exist.`);
    }
    this.onTokensRevoked();
  }

  /** Replaces the permissions of an active key of `realm`; tokens issued before keep theirs until they expire. */
  async setPermissions(realm: string, clientId: string, permissions: string[]): Promise<ApiKeyInfo> {
    const key = await this.requireApiKey(clientId, realm);
    const checked = checkPermissions(key.name, permissions);
    if (!(await this.store.setApiKeyPermissions(clientId, checked, this.origin))) throw new AdminError(`API key "${clientId}" is revoked.`);
    return apiKeyInfo({ ...key, permissions: checked });
  }

  /**
   * Gives an active key of `realm` a new secret and returns it (the only time it is shown); the
   * old secret stops working at once, tokens already issued stay valid until they expire.
   */
  async rotateSecret(realm: string, clientId: string): Promise<CreatedApiKey> {
    const key = await this.requireApiKey(clientId, realm);
    if (key.revokedTimestamp !== null) throw new AdminError(`API key "${clientId}" is revoked.`);
    const clientSecret = generateClientSecret();
    const newHash = await this.secrets.hash(clientSecret);
    // Compare-and-set: of two rotations at once, one wins and the other is told to try again.
    if (!(await this.store.replaceApiKeySecretHash(clientId, key.secretHash, newHash, this.origin))) {
      throw new AdminError(`The secret of API key "${clientId}" changed meanwhile; try again.`);
    }
    return { clientId, clientSecret, name: key.name, permissions: key.permissions };
  }
}
