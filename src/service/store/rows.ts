/**
 * Turning database rows into the store's records, shared by the SQLite and PostgreSQL stores. The
 * schemas use the same column names; the drivers differ only in how they hand over some values
 * (booleans: SQLite 0/1, PostgreSQL true/false; JSON columns: SQLite text, `pg` already parsed;
 * PostgreSQL `bigint`: strings), which the readers below absorb.
 */
import type { Attributes, Organization, Permission } from '../../api';
import type { RealmRateLimit } from '../rate-limit';
import type { ApiKeyRecord, AuthorizationCodeRecord, OidcClientRecord, RealmRecord, RealmSettings, RevokedToken, RoleRecord, UserKind, UserRecord } from './store';

/** A row as a driver returns it: column name → value. */
export type Row = Record<string, unknown>;

/** How one driver hands over JSON columns. */
export interface JsonColumns {
  /** The value of a JSON column as stored (`domains`, `attributes`, `permissions`). */
  json(value: unknown): unknown;
}

/** JSON columns stored as text (SQLite). */
export const JSON_AS_TEXT: JsonColumns = { json: (value) => JSON.parse(String(value)) };
/** JSON columns the driver parses itself (`pg` with `jsonb`). */
export const JSON_PARSED: JsonColumns = { json: (value) => value };

/** A boolean column: SQLite stores 1/0, PostgreSQL returns true/false. */
const bool = (value: unknown): boolean => value === 1 || value === true;
/** A nullable text column. */
export const nullableString = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
/** An integer column (PostgreSQL `bigint` arrives as a string; ours never exceed 2^53). */
const int = (value: unknown): number => Number(value);

/**
 * The columns of a realm's rate limit setting (migration 004): both NULL for the service default,
 * 0 requests for "off", otherwise the limit. Both stores write them through this pair of functions.
 */
export function realmRateLimitColumns(setting: RealmRateLimit): [requests: number | null, windowSeconds: number | null] {
  if (setting === null) return [null, null];
  if (setting === 'off') return [0, null];
  return [setting.requests, setting.windowSeconds];
}

/** The setting stored in a realm's rate limit columns (see {@link realmRateLimitColumns}). */
export function realmRateLimitFromColumns(requests: unknown, windowSeconds: unknown): RealmRateLimit {
  if (requests === null || requests === undefined) return null;
  if (int(requests) === 0) return 'off';
  return { requests: int(requests), windowSeconds: int(windowSeconds) };
}

/**
 * The columns of {@link RealmSettings}, the only ones the realm cache reads: never the private key,
 * so it does not travel from the database or sit in memory for the request path.
 */
export const REALM_SETTINGS_COLUMNS =
  'name, enabled, token_lifetime_seconds, create_admin_user, organizations_claim, rate_limit_requests, rate_limit_window_seconds, created_timestamp, public_key_pem, key_id';

/** The row readers of one driver. */
export interface RowReaders {
  realmFromRow(row: Row): RealmRecord;
  /** A row of {@link REALM_SETTINGS_COLUMNS}. */
  realmSettingsFromRow(row: Row): RealmSettings;
  userFromRow(row: Row): UserRecord;
  orgFromRow(row: Row): Organization;
  apiKeyFromRow(row: Row): ApiKeyRecord;
  revokedTokenFromRow(row: Row): RevokedToken;
  oidcClientFromRow(row: Row): OidcClientRecord;
  authorizationCodeFromRow(row: Row): AuthorizationCodeRecord;
  roleFromRow(row: Row): RoleRecord;
}

/** Builds the row readers for a driver's way of handing over JSON columns. */
export function rowReaders(columns: JsonColumns): RowReaders {
  const realmSettingsFromRow = (row: Row): RealmSettings => ({
    name: String(row.name),
    enabled: bool(row.enabled),
    tokenLifetimeSeconds: int(row.token_lifetime_seconds),
    createAdminUser: bool(row.create_admin_user),
    organizationsClaim: bool(row.organizations_claim),
    rateLimit: realmRateLimitFromColumns(row.rate_limit_requests, row.rate_limit_window_seconds),
    createdTimestamp: int(row.created_timestamp),
    publicKeyPem: String(row.public_key_pem),
    keyId: String(row.key_id),
  });
  return {
    realmFromRow: (row) => ({ ...realmSettingsFromRow(row), privateKeyPem: String(row.private_key_pem) }),
    realmSettingsFromRow,
    userFromRow: (row) => ({
      id: String(row.id),
      realm: String(row.realm),
      username: String(row.username),
      email: nullableString(row.email),
      firstName: nullableString(row.first_name),
      lastName: nullableString(row.last_name),
      emailVerified: bool(row.email_verified),
      enabled: bool(row.enabled),
      createdTimestamp: int(row.created_timestamp),
      kind: String(row.kind) as UserKind,
      adminOfOrganization: nullableString(row.admin_of_organization),
      passwordHash: nullableString(row.password_hash),
      realmAdmin: bool(row.realm_admin),
    }),
    orgFromRow: (row) => ({
      id: String(row.id),
      name: String(row.name),
      displayName: nullableString(row.display_name),
      url: nullableString(row.url),
      domains: columns.json(row.domains) as string[],
      attributes: columns.json(row.attributes) as Attributes,
      realm: String(row.realm),
    }),
    apiKeyFromRow: (row) => ({
      clientId: String(row.client_id),
      realm: String(row.realm),
      name: String(row.name),
      secretHash: String(row.secret_hash),
      permissions: columns.json(row.permissions) as Permission[],
      serviceAccountUserId: String(row.service_account_user_id),
      createdTimestamp: int(row.created_timestamp),
      revokedTimestamp: row.revoked_timestamp === null ? null : int(row.revoked_timestamp),
      lastUsedTimestamp: row.last_used_timestamp === null || row.last_used_timestamp === undefined ? null : int(row.last_used_timestamp),
    }),
    revokedTokenFromRow: (row) => ({
      seq: int(row.seq),
      realm: String(row.realm),
      jti: String(row.jti),
      expiresTimestamp: int(row.expires_timestamp),
      revokedTimestamp: int(row.revoked_timestamp),
    }),
    oidcClientFromRow: (row) => ({
      realm: String(row.realm),
      clientId: String(row.client_id),
      name: String(row.name),
      redirectUris: columns.json(row.redirect_uris) as string[],
      organizationsClaim: bool(row.organizations_claim),
      createdTimestamp: int(row.created_timestamp),
      secretHash: nullableString(row.secret_hash),
    }),
    authorizationCodeFromRow: (row) => ({
      codeHash: String(row.code_hash),
      realm: String(row.realm),
      clientId: String(row.client_id),
      redirectUri: String(row.redirect_uri),
      userId: String(row.user_id),
      codeChallenge: String(row.code_challenge),
      nonce: nullableString(row.nonce),
      scope: String(row.scope),
      authTime: int(row.auth_time),
      expiresTimestamp: int(row.expires_timestamp),
    }),
    roleFromRow: (row) => ({
      id: String(row.id),
      organizationId: String(row.organization_id),
      name: String(row.name),
      description: nullableString(row.description),
      createdTimestamp: int(row.created_timestamp),
    }),
  };
}
