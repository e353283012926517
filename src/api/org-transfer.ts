/**
 * The wire shapes of the hosted service's bulk organization transfer, as its published spec
 * (`openapi.yaml` of p2-inc/phasetwo-docs: `OrganizationsExportRepresentation`,
 * `OrganizationsImportRepresentation`, `OrganizationsImportResultRepresentation`) has them:
 * `GET /realms/{realm}/orgs/export` and `POST /realms/{realm}/orgs/import`.
 */
import { Type, type Static } from '@sinclair/typebox';
import { AttributesSchema } from './representations';
import { MAX_NAME_LENGTH, MAX_URL_LENGTH } from './validation';

/** Version of the export format this service writes. */
export const ORGS_EXPORT_VERSION = '1.0';

/** A role of an exported organization. */
export const ExportedRoleSchema = Type.Object({ name: Type.String(), description: Type.Optional(Type.String()) }, { additionalProperties: true });

/** A member of an exported organization: the user's id and email, and the member's role names. */
export const ExportedMemberSchema = Type.Object(
  {
    userId: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH })),
    email: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH })),
    roles: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: true },
);
/** A member of an exported organization. */
export type ExportedMember = Static<typeof ExportedMemberSchema>;

/**
 * An exported organization: the organization's representation, with its roles, its identity
 * providers and its members when the export asked for them.
 */
export const ExportedOrganizationSchema = Type.Object(
  {
    id: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH })),
    name: Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH }),
    displayName: Type.Optional(Type.Union([Type.String({ maxLength: MAX_NAME_LENGTH }), Type.Null()])),
    url: Type.Optional(Type.Union([Type.String({ maxLength: MAX_URL_LENGTH }), Type.Null()])),
    realm: Type.Optional(Type.Unknown()),
    domains: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH }))),
    attributes: Type.Optional(AttributesSchema),
    roles: Type.Optional(Type.Array(ExportedRoleSchema)),
    identityProviders: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()))),
    members: Type.Optional(Type.Array(ExportedMemberSchema)),
  },
  { additionalProperties: true },
);
/** An exported organization. */
export type ExportedOrganization = Static<typeof ExportedOrganizationSchema>;

/** The answer of `GET /realms/{realm}/orgs/export`. */
export const OrganizationsExportSchema = Type.Object({
  version: Type.String(),
  realm: Type.String(),
  /** ISO 8601 date and time of the export. */
  exportedAt: Type.String(),
  organizations: Type.Array(ExportedOrganizationSchema),
  config: Type.Record(Type.String(), Type.Unknown()),
});
/** The answer of the export. */
export type OrganizationsExport = Static<typeof OrganizationsExportSchema>;

/** The body of `POST /realms/{realm}/orgs/import`: an export (its `realm` and `exportedAt` are ignored). */
export const OrganizationsImportSchema = Type.Object(
  {
    version: Type.Optional(Type.String()),
    organizations: Type.Array(ExportedOrganizationSchema),
    config: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: true },
);
/** The body of the import. */
export type OrganizationsImport = Static<typeof OrganizationsImportSchema>;

/** The answer of the import: how many organizations were created, updated or skipped, and what failed. */
export const OrganizationsImportResultSchema = Type.Object({
  imported: Type.Integer({ minimum: 0 }),
  updated: Type.Integer({ minimum: 0 }),
  skipped: Type.Integer({ minimum: 0 }),
  errors: Type.Array(Type.Object({ organizationName: Type.String(), error: Type.String() })),
});
/** The answer of the import. */
export type OrganizationsImportResult = Static<typeof OrganizationsImportResultSchema>;

/** The query of the export (booleans as the query string carries them). */
export const OrganizationsExportQuerySchema = Type.Object({
  includeMembers: Type.Optional(Type.Boolean()),
  includeRoles: Type.Optional(Type.Boolean()),
  includeIdps: Type.Optional(Type.Boolean()),
  orgIds: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
});

/** The query of the import. */
export const OrganizationsImportQuerySchema = Type.Object({
  skipExisting: Type.Optional(Type.Boolean()),
  importMembers: Type.Optional(Type.Boolean()),
});
