/**
 * The Organization Administration Service: build the app, run the server, administer realms, API
 * keys and users, and the store contract with its SQLite implementation.
 */
// First, before any module that requires the service's runtime packages: a missing one is reported
// as what to install, not as Node's "Cannot find module".
import { assertServiceInstalled } from './runtime-dependencies';
assertServiceInstalled();

export {
  SERVICE_PACKAGE,
  SERVICE_RUNTIME_PACKAGES,
  ServiceNotInstalledError,
  missingServicePackages,
  assertServiceInstalled,
} from './runtime-dependencies';
export { buildApp, BODY_LIMIT_BYTES, DEFAULT_PORTAL_LINK_LIFETIME_SECONDS, type AppOptions } from './app';
export { startServer, type ServerOptions, type RunningServer } from './server';
export {
  Admin,
  AdminError,
  DEFAULT_TOKEN_LIFETIME_SECONDS,
  MAX_TOKEN_LIFETIME_SECONDS,
  type ApiKeyInfo,
  type CreatedApiKey,
  type RealmInfo,
} from './admin';
export { ServiceError } from './errors';
export { COMPAT_MODES, isCompatMode, type CompatMode } from './compat';
export { MAX_REALM_RATE_LIMIT_REQUESTS, MAX_REALM_RATE_LIMIT_WINDOW_SECONDS, type RateLimitOptions, type RealmRateLimit } from './rate-limit';
export { PUBLIC_CLIENT_ID } from './auth/public-client';
export { DEFAULT_CREDENTIAL_THROTTLE, type CredentialThrottleOptions } from './auth/credential-throttle';
export { CLOCK_SKEW_SECONDS, realmAudience } from './auth/jwt';
export { REVOCATION_RECHECK_MS } from './auth/revocations';
export {
  StoreConflictError,
  type ApiKeyRecord,
  type MemberFilter,
  type NewUser,
  type OrganizationFilter,
  type RealmRecord,
  type RealmSettings,
  type RealmUpdate,
  type Store,
  type UserFilter,
  type UserKind,
  type UserRecord,
} from './store/store';
export { SqliteStore, SQLITE_MIGRATIONS_DIR } from './store/sqlite-store';
export { PostgresStore, POSTGRES_MIGRATIONS_DIR, type PostgresStoreOptions } from './store/postgres-store';
export { openStore, isPostgresUrl, redactLocation } from './store/open-store';
