/**
 * The `OrganizationRole` construct: one role of an organization (`orgadmin_organization_role`).
 * Members get roles with {@link OrganizationBase.addMember} (`roles`) or {@link MemberRoles}.
 *
 * Every organization has the default roles (`view-members`, `manage-roles`, …; see
 * `DEFAULT_ORGANIZATION_ROLES` in `orgadmin/api`): they need no construct and can be named as
 * strings. Declaring one adopts it (for example to set its description).
 */
import { Construct, type IConstruct } from 'constructs';
import type { TerraformProvider } from './toolkit';
import { OrganizationRole as OrganizationRoleResource } from './gen/organization-role';
import type { IOrganization, OrganizationBase } from './organization';
import { MAX_DESCRIPTION_LENGTH, roleNameProblem } from '../api';
import { Problems, isUnresolved, quote } from './validation';

/** A role of an organization, declared in this stack. */
export interface IOrganizationRole extends IConstruct {
  /** The role's name, as a reference to the role resource: roles granted by it are granted after the role exists. */
  readonly roleName: string;
  /** The role's name as written. */
  readonly name: string;
  /** The organization's id. */
  readonly organizationId: string;
  /** The organization construct, when the role was declared with one. */
  readonly organization?: IOrganization;
}

/** Props of {@link OrganizationRole}. */
export interface OrganizationRoleProps {
  /** The organization: a construct or its id. */
  readonly organization: IOrganization | string;
  /** Unique in the organization, 1–255 characters, not only whitespace, without `/`; compared exactly. */
  readonly name: string;
  /**
   * The description.
   * @default a new role has none; a default role keeps its standard one
   */
  readonly description?: string;
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
}

/**
 * Why `name` cannot name a role declared in a stack, or undefined (the service's rule, and no `/`,
 * which the provider's import ids use as separator). Tokens are not judged.
 */
export function roleNameIssue(name: unknown): string | undefined {
  if (isUnresolved(name)) return undefined;
  if (typeof name !== 'string') return `must be a string (got ${quote(name)})`;
  const problem = roleNameProblem(name) ?? (name.includes('/') ? 'must not contain "/"' : undefined);
  return problem && `${problem} (got ${quote(name)})`;
}

/**
 * One role of an organization.
 *
 * The construct id is the role's address in Terraform: changing it replaces the role, which takes
 * it away from its holders until they are granted it again.
 *
 * @example
 * const billing = new OrganizationRole(stack, 'billing', { organization: acme, name: 'billing', description: 'Pays the bills' });
 * acme.addMember(alice, { roles: [billing, 'view-members'] });
 */
export class OrganizationRole extends Construct implements IOrganizationRole {
  readonly roleName: string;
  readonly name: string;
  readonly organizationId: string;
  readonly organization?: IOrganization;
  /** The `orgadmin_organization_role` resource behind this construct. */
  readonly resource: OrganizationRoleResource;

  /** @throws ConstructValidationError listing every problem with the props. */
  constructor(scope: Construct, id: string, props: OrganizationRoleProps) {
    const problems = new Problems();
    const organization = typeof props.organization === 'string' ? undefined : props.organization;
    const organizationId = organization?.organizationId ?? (props.organization as string);
    if (!isUnresolved(organizationId) && (typeof organizationId !== 'string' || organizationId.trim() === '')) {
      problems.add(`organization must be an organization or its id (got ${quote(organizationId)}).`);
    }
    const nameIssue = roleNameIssue(props.name);
    if (nameIssue) problems.add(`name ${nameIssue}.`);
    if (typeof props.description === 'string' && props.description.length > MAX_DESCRIPTION_LENGTH) {
      problems.add(`description must be at most ${MAX_DESCRIPTION_LENGTH} characters (got ${props.description.length}).`);
    }
    const tracking = organization !== undefined && isTracking(organization) ? organization : undefined;
    const path = `${scope.node.path}/${id}`;
    tracking?._checkRole(props.name, path, problems);
    // Validation runs before the construct joins the tree, so a refused role leaves no trace.
    problems.throwIfAny(path);
    super(scope, id);

    this.name = props.name;
    this.organizationId = organizationId;
    if (organization !== undefined) this.organization = organization;
    tracking?._registerRole(this);
    this.resource = new OrganizationRoleResource(this, 'Default', {
      organizationId,
      name: props.name,
      description: props.description,
      realm: props.realm ?? organization?.realm,
      provider: props.provider ?? organization?.provider,
    });
    this.roleName = this.resource.name;
  }
}

/** True for organizations that track their roles (every organization construct of this package). */
export function isTracking(organization: IOrganization): organization is OrganizationBase {
  return typeof (organization as Partial<OrganizationBase>)._registerRole === 'function';
}
