/**
 * Realms: create, list, read and change a realm's settings (enabled, token lifetime, default admin
 * users of new organizations, the organizations claim of users' tokens, rate limit).
 */
import { realmNameProblem } from '../../api';
import { generateSigningKey, MAX_TOKEN_LIFETIME_SECONDS, type SigningKey } from '../auth/jwt';
import { realmRateLimitProblem, type RealmRateLimit } from '../rate-limit';
import { StoreConflictError, type RealmRecord, type Store } from '../store/store';
import { AdminError } from './admin-error';
import { UNKNOWN_ORIGIN, type ChangeOrigin } from '../events/event';

/** Default lifetime of access tokens (docs/guides/service.md). */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 300;
/** Longest access token lifetime a realm may set (one day); see auth/jwt.ts. */
export { MAX_TOKEN_LIFETIME_SECONDS } from '../auth/jwt';

/** A realm as administrators see it: the stored realm's settings, never its key material. */
export type RealmInfo = Pick<RealmRecord, 'name' | 'enabled' | 'tokenLifetimeSeconds' | 'createAdminUser' | 'organizationsClaim' | 'rateLimit' | 'createdTimestamp'>;

/** The settings {@link RealmAdmin.update} may change; an absent field stays as it is. */
export interface RealmInfoUpdate {
  enabled?: boolean;
  tokenLifetimeSeconds?: number;
  createAdminUser?: boolean;
  /** Whether every token a user gets in the realm carries the `organizations` claim. */
  organizationsClaim?: boolean;
  rateLimit?: RealmRateLimit;
  /** Days the realm keeps its events (audit log), or null for ever; pruning deletes older ones. */
  eventRetentionDays?: number | null;
}

/** The longest event retention an administrator may set (ten years). */
export const MAX_EVENT_RETENTION_DAYS = 3650;

function checkEventRetention(days: number | null): void {
  if (days !== null && (!Number.isInteger(days) || days < 1 || days > MAX_EVENT_RETENTION_DAYS)) {
    throw new AdminError(`Event retention ${days} is not a whole number of days between 1 and ${MAX_EVENT_RETENTION_DAYS} (or none, to keep events for ever).`);
  }
}

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

function checkTokenLifetime(seconds: number): void {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_TOKEN_LIFETIME_SECONDS) {
    throw new AdminError(`Token lifetime ${seconds} is not a whole number of seconds between 1 and ${MAX_TOKEN_LIFETIME_SECONDS}.`);
  }
}

/** The realm `name`, or an {@link AdminError} saying it does not exist (every area checks this first). */
export async function requireRealm(store: Store, name: string): Promise<RealmRecord> {
  const realm = await store.getRealm(name);
  if (!realm) throw new AdminError(`Realm "${name}" does not exist.`);
  return realm;
}

/** Administration of realms over a {@link Store}. */
export class RealmAdmin {
  constructor(
    private readonly store: Store,
    private readonly newSigningKey: () => SigningKey = generateSigningKey,
    private readonly now: () => number = Date.now,
    /** Who the changes are made by and from where: written into their events. */
    private readonly origin: ChangeOrigin = UNKNOWN_ORIGIN,
  ) {}

  /** Creates a realm with a fresh RS256 signing key. */
  async create(name: string, opts: { tokenLifetimeSeconds?: number; createAdminUser?: boolean } = {}): Promise<RealmInfo> {
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
      createdTimestamp: this.now(),
      ...key,
    };
    try {
      await this.store.createRealm(realm, this.origin);
    } catch (error) {
      if (error instanceof StoreConflictError) throw new AdminError(`Realm "${name}" already exists.`);
      throw error;
    }
    return realmInfo(realm);
  }

  /** All realms, ordered by name. */
  async list(): Promise<RealmInfo[]> {
    return (await this.store.listRealms()).map(realmInfo);
  }

  /** One realm, or undefined. */
  async get(name: string): Promise<RealmInfo | undefined> {
    const realm = await this.store.getRealm(name);
    return realm && realmInfo(realm);
  }

  /**
   * Changes a realm's settings (enabled, token lifetime, whether organizations get a default admin
   * user, whether users' tokens carry the `organizations` claim, the rate limit: null for the
   * service default, `'off'`, or `{ requests, windowSeconds }`).
   * Every value is checked before anything is written.
   */
  async update(name: string, update: RealmInfoUpdate): Promise<RealmInfo> {
    if (update.tokenLifetimeSeconds !== undefined) checkTokenLifetime(update.tokenLifetimeSeconds);
    if (update.eventRetentionDays !== undefined) checkEventRetention(update.eventRetentionDays);
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
    }, this.origin);
    if (!realm) throw new AdminError(`Realm "${name}" does not exist.`);
    if (update.eventRetentionDays !== undefined) await this.store.events.setRetentionDays(name, update.eventRetentionDays, this.origin);
    return realmInfo(realm);
  }

  /** Days the realm keeps its events, or null for ever. */
  async eventRetentionDays(name: string): Promise<number | null> {
    await requireRealm(this.store, name);
    return this.store.events.retentionDays(name);
  }
}
