/**
 * {@link Store} on PostgreSQL (`pg`), for deployments where several service instances share one
 * database. It mirrors {@link SqliteStore} behaviour for behaviour: the same tables, the same
 * ordering (code-point order through the "C" collation), the same case-insensitive matching, the
 * same cascades. Every method is one statement or one transaction, and every uniqueness rule is a
 * constraint, so concurrent requests from any number of instances cannot create duplicates.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Pool, type PoolClient, type PoolConfig, type QueryResultRow } from 'pg';
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
import { postgresConflict } from './conflicts';
import { readMigrations, type Migration } from './migrations';
import { realmRateLimitColumns, rowReaders, JSON_PARSED, REALM_SETTINGS_COLUMNS } from './rows';
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
import { adminEvent, UNKNOWN_ORIGIN, type ChangeDescription, type ChangeOrigin, type NewEvent } from '../events/event';
import { eventCtes, PostgresEvents, writePostgresEvent } from './postgres-events';
import { PostgresSsoStore } from './postgres-sso-store';
import { inTransaction } from './postgres-transaction';
import { groupRolesByOrganization } from './role-rows';

/**
 * Directory of the `.sql` migrations. The same relative path works from `src/` (jest through SWC)
 * and from `dist/` because the build script copies `src/service/store/migrations` next to the
 * compiled files.
 */
export const POSTGRES_MIGRATIONS_DIR = join(__dirname, 'migrations', 'postgres');

/**
 * Key of the transaction-scoped advisory lock that serializes migrations, so that two instances
 * starting at once do not both apply the same migration. Any fixed number works as long as
 * nothing else in the database uses it; this one is the ASCII bytes of "orgadmin" read as a bigint.
 */
const MIGRATION_LOCK_KEY = '8030594753549396334';

/** Options of {@link PostgresStore.open}. */
export interface PostgresStoreOptions {
  /** Where the `NNN_name.sql` files are (default {@link POSTGRES_MIGRATIONS_DIR}). */
  migrationsDir?: string;
  /** Extra `pg.Pool` settings (pool size, timeouts, TLS); the connection string comes from `open`. */
  pool?: Omit<PoolConfig, 'connectionString'>;
  /**
   * Told about errors of idle pooled connections (the server restarted, the network dropped). The
   * pool has already discarded the broken connection and opens a new one on the next query, so
   * the default is to ignore them; without a listener such an error would end the process.
   */
  onIdleConnectionError?: (error: Error) => void;
  /**
   * Most milliseconds between checks for realm changes made by other instances or connections
   * (default `DEFAULT_REALM_RECHECK_MS` of realm-cache.ts); 0 checks on every read.
   */
  realmRecheckMs?: number;
  /** The clock of the realm recheck in milliseconds (default `performance.now`); tests inject one. */
  now?: () => number;
  /** The clock of event times, milliseconds since the epoch (default `Date.now`); tests inject one. */
  clock?: () => number;
  /**
   * Whether changes record their events (default true). False only to measure what recording
   * costs (`bench:service`): the audit log and webhooks then miss every change.
   */
  recordEvents?: boolean;
}

type Row = QueryResultRow;

/** SQLSTATE of a unique violation. */
const UNIQUE_VIOLATION = '23505';
/** SQLSTATE of a foreign-key violation. */
const FOREIGN_KEY_VIOLATION = '23503';

function sqlState(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** Maps a unique violation to the rule that was broken (nothing of the row leaks into the message). */
function conflictFrom(error: unknown): StoreConflictError | undefined {
  if (sqlState(error) !== UNIQUE_VIOLATION) return undefined;
  return postgresConflict((error as { constraint?: unknown }).constraint);
}

/** Runs `fn`, turning unique violations into {@link StoreConflictError}. */
async function mapConflicts<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw conflictFrom(error) ?? error;
  }
}

/**
 * PostgreSQL text cannot hold U+0000 and rejects any text parameter containing it. No text column
 * can contain one, so a lookup by such a value finds nothing, which is what the Store contract
 * asks for instead of a database error. (JSON columns keep it escaped as `\u0000`.)
 */
function unmatchable(...values: Array<string | undefined>): boolean {
  return values.some((value) => value !== undefined && value.includes('\u0000'));
}

/** Refuses writes of text PostgreSQL cannot store, before anything is sent. */
function assertStorable(what: string, ...values: Array<string | null | undefined>): void {
  if (values.some((value) => typeof value === 'string' && value.includes('\u0000'))) {
    throw new TypeError(`The ${what} contains the NUL character (U+0000), which PostgreSQL cannot store.`);
  }
}

/** `bigint` columns arrive as strings (they may exceed 2^53 in general; ours never do). */
const int = (value: unknown): number => Number(value);

// `pg` parses jsonb columns already.
const { realmFromRow, realmSettingsFromRow, userFromRow, orgFromRow, apiKeyFromRow, revokedTokenFromRow, oidcClientFromRow, authorizationCodeFromRow, roleFromRow } =
  rowReaders(JSON_PARSED);

/** Collects positional parameters (`$1`, `$2`, …) while a statement is assembled. */
class Params {
  readonly values: unknown[] = [];
  /** Adds a value and returns its placeholder. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * ` LIMIT … OFFSET …` of a page. Like SQLite: no limit when `max` is absent or negative, and a
 * negative offset counts as 0 (PostgreSQL would reject both).
 */
function page(params: Params, first: number | undefined, max: number | undefined): string {
  const limit = max === undefined || max < 0 ? '' : ` LIMIT ${params.add(max)}`;
  return `${limit} OFFSET ${params.add(Math.max(first ?? 0, 0))}`;
}

/** Case-insensitive substring test, like SQLite's `instr(lower(a), lower(b)) > 0` (no LIKE wildcards). */
function contains(column: string, placeholder: string): string {
  return `strpos(lower(coalesce(${column}, '')), lower(${placeholder})) > 0`;
}

/** The WHERE clause of an organization filter (`o` = organizations); undefined when nothing can match. */
function orgWhere(params: Params, realm: string, filter: OrganizationFilter): string | undefined {
  const search = filter.search !== undefined && filter.search !== '' ? filter.search : undefined;
  const attributes = filter.attributes ?? [];
  // Attribute values are compared as JSON text (below) and may hold anything; keys may not.
  if (unmatchable(realm, search, ...attributes.map(([key]) => key))) return undefined;
  const where = [`o.realm = ${params.add(realm)}`];
  if (search !== undefined) {
    const term = params.add(search);
    where.push(`(${contains('o.name', term)} OR ${contains('o.display_name', term)})`);
  }
  for (const [key, value] of attributes) {
    // Elements are compared as JSON text (stored as JSON.stringify wrote them), so that a value
    // PostgreSQL text cannot hold (U+0000) never has to be converted to text.
    where.push(
      `EXISTS (SELECT 1 FROM json_array_elements(CASE WHEN json_typeof(o.attributes -> ${params.add(key)}) = 'array'
         THEN o.attributes -> ${params.add(key)} ELSE '[]'::json END) AS v WHERE v::text = ${params.add(JSON.stringify(value))})`,
    );
  }
  return where.join(' AND ');
}

/** Whether a member filter reads the users' columns (search terms, excluded admin accounts). */
function hasUserConditions(filter: MemberFilter): boolean {
  return filter.excludeAdminAccounts === true || searchTermsOf(filter).length > 0;
}

/** The search terms a member filter applies: blank ones match everything, so they are dropped. */
function searchTermsOf(filter: MemberFilter): string[] {
  return (filter.searchTerms ?? []).filter((term) => term !== '');
}

/** A member filter's WHERE (`u` users, `m` memberships); undefined when nothing can match. */
function memberWhere(params: Params, realm: string, orgId: string, filter: MemberFilter): string | undefined {
  if (unmatchable(realm, orgId)) return undefined;
  const where = [`m.realm = ${params.add(realm)}`, `m.organization_id = ${params.add(orgId)}`];
  if (filter.excludeAdminAccounts) where.push("u.kind <> 'org-admin'");
  const terms = searchTermsOf(filter);
  if (terms.length > 0) {
    // Any term may match; a term PostgreSQL cannot hold matches nothing, so only the others count.
    const usable = terms.filter((term) => !unmatchable(term));
    if (usable.length === 0) return undefined;
    const any = usable.map((value) => {
      const term = params.add(value);
      return `(${contains('u.username', term)} OR ${contains('u.email', term)} OR ${contains('u.first_name', term)} OR ${contains('u.last_name', term)})`;
    });
    where.push(`(${any.join(' OR ')})`);
  }
  return where.join(' AND ');
}

/** The PostgreSQL implementation of {@link Store}, on a `pg.Pool`. */
export class PostgresStore implements Store {
  private readonly pool: Pool;
  private closing: Promise<void> | undefined;
  /**
   * Realm settings read before (realm-cache.ts). Changes made by other instances are noticed
   * through the `realm_changes` counter, which a trigger on `realms` bumps (migration 005).
   */
  private readonly realmCache: RealmCache;
  /** Remembered page boundaries of member lists, by membership seq (page-boundaries.ts). */
  private readonly memberPages = new PageBoundaries<number>();
  /** Remembered page boundaries of organization lists, by name (page-boundaries.ts). */
  private readonly organizationPages = new PageBoundaries<string>();
  /** Remembered page boundaries of user lists, by lower-cased username (page-boundaries.ts). */
  private readonly userPages = new PageBoundaries<string>();
  /** Membership checks of one turn, put to the database as one query (membership-checks.ts). */
  private readonly membershipChecks = new MembershipChecks((questions) => this.answerMembershipQuestions(questions));
  /** The audit log, webhooks and delivery outbox (postgres-events.ts). */
  readonly events: PostgresEvents;
  /** The clock of event times. */
  private readonly clock: () => number;
  private readonly recordEvents: boolean;
  /** Verified domains, identity providers and brokered sign-ins (postgres-sso-store.ts). */
  readonly sso: PostgresSsoStore;

  /** Versions of this build's migrations (see {@link PostgresStore.pendingMigrations}). */
  private readonly migrationVersions: readonly number[];

  private constructor(pool: Pool, options: PostgresStoreOptions, migrationVersions: readonly number[]) {
    this.pool = pool;
    this.clock = options.clock ?? Date.now;
    this.recordEvents = options.recordEvents ?? true;
    this.events = new PostgresEvents(pool, (fn) => this.transaction(fn), this.clock);
    this.migrationVersions = migrationVersions;
    this.sso = new PostgresSsoStore({
      pool,
      transaction: (fn) => this.transaction(fn),
      insertUser: (db, user) => this.insertUser(db, user),
      mapConflicts,
      unmatchable,
      recordChange: (client, realm, change, origin) => this.recordChange(client, realm, change, origin),
      recorded: () => this.recorded(),
      grantRoles: (client, realm, orgId, userId, names, timestamp, origin) => this.writeRoleChanges(client, realm, orgId, userId, names, 'grant', timestamp, origin),
    });
    this.realmCache = new RealmCache(
      {
        changeMark: async () => String((await this.rows('SELECT version FROM realm_changes'))[0]?.version),
        readSettings: async (name) => {
          if (unmatchable(name)) return undefined;
          const [row] = await this.rows(`SELECT ${REALM_SETTINGS_COLUMNS} FROM realms WHERE name = $1`, [name]);
          return row && realmSettingsFromRow(row);
        },
      },
      { recheckMs: options.realmRecheckMs, now: options.now },
    );
  }

  /**
   * Connects to `connectionString` (`postgres://user:password@host:port/database`, libpq-style
   * query parameters such as `sslmode` allowed) and applies pending migrations. The tables go in
   * the first schema of the connection's `search_path`; to use another schema than `public`,
   * add `?options=-c%20search_path%3Dorgadmin` to the URL (the schema must exist).
   *
   * Migrations run in one transaction holding an advisory lock: instances starting at once wait
   * for each other, and a failed migration leaves the schema as it was.
   *
   * @example
   * const store = await PostgresStore.open('postgres://orgadmin@db.internal/orgadmin');
   */
  static async open(connectionString: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    checkedRecheckMs(options.realmRecheckMs);
    const migrations = readMigrations(options.migrationsDir ?? POSTGRES_MIGRATIONS_DIR);
    const pool = new Pool({ ...options.pool, connectionString });
    pool.on('error', (error) => options.onIdleConnectionError?.(error));
    const store = new PostgresStore(pool, options, migrations.map((migration) => migration.version));
    try {
      await store.migrate(migrations);
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  /** Applies every migration newer than the recorded versions, all in one locked transaction. */
  private async migrate(migrations: Migration[]): Promise<void> {
    await this.transaction(async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
      // Under the lock, so that a concurrent creator cannot collide with this one.
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY, name text NOT NULL, applied_timestamp bigint NOT NULL)`);
      const applied = new Set((await client.query('SELECT version FROM schema_migrations')).rows.map((row) => int(row.version)));
      for (const migration of migrations) {
        if (applied.has(migration.version)) continue;
        // A query without parameters may hold several statements (simple query protocol).
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_timestamp) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          Date.now(),
        ]);
      }
    });
  }

  /** Runs `fn` in a transaction on one pooled connection; rolls back when it throws (see postgres-transaction.ts). */
  private transaction<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, fn);
  }

  private async rows(sql: string, values: unknown[] = []): Promise<Row[]> {
    return (await this.pool.query(sql, values)).rows;
  }

  /** The event of a change of `realm`, or undefined when this store records none. */
  private changeEvent(realm: string, change: ChangeDescription, origin: ChangeOrigin | undefined): NewEvent | undefined {
    return this.recordEvents ? adminEvent(realm, change, origin ?? UNKNOWN_ORIGIN, this.clock()) : undefined;
  }

  /**
   * Records the event of a change of `realm` on the change's transaction (`this.transaction(…)`),
   * after the change was made and only when it changed something: the event then commits or rolls
   * back with the change. This is how a write method of this store records its event (the
   * descriptions are in events/changes.ts); a one-statement write can instead put
   * {@link eventCtes} into its statement (see {@link PostgresStore.withEvent}).
   */
  private async recordChange(client: PoolClient, realm: string, change: ChangeDescription, origin: ChangeOrigin | undefined): Promise<void> {
    const event = this.changeEvent(realm, change, origin);
    if (event === undefined) return;
    await writePostgresEvent(client, event);
  }

  /** Tells this process's delivery worker that a write may have recorded events (after its commit). */
  private recorded(): void {
    this.events.signal.notify();
  }

  /**
   * `WITH` parts of a one-statement write: `change` (e.g. `changed AS (UPDATE … RETURNING 1)`) and,
   * when it returned a row, the event of `description`. The statement then ends with its own SELECT;
   * after it ran, call {@link PostgresStore.recorded}.
   */
  private withEvent(params: Params, realm: string, change: string, changeName: string, description: ChangeDescription, origin: ChangeOrigin | undefined): string {
    const event = this.changeEvent(realm, description, origin);
    if (event === undefined) return `WITH ${change}`;
    return `WITH ${change}, ${eventCtes((value) => params.add(value), event, changeName)}`;
  }

  /** Versions of the applied migrations, oldest first (for tests and diagnostics). */
  async appliedMigrations(): Promise<Array<{ version: number; name: string }>> {
    return (await this.rows('SELECT version, name FROM schema_migrations ORDER BY version')).map((row) => ({
      version: int(row.version),
      name: String(row.name),
    }));
  }

  async pendingMigrations(): Promise<number[]> {
    const applied = new Set((await this.appliedMigrations()).map((migration) => migration.version));
    return this.migrationVersions.filter((version) => !applied.has(version));
  }

  // Realms ---------------------------------------------------------------------------------------

  async createRealm(realm: RealmRecord, origin?: ChangeOrigin): Promise<void> {
    assertStorable('realm', realm.name, realm.privateKeyPem, realm.publicKeyPem, realm.keyId);
    const params = new Params();
    const values = [
          realm.name,
          realm.enabled,
          realm.tokenLifetimeSeconds,
          realm.createAdminUser,
          realm.organizationsClaim,
          ...realmRateLimitColumns(realm.rateLimit),
          realm.createdTimestamp,
          realm.privateKeyPem,
          realm.publicKeyPem,
          realm.keyId,
        ].map((value) => params.add(value));
    const insert = `created AS (INSERT INTO realms (name, enabled, token_lifetime_seconds, create_admin_user, organizations_claim, rate_limit_requests,
           rate_limit_window_seconds, created_timestamp, private_key_pem, public_key_pem, key_id)
         VALUES (${values.join(', ')}) RETURNING name)`;
    const sql = `${this.withEvent(params, realm.name, insert, 'created', realmChange('CREATE', { realm, eventRetentionDays: null }), origin)} SELECT 1`;
    await mapConflicts(() => this.pool.query(sql, params.values));
    this.recorded();
    this.realmCache.forget();
  }

  async getRealm(name: string): Promise<RealmRecord | undefined> {
    if (unmatchable(name)) return undefined;
    const [row] = await this.rows('SELECT * FROM realms WHERE name = $1', [name]);
    return row && realmFromRow(row);
  }

  async getRealmSettings(name: string): Promise<RealmSettings | undefined> {
    return this.realmCache.get(name);
  }

  cachedRealmSettings(name: string): RealmSettings | undefined {
    return this.realmCache.peek(name);
  }

  async listRealms(): Promise<RealmRecord[]> {
    return (await this.rows('SELECT * FROM realms ORDER BY name')).map(realmFromRow);
  }

  async updateRealm(name: string, update: RealmUpdate, origin?: ChangeOrigin): Promise<RealmRecord | undefined> {
    if (unmatchable(name)) return undefined;
    const params = new Params();
    const sets: string[] = [];
    if (update.enabled !== undefined) sets.push(`enabled = ${params.add(update.enabled)}`);
    if (update.tokenLifetimeSeconds !== undefined) sets.push(`token_lifetime_seconds = ${params.add(update.tokenLifetimeSeconds)}`);
    if (update.createAdminUser !== undefined) sets.push(`create_admin_user = ${params.add(update.createAdminUser)}`);
    if (update.organizationsClaim !== undefined) sets.push(`organizations_claim = ${params.add(update.organizationsClaim)}`);
    if (update.rateLimit !== undefined) {
      const [requests, windowSeconds] = realmRateLimitColumns(update.rateLimit);
      sets.push(`rate_limit_requests = ${params.add(requests)}`, `rate_limit_window_seconds = ${params.add(windowSeconds)}`);
    }
    // One statement either way: the row returned is the row as this update left it.
    const sql =
      sets.length > 0
        ? `UPDATE realms SET ${sets.join(', ')} WHERE name = ${params.add(name)} RETURNING *`
        : `SELECT * FROM realms WHERE name = ${params.add(name)}`;
    try {
      if (sets.length === 0) {
        const [row] = await this.rows(sql, params.values);
        return row && realmFromRow(row);
      }
      return await this.transaction(async (client) => {
        const [row] = (await client.query(sql, params.values)).rows;
        if (!row) return undefined;
        const realm = realmFromRow(row);
        const [retention] = (await client.query('SELECT days FROM event_retention WHERE realm = $1', [name])).rows;
        await this.recordChange(client, name, realmChange('UPDATE', { realm, eventRetentionDays: retention ? Number(retention.days) : null }), origin);
        return realm;
      }).finally(() => this.recorded());
    } finally {
      this.realmCache.forget();
    }
  }

  // Users ----------------------------------------------------------------------------------------

  private async insertUser(db: Pool | PoolClient, user: NewUser): Promise<void> {
    assertStorable('user', user.id, user.realm, user.username, user.email, user.firstName, user.lastName, user.adminOfOrganization);
    await db.query(
      `INSERT INTO users (id, realm, username, email, first_name, last_name, email_verified, enabled,
         created_timestamp, kind, admin_of_organization, password_hash, realm_admin)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        user.id,
        user.realm,
        user.username,
        user.email,
        user.firstName,
        user.lastName,
        user.emailVerified,
        user.enabled,
        user.createdTimestamp,
        user.kind,
        user.adminOfOrganization,
        user.passwordHash,
        user.realmAdmin ?? false,
      ],
    );
  }

  async createUser(user: NewUser, origin?: ChangeOrigin): Promise<void> {
    await mapConflicts(() =>
      this.transaction(async (client) => {
        await this.insertUser(client, user);
        await this.recordChange(client, user.realm, userChange('CREATE', { realmAdmin: false, ...user }), origin);
      }),
    );
    this.recorded();
  }

  async getUser(realm: string, id: string): Promise<UserRecord | undefined> {
    if (unmatchable(realm, id)) return undefined;
    const [row] = await this.rows('SELECT * FROM users WHERE realm = $1 AND id = $2', [realm, id]);
    return row && userFromRow(row);
  }

  async findUserByUsername(realm: string, username: string): Promise<UserRecord | undefined> {
    if (unmatchable(realm, username)) return undefined;
    const [row] = await this.rows('SELECT * FROM users WHERE realm = $1 AND lower(username) = lower($2)', [realm, username]);
    return row && userFromRow(row);
  }

  /** The WHERE clause of a user filter, or undefined when nothing can match (NUL in a value). */
  private userWhere(realm: string, filter: UserFilter, params: Params): string | undefined {
    const search = filter.search !== undefined && filter.search !== '' ? filter.search : undefined;
    if (unmatchable(realm, filter.username, filter.email, search)) return undefined;
    const where = [`realm = ${params.add(realm)}`, "kind <> 'service-account'"];
    for (const [column, value] of [
      ['username', filter.username],
      ['email', filter.email],
    ] as const) {
      if (value === undefined) continue;
      // `IS NOT NULL` changes no answer (lower(NULL) matches nothing) and lets the planner use the
      // case-insensitive partial index users_realm_email (realm, lower(email)) WHERE email IS NOT NULL.
      where.push(
        filter.exact ? `${column} IS NOT NULL AND lower(${column}) = lower(${params.add(value)})` : contains(column, params.add(value)),
      );
    }
    if (search !== undefined) {
      const term = params.add(search);
      where.push(
        `(${contains('username', term)} OR ${contains('email', term)} OR ${contains('first_name', term)} OR ${contains('last_name', term)})`,
      );
    }
    return where.join(' AND ');
  }

  /**
   * A page of the realm's users, along the (realm, lower(username)) index: after a remembered
   * boundary's username when the list is unchanged since (page-boundaries.ts), else by position.
   */
  async findUsers(realm: string, filter: UserFilter): Promise<UserRecord[]> {
    const rows = await this.userPages.page(
      listKey(realm, filter),
      filter,
      (after, offset) => this.userPage(realm, filter, after, offset),
      (row) => String(row.sort_key),
    );
    return (rows ?? []).map(userFromRow);
  }

  /**
   * One page of users after lower-cased username `after` (undefined: from the start), skipping
   * `offset` rows, with the realm's user list version; undefined when the filter can match nothing.
   */
  private async userPage(
    realm: string,
    filter: UserFilter,
    after: string | undefined,
    offset: number,
  ): Promise<{ version: number; rows: Row[] } | undefined> {
    const params = new Params();
    const where = this.userWhere(realm, filter, params);
    if (where === undefined) return undefined;
    return this.keysetPage(realm, 'users', params, { columns: '*', from: 'users', sortKey: 'lower(username)', where }, after, offset, filter.max);
  }

  async countUsers(realm: string, filter: UserFilter): Promise<number> {
    const params = new Params();
    const where = this.userWhere(realm, filter, params);
    if (where === undefined) return 0;
    const [row] = await this.rows(`SELECT count(*) AS n FROM users WHERE ${where}`, params.values);
    return int(row.n);
  }

  async updateUser(realm: string, id: string, update: UserUpdate, origin?: ChangeOrigin): Promise<UserRecord | undefined> {
    if (unmatchable(realm, id)) return undefined;
    if (!Object.values(update).some((value) => value !== undefined)) return this.getUser(realm, id);
    const user = await this.transaction(async (client) => {
      const [row] = (
        await client.query(
          `UPDATE users SET enabled = coalesce($3, enabled), realm_admin = coalesce($4, realm_admin),
             password_hash = CASE WHEN $5 THEN $6 ELSE password_hash END
           WHERE realm = $1 AND id = $2 RETURNING *`,
          [realm, id, update.enabled ?? null, update.realmAdmin ?? null, update.passwordHash !== undefined, update.passwordHash ?? null],
        )
      ).rows;
      if (!row) return undefined;
      const updated = userFromRow(row);
      await this.recordChange(client, realm, userUpdateChange(update, updated), origin);
      return updated;
    });
    this.recorded();
    return user;
  }

  // API keys -------------------------------------------------------------------------------------

  async createApiKey(key: NewApiKey, serviceAccount: NewUser, origin?: ChangeOrigin): Promise<void> {
    assertStorable('API key', key.clientId, key.realm, key.name, key.secretHash, key.serviceAccountUserId);
    await mapConflicts(() =>
      this.transaction(async (client) => {
        await this.insertUser(client, serviceAccount);
        await client.query(
          `INSERT INTO api_keys (client_id, realm, name, secret_hash, permissions, service_account_user_id,
             created_timestamp, revoked_timestamp, last_used_timestamp) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            key.clientId,
            key.realm,
            key.name,
            key.secretHash,
            JSON.stringify(key.permissions),
            key.serviceAccountUserId,
            key.createdTimestamp,
            key.revokedTimestamp,
            key.lastUsedTimestamp ?? null,
          ],
        );
        await this.recordChange(client, key.realm, apiKeyChange('CREATE', { ...key, lastUsedTimestamp: key.lastUsedTimestamp ?? null }), origin);
      }),
    );
    this.recorded();
  }

  async getApiKey(clientId: string): Promise<ApiKeyRecord | undefined> {
    if (unmatchable(clientId)) return undefined;
    const [row] = await this.rows('SELECT * FROM api_keys WHERE client_id = $1', [clientId]);
    return row && apiKeyFromRow(row);
  }

  async listApiKeys(realm?: string): Promise<ApiKeyRecord[]> {
    if (unmatchable(realm)) return [];
    const rows =
      realm === undefined
        ? await this.rows('SELECT * FROM api_keys ORDER BY realm, created_timestamp, seq')
        : await this.rows('SELECT * FROM api_keys WHERE realm = $1 ORDER BY created_timestamp, seq', [realm]);
    return rows.map(apiKeyFromRow);
  }

  async revokeApiKey(clientId: string, revokedTimestamp: number, origin?: ChangeOrigin): Promise<boolean> {
    if (unmatchable(clientId)) return false;
    const found = await this.transaction(async (client) => {
      const [key] = (await client.query('SELECT revoked_timestamp FROM api_keys WHERE client_id = $1 FOR UPDATE', [clientId])).rows;
      if (!key) return false;
      // A second revocation keeps the first timestamp, records nothing, and still reports that the key exists.
      if (key.revoked_timestamp !== null) return true;
      const [row] = (await client.query('UPDATE api_keys SET revoked_timestamp = $2 WHERE client_id = $1 RETURNING *', [clientId, revokedTimestamp])).rows;
      const revoked = apiKeyFromRow(row!);
      await this.recordChange(client, revoked.realm, apiKeyChange('UPDATE', revoked), origin);
      return true;
    });
    this.recorded();
    return found;
  }

  async replaceApiKeySecretHash(clientId: string, expectedHash: string, newHash: string, rotatedBy?: ChangeOrigin): Promise<boolean> {
    if (unmatchable(clientId, expectedHash, newHash)) return false;
    const replaced = await this.transaction(async (client) => {
      const [row] = (
        await client.query('UPDATE api_keys SET secret_hash = $3 WHERE client_id = $1 AND secret_hash = $2 RETURNING *', [clientId, expectedHash, newHash])
      ).rows;
      if (!row) return false;
      if (rotatedBy) {
        const key = apiKeyFromRow(row);
        await this.recordChange(client, key.realm, apiKeySecretChange(key), rotatedBy);
      }
      return true;
    });
    this.recorded();
    return replaced;
  }

  async setApiKeyPermissions(clientId: string, permissions: Permission[], origin?: ChangeOrigin): Promise<boolean> {
    if (unmatchable(clientId)) return false;
    const changed = await this.transaction(async (client) => {
      const [row] = (
        await client.query('UPDATE api_keys SET permissions = $2::jsonb WHERE client_id = $1 AND revoked_timestamp IS NULL RETURNING *', [
          clientId,
          JSON.stringify(permissions),
        ])
      ).rows;
      if (!row) return false;
      const key = apiKeyFromRow(row);
      await this.recordChange(client, key.realm, apiKeyChange('UPDATE', key), origin);
      return true;
    });
    this.recorded();
    return changed;
  }

  async touchApiKey(clientId: string, lastUsedTimestamp: number): Promise<void> {
    if (unmatchable(clientId)) return;
    await this.pool.query('UPDATE api_keys SET last_used_timestamp = $2 WHERE client_id = $1', [clientId, lastUsedTimestamp]);
  }

  // OpenID Connect clients and authorization codes -----------------------------------------------

  async createOidcClient(client: OidcClientRecord, origin?: ChangeOrigin): Promise<void> {
    assertStorable('client', client.realm, client.clientId, client.name);
    const params = new Params();
    const [r, c, n, u, t, h, o] = [client.realm, client.clientId, client.name, JSON.stringify(client.redirectUris), client.createdTimestamp, client.secretHash, client.organizationsClaim].map((value) => params.add(value));
    const insert = `created AS (INSERT INTO oidc_clients (realm, client_id, name, redirect_uris, created_timestamp, secret_hash, organizations_claim)
      VALUES (${r}, ${c}, ${n}, ${u}::jsonb, ${t}, ${h}, ${o}) RETURNING 1)`;
    const sql = `${this.withEvent(params, client.realm, insert, 'created', oidcClientCreated(client), origin)} SELECT 1`;
    await mapConflicts(() => this.pool.query(sql, params.values));
    this.recorded();
  }

  async getOidcClient(realm: string, clientId: string): Promise<OidcClientRecord | undefined> {
    if (unmatchable(realm, clientId)) return undefined;
    const [row] = await this.rows('SELECT * FROM oidc_clients WHERE realm = $1 AND client_id = $2', [realm, clientId]);
    return row && oidcClientFromRow(row);
  }

  async listOidcClients(realm: string): Promise<OidcClientRecord[]> {
    if (unmatchable(realm)) return [];
    return (await this.rows('SELECT * FROM oidc_clients WHERE realm = $1 ORDER BY client_id', [realm])).map(oidcClientFromRow);
  }

  async setOidcClientOrganizationsClaim(realm: string, clientId: string, organizationsClaim: boolean, origin?: ChangeOrigin): Promise<boolean> {
    if (unmatchable(realm, clientId)) return false;
    const updated = await this.transaction(async (client) => {
      const { rows } = await client.query('UPDATE oidc_clients SET organizations_claim = $3 WHERE realm = $1 AND client_id = $2 RETURNING *', [realm, clientId, organizationsClaim]);
      if (!rows[0]) return false;
      await this.recordChange(client, realm, oidcClientUpdated(oidcClientFromRow(rows[0])), origin);
      return true;
    });
    this.recorded();
    return updated;
  }

  async deleteOidcClient(realm: string, clientId: string, origin?: ChangeOrigin): Promise<boolean> {
    if (unmatchable(realm, clientId)) return false;
    const params = new Params();
    const remove = `deleted AS (DELETE FROM oidc_clients WHERE realm = ${params.add(realm)} AND client_id = ${params.add(clientId)} RETURNING 1)`;
    const [row] = await this.rows(`${this.withEvent(params, realm, remove, 'deleted', oidcClientDeleted(clientId), origin)} SELECT count(*) AS n FROM deleted`, params.values);
    this.recorded();
    return int(row!.n) > 0;
  }

  async saveAuthorizationCode(code: AuthorizationCodeRecord, nowTimestamp: number): Promise<void> {
    assertStorable('authorization code', code.realm, code.clientId, code.redirectUri, code.userId, code.nonce, code.scope);
    await this.pool.query('DELETE FROM authorization_codes WHERE expires_timestamp < $1', [nowTimestamp]);
    await this.pool.query(
      `INSERT INTO authorization_codes (code_hash, realm, client_id, redirect_uri, user_id, code_challenge, nonce, scope,
         auth_time, expires_timestamp) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
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
      ],
    );
  }

  async consumeAuthorizationCode(codeHash: string): Promise<AuthorizationCodeRecord | undefined> {
    if (unmatchable(codeHash)) return undefined;
    const [row] = await this.rows('DELETE FROM authorization_codes WHERE code_hash = $1 RETURNING *', [codeHash]);
    return row && authorizationCodeFromRow(row);
  }

  // Service secrets ------------------------------------------------------------------------------

  async serverSecret(name: string, candidate: string, createdTimestamp: number): Promise<string> {
    // One statement: the insert loses to a concurrent one quietly, and the select then sees the winner.
    await this.pool.query(
      'INSERT INTO server_secrets (name, value, created_timestamp) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING',
      [name, candidate, createdTimestamp],
    );
    const [row] = await this.rows('SELECT value FROM server_secrets WHERE name = $1', [name]);
    return String(row.value);
  }

  // Revoked tokens -------------------------------------------------------------------------------

  async revokeToken(revocation: Omit<RevokedToken, 'seq'>): Promise<void> {
    if (unmatchable(revocation.jti)) return;
    await this.pool.query('DELETE FROM revoked_tokens WHERE expires_timestamp < $1', [revocation.revokedTimestamp]);
    await this.pool.query(
      `INSERT INTO revoked_tokens (realm, jti, expires_timestamp, revoked_timestamp) VALUES ($1, $2, $3, $4)
       ON CONFLICT (realm, jti) DO NOTHING`,
      [revocation.realm, revocation.jti, revocation.expiresTimestamp, revocation.revokedTimestamp],
    );
  }

  async activeRevokedTokens(nowTimestamp: number): Promise<RevokedToken[]> {
    const rows = await this.rows('SELECT * FROM revoked_tokens WHERE expires_timestamp >= $1 ORDER BY seq', [nowTimestamp]);
    return rows.map(revokedTokenFromRow);
  }

  // Organizations --------------------------------------------------------------------------------

  async createOrganization(org: Organization, adminUser?: NewUser, createdTimestamp = Date.now(), origin?: ChangeOrigin): Promise<void> {
    assertStorable('organization', org.id, org.realm, org.name, org.displayName, org.url);
    await mapConflicts(() =>
      this.transaction(async (client) => {
        // The event rides in the organization's own statement: one round trip less per create
        // (bench/events.mjs, writes with events on against off).
        const params = new Params();
        const values = [org.id, org.realm, org.name, org.displayName, org.url, JSON.stringify(org.domains), JSON.stringify(org.attributes), createdTimestamp].map((value) =>
          params.add(value),
        );
        const change = `created AS (
            INSERT INTO organizations (id, realm, name, display_name, url, domains, attributes, created_timestamp)
            VALUES (${values.join(', ')}) RETURNING 1)`;
        const text = `${this.withEvent(params, org.realm, change, 'created', organizationChange('CREATE', org), origin)} SELECT 1`;
        // The text is the same for every create (with events on, or off): prepared once per connection.
        await client.query({ name: this.recordEvents ? 'orgadmin_create_organization' : 'orgadmin_create_organization_quiet', text, values: params.values });
        if (adminUser) {
          await this.insertUser(client, adminUser);
          await client.query('INSERT INTO memberships (realm, organization_id, user_id, created_timestamp) VALUES ($1, $2, $3, $4)', [
            org.realm,
            org.id,
            adminUser.id,
            createdTimestamp,
          ]);
        }
        const roleIds = DEFAULT_ORGANIZATION_ROLES.map(() => randomUUID());
        await client.query(
          `INSERT INTO organization_roles (id, realm, organization_id, name, description, created_timestamp)
           SELECT r.id, $6, $2, r.name, r.description, $5 FROM unnest($1::text[], $3::text[], $4::text[]) AS r (id, name, description)`,
          [
            roleIds,
            org.id,
            DEFAULT_ORGANIZATION_ROLES.map((role) => role.name),
            DEFAULT_ORGANIZATION_ROLES.map((role) => role.description),
            createdTimestamp,
            org.realm,
          ],
        );
        if (adminUser) {
          await client.query(
            `INSERT INTO role_grants (realm, organization_id, role_id, user_id, created_timestamp)
             SELECT $5, $1, r.id, $3, $4 FROM unnest($2::text[]) WITH ORDINALITY AS r (id, i) ORDER BY r.i`,
            [org.id, roleIds, adminUser.id, createdTimestamp, org.realm],
          );
        }
      }),
    );
    this.recorded();
  }

  async getOrganization(realm: string, id: string): Promise<Organization | undefined> {
    if (unmatchable(realm, id)) return undefined;
    const [row] = await this.rows('SELECT * FROM organizations WHERE realm = $1 AND id = $2', [realm, id]);
    return row && orgFromRow(row);
  }

  /**
   * A page of the realm's organizations: after a remembered boundary's name when the list is
   * unchanged since (page-boundaries.ts), else by position.
   */
  async listOrganizations(realm: string, filter: OrganizationFilter): Promise<Organization[]> {
    const rows = await this.organizationPages.page(
      listKey(realm, filter),
      filter,
      (after, offset) => this.organizationPage(realm, filter, after, offset),
      (row) => String(row.sort_key),
    );
    return (rows ?? []).map(orgFromRow);
  }

  /**
   * One page of organizations after name `after` (undefined: from the start), skipping `offset`
   * rows, with the realm's organization list version; undefined when the filter can match nothing.
   */
  private async organizationPage(
    realm: string,
    filter: OrganizationFilter,
    after: string | undefined,
    offset: number,
  ): Promise<{ version: number; rows: Row[] } | undefined> {
    const params = new Params();
    const where = orgWhere(params, realm, filter);
    if (where === undefined) return undefined;
    // By name alone: names are unique within a realm (organizations_realm_name), so that is the
    // whole order, and the (realm, name) index gives it without a sort. With `o.id` as a second key
    // PostgreSQL sorted the realm's organizations for a deep page (a full sort against an index
    // walk: bench/README.md, bench:service, the paging table).
    return this.keysetPage(realm, 'organizations', params, { columns: 'o.*', from: 'organizations AS o', sortKey: 'o.name', where }, after, offset, filter.max);
  }

  /**
   * Rows of `query` in its sort key's order, after sort key `after` (undefined: from the start),
   * skipping `offset`, at most `max`, each with its `sort_key`, together with the version of the
   * realm's `list` (migration 006), in one statement, so from one snapshot.
   */
  private async keysetPage(
    realm: string,
    list: 'organizations' | 'users',
    params: Params,
    query: KeysetQuery,
    after: string | undefined,
    offset: number,
    max: number | undefined,
  ): Promise<{ version: number; rows: Row[] }> {
    const { columns, from, sortKey, where } = query;
    const boundary = after === undefined ? '' : ` AND ${sortKey} > ${params.add(after)}`;
    const rows = await this.rows(
      `SELECT coalesce((SELECT version FROM list_versions WHERE realm = ${params.add(realm)} AND list = ${params.add(list)}), 0) AS page_version, p.*
       FROM (SELECT 1) AS one
       LEFT JOIN LATERAL (
         SELECT ${columns}, ${sortKey} AS sort_key FROM ${from} WHERE ${where}${boundary} ORDER BY ${sortKey}${page(params, offset, max)}
       ) AS p ON true
       ORDER BY p.sort_key`,
      params.values,
    );
    return { version: int(rows[0].page_version), rows: rows.filter((row) => row.sort_key !== null) };
  }

  async countOrganizations(realm: string, filter: OrganizationFilter): Promise<number> {
    const params = new Params();
    const where = orgWhere(params, realm, filter);
    if (where === undefined) return 0;
    const [row] = await this.rows(`SELECT count(*) AS n FROM organizations AS o WHERE ${where}`, params.values);
    return int(row!.n);
  }

  async updateOrganization(
    realm: string,
    id: string,
    update: { name: string; displayName: string | null; url: string | null; attributes: Attributes; domains?: string[] },
    origin?: ChangeOrigin,
  ): Promise<boolean> {
    if (unmatchable(realm, id)) return false;
    assertStorable('organization', update.name, update.displayName, update.url);
    const params = new Params();
    const sets = [
      `name = ${params.add(update.name)}`,
      `display_name = ${params.add(update.displayName)}`,
      `url = ${params.add(update.url)}`,
      `attributes = ${params.add(JSON.stringify(update.attributes))}`,
    ];
    if (update.domains !== undefined) sets.push(`domains = ${params.add(JSON.stringify(update.domains))}`);
    const sql = `UPDATE organizations SET ${sets.join(', ')} WHERE realm = ${params.add(realm)} AND id = ${params.add(id)} RETURNING *`;
    const updated = await mapConflicts(() =>
      this.transaction(async (client) => {
        const [row] = (await client.query(sql, params.values)).rows;
        if (!row) return false;
        await this.recordChange(client, realm, organizationChange('UPDATE', orgFromRow(row)), origin);
        return true;
      }),
    );
    this.recorded();
    return updated;
  }

  async deleteOrganization(realm: string, id: string, origin?: ChangeOrigin): Promise<boolean> {
    if (unmatchable(realm, id)) return false;
    // Memberships, roles, grants and the default admin user go with it (ON DELETE CASCADE).
    const params = new Params();
    const remove = `deleted AS (DELETE FROM organizations WHERE realm = ${params.add(realm)} AND id = ${params.add(id)} RETURNING 1)`;
    const [row] = await this.rows(`${this.withEvent(params, realm, remove, 'deleted', organizationDeleted(id), origin)} SELECT count(*) AS n FROM deleted`, params.values);
    this.recorded();
    return int(row!.n) > 0;
  }

  // Memberships ----------------------------------------------------------------------------------

  async addMember(realm: string, orgId: string, userId: string, createdTimestamp: number, origin?: ChangeOrigin): Promise<boolean> {
    if (unmatchable(realm, orgId, userId)) return false;
    const params = new Params();
    const [r, o, u, t] = [realm, orgId, userId, createdTimestamp].map((value) => params.add(value));
    // One statement: the unique (realm, organization_id, user_id) constraint turns a repeated or
    // concurrent add into a no-op (a racing insert waits for the winner, then does nothing), which
    // inserts no row and so records no event.
    const change = `org AS (SELECT realm, id FROM organizations WHERE realm = ${r} AND id = ${o}),
              member AS (SELECT id FROM users WHERE realm = ${r} AND id = ${u}),
              added AS (
                INSERT INTO memberships (realm, organization_id, user_id, created_timestamp)
                SELECT org.realm, org.id, member.id, ${t} FROM org, member
                ON CONFLICT (realm, organization_id, user_id) DO NOTHING RETURNING 1)`;
    try {
      const text = `${this.withEvent(params, realm, change, 'added', membershipChange('CREATE', orgId, userId), origin)}
         SELECT EXISTS (SELECT 1 FROM org) AND EXISTS (SELECT 1 FROM member) AS found`;
      // The text is the same for every add (with events on, or off): prepared once per connection.
      const { rows } = await this.pool.query({ name: this.recordEvents ? 'orgadmin_add_member' : 'orgadmin_add_member_quiet', text, values: params.values });
      const [row] = rows;
      this.recorded();
      return row?.found === true;
    } catch (error) {
      // The organization or user was deleted between the lookup and the insert.
      if (sqlState(error) === FOREIGN_KEY_VIOLATION) return false;
      throw error;
    }
  }

  async removeMember(realm: string, orgId: string, userId: string, origin?: ChangeOrigin): Promise<boolean> {
    if (unmatchable(realm, orgId, userId)) return false;
    const params = new Params();
    const [r, o, u] = [realm, orgId, userId].map((value) => params.add(value));
    const remove = `removed AS (DELETE FROM memberships WHERE realm = ${r} AND organization_id = ${o} AND user_id = ${u} RETURNING 1)`;
    const [row] = await this.rows(
      `${this.withEvent(params, realm, remove, 'removed', membershipChange('DELETE', orgId, userId), origin)} SELECT count(*) AS n FROM removed`,
      params.values,
    );
    this.recorded();
    return int(row!.n) > 0;
  }

  async isMember(realm: string, orgId: string, userId: string): Promise<boolean> {
    if (unmatchable(realm, orgId, userId)) return false;
    return this.membershipChecks.isMember(realm, orgId, userId);
  }

  /**
   * Answers a batch of membership questions in one query. The questions travel as three arrays,
   * so the statement's text is the same for every batch size and is prepared once per connection
   * (a named statement): each batch then costs one round trip without parsing or planning.
   */
  private async answerMembershipQuestions(questions: readonly MembershipQuestion[]): Promise<boolean[]> {
    const { rows } = await this.pool.query({
      name: 'orgadmin_membership_checks',
      text: `SELECT q.i FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS q(realm, organization_id, user_id, i)
             WHERE EXISTS (SELECT 1 FROM memberships AS m
                           WHERE m.realm = q.realm AND m.organization_id = q.organization_id AND m.user_id = q.user_id)`,
      values: [questions.map((q) => q.realm), questions.map((q) => q.orgId), questions.map((q) => q.userId)],
    });
    const answers = questions.map(() => false);
    // WITH ORDINALITY counts from 1.
    for (const row of rows) answers[int(row.i) - 1] = true;
    return answers;
  }

  async listMembers(realm: string, orgId: string, filter: MemberFilter): Promise<UserRecord[]> {
    const rows = await this.memberPages.page(
      listKey([realm, orgId], filter),
      filter,
      (after, offset) => this.memberPage(realm, orgId, filter, after ?? 0, offset),
      (row) => int(row.membership_seq),
    );
    return (rows ?? []).map(userFromRow);
  }

  /**
   * One page of members after membership `afterSeq`, skipping `offset` rows, together with the
   * member list's version, in one statement (so from one snapshot); undefined when the
   * organization does not exist in the realm.
   */
  private async memberPage(
    realm: string,
    orgId: string,
    filter: MemberFilter,
    afterSeq: number,
    offset: number,
  ): Promise<{ version: number; rows: Row[] } | undefined> {
    const params = new Params();
    const where = memberWhere(params, realm, orgId, filter);
    if (where === undefined) return undefined;
    const limit = filter.max === undefined || filter.max < 0 ? '' : ` LIMIT ${params.add(filter.max)}`;
    const after = params.add(afterSeq);
    const skip = params.add(offset);
    // Without conditions on the users, the page is cut from the memberships alone, along the index
    // (realm, organization_id, seq), and then each of its rows looks up its user by primary key: one
    // index probe per row, whatever the size of the users table (`OFFSET 0` keeps the planner from
    // folding the lookup into a hash join that reads every user). Joined first, a page deep in a
    // large list (`OFFSET` with no remembered boundary) was planned as a hash join of the whole
    // list and a sort of it.
    const pageRows = hasUserConditions(filter)
      ? `SELECT u.*, m.seq AS membership_seq FROM memberships AS m JOIN users AS u ON u.id = m.user_id
         WHERE ${where} AND m.seq > ${after} ORDER BY m.seq${limit} OFFSET ${skip}`
      : `SELECT u.*, m.seq AS membership_seq FROM (
           SELECT m.seq, m.user_id FROM memberships AS m
           WHERE ${where} AND m.seq > ${after} ORDER BY m.seq${limit} OFFSET ${skip}
         ) AS m CROSS JOIN LATERAL (SELECT * FROM users WHERE users.id = m.user_id OFFSET 0) AS u`;
    const rows = await this.rows(
      `SELECT o.members_version AS page_version, p.* FROM organizations AS o
       LEFT JOIN LATERAL (${pageRows}) AS p ON true
       WHERE o.realm = ${params.add(realm)} AND o.id = ${params.add(orgId)}
       ORDER BY p.membership_seq`,
      params.values,
    );
    if (rows.length === 0) return undefined;
    return { version: int(rows[0].page_version), rows: rows.filter((row) => row.membership_seq !== null) };
  }

  async countMembers(realm: string, orgId: string, filter: MemberFilter): Promise<number> {
    const params = new Params();
    const where = memberWhere(params, realm, orgId, filter);
    if (where === undefined) return 0;
    const [row] = await this.rows(
      `SELECT count(*) AS n FROM memberships AS m JOIN users AS u ON u.id = m.user_id WHERE ${where}`,
      params.values,
    );
    return int(row!.n);
  }

  async listUserOrganizations(realm: string, userId: string): Promise<Organization[]> {
    if (unmatchable(realm, userId)) return [];
    const rows = await this.rows(
      `SELECT o.* FROM memberships AS m JOIN organizations AS o ON o.realm = m.realm AND o.id = m.organization_id
       WHERE m.realm = $1 AND m.user_id = $2 ORDER BY o.name`,
      [realm, userId],
    );
    return rows.map(orgFromRow);
  }

  // Organization roles ---------------------------------------------------------------------------

  /**
   * True when the organization exists in the realm; inside a transaction, also keeps it from being
   * deleted until the transaction ends (`FOR KEY SHARE`), so that what is written next cannot meet
   * a foreign-key violation.
   */
  private async lockOrganization(client: PoolClient, realm: string, orgId: string): Promise<boolean> {
    const { rows } = await client.query('SELECT 1 FROM organizations WHERE realm = $1 AND id = $2 FOR KEY SHARE', [realm, orgId]);
    return rows.length > 0;
  }

  async createRoles(realm: string, orgId: string, roles: readonly NewRole[], createdTimestamp: number, origin?: ChangeOrigin): Promise<RoleCreation[] | undefined> {
    if (unmatchable(realm, orgId)) return undefined;
    for (const role of roles) assertStorable('role', role.id, role.name, role.description);
    const created = await mapConflicts(() =>
      this.transaction(async (client) => {
        if (!(await this.lockOrganization(client, realm, orgId))) return undefined;
        const creations: RoleCreation[] = [];
        for (const role of roles) {
          const inserted = await client.query(
            `INSERT INTO organization_roles (id, realm, organization_id, name, description, created_timestamp) VALUES ($1, $6, $2, $3, $4, $5)
             ON CONFLICT (realm, organization_id, name) DO NOTHING RETURNING *`,
            [role.id, orgId, role.name, role.description, createdTimestamp, realm],
          );
          if (inserted.rows[0]) {
            const stored = roleFromRow(inserted.rows[0]);
            await this.recordChange(client, realm, roleChange('CREATE', stored), origin);
            creations.push({ created: true, role: stored });
            continue;
          }
          const existing = await client.query('SELECT * FROM organization_roles WHERE realm = $3 AND organization_id = $1 AND name = $2', [
            orgId,
            role.name,
            realm,
          ]);
          creations.push({ created: false, role: roleFromRow(existing.rows[0]!) });
        }
        return creations;
      }),
    );
    this.recorded();
    return created;
  }

  async getRole(realm: string, orgId: string, name: string): Promise<RoleRecord | undefined> {
    if (unmatchable(realm, orgId, name)) return undefined;
    const [row] = await this.rows(
      'SELECT * FROM organization_roles WHERE realm = $1 AND organization_id = $2 AND name = $3',
      [realm, orgId, name],
    );
    return row && roleFromRow(row);
  }

  async listRoles(realm: string, orgId: string): Promise<RoleRecord[] | undefined> {
    if (unmatchable(realm, orgId)) return undefined;
    // One statement, so the organization and its roles come from one snapshot.
    const rows = await this.rows(
      `SELECT r.*, o.id AS organization_found FROM organizations AS o
       LEFT JOIN organization_roles AS r ON r.realm = o.realm AND r.organization_id = o.id
       WHERE o.realm = $1 AND o.id = $2 ORDER BY r.name`,
      [realm, orgId],
    );
    if (rows.length === 0) return undefined;
    return rows.filter((row) => row.id !== null).map(roleFromRow);
  }

  async updateRoleDescription(realm: string, orgId: string, name: string, description: string | null, origin?: ChangeOrigin): Promise<RoleRecord | undefined> {
    if (unmatchable(realm, orgId, name)) return undefined;
    assertStorable('role', description);
    const updated = await this.transaction(async (client) => {
      const { rows } = await client.query(
        'UPDATE organization_roles SET description = $4 WHERE realm = $1 AND organization_id = $2 AND name = $3 RETURNING *',
        [realm, orgId, name, description],
      );
      if (!rows[0]) return undefined;
      const role = roleFromRow(rows[0]);
      await this.recordChange(client, realm, roleChange('UPDATE', role), origin);
      return role;
    });
    this.recorded();
    return updated;
  }

  async deleteRoles(realm: string, orgId: string, names: readonly string[], origin?: ChangeOrigin): Promise<Array<RoleRecord | undefined> | undefined> {
    if (unmatchable(realm, orgId)) return undefined;
    const result = await this.transaction(async (client) => {
      if (!(await this.lockOrganization(client, realm, orgId))) return undefined;
      const deleted: Array<RoleRecord | undefined> = [];
      for (const name of names) {
        if (unmatchable(name)) {
          deleted.push(undefined);
          continue;
        }
        // Grants go with the role (ON DELETE CASCADE).
        const { rows } = await client.query('DELETE FROM organization_roles WHERE realm = $3 AND organization_id = $1 AND name = $2 RETURNING *', [
          orgId,
          name,
          realm,
        ]);
        const role = rows[0] && roleFromRow(rows[0]);
        if (role) await this.recordChange(client, realm, roleChange('DELETE', role), origin);
        deleted.push(role);
      }
      return deleted;
    });
    this.recorded();
    return result;
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
    if (unmatchable(realm, orgId)) return { kind: 'no-organization' };
    if (unmatchable(userId)) return { kind: 'no-user' };
    const outcome = await this.transaction(async (client): Promise<MemberRolesChange> => {
      if (!(await this.lockOrganization(client, realm, orgId))) return { kind: 'no-organization' };
      const user = await client.query('SELECT 1 FROM users WHERE realm = $1 AND id = $2', [realm, userId]);
      if (user.rows.length === 0) return { kind: 'no-user' };
      // Locked against removal until this transaction ends: a member removed meanwhile loses the
      // grants with the membership, after them, never in between.
      const member = await client.query('SELECT 1 FROM memberships WHERE realm = $3 AND organization_id = $1 AND user_id = $2 FOR KEY SHARE', [
        orgId,
        userId,
        realm,
      ]);
      if (member.rows.length === 0) return { kind: 'not-member' };
      return { kind: 'done', changes: await this.writeRoleChanges(client, realm, orgId, userId, names, change, createdTimestamp, origin) };
    });
    this.recorded();
    return outcome;
  }

  /**
   * Grants or revokes the organization's roles `names` of a member on the caller's transaction
   * (the caller locked the organization and the membership), recording an event per change.
   */
  private async writeRoleChanges(
    client: PoolClient,
    realm: string,
    orgId: string,
    userId: string,
    names: readonly string[],
    change: 'grant' | 'revoke',
    createdTimestamp: number,
    origin: ChangeOrigin | undefined,
  ): Promise<RoleChange[]> {
    const changes: RoleChange[] = [];
    for (const name of names) {
      const found = unmatchable(name)
        ? undefined
        : (await client.query('SELECT * FROM organization_roles WHERE realm = $3 AND organization_id = $1 AND name = $2 FOR KEY SHARE', [orgId, name, realm]))
            .rows[0];
      if (!found) {
        changes.push({ outcome: 'no-role', name });
        continue;
      }
      const role = roleFromRow(found);
      const result =
        change === 'grant'
          ? await client.query(
              `INSERT INTO role_grants (realm, organization_id, role_id, user_id, created_timestamp) VALUES ($5, $1, $2, $3, $4)
               ON CONFLICT (role_id, user_id) DO NOTHING`,
              [orgId, role.id, userId, createdTimestamp, realm],
            )
          : await client.query('DELETE FROM role_grants WHERE realm = $4 AND organization_id = $1 AND role_id = $2 AND user_id = $3', [
              orgId,
              role.id,
              userId,
              realm,
            ]);
      if ((result.rowCount ?? 0) === 0) {
        changes.push({ outcome: 'unchanged', role });
        continue;
      }
      await this.recordChange(client, realm, roleGrantChange(change, role, userId), origin);
      changes.push({ outcome: 'changed', role });
    }
    return changes;
  }

  async hasRole(realm: string, orgId: string, name: string, userId: string): Promise<boolean> {
    if (unmatchable(realm, orgId, name, userId)) return false;
    const rows = await this.rows(
      `SELECT 1 FROM role_grants AS g JOIN organization_roles AS r ON r.id = g.role_id
       WHERE r.realm = $1 AND r.organization_id = $2 AND r.name = $3 AND g.user_id = $4`,
      [realm, orgId, name, userId],
    );
    return rows.length > 0;
  }

  async listRoleUsers(realm: string, orgId: string, name: string, filter: { excludeAdminAccounts?: boolean }): Promise<UserRecord[] | undefined> {
    if (unmatchable(realm, orgId, name)) return undefined;
    // One statement: the role and its users from one snapshot.
    const rows = await this.rows(
      `SELECT u.*, r.id AS role_found FROM organization_roles AS r
       LEFT JOIN LATERAL (
         SELECT u.*, g.seq AS grant_seq FROM role_grants AS g JOIN users AS u ON u.id = g.user_id
         WHERE g.role_id = r.id${filter.excludeAdminAccounts ? " AND u.kind <> 'org-admin'" : ''}
       ) AS u ON true
       WHERE r.realm = $1 AND r.organization_id = $2 AND r.name = $3 ORDER BY u.grant_seq`,
      [realm, orgId, name],
    );
    if (rows.length === 0) return undefined;
    return rows.filter((row) => row.grant_seq !== null).map(userFromRow);
  }

  async listMemberRoles(realm: string, orgId: string, userId: string): Promise<RoleRecord[] | undefined> {
    if (unmatchable(realm, orgId, userId)) return undefined;
    // One statement: the membership and its roles from one snapshot.
    const rows = await this.rows(
      `SELECT r.*, m.seq AS membership_found FROM memberships AS m
       LEFT JOIN role_grants AS g ON g.realm = m.realm AND g.organization_id = m.organization_id AND g.user_id = m.user_id
       LEFT JOIN organization_roles AS r ON r.id = g.role_id
       WHERE m.realm = $1 AND m.organization_id = $2 AND m.user_id = $3 ORDER BY r.name`,
      [realm, orgId, userId],
    );
    if (rows.length === 0) return undefined;
    return rows.filter((row) => row.id !== null).map(roleFromRow);
  }

  async listUserOrganizationRoles(realm: string, userId: string): Promise<OrganizationWithRoles[]> {
    if (unmatchable(realm, userId)) return [];
    // One statement: each organization with the user's role ids there (a snapshot of both).
    const rows = await this.rows(
      `SELECT o.*, coalesce(
         (SELECT json_agg(json_build_object('id', r.id, 'organization_id', r.organization_id, 'name', r.name,
                  'description', r.description, 'created_timestamp', r.created_timestamp) ORDER BY r.name)
          FROM role_grants AS g JOIN organization_roles AS r ON r.id = g.role_id
          WHERE g.realm = o.realm AND g.organization_id = o.id AND g.user_id = m.user_id), '[]') AS user_roles
       FROM memberships AS m JOIN organizations AS o ON o.realm = m.realm AND o.id = m.organization_id
       WHERE m.realm = $1 AND m.user_id = $2 ORDER BY o.name`,
      [realm, userId],
    );
    return groupRolesByOrganization(
      rows.map(orgFromRow),
      rows.flatMap((row) => (row.user_roles as Row[]).map(roleFromRow)),
    );
  }

  async close(): Promise<void> {
    this.closing ??= this.pool.end();
    return this.closing;
  }
}
