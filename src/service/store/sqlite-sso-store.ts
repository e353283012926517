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
import type { NewUser } from './store';

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

  async verifyDomain(realm: string, organizationId: string, domain: string, verifiedTimestamp: number): Promise<DomainClaim> {
    return this.parts.db
      .transaction((): DomainClaim => {
        const listed = this.statement(
          `SELECT 1 FROM organizations AS o, json_each(o.domains) AS d WHERE o.realm = ? AND o.id = ? AND d.value = ?`,
        ).get(realm, organizationId, domain);
        if (!listed) return { outcome: 'not_listed' };
        this.statement(
          `INSERT INTO domain_verifications (realm, domain, organization_id, verified_timestamp) VALUES (?, ?, ?, ?)
           ON CONFLICT (realm, domain) DO NOTHING`,
        ).run(realm, domain, organizationId, verifiedTimestamp);
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

  async createIdentityProvider(provider: IdentityProviderRecord): Promise<void> {
    this.parts.mapConflicts(() =>
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
      ),
    );
  }

  async getIdentityProvider(realm: string, alias: string): Promise<IdentityProviderRecord | undefined> {
    const row = this.statement('SELECT * FROM identity_providers WHERE realm = ? AND alias = ?').get(realm, alias) as Row | undefined;
    return row && providerFromRow(row);
  }

  async listIdentityProviders(realm: string, organizationId: string): Promise<IdentityProviderRecord[]> {
    const rows = this.statement('SELECT * FROM identity_providers WHERE realm = ? AND organization_id = ? ORDER BY alias').all(realm, organizationId) as Row[];
    return rows.map(providerFromRow);
  }

  async updateIdentityProvider(realm: string, alias: string, organizationId: string, update: IdentityProviderUpdate): Promise<boolean> {
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
    return result.changes > 0;
  }

  async setIdentityProviderOwner(realm: string, alias: string, to: string | null, from: string | null): Promise<{ previousOwner: string | null } | undefined> {
    return this.parts.db
      .transaction(() => {
        const row = this.statement('SELECT organization_id FROM identity_providers WHERE realm = ? AND alias = ?').get(realm, alias) as Row | undefined;
        if (!row) return undefined;
        const previousOwner = row.organization_id === null ? null : String(row.organization_id);
        if (previousOwner === from) {
          this.statement('UPDATE identity_providers SET organization_id = ? WHERE realm = ? AND alias = ?').run(to, realm, alias);
        }
        return { previousOwner };
      })
      .immediate();
  }

  async deleteIdentityProvider(realm: string, alias: string, organizationId: string): Promise<boolean> {
    return this.statement('DELETE FROM identity_providers WHERE realm = ? AND alias = ? AND organization_id = ?').run(realm, alias, organizationId).changes > 0;
  }

  // Mappers ---------------------------------------------------------------------------------------

  async createMapper(mapper: IdentityProviderMapperRecord): Promise<void> {
    this.parts.mapConflicts(() =>
      this.statement(
        'INSERT INTO identity_provider_mappers (id, realm, alias, name, mapper_type, config, created_timestamp) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ).run(mapper.id, mapper.realm, mapper.alias, mapper.name, mapper.mapperType, JSON.stringify(mapper.config), mapper.createdTimestamp),
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

  async updateMapper(realm: string, alias: string, id: string, update: Pick<IdentityProviderMapperRecord, 'name' | 'mapperType' | 'config'>): Promise<boolean> {
    return this.parts.mapConflicts(
      () =>
        this.statement('UPDATE identity_provider_mappers SET name = ?, mapper_type = ?, config = ? WHERE realm = ? AND alias = ? AND id = ?').run(
          update.name,
          update.mapperType,
          JSON.stringify(update.config),
          realm,
          alias,
          id,
        ).changes > 0,
    );
  }

  async deleteMapper(realm: string, alias: string, id: string): Promise<boolean> {
    return this.statement('DELETE FROM identity_provider_mappers WHERE realm = ? AND alias = ? AND id = ?').run(realm, alias, id).changes > 0;
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

  async admitFederatedUser(signIn: FederatedSignIn): Promise<void> {
    this.parts.mapConflicts(() =>
      this.parts.db
        .transaction(() => {
          if (signIn.newUser) this.parts.insertUser(signIn.newUser);
          if (signIn.link) {
            const { realm, alias, issuer, subject, userId } = signIn.link;
            this.statement(
              'INSERT INTO federated_identities (realm, alias, issuer, subject, user_id, created_timestamp) VALUES (?, ?, ?, ?, ?, ?)',
            ).run(realm, alias, issuer, subject, userId, signIn.timestamp);
          }
          this.statement(
            `INSERT INTO memberships (realm, organization_id, user_id, created_timestamp) VALUES (?, ?, ?, ?)
             ON CONFLICT (realm, organization_id, user_id) DO NOTHING`,
          ).run(signIn.realm, signIn.organizationId, signIn.userId, signIn.timestamp);
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
