/**
 * Rows of the tables of migration 011 as {@link SsoStore} records, for both stores (the drivers
 * differ as rows.ts says: booleans, JSON columns, bigint).
 */
import type { JsonColumns, Row } from './rows';
import { nullableString } from './rows';
import type { BrokerLoginRecord, IdentityProviderMapperRecord, IdentityProviderRecord } from './sso-store';

/** The SSO row readers of one driver. */
export interface SsoRowReaders {
  providerFromRow(row: Row): IdentityProviderRecord;
  mapperFromRow(row: Row): IdentityProviderMapperRecord;
  brokerLoginFromRow(row: Row): BrokerLoginRecord;
}

/** Builds the readers for a driver's way of handing over JSON columns. */
export function ssoRowReaders(columns: JsonColumns): SsoRowReaders {
  return {
    providerFromRow: (row) => ({
      realm: String(row.realm),
      alias: String(row.alias),
      internalId: String(row.internal_id),
      organizationId: nullableString(row.organization_id),
      providerId: String(row.provider_id),
      displayName: nullableString(row.display_name),
      enabled: row.enabled === 1 || row.enabled === true,
      trustEmail: row.trust_email === 1 || row.trust_email === true,
      config: columns.json(row.config) as Record<string, string>,
      sealedClientSecret: nullableString(row.client_secret),
      createdTimestamp: Number(row.created_timestamp),
    }),
    mapperFromRow: (row) => ({
      id: String(row.id),
      realm: String(row.realm),
      alias: String(row.alias),
      name: String(row.name),
      mapperType: String(row.mapper_type),
      config: columns.json(row.config) as Record<string, string>,
      createdTimestamp: Number(row.created_timestamp),
    }),
    brokerLoginFromRow: (row) => ({
      stateHash: String(row.state_hash),
      realm: String(row.realm),
      alias: String(row.alias),
      browserHash: String(row.browser_hash),
      codeVerifier: String(row.code_verifier),
      nonce: String(row.nonce),
      request: columns.json(row.request) as Record<string, string>,
      expiresTimestamp: Number(row.expires_timestamp),
    }),
  };
}
