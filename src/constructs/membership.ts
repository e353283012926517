/**
 * The `Membership` construct: one user in one organization, managed additively
 * (`orgadmin_membership`). Memberships declared elsewhere are left alone; removing this construct
 * removes only this user.
 */
import { Construct } from 'constructs';
import type { TerraformProvider } from './toolkit';
import { Membership as MembershipResource } from './gen/membership';
import type { IOrganization, OrganizationBase } from './organization';
import { Problems, isUnresolved, quote } from './validation';

/** Props of {@link Membership}. */
export interface MembershipProps {
  /** The organization: a construct (`Organization`, `Organization.fromOrganizationId`) or its id. */
  readonly organization: IOrganization | string;
  /** The user's id (`User.fromEmail(...).userId` when people know the user by email). */
  readonly userId: string;
  /**
   * Realm of the organization.
   * @default the organization's realm when it is a construct that has one, else the provider's
   */
  readonly realm?: string;
  /**
   * The provider configuration to use.
   * @default the organization's provider when it is a construct that has one, else the stack's
   *   default orgadmin provider
   */
  readonly provider?: TerraformProvider;
}

/**
 * One user's membership of one organization.
 *
 * The construct id is part of the membership's address in Terraform: changing it makes Terraform
 * remove and re-add the membership.
 *
 * @example
 * new Membership(stack, 'alice-in-acme', { organization: acme, userId: alice.userId });
 */
export class Membership extends Construct {
  /** The organization's id. */
  readonly organizationId: string;
  /** The member's user id. */
  readonly userId: string;
  /** The `orgadmin_membership` resource behind this construct. */
  readonly resource: MembershipResource;

  /**
   * @throws ConstructValidationError when the organization or user id is empty, the organization
   *   declares its member set authoritatively, or the user is already an additive member of it.
   */
  constructor(scope: Construct, id: string, props: MembershipProps) {
    const problems = new Problems();
    const organization = typeof props.organization === 'string' ? undefined : props.organization;
    const organizationId = organization?.organizationId ?? (props.organization as string);
    if (!isUnresolved(organizationId) && (typeof organizationId !== 'string' || organizationId.trim() === '')) {
      problems.add(`organization must be an organization or its id (got ${quote(organizationId)}).`);
    }
    if (!isUnresolved(props.userId) && (typeof props.userId !== 'string' || props.userId.trim() === '')) {
      problems.add(`userId must not be empty (got ${quote(props.userId)}).`);
    }
    // An organization construct keeps the two membership styles apart (see organization.ts).
    const tracking = organization !== undefined && isOrganizationBase(organization) ? organization : undefined;
    const path = `${scope.node.path}/${id}`;
    tracking?._checkMembership(props.userId, path, problems);
    // Validation runs before the construct joins the tree, so a refused membership leaves no trace.
    problems.throwIfAny(path);
    super(scope, id);
    tracking?._registerMembership(this, props.userId);

    this.organizationId = organizationId;
    this.userId = props.userId;
    // Referencing the organization's id (a token) is what orders this after the organization.
    this.resource = new MembershipResource(this, 'Default', {
      organizationId,
      userId: props.userId,
      realm: props.realm ?? organization?.realm,
      // The organization's realm usually comes with its own provider configuration (API keys
      // belong to one realm), so the membership follows the organization's provider too.
      provider: props.provider ?? organization?.provider,
    });
  }
}

/** True for organizations that track their membership style (every construct of this package). */
function isOrganizationBase(organization: IOrganization): organization is OrganizationBase {
  return typeof (organization as Partial<OrganizationBase>)._registerMembership === 'function';
}
