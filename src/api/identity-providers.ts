/**
 * Identity providers of an organization and their mappers, in the shapes of the vendor's API (the
 * `IdentityProviderRepresentation`, `IdentityProviderMapperRepresentation` and
 * `LinkIdentityProviderRepresentation` of p2-inc/phasetwo-docs, which are Keycloak's): the
 * representations, the names of the settings the service reads from `config`, the masked secret,
 * the alias rule and the mapper types this service runs. The service's routes, the SDK and the
 * provider take them from here.
 */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_NAME_LENGTH } from './validation';

export * from './identity-provider-settings';

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

