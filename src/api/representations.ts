/**
 * The representations of the wire contract (docs/guides/service.md) as TypeBox schemas. The service validates requests with
 * them; everyone else takes the static types (`Static<typeof X>`) from the same definitions.
 */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_BULK_ITEMS, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, MAX_URL_LENGTH } from './validation';

/** Attributes: string keys, each holding a list of strings. */
export const AttributesSchema = Type.Record(Type.String(), Type.Array(Type.String()));
/** Organization attributes. */
export type Attributes = Static<typeof AttributesSchema>;

/**
 * An organization as it travels on the wire (the vendor spec's `OrganizationRepresentation`):
 * `displayName` and `url` are left out when they have no value, as the real service does. The
 * service's routes declare it as their response schema and the SDK checks answers against it.
 */
export const OrganizationSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  displayName: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  domains: Type.Array(Type.String()),
  attributes: AttributesSchema,
  realm: Type.String(),
});
/** An organization as it travels on the wire (null fields left out). */
export type OrganizationRepresentation = Static<typeof OrganizationSchema>;
/**
 * An organization as the SDK returns it and the service keeps it: the wire form with the fields
 * that may be left out made explicit (`null` when absent), so readers never test for `undefined`.
 */
export type Organization = Omit<OrganizationRepresentation, 'displayName' | 'url'> & {
  displayName: string | null;
  url: string | null;
};
/** `GET /orgs`: a page of organizations. */
export const OrganizationListSchema = Type.Array(OrganizationSchema);

/**
 * The body of create and update. `id` is honoured on create only; `realm` is ignored. Unknown
 * fields are ignored; known fields of the wrong type are a 400.
 */
export const OrganizationInputSchema = Type.Object(
  {
    id: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH })),
    name: Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH }),
    displayName: Type.Optional(Type.Union([Type.String({ maxLength: MAX_NAME_LENGTH }), Type.Null()])),
    url: Type.Optional(Type.Union([Type.String({ maxLength: MAX_URL_LENGTH }), Type.Null()])),
    // The raw spelling may carry what normalizeDomain removes (a trailing dot, case); the domain
    // rule itself, on the normalized form, is domainProblem's (src/api/validation.ts).
    domains: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH }))),
    attributes: Type.Optional(AttributesSchema),
    realm: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true },
);
/** The body of create and update. */
export type OrganizationInput = Static<typeof OrganizationInputSchema>;

/**
 * One organization role in `organizations` of a member (the vendor spec's
 * `OrganizationRoleRepresentation`, every field optional there). Answers of this service always
 * carry `id` and `name`; see {@link RoleSchema}.
 */
export const OrganizationRoleSchema = Type.Object({
  id: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
});
/** One organization role of a member. */
export type OrganizationRole = Static<typeof OrganizationRoleSchema>;

/**
 * `organizations` of a member with `includeOrgs=true`: organization id → the member's roles in it
 * (the vendor spec's `OrganizationRoleMapRepresentation`).
 */
export const OrganizationRoleMapSchema = Type.Record(Type.String(), Type.Array(OrganizationRoleSchema));

/**
 * An organization role as the role operations answer it: `id` and `name` always, `description`
 * left out when it has none (the null rule of the other representations).
 */
export const RoleSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.Optional(Type.String()),
});
/** An organization role as it travels on the wire (no description: left out). */
export type RoleRepresentation = Static<typeof RoleSchema>;
/** An organization role as the SDK returns it: `description` is `null` when it has none. */
export type Role = Omit<RoleRepresentation, 'description'> & { description: string | null };
/** `GET …/roles` and a member's roles: a list of roles, ordered by name. */
export const RoleListSchema = Type.Array(RoleSchema);

/**
 * The body of "create a role" (`POST …/roles`) and "update a role" (`PUT …/roles/{name}`): the
 * vendor's `OrganizationRoleRepresentation`. `name` is required to create; an update changes the
 * description only (`name` and `id` in its body are ignored: a role cannot be renamed).
 * `description` null or absent means none. Unknown fields are ignored.
 */
export const RoleInputSchema = Type.Object(
  {
    id: Type.Optional(Type.Unknown()),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: MAX_DESCRIPTION_LENGTH }), Type.Null()])),
  },
  { additionalProperties: true },
);
/** The body of create and update of a role. */
export type RoleInput = Static<typeof RoleInputSchema>;

/**
 * The body of the bulk role operations (create many, delete many, grant many, revoke many): an
 * array of role representations of which `name` is read (create many reads `description` too).
 */
export const RoleInputListSchema = Type.Array(
  Type.Object(
    {
      id: Type.Optional(Type.Unknown()),
      name: Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH }),
      description: Type.Optional(Type.Union([Type.String({ maxLength: MAX_DESCRIPTION_LENGTH }), Type.Null()])),
    },
    { additionalProperties: true },
  ),
  { maxItems: MAX_BULK_ITEMS },
);
/** The body of the bulk role operations. */
export type RoleInputList = Static<typeof RoleInputListSchema>;

/**
 * One entry of a bulk answer (207 Multi-Status; the vendor spec's `BulkResponseItem`), in the
 * order of the request's array: `status` is that entry's own outcome (201 created or granted, 204
 * deleted or revoked, 400 refused), `error` says why it was refused (left out on success), `item`
 * is the role concerned (left out when refused; `{"name"}` alone for a role that a delete did not
 * find, which counts as deleted).
 */
export const BulkResultSchema = Type.Object({
  status: Type.Integer(),
  error: Type.Optional(Type.String()),
  item: Type.Optional(OrganizationRoleSchema),
});
/** One entry of a bulk answer. */
export type BulkResult = Static<typeof BulkResultSchema>;
/** A bulk answer: one entry per entry of the request, in its order. */
export const BulkResultListSchema = Type.Array(BulkResultSchema);

/**
 * A member (a user of the realm) as it travels on the wire (the vendor spec's
 * `UserWithOrgsBriefRepresentation`): `email`, `firstName` and `lastName` are left out when they
 * have no value, as the real service does; `organizations` only with `includeOrgs=true`.
 */
export const MemberSchema = Type.Object({
  id: Type.String(),
  username: Type.String(),
  email: Type.Optional(Type.String()),
  firstName: Type.Optional(Type.String()),
  lastName: Type.Optional(Type.String()),
  emailVerified: Type.Boolean(),
  enabled: Type.Boolean(),
  createdTimestamp: Type.Number(),
  organizations: Type.Optional(OrganizationRoleMapSchema),
});
/** A member as it travels on the wire (null fields left out). */
export type MemberRepresentation = Static<typeof MemberSchema>;
/**
 * A member as the SDK returns it and the service keeps it: the wire form with the fields that may
 * be left out made explicit (`null` when absent).
 */
export type Member = Omit<MemberRepresentation, 'email' | 'firstName' | 'lastName'> & {
  email: string | null;
  firstName: string | null;
  lastName: string | null;
};
/** `GET /orgs/{orgId}/members` and the user lookup: a page of members. */
export const MemberListSchema = Type.Array(MemberSchema);

/**
 * The "schema" of answers without a body (201 with `Location`, 204): declared on those routes so
 * every route states its answers; the service refuses to send a body with them.
 */
export const NoBodySchema = Type.Undefined({ description: 'no body' });

/** The answer of the count operations: a bare non-negative JSON integer. */
export const CountSchema = Type.Integer({ minimum: 0 });

/** One entry of "get member info": an organization the caller belongs to. */
export const MemberInfoEntrySchema = Type.Object({
  name: Type.String(),
  displayName: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  attributes: AttributesSchema,
  roles: Type.Array(Type.String()),
});
/** "Get member info": organization id → entry. */
export const MemberInfoSchema = Type.Record(Type.String(), MemberInfoEntrySchema);
/** "Get member info": organization id → entry. */
export type MemberInfo = Static<typeof MemberInfoSchema>;

/**
 * The `organizations` claim of a user's tokens when the realm or the client asks for it (the
 * hosted service's "Organization Role" token mapper, `oidc-organization-role-mapper`): organization
 * id → its name and the user's roles there, for every organization the user belongs to.
 */
export const OrganizationsClaimSchema = Type.Record(
  Type.String(),
  Type.Object({ name: Type.String(), roles: Type.Array(Type.String()) }),
);
/** The `organizations` claim of a user's tokens. */
export type OrganizationsClaim = Static<typeof OrganizationsClaimSchema>;
/** The name of that claim. */
export const ORGANIZATIONS_CLAIM = 'organizations';

/** The answer of "create admin portal link". */
export const PortalLinkSchema = Type.Object({
  user: Type.String(),
  link: Type.String(),
  redirect: Type.String(),
});
/** The answer of "create admin portal link". */
export type PortalLink = Static<typeof PortalLinkSchema>;

/** A successful token endpoint answer. */
export const TokenResponseSchema = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Number(),
  refresh_expires_in: Type.Number(),
  'not-before-policy': Type.Number(),
  scope: Type.String(),
  /** Only for the authorization code flow with the `openid` scope: the OpenID Connect ID token. */
  id_token: Type.Optional(Type.String()),
});
/** A successful token endpoint answer. */
export type TokenResponse = Static<typeof TokenResponseSchema>;

/** The error body of every error answer. */
export const ErrorBodySchema = Type.Object({
  error: Type.String(),
  error_description: Type.String(),
});

/** Query of "get organizations". */
export const OrganizationsQuerySchema = Type.Object({
  search: Type.Optional(Type.String()),
  q: Type.Optional(Type.String()),
  first: Type.Optional(Type.Integer({ minimum: 0 })),
  max: Type.Optional(Type.Integer({ minimum: 0 })),
});
/** Query of "get organizations". */
export type OrganizationsQuery = Static<typeof OrganizationsQuerySchema>;

/** Query of "get organization memberships". */
export const MembersQuerySchema = Type.Object({
  search: Type.Optional(Type.String()),
  first: Type.Optional(Type.Integer({ minimum: 0 })),
  max: Type.Optional(Type.Integer({ minimum: 0 })),
  excludeAdminAccounts: Type.Optional(Type.Boolean()),
  includeOrgs: Type.Optional(Type.Boolean()),
});
/** Query of "get organization memberships". */
export type MembersQuery = Static<typeof MembersQuerySchema>;

/** Query of the user lookup. */
export const UsersQuerySchema = Type.Object({
  username: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  search: Type.Optional(Type.String()),
  exact: Type.Optional(Type.Boolean()),
  first: Type.Optional(Type.Integer({ minimum: 0 })),
  max: Type.Optional(Type.Integer({ minimum: 0 })),
});
/** Query of the user lookup. */
export type UsersQuery = Static<typeof UsersQuerySchema>;

/** Default and cap of `max` on organization lists. */
export const ORGS_PAGE = { default: 100, cap: 100 } as const;
/** Default and cap of `max` on member and user lists. */
export const MEMBERS_PAGE = { default: 100, cap: 1000 } as const;

/**
 * The OpenID Connect discovery document: the members every client reads are required; the
 * service lists more (grant types, scopes, algorithms), which clients may use when present.
 */
export const DiscoveryDocumentSchema = Type.Object({
  issuer: Type.String(),
  authorization_endpoint: Type.String(),
  token_endpoint: Type.String(),
  jwks_uri: Type.String(),
  userinfo_endpoint: Type.String(),
  introspection_endpoint: Type.String(),
  revocation_endpoint: Type.String(),
  end_session_endpoint: Type.String(),
  grant_types_supported: Type.Array(Type.String()),
  response_types_supported: Type.Array(Type.String()),
  token_endpoint_auth_methods_supported: Type.Array(Type.String()),
  id_token_signing_alg_values_supported: Type.Array(Type.String()),
});

/** The realm's JSON Web Key Set: its RSA signing key (RFC 7517). */
export const JwksSchema = Type.Object({
  keys: Type.Array(
    Type.Object({
      kty: Type.Literal('RSA'),
      kid: Type.String(),
      n: Type.String(),
      e: Type.String(),
      use: Type.Optional(Type.String()),
      alg: Type.Optional(Type.String()),
    }),
  ),
});

/** The userinfo answer (OpenID Connect Core §5.3): `sub` always, the profile claims when known. */
export const UserinfoSchema = Type.Object({
  sub: Type.String(),
  preferred_username: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  email_verified: Type.Optional(Type.Boolean()),
  given_name: Type.Optional(Type.String()),
  family_name: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  /** When the realm or the token's client asks for it (docs/guides/service.md#the-organizations-claim). */
  organizations: Type.Optional(OrganizationsClaimSchema),
});

/** The token introspection answer (RFC 7662 §2.2): `active`, and the token's claims when it is. */
export const IntrospectionSchema = Type.Object({
  active: Type.Boolean(),
  scope: Type.Optional(Type.String()),
  client_id: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
  token_type: Type.Optional(Type.String()),
  exp: Type.Optional(Type.Number()),
  iat: Type.Optional(Type.Number()),
  nbf: Type.Optional(Type.Number()),
  sub: Type.Optional(Type.String()),
  aud: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  iss: Type.Optional(Type.String()),
  jti: Type.Optional(Type.String()),
});
