/**
 * The representations of SERVICE_API.md as TypeBox schemas. The service validates requests with
 * them; everyone else takes the static types (`Static<typeof X>`) from the same definitions.
 */
import { Type, type Static } from '@sinclair/typebox';

/** Longest name, id or path parameter the service accepts. */
export const MAX_NAME_LENGTH = 255;

/** Attributes: string keys, each holding a list of strings. */
export const AttributesSchema = Type.Record(Type.String(), Type.Array(Type.String()));
/** Organization attributes. */
export type Attributes = Static<typeof AttributesSchema>;

/** An organization as the service returns it. */
export const OrganizationSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  displayName: Type.Union([Type.String(), Type.Null()]),
  url: Type.Union([Type.String(), Type.Null()]),
  domains: Type.Array(Type.String()),
  attributes: AttributesSchema,
  realm: Type.String(),
});
/** An organization as the service returns it. */
export type Organization = Static<typeof OrganizationSchema>;

/**
 * The body of create and update. `id` is honoured on create only; `realm` is ignored. Unknown
 * fields are ignored; known fields of the wrong type are a 400.
 */
export const OrganizationInputSchema = Type.Object(
  {
    id: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH })),
    name: Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH }),
    displayName: Type.Optional(Type.Union([Type.String({ maxLength: MAX_NAME_LENGTH }), Type.Null()])),
    url: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])),
    domains: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 253 }))),
    attributes: Type.Optional(AttributesSchema),
    realm: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true },
);
/** The body of create and update. */
export type OrganizationInput = Static<typeof OrganizationInputSchema>;

/** A member (a user of the realm) as the service returns it. */
export const MemberSchema = Type.Object({
  id: Type.String(),
  username: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  firstName: Type.Union([Type.String(), Type.Null()]),
  lastName: Type.Union([Type.String(), Type.Null()]),
  emailVerified: Type.Boolean(),
  enabled: Type.Boolean(),
  createdTimestamp: Type.Number(),
  organizations: Type.Optional(Type.Array(Type.String())),
});
/** A member (a user of the realm). */
export type Member = Static<typeof MemberSchema>;

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
