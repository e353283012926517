/**
 * Constructs for orgadmin, in the AWS CDK style: `OrgAdminProvider`, `Organization` (with additive
 * `addMember`, optionally with the member's roles, or an authoritative member set), `Membership`,
 * `OrganizationRole`, `MemberRoles`, single sign-on (`addDomain` → `DomainVerification`,
 * `addIdentityProvider` → `IdentityProvider`), `User` look-ups by email or username, and `Webhook`. The same module is `orgadmin/constructs` for CDK for Terraform (cdktf) and, built with
 * its toolkit module pointed at CDK Terrain, `orgadmin/cdktn` (see ./toolkit.ts).
 *
 * The generated, one-to-one bindings of every resource and data source (for the same toolkit) are under `gen`
 * (`OrgadminProvider`, `organization.Organization`, `dataOrgadminOrganizations...`) for what the
 * hand-written constructs do not cover.
 */
export { OrgAdminProvider, type OrgAdminProviderProps } from './provider';
export {
  Organization,
  OrganizationBase,
  type IOrganization,
  type OrganizationProps,
  type OrganizationMembersProps,
  type AddMemberOptions,
  type UserRef,
} from './organization';
export { Membership, type MembershipProps } from './membership';
export { OrganizationRole, type IOrganizationRole, type OrganizationRoleProps } from './organization-role';
export { MemberRoles, type MemberRolesProps, type RoleRef } from './member-roles';
export {
  DomainVerification,
  IdentityProvider,
  type DomainVerificationOptions,
  type DomainVerificationProps,
  type IdentityProviderOptions,
  type IdentityProviderProps,
} from './sso';
export { User, type IUser, type UserLookupOptions } from './users';
export { Webhook, type WebhookProps } from './webhook';
export { ConstructValidationError } from './validation';
/** The bindings generated from the provider's schema (never edited by hand). */
export * as gen from './gen';
