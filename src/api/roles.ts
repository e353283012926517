/**
 * Organization roles (docs/guides/service.md#organization-roles): the roles every organization has
 * from its creation, as the hosted service defines them (`DEFAULT_ORG_ROLES` and
 * `DEFAULT_ORG_ROLES_DESC` of p2-inc/keycloak-orgs), and the rule for role names.
 *
 * The service creates these roles with every organization and grants all of them to the
 * organization's default admin user `org-admin-<orgId>`; they cannot be deleted (400), only their
 * description can change. The provider adopts them when a configuration declares one, and the
 * constructs accept them as declared.
 */
import { nameProblem } from './validation';

/** A role every organization has: its name and the description it is created with. */
export interface DefaultOrganizationRole {
  readonly name: string;
  readonly description: string;
}

/** The default roles, in the hosted service's order. */
export const DEFAULT_ORGANIZATION_ROLES: readonly DefaultOrganizationRole[] = Object.freeze([
  { name: 'view-organization', description: 'View this organization' },
  { name: 'delete-organization', description: 'Delete this organization' },
  { name: 'manage-organization', description: 'Manage this organization' },
  { name: 'view-members', description: 'View members of this organization' },
  { name: 'manage-members', description: 'Add and manage members of this organization' },
  { name: 'view-roles', description: 'View roles of this organization' },
  { name: 'manage-roles', description: 'Create and manage roles and member assignments of this organization' },
  { name: 'view-invitations', description: 'View invitations to this organization' },
  { name: 'manage-invitations', description: 'Create and manage invitations to this organization' },
  { name: 'view-identity-providers', description: 'View the identity provider used to authenticate users to this organization' },
  { name: 'manage-identity-providers', description: 'Add and manage the identity provider used to authenticate users to this organization' },
]);

/** The names of the default roles. */
export const DEFAULT_ORGANIZATION_ROLE_NAMES: readonly string[] = Object.freeze(DEFAULT_ORGANIZATION_ROLES.map((role) => role.name));

/** True when `name` is one of the {@link DEFAULT_ORGANIZATION_ROLES}. */
export function isDefaultRole(name: string): boolean {
  return DEFAULT_ORGANIZATION_ROLE_NAMES.includes(name);
}

/** The default role that lets a member read the organization's roles and grants. */
export const VIEW_ROLES_ROLE = 'view-roles';
/** The default role that lets a member create, change and delete roles and grant and revoke them. */
export const MANAGE_ROLES_ROLE = 'manage-roles';

/**
 * Why `name` cannot name an organization role, or undefined: the rule of every other name
 * (not blank, at most 255 characters; compared exactly). The service accepts any other text, as
 * the hosted service does; the provider also refuses `/`, which its import ids use as separator.
 */
export function roleNameProblem(name: string): string | undefined {
  return nameProblem(name);
}
