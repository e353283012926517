/**
 * {@link Store} on an embedded SQLite file (better-sqlite3). better-sqlite3 is synchronous, so
 * every method runs to completion inside one transaction before the event loop moves on; the
 * uniqueness rules still live in the schema so that a second process on the same file cannot
 * break them either.
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_ORGANIZATION_ROLES, type Attributes, type Organization, type Permission } from '../../api';
import {
  StoreConflictError,
  type ApiKeyRecord,
  type AuthorizationCodeRecord,
  type MemberFilter,
  type MemberRolesChange,
  type NewApiKey,
  type NewRole,
  type NewUser,
  type OidcClientRecord,
  type OrganizationFilter,
  type RealmRecord,
  type RealmSettings,
  type RealmUpdate,
  type RevokedToken,
  type RoleChange,
  type RoleCreation,
  type RoleRecord,
  type OrganizationWithRoles,
  type Store,
  type UserFilter,
  type UserRecord,
  type UserUpdate,
} from './store';
import { sqliteConflict } from './conflicts';
import { readMigrations, type Migration } from './migrations';
import { realmRateLimitColumns, rowReaders, JSON_AS_TEXT, REALM_SETTINGS_COLUMNS } from './rows';
import { RealmCache, checkedRecheckMs } from './realm-cache';
import { listKey, PageBoundaries, type KeysetQuery } from './page-boundaries';
import { MembershipChecks, type MembershipQuestion } from './membership-checks';
import {
  apiKeyChange,
  apiKeySecretChange,
  membershipChange,
  oidcClientCreated,
  oidcClientDeleted,
  oidcClientUpdated,
  organizationChange,
  organizationDeleted,
  realmChange,
  roleChange,
  roleGrantChange,
  userChange,
  userUpdateChange,
} from '../events/changes';
import { adminEvent, UNKNOWN_ORIGIN, type ChangeDescription, type ChangeOrigin } from '../events/event';
import { SqliteEvents } from './sqlite-events';
import { SqliteSsoStore } from './sqlite-sso-store';
import { groupRolesByOrganization } from './role-rows';

/**
 * Directory of the `.sql` migrations. The same relative path works from `src/` (jest through SWC)
 * and from `dist/` because the build script copies `src/service/store/migrations` next to the
 * compiled files.
 */
export const SQLITE_MIGRATIONS_DIR = join(__dirname, 'migrations', 'sqlite');

type Row = Record<string, unknown>;

/** Maps a SQLite unique-constraint failure to the rule that was broken. */
function conflictFrom(error: unknown): StoreConflictError | undefined {
  const code = (error as { code?: unknown }).code;
  if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return undefined;
  return sqliteConflict(String((error as Error).message));
}

/** Runs `fn`, turning unique-constraint failures into {@link StoreConflictError}. */
function mapConflicts<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw conflictFrom(error) ?? error;
  }
}


// JSON columns are stored as text.
const { realmFromRow, realmSettingsFromRow, userFromRow, orgFromRow, apiKeyFromRow, revokedTokenFromRow, oidcClientFromRow, authorizationCodeFromRow, roleFromRow } =
  rowReaders(JSON_AS_TEXT);

/** `LIMIT ? OFFSET ?` values; SQLite reads LIMIT -1 as "no limit". */
function page(first: number | undefined, max: number | undefined): [number, number] {
  return [max ?? -1, first ?? 0];
}

/**
 * Most prepared statements kept per store. The fixed queries are a few dozen; filters with a
 * variable number of terms make more shapes, and past this bound those are prepared per call.
 */
const MAX_CACHED_STATEMENTS = 256;

/**
 * Most member rows read in one go (see {@link SqliteStore.listMembers}), so a membership check
 * waits at most about that long behind a large page. Measured with `bench:service` (checks while a
 * 10,000-member organization is paged with max=1000, against idle checks): 0.50× with chunks of
 * 200, 0.60× with chunks of 100 (the whole refresh then takes 0.38 s instead of 0.32 s).
 */
export const MEMBER_PAGE_CHUNK = 100;

/** Re-exported where callers of {@link SqliteStore.open} have always found it. */
export { DEFAULT_REALM_RECHECK_MS } from './realm-cache';

/** Options of {@link SqliteStore.open}. */
export interface SqliteStoreOptions {
  /** Directory of the `.sql` migrations (default {@link SQLITE_MIGRATIONS_DIR}). */
  migrationsDir?: string;
  /**
   * Most milliseconds between checks for realm changes committed by other connections
   * (default `DEFAULT_REALM_RECHECK_MS` of realm-cache.ts); 0 checks on every read.
   */
  realmRecheckMs?: number;
  /**
   * The clock of the realm recheck, in milliseconds (default `performance.now`). Tests inject one
   * so they can step past the recheck interval without sleeping.
   */
  now?: () => number;
  /** The clock of event times, milliseconds since the epoch (default `Date.now`); tests inject one. */
  clock?: () => number;
  /**
   * Whether changes record their events (default true). False only to measure what recording
   * costs (`bench:service`): the audit log and webhooks then miss every change.
   */
  recordEvents?: boolean;
}

/** The SQLite implementation of {@link Store}. */
export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private closed = false;
  /** Prepared statements by SQL text (see {@link SqliteStore.statement}). */
  private readonly statements = new Map<string, Database.Statement>();
  /**
   * Realm settings read before (realm-cache.ts). Changes committed by other connections are noticed
   * through SQLite's `PRAGMA data_version`, which changes on every such commit.
   */
  private readonly realmCache: RealmCache;
  /** Remembered page boundaries of member lists, by membership seq (page-boundaries.ts). */
  private readonly memberPages = new PageBoundaries<number>();
  /** Remembered page boundaries of organization lists, by name (page-boundaries.ts). */
  private readonly organizationPages = new PageBoundaries<string>();
  /** Remembered page boundaries of user lists, by lower-cased username (page-boundaries.ts). */
  private readonly userPages = new PageBoundaries<string>();
  /** Membership checks of one turn, read in one transaction (membership-checks.ts). */
  private readonly membershipChecks: MembershipChecks;
  /** The audit log, webhooks and delivery outbox (sqlite-events.ts). */
  readonly events: SqliteEvents;
  /** The clock of event times. */
  private readonly clock: () => number;
  private readonly recordEvents: boolean;
  /** Versions of this build's migrations (see {@link SqliteStore.pendingMigrations}). */
  private readonly migrationVersions: readonly number[];
  /** Verified domains, identity providers and brokered sign-ins (sqlite-sso-store.ts). */
  readonly sso: SqliteSsoStore;

  private constructor(db: Database.Database, options: SqliteStoreOptions, migrationVersions: readonly number[]) {
    this.db = db;
    this.clock = options.clock ?? Date.now;
    this.recordEvents = options.recordEvents ?? true;
    this.events = new SqliteEvents(db, (sql) => this.statement(sql), this.clock);
    this.migrationVersions = migrationVersions;
    this.sso = new SqliteSsoStore({
      db,
      statement: (sql) => this.statement(sql),
      insertUser: (user) => this.insertUser(user),
      mapConflicts,
      recordChange: (realm, change, origin) => this.recordChange(realm, change, origin),
      grantRoles: (realm, orgId, userId, names, timestamp, origin) => this.writeRoleChanges(realm, orgId, userId, names, 'grant', timestamp, origin),
    });
    // One read transaction for the batch: the shared lock is taken and released once, not per check.
    const answerChecks = db.transaction((questions: readonly MembershipQuestion[]) => {
      const statement = this.statement(
        'SELECT 1 FROM memberships WHERE realm = ? AND organization_id = ? AND user_id = ?',
      );
      return questions.map(({ realm, orgId, userId }) => statement.get(realm, orgId, userId) !== undefined);
    });
    this.membershipChecks = new MembershipChecks((questions) => answerChecks(questions));
    this.realmCache = new RealmCache(
      {
        changeMark: async () => Number((this.statement('PRAGMA data_version').get() as Row).data_version),
        readSettings: async (name) => {
          const row = this.statement(`SELECT ${REALM_SETTINGS_COLUMNS} FROM realms WHERE name = ?`).get(name) as Row | undefined;
          return row && realmSettingsFromRow(row);
        },
      },
      { recheckMs: options.realmRecheckMs, now: options.now },
    );
  }

  /**
   * Opens (creating if needed) the SQLite file, sets WAL, foreign keys and a busy timeout, and
   * applies pending migrations. `':memory:'` gives a private in-memory database.
   */
  static open(file: string, options: SqliteStoreOptions = {}): SqliteStore {
    checkedRecheckMs(options.realmRecheckMs);
    // Read first, so that a bad migrations directory leaves no file behind.
    const migrations = readMigrations(options.migrationsDir ?? SQLITE_MIGRATIONS_DIR);
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const db = new Database(file);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      db.pragma('synchronous = NORMAL');
      SqliteStore.migrate(db, migrations);
    } catch (error) {
      db.close();
      throw error;
    }
    return new SqliteStore(db, options, migrations.map((migration) => migration.version));
  }

  /**
   * Applies every migration not recorded yet, each in its own transaction. Foreign keys are off
   * while they run, as SQLite's procedure for changing a table's keys requires (a migration
   * rebuilds such a table: a new one filled from the old, the old one dropped, the new renamed;
   * with foreign keys on, dropping the old table would cascade into its children), and every
   * foreign key is checked before each migration commits: one that leaves a dangling reference
   * rolls back and the store does not open.
   */
  private static migrate(db: Database.Database, migrations: Migration[]): void {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_timestamp INTEGER NOT NULL)`);
    const applied = new Set(
      (db.prepare('SELECT version FROM schema_migrations').all() as Row[]).map((row) => Number(row.version)),
    );
    const pending = migrations.filter((migration) => !applied.has(migration.version));
    if (pending.length === 0) return;
    // Outside any transaction: SQLite ignores this pragma inside one.
    db.pragma('foreign_keys = OFF');
    try {
      for (const migration of pending) {
        db.transaction(() => {
          db.exec(migration.sql);
          const dangling = db.pragma('foreign_key_check') as Row[];
          if (dangling.length > 0) {
            const first = dangling[0]!;
            throw new Error(
              `Migration ${migration.name} leaves ${dangling.length} row(s) whose foreign key names no row (first: table ${String(first.table)}, parent ${String(first.parent)}); nothing of it was applied.`,
            );
          }
          db.prepare('INSERT INTO schema_migrations (version, name, applied_timestamp) VALUES (?, ?, ?)').run(
            migration.version,
            migration.name,
            Date.now(),
          );
        }).immediate();
      }
    } finally {
      db.pragma('foreign_keys = ON');
    }
  }

  /**
   * The prepared statement for `sql`, compiled on first use and kept. Why: preparing parses and
   * plans the SQL on every call, a visible share of a cheap request such as a membership check;
   * SQLite re-prepares a kept statement by itself if the schema changes under it.
   */
  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      if (this.statements.size < MAX_CACHED_STATEMENTS) this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Records the event of a change of `realm`. Call it inside the change's transaction
   * (`this.db.transaction(…)`), after the change was made and only when it changed something: the
   * event then commits or rolls back with the change. This is how a write method of this store
   * records its event (the descriptions are in events/changes.ts).
   */
  private recordChange(realm: string, change: ChangeDescription, origin: ChangeOrigin | undefined): void {
    if (this.recordEvents) this.events.write(adminEvent(realm, change, origin ?? UNKNOWN_ORIGIN, this.clock()));
  }

  /** Versions of the applied migrations, oldest first (for tests and diagnostics). */
  async appliedMigrations(): Promise<Array<{ version: number; name: string }>> {
    return (this.statement('SELECT version, name FROM schema_migrations ORDER BY version').all() as Row[]).map(
      (row) => ({ version: Number(row.version), name: String(row.name) }),
    );
  }

  async pendingMigrations(): Promise<number[]> {
    const applied = new Set((await this.appliedMigrations()).map((migration) => migration.version));
    return this.migrationVersions.filter((version) => !applied.has(version));
  }

  // Realms ---------------------------------------------------------------------------------------

  async createRealm(realm: RealmRecord, origin?: ChangeOrigin): Promise<void> {
    mapConflicts(() => this.db.transaction(() => {
      this.statement(
        `INSERT INTO realms (name, enabled, token_lifetime_seconds, create_admin_user, organizations_claim, rate_limit_requests,
           rate_limit_window_seconds, created_timestamp, private_key_pem, public_key_pem, key_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        realm.name,
        realm.enabled ? 1 : 0,
        realm.tokenLifetimeSeconds,
        realm.createAdminUser ? 1 : 0,
        realm.organizationsClaim ? 1 : 0,
        ...realmRateLimitColumns(realm.rateLimit),
        realm.createdTimestamp,
        realm.privateKeyPem,
        realm.publicKeyPem,
        realm.keyId,
      );
      this.recordChange(realm.name, realmChange('CREATE', { realm, eventRetentionDays: null }), origin);
    }).immediate());
    this.realmCache.forget();
  }

  async getRealm(name: string): Promise<RealmRecord | undefined> {
    const row = this.statement('SELECT * FROM realms WHERE name = ?').get(name) as Row | undefined;
    return row && realmFromRow(row);
  }

  async getRealmSettings(name: string): Promise<RealmSettings | undefined> {
    return this.realmCache.get(name);
  }

  cachedRealmSettings(name: string): RealmSettings | undefined {
    return this.realmCache.peek(name);
  }

  async listRealms(): Promise<RealmRecord[]> {
    return (this.statement('SELECT * FROM realms ORDER BY name').all() as Row[]).map(realmFromRow);
  }

  async updateRealm(name: string, update: RealmUpdate, origin?: ChangeOrigin): Promise<RealmRecord | undefined> {
    try {
      return this.writeRealm(name, update, origin);
    } finally {
      this.realmCache.forget();
    }
  }

  private writeRealm(name: string, update: RealmUpdate, origin: ChangeOrigin | undefined): RealmRecord | undefined {
    return this.db.transaction(() => {
      const sets: string[] = [];
      const values: unknown[] = [];
      if (update.enabled !== undefined) {
        sets.push('enabled = ?');
        values.push(update.enabled ? 1 : 0);
      }
      if (update.tokenLifetimeSeconds !== undefined) {
        sets.push('token_lifetime_seconds = ?');
        values.push(update.tokenLifetimeSeconds);
      }
      if (update.createAdminUser !== undefined) {
        sets.push('create_admin_user = ?');
        values.push(update.createAdminUser ? 1 : 0);
      }
      if (update.organizationsClaim !== undefined) {
        sets.push('organizations_claim = ?');
        values.push(update.organizationsClaim ? 1 : 0);
      }
      if (update.rateLimit !== undefined) {
        sets.push('rate_limit_requests = ?', 'rate_limit_window_seconds = ?');
        values.push(...realmRateLimitColumns(update.rateLimit));
      }
      if (sets.length > 0) this.statement(`UPDATE realms SET ${sets.join(', ')} WHERE name = ?`).run(...values, name);
      const row = this.statement('SELECT * FROM realms WHERE name = ?').get(name) as Row | undefined;
      if (!row) return undefined;
      const realm = realmFromRow(row);
      if (sets.length > 0) {
        const retention = this.statement('SELECT days FROM event_retention WHERE realm = ?').get(name) as Row | undefined;
        this.recordChange(name, realmChange('UPDATE', { realm, eventRetentionDays: retention ? Number(retention.days) : null }), origin);
      }
      return realm;
    }).immediate();
  }

  // Users ----------------------------------------------------------------------------------------

  private insertUser(user: NewUser): void {
    this.statement(
      `INSERT INTO users (id, realm, username, email, first_name, last_name, email_verified, enabled,
         created_timestamp, kind, admin_of_organization, password_hash, realm_admin)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      user.id,
      user.realm,
      user.username,
      user.email,
      user.firstName,
      user.lastName,
      user.emailVerified ? 1 : 0,
      user.enabled ? 1 : 0,
      user.createdTimestamp,
      user.kind,
      user.adminOfOrganization,
      user.passwordHash,
      user.realmAdmin ? 1 : 0,
    );
  }

  async createUser(user: NewUser, origin?: ChangeOrigin): Promise<void> {
    mapConflicts(() =>
      this.db
        .transaction(() => {
          this.insertUser(user);
          this.recordChange(user.realm, userChange('CREATE', { realmAdmin: false, ...user }), origin);
        })
        .immediate(),
    );
  }

  async getUser(realm: string, id: string): Promise<UserRecord | undefined> {
    const row = this.statement('SELECT * FROM users WHERE realm = ? AND id = ?').get(realm, id) as Row | undefined;
    return row && userFromRow(row);
  }

  async findUserByUsername(realm: string, username: string): Promise<UserRecord | undefined> {
    const row = this.statement('SELECT * FROM users WHERE realm = ? AND lower(username) = lower(?)')
      .get(realm, username) as Row | undefined;
    return row && userFromRow(row);
  }

  private userWhere(realm: string, filter: UserFilter): [string, unknown[]] {
    const where = ["realm = ?", "kind <> 'service-account'"];
    const values: unknown[] = [realm];
    for (const [column, value] of [
      ['username', filter.username],
      ['email', filter.email],
    ] as const) {
      if (value === undefined) continue;
      if (filter.exact) {
        // `IS NOT NULL` changes no answer (lower(NULL) matches nothing) but lets SQLite use the
        // case-insensitive partial index users_realm_email (realm, lower(email)) WHERE email IS NOT
        // NULL: SQLite proves a partial index's WHERE only from terms on the bare column.
        where.push(`${column} IS NOT NULL AND lower(${column}) = lower(?)`);
        values.push(value);
      } else {
        where.push(`instr(lower(coalesce(${column}, '')), lower(?)) > 0`);
        values.push(value);
      }
    }
    if (filter.search !== undefined && filter.search !== '') {
      where.push(
        `(instr(lower(username), lower(?)) > 0 OR instr(lower(coalesce(email, '')), lower(?)) > 0
          OR instr(lower(coalesce(first_name, '')), lower(?)) > 0 OR instr(lower(coalesce(last_name, '')), lower(?)) > 0)`,
      );
      values.push(filter.search, filter.search, filter.search, filter.search);
    }
    return [where.join(' AND '), values];
  }

  /**
   * A page of the realm's users, read along the (realm, lower(username)) index: after a remembered
   * boundary's username when the list is unchanged since (page-boundaries.ts), else by position.
   */
  async findUsers(realm: string, filter: UserFilter): Promise<UserRecord[]> {
    const [where, values] = this.userWhere(realm, filter);
    const rows = await this.userPages.page(
      listKey(realm, filter),
      filter,
      async (after, offset) =>
        this.keysetPage(realm, 'users', { columns: '*', from: 'users', sortKey: 'lower(username)', where, values }, after, offset, filter.max),
      (row) => String(row.sort_key),
    );
    return (rows ?? []).map(userFromRow);
  }

  /**
   * Rows of `query` in its sort key's order, after sort key `after` (undefined: from the start),
   * skipping `offset`, at most `max`, each with its `sort_key`, together with the version of the
   * realm's `list` (migration 006), from one snapshot.
   */
  private keysetPage(
    realm: string,
    list: 'organizations' | 'users',
    query: KeysetQuery & { values: unknown[] },
    after: string | undefined,
    offset: number,
    max: number | undefined,
  ): { version: number; rows: Row[] } {
    const { columns, from, sortKey, where, values } = query;
    const selected = `SELECT ${columns}, ${sortKey} AS sort_key FROM ${from}`;
    return this.db.transaction(() => ({
      version: this.listVersion(realm, list),
      rows: (after === undefined
        ? this.statement(`${selected} WHERE ${where} ORDER BY ${sortKey} LIMIT ? OFFSET ?`).all(...values, ...page(offset, max))
        : this.statement(`${selected} WHERE ${where} AND ${sortKey} > ? ORDER BY ${sortKey} LIMIT ?`).all(...values, after, max ?? -1)) as Row[],
    }))();
  }

  /** The version of a realm's organization or user list (migration 006; 0 before its first change). */
  private listVersion(realm: string, list: 'organizations' | 'users'): number {
    const row = this.statement('SELECT version FROM list_versions WHERE realm = ? AND list = ?').get(realm, list) as Row | undefined;
    return row === undefined ? 0 : Number(row.version);
  }

  async countUsers(realm: string, filter: UserFilter): Promise<number> {
    const [where, values] = this.userWhere(realm, filter);
    return Number((this.statement(`SELECT count(*) AS n FROM users WHERE ${where}`).get(...values) as Row).n);
  }

  async updateUser(realm: string, id: string, update: UserUpdate, origin?: ChangeOrigin): Promise<UserRecord | undefined> {
    return this.db.transaction(() => {
      if (update.enabled !== undefined) {
        this.statement('UPDATE users SET enabled = ? WHERE realm = ? AND id = ?').run(update.enabled ? 1 : 0, realm, id);
      }
      if (update.realmAdmin !== undefined) {
        this.statement('UPDATE users SET realm_admin = ? WHERE realm = ? AND id = ?').run(update.realmAdmin ? 1 : 0, realm, id);
      }
      if (update.passwordHash !== undefined) {
        this.statement('UPDATE users SET password_hash = ? WHERE realm = ? AND id = ?').run(update.passwordHash, realm, id);
      }
      const row = this.statement('SELECT * FROM users WHERE realm = ? AND id = ?').get(realm, id) as Row | undefined;
      if (!row) return undefined;
      const user = userFromRow(row);
      if (Object.values(update).some((value) => value !== undefined)) this.recordChange(realm, userUpdateChange(update, user), origin);
      return user;
    }).immediate();
  }

  // API keys -------------------------------------------------------------------------------------

  async createApiKey(key: NewApiKey, serviceAccount: NewUser, origin?: ChangeOrigin): Promise<void> {
    mapConflicts(() =>
      this.db
        .transaction(() => {
          this.insertUser(serviceAccount);
          this.statement(
            `INSERT INTO api_keys (client_id, realm, name, secret_hash, permissions, service_account_user_id,
               created_timestamp, revoked_timestamp, last_used_timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          ).run(
            key.clientId,
            key.realm,
            key.name,
            key.secretHash,
            JSON.stringify(key.permissions),
            key.serviceAccountUserId,
            key.createdTimestamp,
            key.revokedTimestamp,
            key.lastUsedTimestamp ?? null,
          );
          this.recordChange(key.realm, apiKeyChange('CREATE', { ...key, lastUsedTimestamp: key.lastUsedTimestamp ?? null }), origin);
        })
        .immediate(),
    );
  }

  async getApiKey(clientId: string): Promise<ApiKeyRecord | undefined> {
    const row = this.statement('SELECT * FROM api_keys WHERE client_id = ?').get(clientId) as Row | undefined;
    return row && apiKeyFromRow(row);
  }

  async listApiKeys(realm?: string): Promise<ApiKeyRecord[]> {
    const rows = (
      realm === undefined
        ? this.statement('SELECT * FROM api_keys ORDER BY realm, created_timestamp, rowid').all()
        : this.statement('SELECT * FROM api_keys WHERE realm = ? ORDER BY created_timestamp, rowid').all(realm)
    ) as Row[];
    return rows.map(apiKeyFromRow);
  }

  async revokeApiKey(clientId: string, revokedTimestamp: number, origin?: ChangeOrigin): Promise<boolean> {
    return this.db.transaction(() => {
      const exists = this.statement('SELECT 1 FROM api_keys WHERE client_id = ?').get(clientId);
      if (!exists) return false;
      const revoked = this.statement('UPDATE api_keys SET revoked_timestamp = ? WHERE client_id = ? AND revoked_timestamp IS NULL RETURNING *')
        .get(revokedTimestamp, clientId) as Row | undefined;
      if (revoked) {
        const key = apiKeyFromRow(revoked);
        this.recordChange(key.realm, apiKeyChange('UPDATE', key), origin);
      }
      return true;
    }).immediate();
  }

  async replaceApiKeySecretHash(clientId: string, expectedHash: string, newHash: string, rotatedBy?: ChangeOrigin): Promise<boolean> {
    return this.db.transaction(() => {
      const row = this.statement('UPDATE api_keys SET secret_hash = ? WHERE client_id = ? AND secret_hash = ? RETURNING *')
        .get(newHash, clientId, expectedHash) as Row | undefined;
      if (!row) return false;
      if (rotatedBy) {
        const key = apiKeyFromRow(row);
        this.recordChange(key.realm, apiKeySecretChange(key), rotatedBy);
      }
      return true;
    }).immediate();
  }

  async setApiKeyPermissions(clientId: string, permissions: Permission[], origin?: ChangeOrigin): Promise<boolean> {
    return this.db.transaction(() => {
      const row = this.statement('UPDATE api_keys SET permissions = ? WHERE client_id = ? AND revoked_timestamp IS NULL RETURNING *')
        .get(JSON.stringify(permissions), clientId) as Row | undefined;
      if (!row) return false;
      const key = apiKeyFromRow(row);
      this.recordChange(key.realm, apiKeyChange('UPDATE', key), origin);
      return true;
    }).immediate();
  }

  async touchApiKey(clientId: string, lastUsedTimestamp: number): Promise<void> {
    this.statement('UPDATE api_keys SET last_used_timestamp = ? WHERE client_id = ?').run(lastUsedTimestamp, clientId);
  }

  // OpenID Connect clients and authorization codes -----------------------------------------------

  async createOidcClient(client: OidcClientRecord, origin?: ChangeOrigin): Promise<void> {
    mapConflicts(() =>
      this.db
        .transaction(() => {
          this.statement('INSERT INTO oidc_clients (realm, client_id, name, redirect_uris, created_timestamp, secret_hash, organizations_claim) VALUES (?, ?, ?, ?, ?, ?, ?)')
            .run(client.realm, client.clientId, client.name, JSON.stringify(client.redirectUris), client.createdTimestamp, client.secretHash, client.organizationsClaim ? 1 : 0);
          this.recordChange(client.realm, oidcClientCreated(client), origin);
        })
        .immediate(),
    );
  }

  async getOidcClient(realm: string, clientId: string): Promise<OidcClientRecord | undefined> {
    const row = this.statement('SELECT * FROM oidc_clients WHERE realm = ? AND client_id = ?').get(realm, clientId) as Row | undefined;
    return row && oidcClientFromRow(row);
  }

  async listOidcClients(realm: string): Promise<OidcClientRecord[]> {
    return (this.statement('SELECT * FROM oidc_clients WHERE realm = ? ORDER BY client_id').all(realm) as Row[]).map(oidcClientFromRow);
  }

  async setOidcClientOrganizationsClaim(realm: string, clientId: string, organizationsClaim: boolean, origin?: ChangeOrigin): Promise<boolean> {
    return this.db
      .transaction(() => {
        const row = this.statement('UPDATE oidc_clients SET organizations_claim = ? WHERE realm = ? AND client_id = ? RETURNING *').get(organizationsClaim ? 1 : 0, realm, clientId) as
          | Row
          | undefined;
        if (!row) return false;
        this.recordChange(realm, oidcClientUpdated(oidcClientFromRow(row)), origin);
        return true;
      })
      .immediate();
  }

  async deleteOidcClient(realm: string, clientId: string, origin?: ChangeOrigin): Promise<boolean> {
    return this.db
      .transaction(() => {
        if (this.statement('DELETE FROM oidc_clients WHERE realm = ? AND client_id = ?').run(realm, clientId).changes === 0) return false;
        this.recordChange(realm, oidcClientDeleted(clientId), origin);
        return true;
      })
      .immediate();
  }

  async saveAuthorizationCode(code: AuthorizationCodeRecord, nowTimestamp: number): Promise<void> {
    this.db.transaction(() => {
      this.statement('DELETE FROM authorization_codes WHERE expires_timestamp < ?').run(nowTimestamp);
      this.statement(
        `INSERT INTO authorization_codes (code_hash, realm, client_id, redirect_uri, user_id, code_challenge, nonce, scope,
           auth_time, expires_timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        code.codeHash,
        code.realm,
        code.clientId,
        code.redirectUri,
        code.userId,
        code.codeChallenge,
        code.nonce,
        code.scope,
        code.authTime,
        code.expiresTimestamp,
      );
    }).immediate();
  }

  async consumeAuthorizationCode(codeHash: string): Promise<AuthorizationCodeRecord | undefined> {
    const row = this.statement('DELETE FROM authorization_codes WHERE code_hash = ? RETURNING *').get(codeHash) as Row | undefined;
    return row && authorizationCodeFromRow(row);
  }

  // Service secrets ------------------------------------------------------------------------------

  async serverSecret(name: string, candidate: string, createdTimestamp: number): Promise<string> {
    return this.db.transaction(() => {
      this.statement('INSERT INTO server_secrets (name, value, created_timestamp) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING')
        .run(name, candidate, createdTimestamp);
      return String((this.statement('SELECT value FROM server_secrets WHERE name = ?').get(name) as Row).value);
    }).immediate();
  }

  // Revoked tokens -------------------------------------------------------------------------------

  async revokeToken(revocation: Omit<RevokedToken, 'seq'>): Promise<void> {
    this.statement('DELETE FROM revoked_tokens WHERE expires_timestamp < ?').run(revocation.revokedTimestamp);
    this.statement(
      `INSERT INTO revoked_tokens (realm, jti, expires_timestamp, revoked_timestamp) VALUES (?, ?, ?, ?)
       ON CONFLICT (realm, jti) DO NOTHING`,
    ).run(revocation.realm, revocation.jti, revocation.expiresTimestamp, revocation.revokedTimestamp);
  }

  async activeRevokedTokens(nowTimestamp: number): Promise<RevokedToken[]> {
    const rows = this.statement('SELECT * FROM revoked_tokens WHERE expires_timestamp >= ? ORDER BY seq').all(nowTimestamp) as Row[];
    return rows.map(revokedTokenFromRow);
  }

  // Organizations --------------------------------------------------------------------------------

  async createOrganization(org: Organization, adminUser?: NewUser, createdTimestamp = Date.now(), origin?: ChangeOrigin): Promise<void> {
    mapConflicts(() =>
      this.db
        .transaction(() => {
          this.statement(
            `INSERT INTO organizations (id, realm, name, display_name, url, domains, attributes, created_timestamp)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          ).run(
            org.id,
            org.realm,
            org.name,
            org.displayName,
            org.url,
            JSON.stringify(org.domains),
            JSON.stringify(org.attributes),
            createdTimestamp,
          );
          if (adminUser) {
            this.insertUser(adminUser);
            this.statement('INSERT INTO memberships (realm, organization_id, user_id, created_timestamp) VALUES (?, ?, ?, ?)')
              .run(org.realm, org.id, adminUser.id, createdTimestamp);
          }
          const insertRole = this.statement(
            'INSERT INTO organization_roles (id, realm, organization_id, name, description, created_timestamp) VALUES (?, ?, ?, ?, ?, ?)',
          );
          const grant = this.statement(
            'INSERT INTO role_grants (realm, organization_id, role_id, user_id, created_timestamp) VALUES (?, ?, ?, ?, ?)',
          );
          for (const role of DEFAULT_ORGANIZATION_ROLES) {
            const roleId = randomUUID();
            insertRole.run(roleId, org.realm, org.id, role.name, role.description, createdTimestamp);
            if (adminUser) grant.run(org.realm, org.id, roleId, adminUser.id, createdTimestamp);
          }
          this.recordChange(org.realm, organizationChange('CREATE', org), origin);
        })
        .immediate(),
    );
  }

  async getOrganization(realm: string, id: string): Promise<Organization | undefined> {
    const row = this.statement('SELECT * FROM organizations WHERE realm = ? AND id = ?').get(realm, id) as
      | Row
      | undefined;
    return row && orgFromRow(row);
  }

  /** WHERE clause and values of an organization filter. */
  private orgWhere(realm: string, filter: OrganizationFilter): [string, unknown[]] {
    const where = ['o.realm = ?'];
    const values: unknown[] = [realm];
    if (filter.search !== undefined && filter.search !== '') {
      where.push(
        "(instr(lower(o.name), lower(?)) > 0 OR instr(lower(coalesce(o.display_name, '')), lower(?)) > 0)",
      );
      values.push(filter.search, filter.search);
    }
    for (const [key, value] of filter.attributes ?? []) {
      where.push(
        'EXISTS (SELECT 1 FROM json_each(o.attributes) AS a, json_each(a.value) AS v WHERE a.key = ? AND v.value = ?)',
      );
      values.push(key, value);
    }
    return [where.join(' AND '), values];
  }

  /**
   * A page of the realm's organizations, read along the (realm, name) index: after a remembered
   * boundary's name when the list is unchanged since (page-boundaries.ts), else by position.
   */
  async listOrganizations(realm: string, filter: OrganizationFilter): Promise<Organization[]> {
    const [where, values] = this.orgWhere(realm, filter);
    // By name alone, as on PostgreSQL: names are unique within a realm, so that is the whole order.
    const query = { columns: 'o.*', from: 'organizations AS o', sortKey: 'o.name', where, values };
    const rows = await this.organizationPages.page(
      listKey(realm, filter),
      filter,
      async (after, offset) => this.keysetPage(realm, 'organizations', query, after, offset, filter.max),
      (row) => String(row.sort_key),
    );
    return (rows ?? []).map(orgFromRow);
  }

  async countOrganizations(realm: string, filter: OrganizationFilter): Promise<number> {
    const [where, values] = this.orgWhere(realm, filter);
    const row = this.statement(`SELECT count(*) AS n FROM organizations AS o WHERE ${where}`).get(...values) as Row;
    return Number(row.n);
  }

  async updateOrganization(
    realm: string,
    id: string,
    update: { name: string; displayName: string | null; url: string | null; attributes: Attributes; domains?: string[] },
    origin?: ChangeOrigin,
  ): Promise<boolean> {
    return mapConflicts(() =>
      this.db
        .transaction(() => {
          const sets = ['name = ?', 'display_name = ?', 'url = ?', 'attributes = ?'];
          const values: unknown[] = [update.name, update.displayName, update.url, JSON.stringify(update.attributes)];
          if (update.domains !== undefined) {
            sets.push('domains = ?');
            values.push(JSON.stringify(update.domains));
          }
          const row = this.statement(`UPDATE organizations SET ${sets.join(', ')} WHERE realm = ? AND id = ? RETURNING *`)
            .get(...values, realm, id) as Row | undefined;
          if (!row) return false;
          this.recordChange(realm, organizationChange('UPDATE', orgFromRow(row)), origin);
          return true;
        })
        .immediate(),
    );
  }

  async deleteOrganization(realm: string, id: string, origin?: ChangeOrigin): Promise<boolean> {
    return this.db
      .transaction(() => {
        // Memberships, roles, grants and the default admin user go with it (ON DELETE CASCADE).
        if (this.statement('DELETE FROM organizations WHERE realm = ? AND id = ?').run(realm, id).changes === 0) return false;
        this.recordChange(realm, organizationDeleted(id), origin);
        return true;
      })
      .immediate();
  }

  // Memberships ----------------------------------------------------------------------------------

  async addMember(realm: string, orgId: string, userId: string, createdTimestamp: number, origin?: ChangeOrigin): Promise<boolean> {
    return this.db
      .transaction(() => {
        const org = this.statement('SELECT 1 FROM organizations WHERE realm = ? AND id = ?').get(realm, orgId);
        const user = this.statement('SELECT 1 FROM users WHERE realm = ? AND id = ?').get(realm, userId);
        if (!org || !user) return false;
        // The unique (realm, organization_id, user_id) constraint makes a repeated add a no-op, recording nothing.
        const added = this.statement(
          `INSERT INTO memberships (realm, organization_id, user_id, created_timestamp) VALUES (?, ?, ?, ?)
           ON CONFLICT (realm, organization_id, user_id) DO NOTHING`,
        ).run(realm, orgId, userId, createdTimestamp).changes > 0;
        if (added) this.recordChange(realm, membershipChange('CREATE', orgId, userId), origin);
        return true;
      })
      .immediate();
  }

  async removeMember(realm: string, orgId: string, userId: string, origin?: ChangeOrigin): Promise<boolean> {
    return this.db
      .transaction(() => {
        const result = this.statement('DELETE FROM memberships WHERE realm = ? AND organization_id = ? AND user_id = ?').run(realm, orgId, userId);
        if (result.changes === 0) return false;
        this.recordChange(realm, membershipChange('DELETE', orgId, userId), origin);
        return true;
      })
      .immediate();
  }

  async isMember(realm: string, orgId: string, userId: string): Promise<boolean> {
    return this.membershipChecks.isMember(realm, orgId, userId);
  }

  /** WHERE clause and values of a member filter (joined as `u`, `m`). */
  private memberWhere(realm: string, orgId: string, filter: MemberFilter): [string, unknown[]] {
    const where = ['m.realm = ?', 'm.organization_id = ?'];
    const values: unknown[] = [realm, orgId];
    if (filter.excludeAdminAccounts) where.push("u.kind <> 'org-admin'");
    const terms = (filter.searchTerms ?? []).filter((term) => term !== '');
    if (terms.length > 0) {
      const any = terms.map(() => {
        return `(instr(lower(u.username), lower(?)) > 0 OR instr(lower(coalesce(u.email, '')), lower(?)) > 0
          OR instr(lower(coalesce(u.first_name, '')), lower(?)) > 0 OR instr(lower(coalesce(u.last_name, '')), lower(?)) > 0)`;
      });
      where.push(`(${any.join(' OR ')})`);
      for (const term of terms) values.push(term, term, term, term);
    }
    return [where.join(' AND '), values];
  }

  /**
   * A page of members, read in chunks of at most {@link MEMBER_PAGE_CHUNK} rows with a turn of the
   * event loop between chunks. Why: better-sqlite3 reads synchronously, and a page of 1,000 members
   * read at once holds the event loop for milliseconds, during which no membership check is
   * answered; between chunks, the checks that arrived meanwhile go first.
   *
   * Each chunk is its own read transaction and reads the member list's version with its rows. The
   * chunks of one version are exactly the rows one query would give (the same filter, along the
   * same order, each chunk after the previous one's last seq); when the version changed between
   * chunks, the page is read again by position in one transaction. So the answer is always what
   * `OFFSET first LIMIT max` over the list gives at the moment of its last read.
   */
  async listMembers(realm: string, orgId: string, filter: MemberFilter): Promise<UserRecord[]> {
    const [where, values] = this.memberWhere(realm, orgId, filter);
    const list = listKey([realm, orgId], filter);
    const start = this.memberPages.start(list, filter.first);
    const max = filter.max === undefined || filter.max < 0 ? Infinity : filter.max;
    const byPosition = { afterSeq: 0, offset: Math.max(filter.first ?? 0, 0) };
    // A boundary of another version of the list says nothing about this one: read by position.
    const first = this.readMemberChunk(realm, orgId, where, values, Math.min(max, MEMBER_PAGE_CHUNK), (current) =>
      start.version === undefined || start.version === current ? { afterSeq: start.after ?? 0, offset: start.offset } : byPosition,
    );
    if (first === undefined) return [];
    let { version, rows } = first;
    let chunk = first.rows;
    while (chunk.length === MEMBER_PAGE_CHUNK && rows.length < max) {
      await new Promise((resolve) => setImmediate(resolve));
      const afterSeq = Number(chunk[chunk.length - 1].membership_seq);
      const next = this.readMemberChunk(realm, orgId, where, values, Math.min(max - rows.length, MEMBER_PAGE_CHUNK), () => ({ afterSeq, offset: 0 }));
      if (next === undefined) return [];
      if (next.version !== version) {
        // Changed meanwhile: the whole page by position, at once, so a busy list cannot starve it.
        const again = this.readMemberChunk(realm, orgId, where, values, max, () => byPosition);
        if (again === undefined) return [];
        ({ version, rows } = again);
        break;
      }
      chunk = next.rows;
      rows = rows.concat(chunk);
    }
    const last = rows.at(-1);
    this.memberPages.remember(list, filter, version, rows.length, last && Number(last.membership_seq));
    return rows.map(userFromRow);
  }

  /**
   * Up to `limit` member rows and the member list's version, from one snapshot; `startAt` says,
   * given that version, where to start (after a seq, then skipping rows). Undefined when the
   * organization does not exist in the realm.
   */
  private readMemberChunk(
    realm: string,
    orgId: string,
    where: string,
    values: unknown[],
    limit: number,
    startAt: (version: number) => { afterSeq: number; offset: number },
  ): { version: number; rows: Row[] } | undefined {
    return this.db.transaction(() => {
      const org = this.statement('SELECT members_version FROM organizations WHERE realm = ? AND id = ?').get(realm, orgId) as
        | Row
        | undefined;
      if (org === undefined) return undefined;
      const version = Number(org.members_version);
      const { afterSeq, offset } = startAt(version);
      const rows = this.statement(
        `SELECT u.*, m.seq AS membership_seq FROM memberships AS m JOIN users AS u ON u.id = m.user_id
         WHERE ${where} AND m.seq > ? ORDER BY m.seq LIMIT ? OFFSET ?`,
      ).all(...values, afterSeq, limit === Infinity ? -1 : limit, offset) as Row[];
      return { version, rows };
    })();
  }

  async countMembers(realm: string, orgId: string, filter: MemberFilter): Promise<number> {
    const [where, values] = this.memberWhere(realm, orgId, filter);
    const row = this.statement(
      `SELECT count(*) AS n FROM memberships AS m JOIN users AS u ON u.id = m.user_id WHERE ${where}`,
    ).get(...values) as Row;
    return Number(row.n);
  }

  async listUserOrganizations(realm: string, userId: string): Promise<Organization[]> {
    const rows = this.statement(
      `SELECT o.* FROM memberships AS m JOIN organizations AS o ON o.realm = m.realm AND o.id = m.organization_id
       WHERE m.realm = ? AND m.user_id = ? ORDER BY o.name`,
    ).all(realm, userId) as Row[];
    return rows.map(orgFromRow);
  }

  // Organization roles ---------------------------------------------------------------------------

  /** True when the organization exists in the realm. */
  private organizationExists(realm: string, orgId: string): boolean {
    return this.statement('SELECT 1 FROM organizations WHERE realm = ? AND id = ?').get(realm, orgId) !== undefined;
  }

  /** The role of an organization of the realm by name, read inside the caller's transaction. */
  private roleRow(realm: string, orgId: string, name: string): RoleRecord | undefined {
    const row = this.statement(
      'SELECT * FROM organization_roles WHERE realm = ? AND organization_id = ? AND name = ?',
    ).get(realm, orgId, name) as Row | undefined;
    return row && roleFromRow(row);
  }

  async createRoles(realm: string, orgId: string, roles: readonly NewRole[], createdTimestamp: number, origin?: ChangeOrigin): Promise<RoleCreation[] | undefined> {
    return mapConflicts(() =>
      this.db
        .transaction(() => {
          if (!this.organizationExists(realm, orgId)) return undefined;
          const insert = this.statement(
            `INSERT INTO organization_roles (id, realm, organization_id, name, description, created_timestamp) VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT (realm, organization_id, name) DO NOTHING`,
          );
          return roles.map((role) => {
            const created = insert.run(role.id, realm, orgId, role.name, role.description, createdTimestamp).changes > 0;
            const stored = this.roleRow(realm, orgId, role.name)!;
            if (created) this.recordChange(realm, roleChange('CREATE', stored), origin);
            return { created, role: stored };
          });
        })
        .immediate(),
    );
  }

  async getRole(realm: string, orgId: string, name: string): Promise<RoleRecord | undefined> {
    return this.roleRow(realm, orgId, name);
  }

  async listRoles(realm: string, orgId: string): Promise<RoleRecord[] | undefined> {
    return this.db.transaction(() => {
      if (!this.organizationExists(realm, orgId)) return undefined;
      const rows = this.statement('SELECT * FROM organization_roles WHERE realm = ? AND organization_id = ? ORDER BY name').all(realm, orgId) as Row[];
      return rows.map(roleFromRow);
    })();
  }

  async updateRoleDescription(realm: string, orgId: string, name: string, description: string | null, origin?: ChangeOrigin): Promise<RoleRecord | undefined> {
    return this.db
      .transaction(() => {
        const row = this.statement(
          'UPDATE organization_roles SET description = ? WHERE realm = ? AND organization_id = ? AND name = ? RETURNING *',
        ).get(description, realm, orgId, name) as Row | undefined;
        if (!row) return undefined;
        const role = roleFromRow(row);
        this.recordChange(realm, roleChange('UPDATE', role), origin);
        return role;
      })
      .immediate();
  }

  async deleteRoles(realm: string, orgId: string, names: readonly string[], origin?: ChangeOrigin): Promise<Array<RoleRecord | undefined> | undefined> {
    return this.db
      .transaction(() => {
        if (!this.organizationExists(realm, orgId)) return undefined;
        // Grants go with each role (ON DELETE CASCADE).
        const remove = this.statement('DELETE FROM organization_roles WHERE realm = ? AND organization_id = ? AND name = ? RETURNING *');
        return names.map((name) => {
          const row = remove.get(realm, orgId, name) as Row | undefined;
          if (!row) return undefined;
          const role = roleFromRow(row);
          this.recordChange(realm, roleChange('DELETE', role), origin);
          return role;
        });
      })
      .immediate();
  }

  async changeMemberRoles(
    realm: string,
    orgId: string,
    userId: string,
    names: readonly string[],
    change: 'grant' | 'revoke',
    createdTimestamp: number,
    origin?: ChangeOrigin,
  ): Promise<MemberRolesChange> {
    return this.db
      .transaction((): MemberRolesChange => {
        if (!this.organizationExists(realm, orgId)) return { kind: 'no-organization' };
        if (this.statement('SELECT 1 FROM users WHERE realm = ? AND id = ?').get(realm, userId) === undefined) return { kind: 'no-user' };
        if (this.statement('SELECT 1 FROM memberships WHERE realm = ? AND organization_id = ? AND user_id = ?').get(realm, orgId, userId) === undefined) {
          return { kind: 'not-member' };
        }
        return { kind: 'done', changes: this.writeRoleChanges(realm, orgId, userId, names, change, createdTimestamp, origin) };
      })
      .immediate();
  }

  /**
   * Grants or revokes the organization's roles `names` of a member, inside the caller's transaction
   * (the caller made sure of the organization and the membership), recording an event per change.
   */
  private writeRoleChanges(
    realm: string,
    orgId: string,
    userId: string,
    names: readonly string[],
    change: 'grant' | 'revoke',
    createdTimestamp: number,
    origin: ChangeOrigin | undefined,
  ): RoleChange[] {
    const write =
      change === 'grant'
        ? this.statement(
            `INSERT INTO role_grants (realm, organization_id, role_id, user_id, created_timestamp) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (role_id, user_id) DO NOTHING`,
          )
        : this.statement('DELETE FROM role_grants WHERE realm = ? AND organization_id = ? AND role_id = ? AND user_id = ?');
    return names.map((name): RoleChange => {
      const role = this.roleRow(realm, orgId, name);
      if (!role) return { outcome: 'no-role', name };
      const result = change === 'grant' ? write.run(realm, orgId, role.id, userId, createdTimestamp) : write.run(realm, orgId, role.id, userId);
      if (result.changes === 0) return { outcome: 'unchanged', role };
      this.recordChange(realm, roleGrantChange(change, role, userId), origin);
      return { outcome: 'changed', role };
    });
  }

  async hasRole(realm: string, orgId: string, name: string, userId: string): Promise<boolean> {
    return (
      this.statement(
        `SELECT 1 FROM role_grants AS g JOIN organization_roles AS r ON r.id = g.role_id
         WHERE r.realm = ? AND r.organization_id = ? AND r.name = ? AND g.user_id = ?`,
      ).get(realm, orgId, name, userId) !== undefined
    );
  }

  async listRoleUsers(realm: string, orgId: string, name: string, filter: { excludeAdminAccounts?: boolean }): Promise<UserRecord[] | undefined> {
    return this.db.transaction(() => {
      const role = this.roleRow(realm, orgId, name);
      if (!role) return undefined;
      const rows = this.statement(
        `SELECT u.* FROM role_grants AS g JOIN users AS u ON u.id = g.user_id
         WHERE g.role_id = ?${filter.excludeAdminAccounts ? " AND u.kind <> 'org-admin'" : ''} ORDER BY g.seq`,
      ).all(role.id) as Row[];
      return rows.map(userFromRow);
    })();
  }

  async listMemberRoles(realm: string, orgId: string, userId: string): Promise<RoleRecord[] | undefined> {
    return this.db.transaction(() => {
      const member = this.statement(
        'SELECT 1 FROM memberships WHERE realm = ? AND organization_id = ? AND user_id = ?',
      ).get(realm, orgId, userId);
      if (member === undefined) return undefined;
      const rows = this.statement(
        `SELECT r.* FROM role_grants AS g JOIN organization_roles AS r ON r.id = g.role_id
         WHERE g.realm = ? AND g.organization_id = ? AND g.user_id = ? ORDER BY r.name`,
      ).all(realm, orgId, userId) as Row[];
      return rows.map(roleFromRow);
    })();
  }

  async listUserOrganizationRoles(realm: string, userId: string): Promise<OrganizationWithRoles[]> {
    return this.db.transaction(() => {
      const organizations = (
        this.statement(
          `SELECT o.* FROM memberships AS m JOIN organizations AS o ON o.realm = m.realm AND o.id = m.organization_id
           WHERE m.realm = ? AND m.user_id = ? ORDER BY o.name`,
        ).all(realm, userId) as Row[]
      ).map(orgFromRow);
      const roles = (
        this.statement(
          `SELECT r.* FROM role_grants AS g JOIN organization_roles AS r ON r.id = g.role_id
           WHERE g.realm = ? AND g.user_id = ? ORDER BY r.name`,
        ).all(realm, userId) as Row[]
      ).map(roleFromRow);
      return groupRolesByOrganization(organizations, roles);
    })();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}
