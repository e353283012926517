/**
 * {@link SsoStore} on the SQLite store's database (better-sqlite3): every method one statement or
 * one immediate transaction, so it runs to completion before another request's write.
 */
import type Database from 'better-sqlite3';
import { JSON_AS_TEXT, type Row } from './rows';
import { ssoRowReaders } from './sso-rows';
import type {
  BrokerLoginRecord,
  DomainClaim,
  DomainRoute,
  FederatedSignIn,
  IdentityProviderMapperRecord,
  IdentityProviderRecord,
  IdentityProviderUpdate,
  SsoStore,
} from './sso-store';
import type { NewUser, RoleChange } from './store';
import type { ChangeDescription, ChangeOrigin } from '../events/event';
import {
  domainVerified,
  identityProviderChange,
  identityProviderDeleted,
  identityProviderMapperChange,
  identityProviderMapperDeleted,
  identityProviderOwnerChange,
  membershipChange,
  userChange,
} from '../events/changes';

const { providerFromRow, mapperFromRow, brokerLoginFromRow } = ssoRowReaders(JSON_AS_TEXT);

/** What the SSO tables need of the SQLite store they live in. */
export interface SqliteStoreParts {
  db: Database.Database;
  /** The store's prepared-statement cache. */
  statement(sql: string): Database.Statement;
  /** Inserts a user row (inside the caller's transaction). */
  insertUser(user: NewUser): void;
  /** Runs `fn`, turning unique-constraint failures into `StoreConflictError`. */
  mapConflicts<T>(fn: () => T): T;
  /** Records the admin event of a change (inside the change's transaction, after the change; see the store's `recordChange`). */
  recordChange(realm: string, change: ChangeDescription, origin: ChangeOrigin | undefined): void;
  /** Grants a member the organization's roles `names` (inside the caller's transaction), recording their events. */
  grantRoles(realm: string, orgId: string, userId: string, names: readonly string[], timestamp: number, origin: ChangeOrigin | undefined): RoleChange[];
}

/** The SQLite implementation of {@link SsoStore}. */
export class SqliteSsoStore implements SsoStore {
  constructor(private readonly parts: SqliteStoreParts) {}

  private get statement(): (sql: string) => Database.Statement {
    return this.parts.statement;
  }

  // Domains -------------------------------------------------------------------------------------

  async verifiedDomains(realm: string, organizationId: string): Promise<string[]> {
    const rows = this.statement('SELECT domain FROM domain_verifications WHERE realm = ? AND organization_id = ? ORDER BY domain').all(realm, organizationId) as Row[];
    return rows.map((row) => String(row.domain));
  }

  async verifyDomain(realm: string, organizationId: string, domain: string, verifiedTimestamp: number, origin?: ChangeOrigin): Promise<DomainClaim> {
    return this.parts.db
      .transaction((): DomainClaim => {
        const listed = this.statement(
          `SELECT 1 FROM organizations AS o, json_each(o.domains) AS d WHERE o.realm = ? AND o.id = ? AND d.value = ?`,
        ).get(realm, organizationId, domain);
        if (!listed) return { outcome: 'not_listed' };
        const inserted = this.statement(
          `INSERT INTO domain_verifications (realm, domain, organization_id, verified_timestamp) VALUES (?, ?, ?, ?)
           ON CONFLICT (realm, domain) DO NOTHING`,
        ).run(realm, domain, organizationId, verifiedTimestamp).changes > 0;
        if (inserted) this.parts.recordChange(realm, domainVerified(organizationId, domain), origin);
        const holder = String((this.statement('SELECT organization_id FROM domain_verifications WHERE realm = ? AND domain = ?').get(realm, domain) as Row).organization_id);
        return holder === organizationId ? { outcome: 'verified' } : { outcome: 'taken', organizationId: holder };
      })
      .immediate();
  }

  async routesForDomain(realm: string, domain: string): Promise<DomainRoute[]> {
    const rows = this.statement(
      `SELECT p.* FROM domain_verifications AS v JOIN identity_providers AS p ON p.realm = v.realm AND p.organization_id = v.organization_id
       WHERE v.realm = ? AND v.domain = ? AND p.enabled = 1 ORDER BY p.alias`,
    ).all(realm, domain) as Row[];
    return rows.map((row) => ({ organizationId: String(row.organization_id), provider: providerFromRow(row) }));
  }

  // Identity providers ----------------------------------------------------------------------------

  async createIdentityProvider(provider: IdentityProviderRecord, origin?: ChangeOrigin): Promise<void> {
    this.parts.mapConflicts(() => this.parts.db.transaction(() => {
      this.statement(
        `INSERT INTO identity_providers (realm, alias, internal_id, organization_id, provider_id, display_name, enabled, trust_email,
           config, client_secret, created_timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        provider.realm,
        provider.alias,
        provider.internalId,
        provider.organizationId,
        provider.providerId,
        provider.displayName,
        provider.enabled ? 1 : 0,
        provider.trustEmail ? 1 : 0,
        JSON.stringify(provider.config),
        provider.sealedClientSecret,
        provider.createdTimestamp,
      );
      this.parts.recordChange(provider.realm, identityProviderChange('CREATE', provider), origin);
    }).immediate());
  }

  async getIdentityProvider(realm: string, alias: string): Promise<IdentityProviderRecord | undefined> {
    const row = this.statement('SELECT * FROM identity_providers WHERE realm = ? AND alias = ?').get(realm, alias) as Row | undefined;
    return row && providerFromRow(row);
  }

  async listIdentityProviders(realm: string, organizationId: string): Promise<IdentityProviderRecord[]> {
    const rows = this.statement('SELECT * FROM identity_providers WHERE realm = ? AND organization_id = ? ORDER BY alias').all(realm, organizationId) as Row[];
    return rows.map(providerFromRow);
  }

  async updateIdentityProvider(realm: string, alias: string, organizationId: string, update: IdentityProviderUpdate, origin?: ChangeOrigin): Promise<boolean> {
    return this.parts.db
      .transaction(() => {
        const result = this.statement(
          `UPDATE identity_providers SET provider_id = ?, display_name = ?, enabled = ?, trust_email = ?, config = ?, client_secret = ?
           WHERE realm = ? AND alias = ? AND organization_id = ?`,
        ).run(
          update.providerId,
          update.displayName,
          update.enabled ? 1 : 0,
          update.trustEmail ? 1 : 0,
          JSON.stringify(update.config),
          update.sealedClientSecret,
          realm,
          alias,
          organizationId,
        );
        if (result.changes === 0) return false;
        this.parts.recordChange(realm, identityProviderChange('UPDATE', this.storedProvider(realm, alias)), origin);
        return true;
      })
      .immediate();
  }

  /** The provider `alias` of the realm, read inside a transaction that knows it exists. */
  private storedProvider(realm: string, alias: string): IdentityProviderRecord {
    return providerFromRow(this.statement('SELECT * FROM identity_providers WHERE realm = ? AND alias = ?').get(realm, alias) as Row);
  }

  async setIdentityProviderOwner(
    realm: string,
    alias: string,
    to: string | null,
    from: string | null,
    origin?: ChangeOrigin,
  ): Promise<{ previousOwner: string | null } | undefined> {
    return this.parts.db
      .transaction(() => {
        const row = this.statement('SELECT organization_id FROM identity_providers WHERE realm = ? AND alias = ?').get(realm, alias) as Row | undefined;
        if (!row) return undefined;
        const previousOwner = row.organization_id === null ? null : String(row.organization_id);
        if (previousOwner === from) {
          this.statement('UPDATE identity_providers SET organization_id = ? WHERE realm = ? AND alias = ?').run(to, realm, alias);
          if (to !== previousOwner) this.parts.recordChange(realm, identityProviderOwnerChange(to === null ? 'unlink' : 'link', this.storedProvider(realm, alias)), origin);
        }
        return { previousOwner };
      })
      .immediate();
  }

  async deleteIdentityProvider(realm: string, alias: string, organizationId: string, origin?: ChangeOrigin): Promise<boolean> {
    return this.parts.db
      .transaction(() => {
        const deleted = this.statement('DELETE FROM identity_providers WHERE realm = ? AND alias = ? AND organization_id = ?').run(realm, alias, organizationId).changes > 0;
        if (deleted) this.parts.recordChange(realm, identityProviderDeleted(alias), origin);
        return deleted;
      })
      .immediate();
  }

  // Mappers ---------------------------------------------------------------------------------------

  async createMapper(mapper: IdentityProviderMapperRecord, origin?: ChangeOrigin): Promise<void> {
    this.parts.mapConflicts(() =>
      this.parts.db
        .transaction(() => {
          this.statement(
            'INSERT INTO identity_provider_mappers (id, realm, alias, name, mapper_type, config, created_timestamp) VALUES (?, ?, ?, ?, ?, ?, ?)',
          ).run(mapper.id, mapper.realm, mapper.alias, mapper.name, mapper.mapperType, JSON.stringify(mapper.config), mapper.createdTimestamp);
          this.parts.recordChange(mapper.realm, identityProviderMapperChange('CREATE', mapper), origin);
        })
        .immediate(),
    );
  }

  async listMappers(realm: string, alias: string): Promise<IdentityProviderMapperRecord[]> {
    const rows = this.statement('SELECT * FROM identity_provider_mappers WHERE realm = ? AND alias = ? ORDER BY created_timestamp, id').all(realm, alias) as Row[];
    return rows.map(mapperFromRow);
  }

  async getMapper(realm: string, alias: string, id: string): Promise<IdentityProviderMapperRecord | undefined> {
    const row = this.statement('SELECT * FROM identity_provider_mappers WHERE realm = ? AND alias = ? AND id = ?').get(realm, alias, id) as Row | undefined;
    return row && mapperFromRow(row);
  }

  async updateMapper(
    realm: string,
    alias: string,
    id: string,
    update: Pick<IdentityProviderMapperRecord, 'name' | 'mapperType' | 'config'>,
    origin?: ChangeOrigin,
  ): Promise<boolean> {
    return this.parts.mapConflicts(() =>
      this.parts.db
        .transaction(() => {
          const updated =
            this.statement('UPDATE identity_provider_mappers SET name = ?, mapper_type = ?, config = ? WHERE realm = ? AND alias = ? AND id = ?').run(
              update.name,
              update.mapperType,
              JSON.stringify(update.config),
              realm,
              alias,
              id,
            ).changes > 0;
          if (updated) {
            const row = this.statement('SELECT * FROM identity_provider_mappers WHERE realm = ? AND alias = ? AND id = ?').get(realm, alias, id) as Row;
            this.parts.recordChange(realm, identityProviderMapperChange('UPDATE', mapperFromRow(row)), origin);
          }
          return updated;
        })
        .immediate(),
    );
  }

  async deleteMapper(realm: string, alias: string, id: string, origin?: ChangeOrigin): Promise<boolean> {
    return this.parts.db
      .transaction(() => {
        const deleted = this.statement('DELETE FROM identity_provider_mappers WHERE realm = ? AND alias = ? AND id = ?').run(realm, alias, id).changes > 0;
        if (deleted) this.parts.recordChange(realm, identityProviderMapperDeleted(alias, id), origin);
        return deleted;
      })
      .immediate();
  }

  // Brokered sign-in ------------------------------------------------------------------------------

  async findFederatedUser(realm: string, alias: string, issuer: string, subject: string): Promise<string | undefined> {
    const row = this.statement('SELECT user_id FROM federated_identities WHERE realm = ? AND alias = ? AND issuer = ? AND subject = ?').get(
      realm,
      alias,
      issuer,
      subject,
    ) as Row | undefined;
    return row && String(row.user_id);
  }

  async admitFederatedUser(signIn: FederatedSignIn, origin?: ChangeOrigin): Promise<string[]> {
    return this.parts.mapConflicts(() =>
      this.parts.db
        .transaction((): string[] => {
          if (signIn.newUser) {
            this.parts.insertUser(signIn.newUser);
            this.parts.recordChange(signIn.realm, userChange('CREATE', { realmAdmin: false, ...signIn.newUser }), origin);
          }
          if (signIn.link) {
            const { realm, alias, issuer, subject, userId } = signIn.link;
            this.statement(
              'INSERT INTO federated_identities (realm, alias, issuer, subject, user_id, created_timestamp) VALUES (?, ?, ?, ?, ?, ?)',
            ).run(realm, alias, issuer, subject, userId, signIn.timestamp);
          }
          const added = this.statement(
            `INSERT INTO memberships (realm, organization_id, user_id, created_timestamp) VALUES (?, ?, ?, ?)
             ON CONFLICT (realm, organization_id, user_id) DO NOTHING`,
          ).run(signIn.realm, signIn.organizationId, signIn.userId, signIn.timestamp).changes > 0;
          if (added) this.parts.recordChange(signIn.realm, membershipChange('CREATE', signIn.organizationId, signIn.userId), origin);
          if (!signIn.roles?.length) return [];
          const granted = this.parts.grantRoles(signIn.realm, signIn.organizationId, signIn.userId, signIn.roles, signIn.timestamp, origin);
          return granted.flatMap((change) => (change.outcome === 'no-role' ? [change.name] : []));
        })
        .immediate(),
    );
  }

  async saveBrokerLogin(login: BrokerLoginRecord, nowTimestamp: number): Promise<void> {
    this.parts.db
      .transaction(() => {
        this.statement('DELETE FROM broker_logins WHERE expires_timestamp < ?').run(nowTimestamp);
        this.statement(
          `INSERT INTO broker_logins (state_hash, realm, alias, browser_hash, code_verifier, nonce, request, expires_timestamp)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(login.stateHash, login.realm, login.alias, login.browserHash, login.codeVerifier, login.nonce, JSON.stringify(login.request), login.expiresTimestamp);
      })
      .immediate();
  }

  async consumeBrokerLogin(stateHash: string): Promise<BrokerLoginRecord | undefined> {
    const row = this.statement('DELETE FROM broker_logins WHERE state_hash = ? RETURNING *').get(stateHash) as Row | undefined;
    return row && brokerLoginFromRow(row);
  }
}
