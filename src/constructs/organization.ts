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
import { checkRoles, MemberRoles, type RoleRef } from './member-roles';
import { OrganizationRole, type IOrganizationRole } from './organization-role';
import { DomainVerification, IdentityProvider, type DomainVerificationOptions, type IdentityProviderOptions } from './sso';
import type { IUser } from './users';
import { isDefaultRole } from '../api/roles';
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

/** Options of {@link IOrganization.addMember}. */
export interface AddMemberOptions {
  /**
   * Construct id of the membership.
   * @default `Member-<user construct id>` for an {@link IUser}, `Member-<userId>` for an id string
   */
  readonly id?: string;
  /**
   * Every role the member holds in the organization (`orgadmin_organization_member_roles`,
   * authoritative for this member): default roles by name (`'view-members'`), or roles declared
   * with {@link OrganizationRole} / {@link IOrganization.addRole}. Granted after the membership exists.
   * @default the member's roles are not managed
   */
  readonly roles?: readonly RoleRef[];
}

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
   * Adds one member, additively (`orgadmin_membership`): other members are left alone. With
   * `roles`, the member's roles too (`orgadmin_organization_member_roles`).
   *
   * @param user the user's id, or a looked-up user
   * @param options the construct id of the membership (a string, as before, or `{ id }`) and the member's roles
   */
  addMember(user: UserRef, options?: string | AddMemberOptions): Membership;
  /**
   * Declares the complete member set, authoritatively (`orgadmin_organization_members`): members
   * not listed are removed on apply, except the organization's default admin user.
   */
  setMembers(users: readonly UserRef[]): OrganizationMembersResource;
  /**
   * Declares a role of the organization (`orgadmin_organization_role`).
   *
   * @param name the role's name (a default role's name adopts it)
   * @param options its description and construct id (@default `Role-<name>`)
   */
  addRole(name: string, options?: { description?: string; id?: string }): OrganizationRole;
  /**
   * Gives a member of the authoritative member set (or of an organization whose members are
   * managed elsewhere) its roles; for additive members use `addMember(user, { roles })`.
   *
   * @param user a user of the member set
   * @param roles every role the member holds
   * @param id construct id. @default `Roles-<user construct id or id>`
   */
  grantRoles(user: UserRef, roles: readonly RoleRef[], id?: string): MemberRoles;
  /**
   * Verifies one of the organization's domains by its DNS TXT record, waiting in the apply
   * (`orgadmin_organization_domain_verification`); publish the construct's `recordName` /
   * `recordValue` with any DNS provider.
   *
   * @param domain one of the organization's `domains`
   * @param options the wait's timeout and the construct id (@default `Domain-<domain>`)
   */
  addDomain(domain: string, options?: DomainVerificationOptions): DomainVerification;
  /**
   * Adds an OpenID Connect identity provider of the organization
   * (`orgadmin_organization_identity_provider`), optionally with the roles its people get on
   * their first sign-in.
   *
   * @param alias the provider's alias, unique in the realm
   * @param options the upstream, the client, and the construct id (@default `Idp-<alias>`)
   */
  addIdentityProvider(alias: string, options: IdentityProviderOptions): IdentityProvider;
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
  private memberSetUsers: readonly string[] = [];
  /** Roles declared in this stack for this organization: name → construct path. */
  private readonly declaredRoles = new Map<string, string>();
  /** Roles given by name to members: name → construct paths of the member roles using it. */
  private readonly usedRoles = new Map<string, string[]>();

  /**
   * Whether every role of the organization that is not a default role must be declared in this
   * stack: true for an organization this stack creates (nobody else gives it roles first).
   */
  protected abstract get rolesDeclaredHere(): boolean;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    // At synth, once every role of the stack is declared (they may come after the members that use them).
    this.node.addValidation({ validate: () => this.undeclaredRoleProblems() });
  }

  /** {@inheritDoc IOrganization.addMember} */
  addMember(user: UserRef, options?: string | AddMemberOptions): Membership {
    const { id, roles } = typeof options === 'string' || options === undefined ? { id: options, roles: undefined } : options;
    const userId = typeof user === 'string' ? user : user.userId;
    if (roles !== undefined) {
      // Checked before the membership is made, so refused roles leave no trace.
      const problems = new Problems();
      checkRoles(roles, this.organizationId, problems);
      problems.throwIfAny(`${this.node.path}/addMember`);
    }
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
    const membership = new Membership(this, membershipId, { organization: this, userId });
    // The membership's user_id is a reference: the roles are granted once the user is a member.
    if (roles !== undefined) new MemberRoles(membership, 'Roles', { organization: this, userId: membership.resource.userId, roles });
    return membership;
  }

  /** {@inheritDoc IOrganization.addRole} */
  addRole(name: string, options: { description?: string; id?: string } = {}): OrganizationRole {
    const id = options.id ?? (isUnresolved(name) ? undefined : `Role-${String(name).replace(/\//g, '-')}`);
    if (id === undefined) {
      throw new ConstructValidationError(this.node.path, [`addRole(name) needs an id when the name is a token (got ${quote(name)}); pass { id }.`]);
    }
    return new OrganizationRole(this, id, { organization: this, name, description: options.description });
  }

  /** {@inheritDoc IOrganization.addDomain} */
  addDomain(domain: string, options: DomainVerificationOptions = {}): DomainVerification {
    const id = options.id ?? (isUnresolved(domain) ? undefined : `Domain-${normalizeDomain(String(domain))}`);
    if (id === undefined) throw new ConstructValidationError(this.node.path, [`addDomain(domain) needs an id when the domain is a token (got ${quote(domain)}); pass { id }.`]);
    const listed = this.listedDomains;
    if (listed !== undefined && !isUnresolved(domain) && typeof domain === 'string' && !listed.includes(normalizeDomain(domain))) {
      throw new ConstructValidationError(this.node.path, [`addDomain(${quote(domain)}): the organization's domains (${listed.join(', ') || 'none'}) do not include it; add it to domains first.`]);
    }
    return new DomainVerification(this, id, { organization: this, domain, timeout: options.timeout });
  }

  /** {@inheritDoc IOrganization.addIdentityProvider} */
  addIdentityProvider(alias: string, options: IdentityProviderOptions): IdentityProvider {
    const id = options.id ?? (isUnresolved(alias) ? undefined : `Idp-${alias}`);
    if (id === undefined) throw new ConstructValidationError(this.node.path, [`addIdentityProvider(alias) needs an id when the alias is a token (got ${quote(alias)}); pass { id }.`]);
    const { id: _id, ...props } = options;
    return new IdentityProvider(this, id, { ...props, organization: this, alias });
  }

  /** The organization's domains when this stack declares them (normalized), else undefined. */
  protected get listedDomains(): readonly string[] | undefined {
    return undefined;
  }

  /** {@inheritDoc IOrganization.grantRoles} */
  grantRoles(user: UserRef, roles: readonly RoleRef[], id?: string): MemberRoles {
    const userId = typeof user === 'string' ? user : user.userId;
    const problems = new Problems();
    if (this.style === 'additive') {
      problems.add('this organization declares its members one by one (addMember): give their roles with addMember(user, { roles }).');
    } else if (this.style === 'authoritative' && !isUnresolved(userId) && !this.memberSetUsers.includes(userId)) {
      problems.add(`user ${quote(userId)} is not in the authoritative member set: only members hold roles; add the user to the set first.`);
    }
    const constructId = id ?? (typeof user !== 'string' ? `Roles-${user.node.id}` : isUnresolved(user) ? undefined : `Roles-${user.replace(/\//g, '-')}`);
    if (constructId === undefined) problems.add(`grantRoles(user) needs an id when the user id is a token (got ${quote(user)}).`);
    problems.throwIfAny(this.node.path);
    return new MemberRoles(this, constructId!, {
      organization: this,
      userId,
      roles,
      // The member set makes the user a member: granted after it.
      ...(this.memberSet ? { dependsOn: [this.memberSet] } : {}),
    });
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
    this.memberSetUsers = userIds;
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

  /**
   * Adds to `problems` why a role named `name` declared at `rolePath` cannot join this
   * organization: another construct of this stack declares a role of that name for it.
   *
   * @internal
   */
  _checkRole(name: string, rolePath: string, problems: Problems): void {
    if (isUnresolved(name)) return;
    const existing = this.declaredRoles.get(name);
    if (existing !== undefined && existing !== rolePath) {
      problems.add(`the role ${quote(name)} is already declared by "${existing}"; declare each role of an organization once.`);
    }
  }

  /**
   * Records a role declared for this organization. Called by {@link OrganizationRole}.
   *
   * @internal
   */
  _registerRole(role: IOrganizationRole): void {
    if (!isUnresolved(role.name)) this.declaredRoles.set(role.name, role.node.path);
  }

  /**
   * Records that the member roles at `path` name the role `name` (checked at synth).
   *
   * @internal
   */
  _useRole(name: string, path: string): void {
    if (isUnresolved(name)) return;
    this.usedRoles.set(name, [...(this.usedRoles.get(name) ?? []), path]);
  }

  /**
   * The synth-time check of roles named by members: in an organization this stack creates, a role
   * that is not a default role must be declared in the stack, or no apply could grant it.
   */
  private undeclaredRoleProblems(): string[] {
    if (!this.rolesDeclaredHere) return [];
    const problems: string[] = [];
    for (const [name, paths] of this.usedRoles) {
      if (isDefaultRole(name) || this.declaredRoles.has(name)) continue;
      problems.push(
        `the role ${quote(name)} (given to ${paths.map((path) => `"${path}"`).join(', ')}) is neither a default role of the organization ` +
          `nor declared in this stack: declare it (organization.addRole(${quote(name)}) or new OrganizationRole(...)) and pass the role, ` +
          'or use a default role (view-members, manage-members, view-roles, manage-roles, …).',
      );
    }
    return problems;
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
  /** Whether the organization is adopted (`existingOrganizationId`): it may have roles of its own. */
  private readonly adopted: boolean;
  /** The domains given in props, normalized (undefined when not managed or a token). */
  private readonly declaredDomains?: readonly string[];

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

    this.adopted = existingId !== undefined;
    if (props.domains !== undefined && !isUnresolved(props.domains) && !props.domains.some((domain) => isUnresolved(domain))) {
      this.declaredDomains = props.domains.map(normalizeDomain);
    }
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

  /** An organization this stack creates has only the roles the stack declares (and the default ones). */
  protected get rolesDeclaredHere(): boolean {
    return !this.adopted;
  }

  /** The domains this stack gives the organization, which addDomain checks against. */
  protected get listedDomains(): readonly string[] | undefined {
    return this.declaredDomains;
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

  /** Managed elsewhere: it may have roles this stack does not know. */
  protected get rolesDeclaredHere(): boolean {
    return false;
  }
}
