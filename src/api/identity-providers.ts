/**
 * Identity providers of an organization and their mappers, in the shapes of the vendor's API (the
 * `IdentityProviderRepresentation`, `IdentityProviderMapperRepresentation` and
 * `LinkIdentityProviderRepresentation` of p2-inc/phasetwo-docs, which are Keycloak's): the
 * representations, the names of the settings the service reads from `config`, the masked secret,
 * the alias rule and the mapper types this service runs. The service's routes, the SDK and the
 * provider take them from here.
 */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_NAME_LENGTH, textProblem } from './validation';

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

/** Config value of one setting: Keycloak keeps strings; booleans and numbers are taken as their text. */
const ConfigValueSchema = Type.Union([Type.String({ maxLength: 4096 }), Type.Boolean(), Type.Number()]);
/** A `config` object as requests send it. */
export const ConfigInputSchema = Type.Record(Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH }), ConfigValueSchema);

/**
 * An identity provider as the service answers it (Keycloak's representation): the secret, when
 * set, masked as {@link SECRET_MASK}. `redirectUri` is this service's addition: the broker's
 * callback, to register at the upstream.
 */
export const IdentityProviderSchema = Type.Object({
  alias: Type.String(),
  displayName: Type.Optional(Type.String()),
  internalId: Type.String(),
  providerId: Type.String(),
  enabled: Type.Boolean(),
  trustEmail: Type.Boolean(),
  storeToken: Type.Boolean(),
  addReadTokenRoleOnCreate: Type.Boolean(),
  linkOnly: Type.Boolean(),
  hideOnLogin: Type.Boolean(),
  firstBrokerLoginFlowAlias: Type.String(),
  postBrokerLoginFlowAlias: Type.String(),
  config: Type.Record(Type.String(), Type.String()),
  redirectUri: Type.String(),
});
/** An identity provider as answered. */
export type IdentityProviderRepresentation = Static<typeof IdentityProviderSchema>;
/** `GET …/idps`. */
export const IdentityProviderListSchema = Type.Array(IdentityProviderSchema);

/**
 * The body of create (`POST …/idps`) and update (`PUT …/idps/{alias}`). Keycloak's other fields
 * (`storeToken`, `linkOnly`, flow aliases, …) are accepted and ignored; `alias` is the path's on
 * update.
 */
export const IdentityProviderInputSchema = Type.Object(
  {
    alias: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH })),
    displayName: Type.Optional(Type.Union([Type.String({ maxLength: MAX_NAME_LENGTH }), Type.Null()])),
    providerId: Type.Optional(Type.String({ maxLength: MAX_NAME_LENGTH })),
    enabled: Type.Optional(Type.Boolean()),
    trustEmail: Type.Optional(Type.Boolean()),
    config: Type.Optional(ConfigInputSchema),
  },
  { additionalProperties: true },
);
/** The body of create and update. */
export type IdentityProviderInput = Static<typeof IdentityProviderInputSchema>;

/** The body of `POST …/idps/link` (the vendor's `LinkIdentityProviderRepresentation`). */
export const LinkIdentityProviderSchema = Type.Object(
  {
    alias: Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH }),
    post_broker_flow: Type.Optional(Type.String({ maxLength: MAX_NAME_LENGTH })),
    sync_mode: Type.Optional(Type.String({ maxLength: MAX_NAME_LENGTH })),
    domains: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH }))),
  },
  { additionalProperties: true },
);
/** The body of link. */
export type LinkIdentityProvider = Static<typeof LinkIdentityProviderSchema>;

/** A mapper of an identity provider as answered (Keycloak's representation). */
export const IdentityProviderMapperSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  identityProviderAlias: Type.String(),
  identityProviderMapper: Type.String(),
  config: Type.Record(Type.String(), Type.String()),
});
/** A mapper as answered. */
export type IdentityProviderMapperRepresentation = Static<typeof IdentityProviderMapperSchema>;
/** `GET …/mappers`. */
export const IdentityProviderMapperListSchema = Type.Array(IdentityProviderMapperSchema);

/** The body of mapper create and update; `id` and `identityProviderAlias` are the path's. */
export const IdentityProviderMapperInputSchema = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: MAX_NAME_LENGTH })),
    name: Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH }),
    identityProviderAlias: Type.Optional(Type.String({ maxLength: MAX_NAME_LENGTH })),
    identityProviderMapper: Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH }),
    config: Type.Optional(ConfigInputSchema),
  },
  { additionalProperties: true },
);
/** The body of mapper create and update. */
export type IdentityProviderMapperInput = Static<typeof IdentityProviderMapperInputSchema>;

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
