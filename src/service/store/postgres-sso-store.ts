/**
 * {@link SsoStore} on the PostgreSQL store's database: every method one statement or one
 * transaction; the rules that concurrent instances could break (one verification of a domain per
 * realm, one alias per realm, one mapper name per provider) are constraints.
 */
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { JSON_PARSED } from './rows';
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

const { providerFromRow, mapperFromRow, brokerLoginFromRow } = ssoRowReaders(JSON_PARSED);

/** What the SSO tables need of the PostgreSQL store they live in. */
export interface PostgresStoreParts {
  pool: Pool;
  /** Runs `fn` in a transaction on one pooled connection. */
  transaction<T>(fn: (client: PoolClient) => Promise<T>): Promise<T>;
  /** Inserts a user row on `db` (inside the caller's transaction). */
  insertUser(db: Pool | PoolClient, user: NewUser): Promise<void>;
  /** Runs `fn`, turning unique violations into `StoreConflictError`. */
  mapConflicts<T>(fn: () => Promise<T>): Promise<T>;
  /** True when a value holds U+0000, which no text column can: the lookup finds nothing. */
  unmatchable(...values: Array<string | undefined>): boolean;
  /** Records the admin event of a change on the change's transaction, after the change (see the store's `recordChange`). */
  recordChange(client: PoolClient, realm: string, change: ChangeDescription, origin: ChangeOrigin | undefined): Promise<void>;
  /** Tells the delivery worker that a write may have recorded events (after its commit). */
  recorded(): void;
  /** Grants a member the organization's roles `names` on the caller's transaction, recording their events. */
  grantRoles(client: PoolClient, realm: string, orgId: string, userId: string, names: readonly string[], timestamp: number, origin: ChangeOrigin | undefined): Promise<RoleChange[]>;
}

/** The PostgreSQL implementation of {@link SsoStore}. */
export class PostgresSsoStore implements SsoStore {
  constructor(private readonly parts: PostgresStoreParts) {}

  private async rows(sql: string, values: unknown[]): Promise<QueryResultRow[]> {
    return (await this.parts.pool.query(sql, values)).rows;
  }

  /** Answers `write`'s outcome after telling the delivery worker about the events it may have committed. */
  private async afterCommit<T>(write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      this.parts.recorded();
    }
  }

  /** The provider `alias` of the realm, read on a transaction that knows it exists. */
  private async storedProvider(client: PoolClient, realm: string, alias: string): Promise<IdentityProviderRecord> {
    return providerFromRow((await client.query('SELECT * FROM identity_providers WHERE realm = $1 AND alias = $2', [realm, alias])).rows[0]);
  }

  // Domains -------------------------------------------------------------------------------------

  async verifiedDomains(realm: string, organizationId: string): Promise<string[]> {
    if (this.parts.unmatchable(realm, organizationId)) return [];
    const rows = await this.rows('SELECT domain FROM domain_verifications WHERE realm = $1 AND organization_id = $2 ORDER BY domain', [realm, organizationId]);
    return rows.map((row) => String(row.domain));
  }

  async verifyDomain(realm: string, organizationId: string, domain: string, verifiedTimestamp: number, origin?: ChangeOrigin): Promise<DomainClaim> {
    if (this.parts.unmatchable(realm, organizationId, domain)) return { outcome: 'not_listed' };
    return this.afterCommit(this.parts.transaction(async (client): Promise<DomainClaim> => {
      // FOR SHARE waits for a concurrent change of the domain list to commit and then reads the
      // list it left, so a domain being removed cannot be verified after its trigger ran.
      const [org] = (
        await client.query('SELECT domains FROM organizations WHERE realm = $1 AND id = $2 FOR SHARE', [realm, organizationId])
      ).rows;
      if (!org || !(org.domains as string[]).includes(domain)) return { outcome: 'not_listed' };
      const inserted = await client.query(
        `INSERT INTO domain_verifications (realm, domain, organization_id, verified_timestamp) VALUES ($1, $2, $3, $4)
         ON CONFLICT (realm, domain) DO NOTHING`,
        [realm, domain, organizationId, verifiedTimestamp],
      );
      if ((inserted.rowCount ?? 0) > 0) await this.parts.recordChange(client, realm, domainVerified(organizationId, domain), origin);
      const [holder] = (await client.query('SELECT organization_id FROM domain_verifications WHERE realm = $1 AND domain = $2', [realm, domain])).rows;
      const owner = String(holder?.organization_id);
      return owner === organizationId ? { outcome: 'verified' } : { outcome: 'taken', organizationId: owner };
    }));
  }

  async routesForDomain(realm: string, domain: string): Promise<DomainRoute[]> {
    if (this.parts.unmatchable(realm, domain)) return [];
    const rows = await this.rows(
      `SELECT p.* FROM domain_verifications AS v JOIN identity_providers AS p ON p.realm = v.realm AND p.organization_id = v.organization_id
       WHERE v.realm = $1 AND v.domain = $2 AND p.enabled ORDER BY p.alias`,
      [realm, domain],
    );
    return rows.map((row) => ({ organizationId: String(row.organization_id), provider: providerFromRow(row) }));
  }

  // Identity providers ----------------------------------------------------------------------------

  async createIdentityProvider(provider: IdentityProviderRecord, origin?: ChangeOrigin): Promise<void> {
    await this.afterCommit(
      this.parts.mapConflicts(() =>
        this.parts.transaction(async (client) => {
          await client.query(
            `INSERT INTO identity_providers (realm, alias, internal_id, organization_id, provider_id, display_name, enabled, trust_email,
               config, client_secret, created_timestamp) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::json, $10, $11)`,
            [
              provider.realm,
              provider.alias,
              provider.internalId,
              provider.organizationId,
              provider.providerId,
              provider.displayName,
              provider.enabled,
              provider.trustEmail,
              JSON.stringify(provider.config),
              provider.sealedClientSecret,
              provider.createdTimestamp,
            ],
          );
          await this.parts.recordChange(client, provider.realm, identityProviderChange('CREATE', provider), origin);
        }),
      ),
    );
  }

  async getIdentityProvider(realm: string, alias: string): Promise<IdentityProviderRecord | undefined> {
    if (this.parts.unmatchable(realm, alias)) return undefined;
    const [row] = await this.rows('SELECT * FROM identity_providers WHERE realm = $1 AND alias = $2', [realm, alias]);
    return row && providerFromRow(row);
  }

  async listIdentityProviders(realm: string, organizationId: string): Promise<IdentityProviderRecord[]> {
    if (this.parts.unmatchable(realm, organizationId)) return [];
    const rows = await this.rows('SELECT * FROM identity_providers WHERE realm = $1 AND organization_id = $2 ORDER BY alias', [realm, organizationId]);
    return rows.map(providerFromRow);
  }

  async updateIdentityProvider(realm: string, alias: string, organizationId: string, update: IdentityProviderUpdate, origin?: ChangeOrigin): Promise<boolean> {
    if (this.parts.unmatchable(realm, alias, organizationId)) return false;
    return this.afterCommit(
      this.parts.transaction(async (client) => {
        const result = await client.query(
          `UPDATE identity_providers SET provider_id = $4, display_name = $5, enabled = $6, trust_email = $7, config = $8::json, client_secret = $9
           WHERE realm = $1 AND alias = $2 AND organization_id = $3`,
          [realm, alias, organizationId, update.providerId, update.displayName, update.enabled, update.trustEmail, JSON.stringify(update.config), update.sealedClientSecret],
        );
        if ((result.rowCount ?? 0) === 0) return false;
        await this.parts.recordChange(client, realm, identityProviderChange('UPDATE', await this.storedProvider(client, realm, alias)), origin);
        return true;
      }),
    );
  }

  async setIdentityProviderOwner(
    realm: string,
    alias: string,
    to: string | null,
    from: string | null,
    origin?: ChangeOrigin,
  ): Promise<{ previousOwner: string | null } | undefined> {
    if (this.parts.unmatchable(realm, alias)) return undefined;
    return this.afterCommit(this.parts.transaction(async (client) => {
      const [row] = (await client.query('SELECT organization_id FROM identity_providers WHERE realm = $1 AND alias = $2 FOR UPDATE', [realm, alias])).rows;
      if (!row) return undefined;
      const previousOwner = row.organization_id === null ? null : String(row.organization_id);
      if (previousOwner === from) {
        await client.query('UPDATE identity_providers SET organization_id = $3 WHERE realm = $1 AND alias = $2', [realm, alias, to]);
        if (to !== previousOwner) {
          await this.parts.recordChange(client, realm, identityProviderOwnerChange(to === null ? 'unlink' : 'link', await this.storedProvider(client, realm, alias)), origin);
        }
      }
      return { previousOwner };
    }));
  }

  async deleteIdentityProvider(realm: string, alias: string, organizationId: string, origin?: ChangeOrigin): Promise<boolean> {
    if (this.parts.unmatchable(realm, alias, organizationId)) return false;
    return this.afterCommit(
      this.parts.transaction(async (client) => {
        const result = await client.query('DELETE FROM identity_providers WHERE realm = $1 AND alias = $2 AND organization_id = $3', [realm, alias, organizationId]);
        if ((result.rowCount ?? 0) === 0) return false;
        await this.parts.recordChange(client, realm, identityProviderDeleted(alias), origin);
        return true;
      }),
    );
  }

  // Mappers ---------------------------------------------------------------------------------------

  async createMapper(mapper: IdentityProviderMapperRecord, origin?: ChangeOrigin): Promise<void> {
    await this.afterCommit(
      this.parts.mapConflicts(() =>
        this.parts.transaction(async (client) => {
          await client.query(
            'INSERT INTO identity_provider_mappers (id, realm, alias, name, mapper_type, config, created_timestamp) VALUES ($1, $2, $3, $4, $5, $6::json, $7)',
            [mapper.id, mapper.realm, mapper.alias, mapper.name, mapper.mapperType, JSON.stringify(mapper.config), mapper.createdTimestamp],
          );
          await this.parts.recordChange(client, mapper.realm, identityProviderMapperChange('CREATE', mapper), origin);
        }),
      ),
    );
  }

  async listMappers(realm: string, alias: string): Promise<IdentityProviderMapperRecord[]> {
    if (this.parts.unmatchable(realm, alias)) return [];
    const rows = await this.rows('SELECT * FROM identity_provider_mappers WHERE realm = $1 AND alias = $2 ORDER BY created_timestamp, id', [realm, alias]);
    return rows.map(mapperFromRow);
  }

  async getMapper(realm: string, alias: string, id: string): Promise<IdentityProviderMapperRecord | undefined> {
    if (this.parts.unmatchable(realm, alias, id)) return undefined;
    const [row] = await this.rows('SELECT * FROM identity_provider_mappers WHERE realm = $1 AND alias = $2 AND id = $3', [realm, alias, id]);
    return row && mapperFromRow(row);
  }

  async updateMapper(
    realm: string,
    alias: string,
    id: string,
    update: Pick<IdentityProviderMapperRecord, 'name' | 'mapperType' | 'config'>,
    origin?: ChangeOrigin,
  ): Promise<boolean> {
    if (this.parts.unmatchable(realm, alias, id)) return false;
    return this.afterCommit(
      this.parts.mapConflicts(() =>
        this.parts.transaction(async (client) => {
          const result = await client.query(
            'UPDATE identity_provider_mappers SET name = $4, mapper_type = $5, config = $6::json WHERE realm = $1 AND alias = $2 AND id = $3 RETURNING *',
            [realm, alias, id, update.name, update.mapperType, JSON.stringify(update.config)],
          );
          const [row] = result.rows;
          if (!row) return false;
          await this.parts.recordChange(client, realm, identityProviderMapperChange('UPDATE', mapperFromRow(row)), origin);
          return true;
        }),
      ),
    );
  }

  async deleteMapper(realm: string, alias: string, id: string, origin?: ChangeOrigin): Promise<boolean> {
    if (this.parts.unmatchable(realm, alias, id)) return false;
    return this.afterCommit(
      this.parts.transaction(async (client) => {
        const result = await client.query('DELETE FROM identity_provider_mappers WHERE realm = $1 AND alias = $2 AND id = $3', [realm, alias, id]);
        if ((result.rowCount ?? 0) === 0) return false;
        await this.parts.recordChange(client, realm, identityProviderMapperDeleted(alias, id), origin);
        return true;
      }),
    );
  }

  // Brokered sign-in ------------------------------------------------------------------------------

  async findFederatedUser(realm: string, alias: string, issuer: string, subject: string): Promise<string | undefined> {
    if (this.parts.unmatchable(realm, alias, issuer, subject)) return undefined;
    const [row] = await this.rows('SELECT user_id FROM federated_identities WHERE realm = $1 AND alias = $2 AND issuer = $3 AND subject = $4', [
      realm,
      alias,
      issuer,
      subject,
    ]);
    return row && String(row.user_id);
  }

  async admitFederatedUser(signIn: FederatedSignIn, origin?: ChangeOrigin): Promise<string[]> {
    return this.afterCommit(this.parts.mapConflicts(() =>
      this.parts.transaction(async (client): Promise<string[]> => {
        if (signIn.newUser) {
          await this.parts.insertUser(client, signIn.newUser);
          await this.parts.recordChange(client, signIn.realm, userChange('CREATE', { realmAdmin: false, ...signIn.newUser }), origin);
        }
        if (signIn.link) {
          const { realm, alias, issuer, subject, userId } = signIn.link;
          await client.query('INSERT INTO federated_identities (realm, alias, issuer, subject, user_id, created_timestamp) VALUES ($1, $2, $3, $4, $5, $6)', [
            realm,
            alias,
            issuer,
            subject,
            userId,
            signIn.timestamp,
          ]);
        }
        const added = await client.query(
          `INSERT INTO memberships (realm, organization_id, user_id, created_timestamp) VALUES ($1, $2, $3, $4)
           ON CONFLICT (realm, organization_id, user_id) DO NOTHING`,
          [signIn.realm, signIn.organizationId, signIn.userId, signIn.timestamp],
        );
        if ((added.rowCount ?? 0) > 0) await this.parts.recordChange(client, signIn.realm, membershipChange('CREATE', signIn.organizationId, signIn.userId), origin);
        if (!signIn.roles?.length) return [];
        // Held against a removal until the grants commit (a membership that existed is not locked by
        // the insert above); one removed in between has no grants to take, and gets none.
        const member = await client.query('SELECT 1 FROM memberships WHERE realm = $1 AND organization_id = $2 AND user_id = $3 FOR KEY SHARE', [
          signIn.realm,
          signIn.organizationId,
          signIn.userId,
        ]);
        if (member.rows.length === 0) return [];
        const granted = await this.parts.grantRoles(client, signIn.realm, signIn.organizationId, signIn.userId, signIn.roles, signIn.timestamp, origin);
        return granted.flatMap((change) => (change.outcome === 'no-role' ? [change.name] : []));
      }),
    ));
  }

  async saveBrokerLogin(login: BrokerLoginRecord, nowTimestamp: number): Promise<void> {
    await this.parts.transaction(async (client) => {
      await client.query('DELETE FROM broker_logins WHERE expires_timestamp < $1', [nowTimestamp]);
      await client.query(
        `INSERT INTO broker_logins (state_hash, realm, alias, browser_hash, code_verifier, nonce, request, expires_timestamp)
         VALUES ($1, $2, $3, $4, $5, $6, $7::json, $8)`,
        [login.stateHash, login.realm, login.alias, login.browserHash, login.codeVerifier, login.nonce, JSON.stringify(login.request), login.expiresTimestamp],
      );
    });
  }

  async consumeBrokerLogin(stateHash: string): Promise<BrokerLoginRecord | undefined> {
    if (this.parts.unmatchable(stateHash)) return undefined;
    const [row] = await this.rows('DELETE FROM broker_logins WHERE state_hash = $1 RETURNING *', [stateHash]);
    return row && brokerLoginFromRow(row);
  }
}
