/**
 * The `MemberRoles` construct: every role one member holds in one organization, authoritatively
 * (`orgadmin_organization_member_roles`). `organization.addMember(user, { roles })` makes one for
 * an additive member; use it directly for a member of an authoritative member set
 * (`organization.grantRoles`) or of an organization managed elsewhere.
 */
import { Construct } from 'constructs';
import type { ITerraformDependable, TerraformProvider } from './toolkit';
import { OrganizationMemberRoles as MemberRolesResource } from './gen/organization-member-roles';
import type { IOrganization } from './organization';
import { isTracking, roleNameIssue, type IOrganizationRole } from './organization-role';
import { Problems, isUnresolved, quote } from './validation';

/** A role given by name (a default role, or one declared elsewhere) or as a declared {@link IOrganizationRole}. */
export type RoleRef = string | IOrganizationRole;

/** Props of {@link MemberRoles}. */
export interface MemberRolesProps {
  /** The organization: a construct or its id. */
  readonly organization: IOrganization | string;
  /** The member's user id (a reference to the membership's `user_id` orders the grant after the membership). */
  readonly userId: string;
  /** Every role the member holds in the organization; roles not listed are revoked. */
  readonly roles: readonly RoleRef[];
  /**
   * Realm of the organization.
   * @default the organization's realm when it is a construct that has one, else the provider's
   */
  readonly realm?: string;
  /**
   * The provider configuration to use.
   * @default the organization's provider when it is a construct that has one, else the stack's default
   */
  readonly provider?: TerraformProvider;
  /**
   * Resources to create first (an authoritative member set that makes the user a member).
   * @default none beyond the references in the props
   */
  readonly dependsOn?: readonly ITerraformDependable[];
}

/** The name of a role reference: a declared role's name is a reference to its resource. */
export function roleNameOf(role: RoleRef): string {
  return typeof role === 'string' ? role : role.roleName;
}

/**
 * One member's roles in one organization.
 *
 * @example
 * new MemberRoles(stack, 'alice-roles', { organization: acme, userId: aliceMembership.resource.userId, roles: ['view-members'] });
 */
export class MemberRoles extends Construct {
  /** The `orgadmin_organization_member_roles` resource behind this construct. */
  readonly resource: MemberRolesResource;

  /**
   * @throws ConstructValidationError when a role name is not a name, a role is listed twice, or a
   *   declared role belongs to another organization.
   */
  constructor(scope: Construct, id: string, props: MemberRolesProps) {
    const problems = new Problems();
    const organization = typeof props.organization === 'string' ? undefined : props.organization;
    const organizationId = organization?.organizationId ?? (props.organization as string);
    if (!isUnresolved(props.userId) && (typeof props.userId !== 'string' || props.userId.trim() === '')) {
      problems.add(`userId must not be empty (got ${quote(props.userId)}).`);
    }
    checkRoles(props.roles, organizationId, problems);
    const path = `${scope.node.path}/${id}`;
    problems.throwIfAny(path);
    super(scope, id);
    if (organization !== undefined && isTracking(organization)) {
      for (const role of props.roles) if (typeof role === 'string') organization._useRole(role, this.node.path);
    }
    this.resource = new MemberRolesResource(this, 'Default', {
      organizationId,
      userId: props.userId,
      roles: props.roles.map(roleNameOf),
      realm: props.realm ?? organization?.realm,
      provider: props.provider ?? organization?.provider,
      ...(props.dependsOn && props.dependsOn.length > 0 ? { dependsOn: [...props.dependsOn] } : {}),
    });
  }
}

/** Records every problem of a role list: names that are not names, repeats, roles of another organization. */
export function checkRoles(roles: readonly RoleRef[] | undefined, organizationId: string, problems: Problems): void {
  if (!Array.isArray(roles)) {
    problems.add(`roles must be a list of role names or roles (got ${quote(roles)}).`);
    return;
  }
  const seen = new Set<string>();
  roles.forEach((role, index) => {
    if (typeof role !== 'string') {
      if (role.organizationId !== organizationId) {
        problems.add(`roles[${index}] is the role ${quote(role.name)} of another organization ("${role.node.path}"): a member holds roles of their own organization only.`);
      }
    } else {
      const issue = roleNameIssue(role);
      if (issue) problems.add(`roles[${index}] ${issue}.`);
    }
    const name = typeof role === 'string' ? role : role.name;
    if (isUnresolved(name)) return;
    if (seen.has(name)) problems.add(`roles lists ${quote(name)} more than once; list each role once.`);
    seen.add(name);
  });
}
