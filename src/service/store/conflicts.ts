/**
 * The uniqueness rules of the schema (migrations/sqlite and migrations/postgres declare the same
 * ones) and how each database reports a write that breaks one, so that both stores turn the
 * failure into the same {@link StoreConflictError}: PostgreSQL names the constraint or index;
 * SQLite names the columns of a table constraint, or the index of an expression index.
 */
import { StoreConflictError } from './store';

/** One uniqueness rule: what collided, as {@link StoreConflictError.what} says it. */
interface UniqueRule {
  readonly what: string;
  /** Constraint or unique index names PostgreSQL reports for it. */
  readonly postgres: readonly string[];
  /** Text SQLite's "UNIQUE constraint failed: …" message holds for it. */
  readonly sqlite: readonly string[];
}

/** Every uniqueness rule of the schema. */
const UNIQUE_RULES: readonly UniqueRule[] = [
  { what: 'organization name', postgres: ['organizations_realm_name'], sqlite: ['organizations.realm, organizations.name'] },
  { what: 'organization id', postgres: ['organizations_pkey'], sqlite: ['organizations.realm, organizations.id'] },
  { what: 'realm name', postgres: ['realms_pkey'], sqlite: ['realms.name'] },
  { what: 'user id', postgres: ['users_pkey'], sqlite: ['users.id'] },
  { what: 'client id', postgres: ['api_keys_pkey', 'oidc_clients_pkey'], sqlite: ['api_keys.client_id', 'oidc_clients.realm, oidc_clients.client_id'] },
  { what: 'API key name', postgres: ['api_keys_active_name'], sqlite: ['api_keys.realm, api_keys.name', 'api_keys_active_name'] },
  { what: 'username', postgres: ['users_realm_username'], sqlite: ['users_realm_username', 'lower(username)'] },
  { what: 'email', postgres: ['users_realm_email'], sqlite: ['users_realm_email', 'lower(email)'] },
  { what: 'membership', postgres: ['memberships_organization_user'], sqlite: ['memberships.realm, memberships.organization_id, memberships.user_id'] },
  { what: 'identity provider alias', postgres: ['identity_providers_pkey'], sqlite: ['identity_providers.realm, identity_providers.alias'] },
  { what: 'mapper name', postgres: ['identity_provider_mappers_name'], sqlite: ['identity_provider_mappers.realm, identity_provider_mappers.alias, identity_provider_mappers.name'] },
  { what: 'federated identity', postgres: ['federated_identities_pkey'], sqlite: ['federated_identities.realm, federated_identities.alias'] },
  { what: 'role name', postgres: ['organization_roles_organization_name'], sqlite: ['organization_roles.realm, organization_roles.organization_id, organization_roles.name'] },
  { what: 'role id', postgres: ['organization_roles_pkey'], sqlite: ['organization_roles.id'] },
  { what: 'grant', postgres: ['role_grants_role_user'], sqlite: ['role_grants.role_id, role_grants.user_id'] },
];

/** What a collision is called when the rule is not known (nothing of the row leaks into it). */
const UNKNOWN_RULE = 'value';

/** The conflict of a PostgreSQL unique violation on `constraint`. */
export function postgresConflict(constraint: unknown): StoreConflictError {
  const rule = typeof constraint === 'string' ? UNIQUE_RULES.find((r) => r.postgres.includes(constraint)) : undefined;
  return new StoreConflictError(rule?.what ?? UNKNOWN_RULE);
}

/** The conflict of a SQLite unique-constraint failure with this message. */
export function sqliteConflict(message: string): StoreConflictError {
  const rule = UNIQUE_RULES.find((r) => r.sqlite.some((reported) => message.includes(reported)));
  return new StoreConflictError(rule?.what ?? UNKNOWN_RULE);
}
