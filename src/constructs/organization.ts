/**
 * The `Organization` construct: one organization of the service, and its members in one of two
 * styles.
 *
 * - **Additive** ({@link OrganizationBase.addMember}, or `new Membership(...)`): one
 *   `orgadmin_membership` per (organization, user). The stack manages only the memberships it
 *   declares; members added elsewhere (the admin portal, another stack) are left alone.
 * - **Authoritative** (`members: { authoritative: [...] }` or {@link OrganizationBase.setMembers}):
 *   one `orgadmin_organization_members` holding the whole member set. Anyone else who joins is
 *   removed on the next apply (the organization's default admin user excepted).
 *
 * Mixing the two on one organization makes them fight: each apply of the set removes the
 * additive members, and each apply of those adds them back. The constructs refuse it.
 */
import { Construct, type IConstruct } from 'constructs';
import { normalizeDomain } from '../api/validation';
import { TerraformStack, type TerraformProvider } from './toolkit';
import { Organization as OrganizationResource } from './gen/organization';
import { OrganizationMembers as OrganizationMembersResource } from './gen/organization-members';
import { Membership } from './membership';
import type { IUser } from './users';
import {
  ConstructValidationError,
  Problems,
  checkAttributes,
  checkDisplayName,
  checkDomains,
  checkHttpUrl,
  checkNoDuplicateUsers,
  checkOrganizationName,
  checkRealm,
  isUnresolved,
  quote,
} from './validation';

/** A user given either by id or as a {@link IUser} (for example `User.fromEmail(...)`). */
export type UserRef = string | IUser;

/** An organization: one declared in this stack, or one that exists elsewhere. */
export interface IOrganization extends IConstruct {
  /** The organization's id (a token until apply when the organization is created here). */
  readonly organizationId: string;
  /** The realm the organization lives in; undefined means the provider's realm. */
  readonly realm?: string;
  /**
   * The provider configuration the organization's resources use; memberships of the organization
   * use it too unless they name another. Undefined means the stack's default orgadmin provider.
   */
  readonly provider?: TerraformProvider;
  /**
   * Adds one member, additively (`orgadmin_membership`): other members are left alone.
   *
   * @param user the user's id, or a looked-up user
   * @param id construct id of the membership. @default `Member-<user construct id>` for an
   *   {@link IUser}, `Member-<userId>` for an id string
   */
  addMember(user: UserRef, id?: string): Membership;
  /**
   * Declares the complete member set, authoritatively (`orgadmin_organization_members`): members
   * not listed are removed on apply, except the organization's default admin user.
   */
  setMembers(users: readonly UserRef[]): OrganizationMembersResource;
}

/** How an organization's members are declared in props. */
export interface OrganizationMembersProps {
  /**
   * The complete member set. Members not listed are removed on apply (the organization's default
   * admin user excepted). Use it when this stack is the only place that manages the membership.
   */
  readonly authoritative: readonly UserRef[];
}

/** Props of {@link Organization}. */
export interface OrganizationProps {
  /** Unique name in the realm, 1–255 characters. */
  readonly name: string;
  /**
   * Human-friendly name.
   * @default no display name
   */
  readonly displayName?: string;
  /**
   * The organization's home page, an absolute http(s) URL.
   * @default no URL
   */
  readonly url?: string;
  /**
   * Lowercase DNS names that belong to the organization (a set).
   * @default the domains are not managed (left as they are on the service)
   */
  readonly domains?: string[];
  /**
   * Attributes, each key holding a list of strings (searchable with the service's `q` filter).
   * @default the attributes are not managed
   */
  readonly attributes?: Record<string, string[]>;
  /**
   * Realm to create the organization in.
   * @default the provider's realm
   */
  readonly realm?: string;
  /**
   * The complete member set, managed authoritatively. Cannot be combined with `addMember`.
   * @default members are not managed as a set (use `addMember` for additive memberships)
   */
  readonly members?: OrganizationMembersProps;
  /**
   * Id of an organization that already exists on the service, to bring under management: the
   * stack gets an import block for the organization and, when `members.authoritative` is given,
   * for its member set, so the first apply adopts them instead of creating new ones. Once
   * applied, the import blocks do nothing and the prop can stay or go. Additive memberships need
   * no import: adding an existing member is a no-op on the service.
   * @default the organization is created
   */
  readonly existingOrganizationId?: string;
  /**
   * The provider configuration to use.
   * @default the stack's default orgadmin provider
   */
  readonly provider?: TerraformProvider;
}

/** Which membership style an organization uses, once it uses one. */
type MembershipStyle = 'additive' | 'authoritative';

/**
 * What {@link Organization} and organizations from {@link Organization.fromOrganizationId} share:
 * the two membership styles and the rule that keeps them apart.
 */
export abstract class OrganizationBase extends Construct implements IOrganization {
  /** The organization's id. */
  abstract readonly organizationId: string;
  /** The organization's realm; undefined means the provider's. */
  abstract readonly realm?: string;
  /** The provider the organization's resources use; undefined means the default. */
  abstract readonly provider?: TerraformProvider;

  private style: MembershipStyle | undefined;
  private readonly additiveUsers = new Map<string, string>();
  private memberSet: OrganizationMembersResource | undefined;

  /** {@inheritDoc IOrganization.addMember} */
  addMember(user: UserRef, id?: string): Membership {
    const userId = typeof user === 'string' ? user : user.userId;
    let membershipId = id;
    if (membershipId === undefined) {
      if (typeof user !== 'string') membershipId = `Member-${user.node.id}`;
      else if (!isUnresolved(user)) membershipId = `Member-${user.replace(/\//g, '-')}`;
      else {
        throw new ConstructValidationError(this.node.path, [
          `addMember(user) needs an id when the user id is a token (got ${quote(user)}); call addMember(user, 'Member-name') or pass a User.`,
        ]);
      }
    }
    return new Membership(this, membershipId, { organization: this, userId });
  }

  /** {@inheritDoc IOrganization.setMembers} */
  setMembers(users: readonly UserRef[]): OrganizationMembersResource {
    const problems = new Problems();
    if (this.memberSet !== undefined) {
      problems.add('the member set is already declared; declare the whole set once (members.authoritative or one setMembers call).');
    }
    if (this.style === 'additive') problems.add(mixingProblem('set the authoritative member set', [...this.additiveUsers.values()]));
    const userIds = checkMemberSet(users, problems);
    problems.throwIfAny(this.node.path);

    this.style = 'authoritative';
    this.memberSet = new OrganizationMembersResource(this, 'Members', {
      organizationId: this.organizationId,
      userIds,
      realm: this.realm,
      provider: this.provider,
    });
    return this.memberSet;
  }

  /**
   * Adds to `problems` why a membership of `userId` at `membershipPath` cannot join this
   * organization: the member set is authoritative, or the user is already an additive member.
   * Called by {@link Membership} before it joins the tree, so a refused membership leaves no trace.
   *
   * @internal
   */
  _checkMembership(userId: string, membershipPath: string, problems: Problems): void {
    if (this.style === 'authoritative') {
      problems.add(mixingProblem(`add the membership ${quote(membershipPath)}`, []));
    }
    const existing = this.additiveUsers.get(userId);
    if (existing !== undefined) {
      problems.add(`user ${quote(userId)} is already a member through ${quote(existing)}; add each user once.`);
    }
  }

  /**
   * Records an additive membership of this organization, once {@link _checkMembership} found no
   * problem with it. Called by {@link Membership}.
   *
   * @internal
   */
  _registerMembership(membership: Membership, userId: string): void {
    this.style = 'additive';
    this.additiveUsers.set(userId, membership.node.path);
  }
}

/** Checks an authoritative member set and returns its user ids. */
function checkMemberSet(users: readonly UserRef[], problems: Problems): string[] {
  const userIds = users.map((user) => (typeof user === 'string' ? user : user.userId));
  const names = new Map(users.map((user) => (typeof user === 'string' ? [user, quote(user)] : [user.userId, user.description])));
  checkNoDuplicateUsers(userIds, problems, 'members.authoritative', (userId) => names.get(userId) ?? quote(userId));
  return userIds;
}

/** Explains why the two membership styles cannot share an organization. */
function mixingProblem(action: string, additive: readonly string[]): string {
  const which = additive.length > 0 ? ` (additive memberships: ${additive.map((path) => quote(path)).join(', ')})` : '';
  return (
    `cannot ${action}: this organization already uses the other membership style${which}. ` +
    'An authoritative member set (members.authoritative / setMembers) removes every member it does not list, so it would ' +
    'undo the additive memberships (addMember / Membership) on every apply; use one style per organization.'
  );
}

/**
 * An organization of the service (`orgadmin_organization`).
 *
 * The construct id is the organization's address in Terraform (`orgadmin_organization.<id>`):
 * changing it later makes Terraform replace the organization.
 *
 * @example
 * const acme = new Organization(stack, 'acme', { name: 'acme', domains: ['acme.com'] });
 * acme.addMember(User.fromEmail(stack, 'alice', 'alice@example.com'));
 */
export class Organization extends OrganizationBase {
  /**
   * Refers to an organization that exists outside this stack (created by hand, by another stack).
   * Nothing is created; members can still be added or declared.
   */
  static fromOrganizationId(scope: Construct, id: string, organizationId: string, options: { realm?: string; provider?: TerraformProvider } = {}): IOrganization {
    const problems = new Problems();
    if (!isUnresolved(organizationId) && (typeof organizationId !== 'string' || organizationId.trim() === '')) {
      problems.add(`organizationId must not be empty (got ${quote(organizationId)}).`);
    }
    problems.throwIfAny(`${scope.node.path}/${id}`);
    return new ExistingOrganization(scope, id, organizationId, options.realm, options.provider);
  }

  /** The organization's id, known after apply. */
  readonly organizationId: string;
  /** The realm given in props; undefined means the provider's realm. */
  readonly realm?: string;
  /** The organization's name. */
  readonly name: string;
  /** The `orgadmin_organization` resource behind this construct. */
  readonly resource: OrganizationResource;
  /** The provider given in props; undefined means the stack's default orgadmin provider. */
  readonly provider?: TerraformProvider;

  /** @throws ConstructValidationError listing every problem with the props. */
  constructor(scope: Construct, id: string, props: OrganizationProps) {
    const problems = new Problems();
    checkOrganizationName(props.name, problems);
    checkDisplayName(props.displayName, problems);
    checkHttpUrl(props.url, problems, 'url');
    checkDomains(props.domains, problems);
    checkAttributes(props.attributes, problems);
    checkRealm(props.realm, problems);
    if (props.members !== undefined) checkMemberSet(props.members.authoritative, problems);
    const existingId = props.existingOrganizationId;
    if (existingId !== undefined && !isUnresolved(existingId) && existingId.trim() === '') {
      problems.add(`existingOrganizationId must not be empty when given (got ${quote(existingId)}).`);
    }
    const namesake = organizationNamed(scope, props);
    if (namesake !== undefined) {
      problems.add(
        `name ${quote(props.name)} is already the name of the organization "${namesake.node.path}" in this stack: names are unique in a realm, ` +
          'and two resources must not manage one organization. Give each organization its own name.',
      );
    }
    // Validation runs before the construct joins the tree, so a refused organization leaves no trace.
    problems.throwIfAny(`${scope.node.path}/${id}`);
    super(scope, id);

    this.name = props.name;
    this.realm = props.realm;
    this.provider = props.provider;
    // `Default` keeps the resource's address equal to this construct's id.
    this.resource = new OrganizationResource(this, 'Default', {
      name: props.name,
      displayName: props.displayName,
      url: props.url,
      // Written in the form the service stores them, which the provider requires (Token values pass as they are).
      domains: props.domains === undefined || isUnresolved(props.domains) ? props.domains : props.domains.map((domain) => (isUnresolved(domain) ? domain : normalizeDomain(domain))),
      attributes: props.attributes,
      realm: props.realm,
      provider: props.provider,
    });
    this.organizationId = this.resource.id;
    const memberSet = props.members !== undefined ? this.setMembers(props.members.authoritative) : undefined;
    if (existingId !== undefined) {
      // Import ids are the organization's id for both (see src/provider/import-id.ts), with the
      // realm in front when the organization is not in the provider's realm.
      const importId = props.realm !== undefined ? `${props.realm}/${existingId}` : existingId;
      this.resource.importFrom(importId, props.provider);
      memberSet?.importFrom(importId, props.provider);
    }
  }
}

/**
 * The organization of `scope`'s stack that already has the name (and realm and provider) of
 * `props`, or undefined. Unresolved names are left to the provider's plan-time check.
 */
function organizationNamed(scope: Construct, props: OrganizationProps): Organization | undefined {
  if (isUnresolved(props.name)) return undefined;
  const stack = TerraformStack.of(scope);
  return stack.node
    .findAll()
    .find(
      (construct): construct is Organization =>
        construct instanceof Organization &&
        construct.name === props.name &&
        construct.realm === props.realm &&
        construct.provider === props.provider,
    );
}

/** An organization managed elsewhere, known by id. */
class ExistingOrganization extends OrganizationBase {
  constructor(
    scope: Construct,
    id: string,
    readonly organizationId: string,
    readonly realm: string | undefined,
    readonly provider: TerraformProvider | undefined,
  ) {
    super(scope, id);
  }
}
