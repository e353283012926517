/**
 * The rules of identity providers that need no wire schema: the masked secret, the names of the
 * `config` settings the service reads (Keycloak's), the mapper types, and the alias rule. Kept
 * apart from the representations (./identity-providers.ts, which re-exports them) so that the
 * provider's resources use them without loading the schemas before configure.
 */
import { textProblem } from './validation';

/**
 * What stands in for a client secret in every answer, as Keycloak masks secrets
 * (`ComponentRepresentation.SECRET_VALUE`); sending it back in an update keeps the stored secret.
 */
export const SECRET_MASK = '**********';

/** Provider types this service runs: OpenID Connect (`keycloak-oidc` is Keycloak's flavour of it). */
export const SUPPORTED_PROVIDER_IDS: readonly string[] = ['oidc', 'keycloak-oidc'];

/** The names of the `config` settings the service reads (Keycloak's names). */
export const IDP_CONFIG = {
  clientId: 'clientId',
  clientSecret: 'clientSecret',
  /** `client_secret_post` (Keycloak's default) or `client_secret_basic`; ignored without a secret. */
  clientAuthMethod: 'clientAuthMethod',
  issuer: 'issuer',
  /** The upstream's discovery document (Keycloak's name for it). */
  discoveryUrl: 'metadataDescriptorUrl',
  authorizationUrl: 'authorizationUrl',
  tokenUrl: 'tokenUrl',
  jwksUrl: 'jwksUrl',
  defaultScope: 'defaultScope',
  syncMode: 'syncMode',
  pkceEnabled: 'pkceEnabled',
  pkceMethod: 'pkceMethod',
  validateSignature: 'validateSignature',
  useJwksUrl: 'useJwksUrl',
  /** The organization that owns the provider (set by the service). */
  organization: 'home.idp.discovery.org',
  /** Optional `##`-separated email domains this provider signs in (default: all of the organization's verified domains). */
  domains: 'home.idp.discovery.domains',
} as const;

/** Settings the service writes itself: whatever a request says, these hold. */
export const FIXED_IDP_CONFIG: Readonly<Record<string, string>> = {
  [IDP_CONFIG.pkceEnabled]: 'true',
  [IDP_CONFIG.pkceMethod]: 'S256',
  [IDP_CONFIG.validateSignature]: 'true',
  [IDP_CONFIG.useJwksUrl]: 'true',
};

/** Settings that hold URLs the service fetches or sends browsers to (https, http only on loopback). */
export const IDP_URL_SETTINGS: readonly string[] = [IDP_CONFIG.issuer, IDP_CONFIG.discoveryUrl, IDP_CONFIG.authorizationUrl, IDP_CONFIG.tokenUrl, IDP_CONFIG.jwksUrl];

/** Client authentication methods at the upstream's token endpoint. */
export const CLIENT_AUTH_METHODS: readonly string[] = ['client_secret_post', 'client_secret_basic'];

/** When mappers apply: `IMPORT` on a user's first sign-in through the provider, `FORCE` on every sign-in (Keycloak's sync modes). */
export const SYNC_MODES: readonly string[] = ['IMPORT', 'FORCE', 'LEGACY'];
/** A mapper's `syncMode` that follows its provider's. */
export const INHERIT_SYNC_MODE = 'INHERIT';
/** The provider's sync mode when none is set (the vendor's default for organization providers). */
export const DEFAULT_SYNC_MODE = 'FORCE';

/** Scopes asked of the upstream when `defaultScope` is not set. */
export const DEFAULT_UPSTREAM_SCOPE = 'openid email profile';

/** Keycloak's separator of several values in one config string. */
export const CONFIG_LIST_SEPARATOR = '##';

/** Splits a `##`-separated config value into its non-empty items. */
export function configList(value: string | undefined): string[] {
  return (value ?? '').split(CONFIG_LIST_SEPARATOR).map((item) => item.trim()).filter((item) => item !== '');
}

/** The mapper types this service runs (Keycloak's and the vendor's ids). */
export const MAPPER_TYPES = {
  /** Copies a claim of the ID token into a user field (`claim`, `user.attribute`: email, firstName, lastName). */
  attribute: 'oidc-user-attribute-idp-mapper',
  /** Makes the new user's username from a template (`template`, e.g. `${CLAIM.email}` or `${ALIAS}.${CLAIM.sub}`). */
  username: 'oidc-username-idp-mapper',
  /** Grants organization roles (`org_role`, several separated by `##`) in the provider's organization (the vendor's mapper). */
  orgRoles: 'oidc-hardcoded-org-role-idp-mapper',
} as const;
/** Every mapper type this service runs. */
export const SUPPORTED_MAPPER_TYPES: readonly string[] = Object.values(MAPPER_TYPES);
/** User fields an attribute mapper may fill. */
export const MAPPABLE_USER_FIELDS: readonly string[] = ['email', 'firstName', 'lastName'];

/** An identity provider alias: 1–255 letters, digits, `.`, `_` or `-` (it is a path segment of the broker's callback). */
const ALIAS = /^[A-Za-z0-9._-]{1,255}$/;

/** Why `alias` cannot name an identity provider, or undefined. */
export function identityProviderAliasProblem(alias: string): string | undefined {
  if (!ALIAS.test(alias)) return 'must be 1 to 255 letters, digits, ".", "_" or "-"';
  return textProblem(alias);
}

/** `config` values as the service keeps them: every value a string. */
export function configStrings(config: Record<string, string | boolean | number> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(config ?? {})) out[key] = String(value);
  return out;
}
