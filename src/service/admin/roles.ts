/**
 * Organization roles and their grants by the JSON API's rules, shared by the role routes
 * (routes/roles.ts, routes/member-roles.ts) and the dashboard's organization page
 * (dashboard/pages/organization-roles.ts); failures are the API's `ServiceError`s, worded once here.
 *
 * Where the hosted service's source decides what its spec does not show, these rules follow the
 * source (keycloak-orgs RolesResource, RoleResource, UserResource; docs/guides/service.md#organization-roles):
 * a grant needs a member (400 `not_member`), default roles cannot be deleted (400), a bulk delete
 * of a role that is not there counts as deleted, an update changes the description only.
 */
import { UNKNOWN_ORIGIN, type ChangeOrigin } from '../events/event';
import { randomUUID } from 'node:crypto';
import { isDefaultRole, roleNameProblem, roleToWire, type BulkResult, type Member, type RoleInput, type RoleInputList } from '../../api';
import { notFound, ServiceError } from '../errors';
import { toMember, type MemberRolesChange, type RoleChange, type RoleRecord, type Store } from '../store/store';

/** Whether a change grants or revokes. */
export type RoleChangeKind = 'grant' | 'revoke';

/** The sentence for a role the organization does not have. */
export const noRole = (orgId: string, name: string): string => `Organization ${orgId} has no role ${name}.`;
const orgMissing = (orgId: string): ServiceError => notFound(`Organization ${orgId} does not exist.`);
const roleExists = (name: string, orgId: string): string => `Role "${name}" already exists in organization ${orgId}.`;
const defaultRoleKept = (name: string): string => `Default organization role ${name} cannot be deleted.`;
const notHeld = (userId: string, name: string): ServiceError => notFound(`User ${userId} does not have role ${name}.`);
const invalidBody = (description: string): ServiceError => new ServiceError(400, 'invalid_body', description);

/** The description of a create or update: null when absent or null. */
const descriptionOf = (description: string | null | undefined): string | null => description ?? null;

/**
 * The refusal of a grant or revoke the store did not carry out: 404 for an unknown organization or
 * user, 400 `not_member` for a user who is not a member (`what`: "granted a role", "granted roles").
 */
function memberRolesRefusal(kind: Exclude<MemberRolesChange['kind'], 'done'>, orgId: string, userId: string, what: string): ServiceError {
  switch (kind) {
    case 'no-organization':
      return orgMissing(orgId);
    case 'no-user':
      return notFound(`User ${userId} does not exist.`);
    case 'not-member':
      return new ServiceError(400, 'not_member', `User ${userId} must be a member of organization ${orgId} to be ${what}.`);
  }
}

/** One entry of a bulk grant or revoke answer: `success` (201 granted, 204 revoked) or 400 for a role the organization lacks. */
function entryOf(change: RoleChange, orgId: string, success: number): BulkResult {
  return change.outcome === 'no-role' ? { status: 400, error: noRole(orgId, change.name) } : { status: success, item: roleToWire(change.role) };
}

/** One role of an organization with the members who hold it (the dashboard's roles table). */
export interface RoleWithHolders {
  readonly role: RoleRecord;
  /** In the order they were granted the role. */
  readonly holders: Member[];
}

/** Organization roles and grants over a {@link Store}. */
export class RoleAdmin {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    /** Who the changes are made by and from where: written into their events. */
    private readonly origin: ChangeOrigin = UNKNOWN_ORIGIN,
  ) {}

  /** An organization's roles, ordered by name; 404 when the organization does not exist. */
  async list(realm: string, orgId: string): Promise<RoleRecord[]> {
    const roles = await this.store.listRoles(realm, orgId);
    if (!roles) throw orgMissing(orgId);
    return roles;
  }

  /** One role by name; 404 naming the organization when it is the one missing. */
  async get(realm: string, orgId: string, name: string): Promise<RoleRecord> {
    const role = await this.store.getRole(realm, orgId, name);
    if (!role) throw await this.roleMissing(realm, orgId, name);
    return role;
  }

  /** Creates one role: 400 `invalid_body` for a missing or bad name, 409 when the organization has it, 404 without the organization. */
  async create(realm: string, orgId: string, input: RoleInput): Promise<RoleRecord> {
    if (input.name === undefined) throw invalidBody('name is required.');
    const problem = roleNameProblem(input.name);
    if (problem) throw invalidBody(`name ${problem}.`);
    const created = await this.store.createRoles(realm, orgId, [{ id: randomUUID(), name: input.name, description: descriptionOf(input.description) }], this.now(), this.origin);
    if (!created) throw orgMissing(orgId);
    if (!created[0]!.created) throw new ServiceError(409, 'conflict', roleExists(input.name, orgId));
    return created[0]!.role;
  }

  /**
   * Creates many roles, one entry per input in order: 201 with the role, or 400 for a bad name or
   * one the organization has (also one earlier in the list). Names that are names are created in
   * one transaction; 404 without the organization.
   */
  async createMany(realm: string, orgId: string, inputs: RoleInputList): Promise<BulkResult[]> {
    const refused: Array<BulkResult | undefined> = inputs.map((input) => {
      const problem = roleNameProblem(input.name);
      return problem ? { status: 400, error: `name ${problem}.` } : undefined;
    });
    const wanted = inputs.flatMap((input, index) => (refused[index] ? [] : [{ id: randomUUID(), name: input.name, description: descriptionOf(input.description) }]));
    const created = await this.store.createRoles(realm, orgId, wanted, this.now(), this.origin);
    if (!created) throw orgMissing(orgId);
    let next = 0;
    return refused.map((result) => {
      if (result) return result;
      const { created: isNew, role } = created[next++]!;
      return isNew ? { status: 201, item: roleToWire(role) } : { status: 400, error: roleExists(role.name, orgId) };
    });
  }

  /** Replaces a role's description (only that: a name in the input is ignored); 404 when there is no such role. */
  async updateDescription(realm: string, orgId: string, name: string, description: string | null | undefined): Promise<RoleRecord> {
    const updated = await this.store.updateRoleDescription(realm, orgId, name, descriptionOf(description), this.origin);
    if (!updated) throw await this.roleMissing(realm, orgId, name);
    return updated;
  }

  /** Deletes one role with its grants: 400 `invalid_request` for a default role, 404 when there is no such role. */
  async delete(realm: string, orgId: string, name: string): Promise<void> {
    if (isDefaultRole(name)) {
      // Unknown organizations are still a 404 (the hosted service looks the role up first).
      await this.get(realm, orgId, name);
      throw new ServiceError(400, 'invalid_request', defaultRoleKept(name));
    }
    const [deleted] = (await this.store.deleteRoles(realm, orgId, [name], this.origin)) ?? [undefined];
    if (!deleted) throw await this.roleMissing(realm, orgId, name);
  }

  /**
   * Deletes many roles, one entry per name in order: 204 with the role (or just its name when it
   * was not there: what the delete wanted, as the hosted service answers), 400 for a default role.
   */
  async deleteMany(realm: string, orgId: string, names: readonly string[]): Promise<BulkResult[]> {
    const deleted = await this.store.deleteRoles(realm, orgId, names.filter((name) => !isDefaultRole(name)), this.origin);
    if (!deleted) throw orgMissing(orgId);
    let next = 0;
    return names.map((name): BulkResult => {
      if (isDefaultRole(name)) return { status: 400, error: defaultRoleKept(name) };
      const role = deleted[next++];
      return { status: 204, item: role ? roleToWire(role) : { name } };
    });
  }

  /** The users holding a role, in the order they were granted it; 404 when there is no such role. */
  async listUsers(realm: string, orgId: string, name: string, filter: { excludeAdminAccounts?: boolean } = {}): Promise<Member[]> {
    const users = await this.store.listRoleUsers(realm, orgId, name, { excludeAdminAccounts: filter.excludeAdminAccounts === true });
    if (!users) throw await this.roleMissing(realm, orgId, name);
    return users.map(toMember);
  }

  /**
   * An organization's roles, ordered by name, each with its holders; 404 when the organization does
   * not exist. A role deleted between the two reads is shown with no holders.
   */
  async listWithHolders(realm: string, orgId: string): Promise<RoleWithHolders[]> {
    const roles = await this.list(realm, orgId);
    return Promise.all(
      roles.map(async (role) => ({ role, holders: ((await this.store.listRoleUsers(realm, orgId, role.name, {})) ?? []).map(toMember) })),
    );
  }

  /** Checks a grant: 404 when the user does not hold the role. */
  async check(realm: string, orgId: string, name: string, userId: string): Promise<void> {
    if (!(await this.store.hasRole(realm, orgId, name, userId))) throw notHeld(userId, name);
  }

  /** Grants one role to a member; granting a held role is a success too. 400 `not_member`, 404 for a missing organization, user or role. */
  async grant(realm: string, orgId: string, name: string, userId: string): Promise<void> {
    const change = await this.store.changeMemberRoles(realm, orgId, userId, [name], 'grant', this.now(), this.origin);
    if (change.kind !== 'done') throw memberRolesRefusal(change.kind, orgId, userId, 'granted a role');
    if (change.changes[0]!.outcome === 'no-role') throw notFound(noRole(orgId, name));
  }

  /** Revokes one role: 404 when the user does not hold it. */
  async revoke(realm: string, orgId: string, name: string, userId: string): Promise<void> {
    const change = await this.store.changeMemberRoles(realm, orgId, userId, [name], 'revoke', this.now(), this.origin);
    if (change.kind !== 'done' || change.changes[0]!.outcome !== 'changed') throw notHeld(userId, name);
  }

  /** A member's roles, ordered by name: 404 for a missing organization or a user who is not a member. */
  async memberRoles(realm: string, orgId: string, userId: string): Promise<RoleRecord[]> {
    const roles = await this.store.listMemberRoles(realm, orgId, userId);
    if (roles) return roles;
    if (!(await this.store.getOrganization(realm, orgId))) throw orgMissing(orgId);
    throw notFound(`User ${userId} is not a member of organization ${orgId}.`);
  }

  /**
   * Grants or revokes many roles of one member, one entry per name in order (201 granted, 204
   * revoked, 400 for a role the organization lacks); 400 `not_member`, 404 for a missing
   * organization or user, with nothing changed.
   */
  async changeMemberRoles(realm: string, orgId: string, userId: string, names: readonly string[], kind: RoleChangeKind): Promise<BulkResult[]> {
    const outcome = await this.store.changeMemberRoles(realm, orgId, userId, names, kind, this.now(), this.origin);
    if (outcome.kind !== 'done') throw memberRolesRefusal(outcome.kind, orgId, userId, kind === 'grant' ? 'granted roles' : 'have roles revoked');
    return outcome.changes.map((entry) => entryOf(entry, orgId, kind === 'grant' ? 201 : 204));
  }

  /** 404 for a role that is not there, naming the organization when it is the one missing. */
  private async roleMissing(realm: string, orgId: string, name: string): Promise<ServiceError> {
    return (await this.store.getOrganization(realm, orgId)) ? notFound(noRole(orgId, name)) : orgMissing(orgId);
  }
}
