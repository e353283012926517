/**
 * `orgadmin_organization_member_roles`: every role one member holds in one organization,
 * authoritatively (roles not listed are revoked, roles granted outside Terraform show as drift).
 *
 * - Refresh is exactly one request: the member's roles (`GET …/users/{userId}/orgs/{orgId}/roles`).
 *   A member removed outside Terraform lost their grants with the membership: the resource is
 *   dropped from the state with a warning and planned again.
 * - Only members hold roles. At plan time, a change of `roles` for a user who is not a member, and
 *   for whom this plan adds no membership first (an `orgadmin_membership` or the `user_ids` of an
 *   `orgadmin_organization_members` that this resource refers to), is an error on `user_id`: the
 *   apply could not grant anything. Where the plan cannot know (ids known only after apply), the
 *   apply says so just as clearly.
 * - Fault tolerance (the guarantees of ../outcome.ts): grants and revokes are one bulk request each,
 *   whose answer says per role what was done; a lost answer, or one that cannot be matched to the
 *   roles asked, is settled by reading the member's roles, never taken as success; the state records
 *   the roles the member holds now, so the next plan retries exactly what is missing.
 * - Creating it for a member who holds roles that `roles` does not list fails without changing
 *   anything (it would revoke them): list them, or import first (`ORG_ID/USER_ID`).
 */
import type { Role } from '../../api';
import { BadRequestError, UnexpectedResponseError } from '../../client/errors';
import type { RoleResult } from '../../client/client';
import { callOptions, signalOf, type OrgAdminProviderContext } from '../context';
import { describeAttempts, describeError, isObjectNotFound, reportError, reportingFor } from '../diagnostics';
import { parseImportId, type ImportIdForm } from '../import-id';
import { outcomeUnknown } from '../outcome';
import { planRealm, resourceRealmAttribute, validateRealm } from '../realm';
import type { Diagnostics, ObjectValue, PlanModification, Resource, Value } from '../../tfplugin/framework/types';
import { containsUnknown } from '../../tfplugin/protocol/unknown';
import { knownString, knownStringList, quote, sameStringSet } from '../values';
import { listIds } from './organization-members';
import { importCommands } from '../import-advice';

/** The resource's type name. */
export const ORGANIZATION_MEMBER_ROLES_RESOURCE_TYPE = 'orgadmin_organization_member_roles';

/** The import id form: `ORG_ID/USER_ID`, or `REALM/ORG_ID/USER_ID`. */
export const ORGANIZATION_MEMBER_ROLES_IMPORT_ID: ImportIdForm = {
  typeName: ORGANIZATION_MEMBER_ROLES_RESOURCE_TYPE,
  segments: ['ORG_ID', 'USER_ID'],
  example: '6f1d3c0e-5b0a-4c1e-9d1f-2a7b8c9d0e1f/a2b3c4d5-0000-4000-8000-000000000001',
};

/** The id in state and the import id: `ORG_ID/USER_ID`. */
export function memberRolesId(organizationId: string, userId: string): string {
  return `${organizationId}/${userId}`;
}

interface Target {
  organizationId: string;
  userId: string;
  realm: string;
  signal?: AbortSignal;
}

function targetOf(ctx: OrgAdminProviderContext, state: ObjectValue, req: object): Target {
  const signal = signalOf(req);
  return {
    organizationId: knownString(state['organization_id']) ?? '',
    userId: knownString(state['user_id']) ?? '',
    realm: knownString(state['realm']) ?? ctx.realm,
    ...(signal ? { signal } : {}),
  };
}

function describe(target: Target): string {
  return `user ${quote(target.userId)} in organization ${quote(target.organizationId)} (realm ${quote(target.realm)})`;
}

function stateOf(target: Target, roles: Iterable<string>): ObjectValue {
  return {
    id: memberRolesId(target.organizationId, target.userId),
    organization_id: target.organizationId,
    user_id: target.userId,
    roles: [...new Set(roles)].sort(),
    realm: target.realm,
  };
}

/** The member's role names now, or undefined when the user is not a member (or the organization is gone). */
async function liveRoles(ctx: OrgAdminProviderContext, target: Target): Promise<string[] | undefined> {
  try {
    return (await ctx.client.listMemberRoles(target.organizationId, target.userId, callOptions(target.realm, target.signal))).map((role: Role) => role.name);
  } catch (error) {
    if (isObjectNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * Why the user is not a member, as an error on the attribute to blame: no such organization, no
 * such user, or a user who is simply not a member. `when` is "plan" or "apply".
 */
async function reportNotMember(ctx: OrgAdminProviderContext, target: Target, when: 'plan' | 'apply', diags: Diagnostics): Promise<void> {
  const options = callOptions(target.realm, target.signal);
  let organizationExists = true;
  let userExists = true;
  try {
    await ctx.client.getOrganization(target.organizationId, options);
  } catch (error) {
    if (isObjectNotFound(error)) organizationExists = false;
  }
  if (organizationExists) {
    try {
      await ctx.client.listUserOrganizations(target.userId, options);
    } catch (error) {
      if (isObjectNotFound(error)) userExists = false;
    }
  }
  if (!organizationExists) {
    diags.error(
      'Organization not found',
      `Cannot grant roles to ${describe(target)}: there is no organization with id ${quote(target.organizationId)} in realm ${quote(target.realm)}. ` +
        'Check `organization_id`; reference the organization resource (`orgadmin_organization.<name>.id`) so that it is created first.',
      ['organization_id'],
    );
  } else if (!userExists) {
    diags.error(
      'User not found',
      `Cannot grant roles to ${describe(target)}: there is no user with id ${quote(target.userId)} in realm ${quote(target.realm)}. ` +
        'Check `user_id`: it is the user\'s id, not the username or email (the `orgadmin_user` data source finds the id by username or email).',
      ['user_id'],
    );
  } else {
    diags.error(
      'User is not a member of the organization',
      `Cannot grant roles to ${describe(target)}: only members of an organization can hold its roles, and the user is not a member` +
        `${when === 'plan' ? ', nor does this plan make them one before this resource' : ''}.\n\n` +
        'Make the user a member in the same configuration and refer to that membership, so that Terraform adds it first:\n\n' +
        '  user_id = orgadmin_membership.<name>.user_id\n\n' +
        'or, with an authoritative member set, iterate over its members:\n\n' +
        '  for_each = toset(orgadmin_organization_members.<name>.user_ids)\n  user_id  = each.value',
      ['user_id'],
    );
  }
}

/**
 * True when a grant or revoke was refused because the user is not a member: the service's
 * `not_member`, or any 400 for a user who the service says is not a member (the hosted service, and
 * its compatibility mode, answer without that code).
 */
async function refusedAsNonMember(ctx: OrgAdminProviderContext, target: Target, error: unknown): Promise<boolean> {
  if (!(error instanceof BadRequestError)) return false;
  if (error.error === 'not_member') return true;
  return ctx.client.isMember(target.organizationId, target.userId, callOptions(target.realm, target.signal)).then(
    (member) => !member,
    () => false,
  );
}

/** What one bulk change came to: roles done, roles refused (with the service's reason), or an answer lost. */
interface BulkOutcome {
  done: string[];
  refused: Array<{ name: string; error: string }>;
  /** The error of a request whose outcome is unknown (answer lost or unreadable): settled by a read. */
  unknown?: unknown;
}

/** Sends one bulk grant or revoke and sorts its answer; errors whose outcome is known are thrown. */
async function bulkChange(ctx: OrgAdminProviderContext, target: Target, change: 'grant' | 'revoke', names: readonly string[]): Promise<BulkOutcome> {
  if (names.length === 0) return { done: [], refused: [] };
  const options = callOptions(target.realm, target.signal);
  let results: RoleResult[];
  try {
    results =
      change === 'grant'
        ? await ctx.client.grantRoles(target.organizationId, target.userId, names, options)
        : await ctx.client.revokeRoles(target.organizationId, target.userId, names, options);
  } catch (error) {
    // A lost answer, or one that cannot be matched to the roles asked: what happened is unknown.
    if (outcomeUnknown(error) || error instanceof UnexpectedResponseError) return { done: [], refused: [], unknown: error };
    throw error;
  }
  return {
    done: results.filter((result) => result.ok).map((result) => result.name),
    refused: results.filter((result) => !result.ok).map((result) => ({ name: result.name, error: result.error ?? `status ${result.status}` })),
  };
}

/**
 * Brings the member's roles from `live` to `desired`: one bulk grant, one bulk revoke. Returns the
 * roles the member holds afterwards (read again when an answer was lost), or undefined when the
 * user turned out not to be a member. Reports every role that could not be granted or revoked.
 */
async function applyRoles(
  ctx: OrgAdminProviderContext,
  target: Target,
  live: readonly string[],
  desired: ReadonlySet<string>,
  diags: Diagnostics,
): Promise<string[] | undefined> {
  const env = reportingFor(ctx, target.realm);
  const toGrant = [...desired].filter((name) => !live.includes(name)).sort();
  const toRevoke = live.filter((name) => !desired.has(name)).sort();
  let grant: BulkOutcome;
  let revoke: BulkOutcome;
  try {
    grant = await bulkChange(ctx, target, 'grant', toGrant);
    revoke = await bulkChange(ctx, target, 'revoke', toRevoke);
  } catch (error) {
    if (await refusedAsNonMember(ctx, target, error)) {
      await reportNotMember(ctx, target, 'apply', diags);
      return undefined;
    }
    reportError(diags, error, { action: 'change member roles', target: `of ${describe(target)}`, permission: 'manage-organizations', path: ['roles'] }, env);
    return undefined;
  }
  let now: string[];
  if (grant.unknown !== undefined || revoke.unknown !== undefined) {
    // The service says what is true now; a lost answer is never taken as success (or failure).
    const read = await liveRoles(ctx, target).catch((error: unknown) => {
      reportError(diags, error, { action: 'read member roles', target: `of ${describe(target)}`, permission: 'view-organizations', path: ['roles'] }, env);
      return null;
    });
    if (read === null) return undefined;
    if (read === undefined) {
      await reportNotMember(ctx, target, 'apply', diags);
      return undefined;
    }
    now = read;
    const missing = toGrant.filter((name) => !now.includes(name) && !grant.refused.some((refused) => refused.name === name));
    const left = toRevoke.filter((name) => now.includes(name) && !revoke.refused.some((refused) => refused.name === name));
    if (missing.length > 0 || left.length > 0) {
      const lost = (grant.unknown ?? revoke.unknown) as unknown;
      const text = describeError(lost, { action: 'change member roles', target: `of ${describe(target)}`, permission: 'manage-organizations' }, env);
      diags.error(
        text.summary,
        `${text.detail}\n\nThe service shows ${missing.length > 0 ? `roles not granted: ${listIds(missing)}` : ''}${missing.length > 0 && left.length > 0 ? '; ' : ''}${left.length > 0 ? `roles not revoked: ${listIds(left)}` : ''}. The state records the roles the member holds now; run \`terraform apply\` again.`,
        ['roles'],
      );
    }
  } else {
    now = [...live.filter((name) => !revoke.done.includes(name)), ...grant.done];
  }
  const refused = [...grant.refused.map((r) => ({ ...r, verb: 'grant' })), ...revoke.refused.map((r) => ({ ...r, verb: 'revoke' }))];
  if (refused.length > 0) {
    diags.error(
      'Roles not granted',
      `The service refused to change ${refused.length === 1 ? 'one role' : `${refused.length} roles`} of ${describe(target)}:\n\n` +
        refused.map((r) => `- ${r.verb} ${quote(r.name)}: ${r.error}`).join('\n') +
        '\n\nA role must exist in the organization: declare it with `orgadmin_organization_role` and refer to its `name`, ' +
        'or use one of the default roles. Every other change was applied.',
      ['roles'],
    );
  }
  return now;
}

/** The desired roles of a configuration or plan, deduplicated. */
const desiredRoles = (value: Value | undefined): Set<string> => new Set(knownStringList(value) ?? []);

/**
 * The plan-time membership check: a change that grants roles to a user who is not a member now,
 * and for whom this provider process planned no membership, fails the plan on `user_id`.
 */
async function checkMembershipAtPlan(ctx: OrgAdminProviderContext, req: { config: ObjectValue; priorState: ObjectValue | null; signal?: AbortSignal }, plan: PlanModification, diags: Diagnostics): Promise<void> {
  const planned = plan.plannedState;
  const organizationId = knownString(planned['organization_id']);
  const userId = knownString(planned['user_id']);
  const realm = knownString(planned['realm']);
  const roles = planned['roles'];
  if (organizationId === undefined || userId === undefined || realm === undefined || !Array.isArray(roles) || containsUnknown(roles)) return;
  if (roles.length === 0) return;
  // Nothing to grant: a plan without a change of roles costs no request.
  if (req.priorState !== null && sameStringSet(knownStringList(req.priorState['roles']) ?? [], knownStringList(roles) ?? [])) return;
  if (ctx.plannedMemberships.has(realm, organizationId, userId)) return;
  const target: Target = { organizationId, userId, realm, ...(req.signal ? { signal: req.signal } : {}) };
  let member: boolean;
  try {
    member = await ctx.client.isMember(organizationId, userId, callOptions(realm, req.signal));
  } catch (error) {
    // The plan cannot tell; the apply will.
    ctx.logger.warn('could not check a membership at plan time', { realm, error: String(error) });
    return;
  }
  if (!member) await reportNotMember(ctx, target, 'plan', diags);
}

/** The `orgadmin_organization_member_roles` resource. */
export const organizationMemberRolesResource: Resource<OrgAdminProviderContext> = {
  typeName: ORGANIZATION_MEMBER_ROLES_RESOURCE_TYPE,
  schema: {
    version: 0,
    description:
      'Every role one member holds in one organization, authoritatively: roles not in `roles` are revoked, and roles granted ' +
      'outside Terraform show as drift and are revoked by the next apply. Only members hold roles, and removing a member ' +
      'removes their roles with the membership.\n\n' +
      'The user must be a member: add them in the same configuration and refer to that membership (`user_id = ' +
      'orgadmin_membership.<name>.user_id`), or iterate over an authoritative member set (`for_each = ' +
      'toset(orgadmin_organization_members.<name>.user_ids)`), so that Terraform adds the membership first. A plan that would ' +
      'grant roles to a user who is not a member, and that adds no membership for them, fails on `user_id`.\n\n' +
      'Creating this resource for a member who holds roles that `roles` does not list fails without changing anything ' +
      '(it would revoke them): list them, or import first. Destroying it revokes the roles in `roles`.\n\n' +
      'Refresh is one request per resource. Import by `ORG_ID/USER_ID` or `REALM/ORG_ID/USER_ID`.',
    attributes: {
      id: {
        type: 'string',
        computed: true,
        useStateForUnknown: true,
        description: 'The id in Terraform: `ORGANIZATION_ID/USER_ID` (also the import id).',
      },
      organization_id: {
        type: 'string',
        required: true,
        requiresReplace: true,
        description: 'The organization\'s id.',
      },
      user_id: {
        type: 'string',
        required: true,
        requiresReplace: true,
        description: 'The member\'s user id (not the username; the `orgadmin_user` data source looks ids up by username or email).',
      },
      roles: {
        type: ['set', 'string'],
        required: true,
        description:
          'The names of every role the member holds in the organization: default roles (`view-members`, `manage-roles`, …) or ' +
          'roles declared with `orgadmin_organization_role` (refer to their `name`, so they are created first). `[]` revokes every role.',
      },
      realm: resourceRealmAttribute,
    },
  },

  validate(config, diags) {
    for (const name of ['organization_id', 'user_id']) {
      const value = knownString(config[name]);
      if (value !== undefined && (value.trim() === '' || value.includes('/'))) {
        diags.error(`Invalid ${name}`, `\`${name}\` ${quote(value)} must be an id: not empty, without "/".`, [name]);
      }
    }
    const roles = config['roles'];
    if (Array.isArray(roles) && roles.some((role) => typeof role === 'string' && role.trim() === '')) {
      diags.error('Invalid role name', '`roles` holds an empty name; every element must be a role name.', ['roles']);
    }
    validateRealm(config['realm'], diags);
  },

  async modifyPlan(ctx, req, plan, diags) {
    planRealm(ctx, req.config, req.priorState, plan);
    const org = knownString(req.config['organization_id']);
    const user = knownString(req.config['user_id']);
    if (org !== undefined && user !== undefined) plan.plannedState['id'] = memberRolesId(org, user);
    await checkMembershipAtPlan(ctx, req, plan, diags);
  },

  async create(ctx, req, diags) {
    const target = targetOf(ctx, req.plannedState, req);
    const desired = desiredRoles(req.plannedState['roles']);
    let live: string[] | undefined;
    try {
      live = await liveRoles(ctx, target);
    } catch (error) {
      reportError(diags, error, { action: 'read member roles', target: `of ${describe(target)}`, permission: 'view-organizations' }, reportingFor(ctx, target.realm));
      return null;
    }
    if (live === undefined) {
      await reportNotMember(ctx, target, 'apply', diags);
      return null;
    }
    const outside = live.filter((name) => !desired.has(name)).sort();
    if (outside.length > 0) {
      const id = memberRolesId(target.organizationId, target.userId);
      diags.error(
        'Member holds roles outside roles',
        `The ${describe(target)} already holds ${outside.length === 1 ? 'a role' : 'roles'} that \`roles\` does not list: ${listIds(outside)}. ` +
          'This resource is authoritative and would revoke them, so nothing was changed. Either add them to `roles`, or import the member\'s roles first and then edit them:\n\n' +
          importCommands(ORGANIZATION_MEMBER_ROLES_RESOURCE_TYPE, id),
        ['roles'],
      );
      return null;
    }
    const now = await applyRoles(ctx, target, live, desired, diags);
    if (now === undefined) return null;
    // Nothing half-applied is forgotten: with errors, the state records what the member holds now.
    return stateOf(target, now);
  },

  async read(ctx, req, diags) {
    const target = targetOf(ctx, req.state, req);
    let live: string[] | undefined;
    try {
      live = await liveRoles(ctx, target);
    } catch (error) {
      reportError(diags, error, { action: 'read member roles', target: `of ${describe(target)}`, permission: 'view-organizations' }, reportingFor(ctx, target.realm));
      return req.state;
    }
    if (live === undefined) {
      diags.warning(
        'Member removed outside Terraform',
        `The ${describe(target)} is no longer a member (or the user or organization was deleted), and a member's roles end with the membership. ` +
          'The member\'s roles are removed from the state; the next plan grants them again once the user is a member.',
      );
      return null;
    }
    return stateOf(target, live);
  },

  async update(ctx, req, diags) {
    const target = targetOf(ctx, req.priorState, req);
    let live: string[] | undefined;
    try {
      // Against the live roles, not the prior state: grants changed since the refresh still end as configured.
      live = await liveRoles(ctx, target);
    } catch (error) {
      reportError(diags, error, { action: 'read member roles', target: `of ${describe(target)}`, permission: 'view-organizations' }, reportingFor(ctx, target.realm));
      return req.priorState;
    }
    if (live === undefined) {
      await reportNotMember(ctx, target, 'apply', diags);
      return null;
    }
    const now = await applyRoles(ctx, target, live, desiredRoles(req.plannedState['roles']), diags);
    return now === undefined ? stateOf(target, live) : stateOf(target, now);
  },

  async delete(ctx, req, diags) {
    const target = targetOf(ctx, req.priorState, req);
    const listed = [...desiredRoles(req.priorState['roles'])].sort();
    try {
      const revoke = await bulkChange(ctx, target, 'revoke', listed);
      if (revoke.unknown === undefined) return;
      // The answer was lost: the service says whether the roles are gone.
      const live = await liveRoles(ctx, target);
      const left = (live ?? []).filter((name) => listed.includes(name));
      if (left.length === 0) return;
      diags.error(
        'Failed to revoke member roles',
        `Revoking ${listIds(left)} of ${describe(target)} got no answer, and the service shows them still granted. ${describeAttempts(revoke.unknown)} Run \`terraform destroy\` again.`,
      );
    } catch (error) {
      // Not a member, or gone: their roles went with the membership.
      if (isObjectNotFound(error) || (await refusedAsNonMember(ctx, target, error))) return;
      reportError(diags, error, { action: 'revoke member roles', target: `of ${describe(target)}`, permission: 'manage-organizations' }, reportingFor(ctx, target.realm));
    }
  },

  async importState(ctx, req, diags) {
    const parsed = parseImportId(req.id, ORGANIZATION_MEMBER_ROLES_IMPORT_ID, diags);
    if (!parsed) return null;
    const [organizationId, userId] = parsed.ids as [string, string];
    return { id: memberRolesId(organizationId, userId), organization_id: organizationId, user_id: userId, roles: null, realm: parsed.realm ?? ctx.realm };
  },
};
