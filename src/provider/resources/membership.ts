/**
 * `orgadmin_membership`: one user in one organization, additively (other members are left alone).
 *
 * A refresh is the service's membership check: exactly one request per membership, never a scan
 * of the member list (thousands of per-user resources made the GitHub provider's refresh slow,
 * github#280). A membership removed outside Terraform is dropped from state with a warning so that
 * the next plan adds it back (auth0#405 made users `state rm` by hand).
 */
import { orgAdminUsername } from '../../api/paths';
import { ForbiddenError } from '../../client/errors';
import { callOptions, signalOf, type OrgAdminProviderContext } from '../context';
import { isObjectNotFound, reportError, reportingFor, serviceAnswer } from '../diagnostics';
import { conflictText } from '../member-claims';
import { membershipAfterFailure } from '../outcome';
import type { Diagnostics, ObjectValue, Resource } from '../../tfplugin/framework/types';
import { parseImportId, type ImportIdForm } from '../import-id';
import { planRealm, resourceRealmAttribute, validateRealm } from '../realm';
import { knownString, quote } from '../values';
import { isReplanOf, markPlannedFor, takePlannedFor } from './member-set';

/** The resource's type name. */
export const MEMBERSHIP_RESOURCE_TYPE = 'orgadmin_membership';

/** How a membership is imported (`terraform import`, `import {}` blocks; also `provider::orgadmin::parse_import_id`). */
export const MEMBERSHIP_IMPORT_ID: ImportIdForm = { typeName: MEMBERSHIP_RESOURCE_TYPE, segments: ['ORG', 'USER'], example: '6f1d3c0e-5b0a-4c1e-9d1f-2a7b8c9d0e1f/a2b3c4d5-0000-4000-8000-000000000001' };

/** The id of a membership in state: `ORG/USER`. */
export function membershipId(organizationId: string, userId: string): string {
  return `${organizationId}/${userId}`;
}

interface MembershipKey {
  organizationId: string;
  userId: string;
  realm: string;
}

function keyOf(ctx: OrgAdminProviderContext, state: ObjectValue): MembershipKey {
  return {
    organizationId: knownString(state['organization_id']) ?? '',
    userId: knownString(state['user_id']) ?? '',
    realm: knownString(state['realm']) ?? ctx.realm,
  };
}

function describe(key: MembershipKey): string {
  return `user ${quote(key.userId)} in organization ${quote(key.organizationId)} (realm ${quote(key.realm)})`;
}

function stateOf(key: MembershipKey): ObjectValue {
  return {
    id: membershipId(key.organizationId, key.userId),
    organization_id: key.organizationId,
    user_id: key.userId,
    realm: key.realm,
  };
}

/**
 * After the service answered 404 to an add: finds out whether the organization or the user is
 * missing (one more request, only on this error path) and reports it on that attribute.
 */
async function reportUnknownUserOrOrganization(ctx: OrgAdminProviderContext, key: MembershipKey, diags: Diagnostics): Promise<void> {
  let organizationExists: boolean | undefined;
  try {
    await ctx.client.getOrganization(key.organizationId, { realm: key.realm });
    organizationExists = true;
  } catch (error) {
    if (isObjectNotFound(error)) organizationExists = false;
  }
  if (organizationExists === false) {
    diags.error(
      'Organization not found',
      `Cannot add user ${quote(key.userId)}: there is no organization with id ${quote(key.organizationId)} in realm ${quote(key.realm)} (the service answered HTTP 404). ` +
        'Check `organization_id`; reference the organization resource (`orgadmin_organization.<name>.id`) so that it is created first.',
      ['organization_id'],
    );
  } else if (organizationExists === true) {
    diags.error(
      'User not found',
      `Cannot add user ${quote(key.userId)} to organization ${quote(key.organizationId)}: there is no user with that id in realm ${quote(key.realm)} (the service answered HTTP 404). ` +
        'Check `user_id`: it is the user\'s id, not the username or email (the `orgadmin_user` data source finds the id by username or email).',
      ['user_id'],
    );
  } else {
    diags.error(
      'User or organization not found',
      `Cannot add user ${quote(key.userId)} to organization ${quote(key.organizationId)} in realm ${quote(key.realm)}: the service answered HTTP 404, so the user or the organization does not exist. Check \`user_id\` and \`organization_id\`.`,
      ['user_id'],
    );
  }
}

/**
 * True when a 403 is the service refusing to remove the organization's default admin user (error
 * `forbidden`), as opposed to a missing permission (`insufficient_scope`) or a disabled realm
 * (`access_denied`), which need the general advice of {@link reportError}.
 */
function isDefaultAdminRefusal(error: unknown): error is ForbiddenError {
  return error instanceof ForbiddenError && error.error !== 'insufficient_scope' && error.error !== 'access_denied';
}

/** The `orgadmin_membership` resource. */
export const membershipResource: Resource<OrgAdminProviderContext> = {
  typeName: MEMBERSHIP_RESOURCE_TYPE,
  schema: {
    version: 0,
    description:
      'One user\'s membership in one organization. Additive: other members of the organization are left alone ' +
      '(use `orgadmin_organization_members` to manage the whole member set instead; do not use both for one organization).\n\n' +
      'A membership removed outside Terraform is reported with a warning and added back by the next apply.\n\n' +
      'Import by `ORG/USER` or `REALM/ORG/USER`, e.g. `terraform import orgadmin_membership.example 6f1d…/a2b3…`.',
    attributes: {
      id: {
        type: 'string',
        computed: true,
        useStateForUnknown: true,
        description: 'The membership\'s id: `ORGANIZATION_ID/USER_ID`.',
      },
      organization_id: {
        type: 'string',
        required: true,
        requiresReplace: true,
        description: 'The organization\'s id. Changing it moves the membership: the user is removed from the old organization and added to the new one.',
      },
      user_id: {
        type: 'string',
        required: true,
        requiresReplace: true,
        description: 'The user\'s id (not the username; the `orgadmin_user` data source looks ids up by username or email).',
      },
      realm: resourceRealmAttribute,
    },
  },

  validate(config, diags) {
    for (const name of ['organization_id', 'user_id']) {
      const value = knownString(config[name]);
      if (value !== undefined && value.trim() === '') diags.error(`Invalid ${name}`, `\`${name}\` must not be empty.`, [name]);
      if (value !== undefined && value.includes('/')) {
        diags.error(`Invalid ${name}`, `\`${name}\` ${quote(value)} contains "/", which ids of this service do not.`, [name]);
      }
    }
    validateRealm(config['realm'], diags);
  },

  async modifyPlan(ctx, req, plan, diags) {
    planRealm(ctx, req.config, req.priorState, plan);
    // The id follows from the two ids: show it in the plan when they are known.
    const org = knownString(req.config['organization_id']);
    const user = knownString(req.config['user_id']);
    const realm = knownString(plan.plannedState['realm']);
    if (org === undefined || user === undefined || realm === undefined) return;
    plan.plannedState['id'] = membershipId(org, user);
    const key: MembershipKey = { organizationId: org, userId: user, realm };
    const replan = isReplanOf(plan.private, membershipId(org, user));
    const conflict = replan ? undefined : ctx.claims.plan(realm, org, { kind: 'membership', userId: user }, true);
    if (conflict) {
      const text = conflictText(conflict, `organization ${quote(org)} in realm ${quote(realm)}`, user);
      diags.error(text.summary, text.detail, [conflict === 'two-memberships' ? 'user_id' : 'organization_id']);
      return;
    }
    // The destroy half of a replacement receives this mark and leaves the membership in place.
    markPlannedFor(plan.private, membershipId(org, user));
    // Checked for the plan's reader; the apply process (which plans each create again) skips it.
    if (req.priorState === null && !replan && !ctx.progress.applied) await checkAtPlan(ctx, key, signalOf(req), diags);
  },

  planDestroy(ctx, req, plan, diags) {
    takePlannedFor(plan.private);
    const key = keyOf(ctx, req.priorState);
    const conflict = ctx.claims.plan(key.realm, key.organizationId, { kind: 'membership', userId: key.userId }, false);
    if (conflict) {
      const text = conflictText(conflict, `organization ${quote(key.organizationId)} in realm ${quote(key.realm)}`, key.userId);
      diags.error(text.summary, text.detail);
    }
  },

  async create(ctx, req, diags) {
    const key = keyOf(ctx, req.plannedState);
    takePlannedFor(req.private);
    ctx.claims.noteMembershipApplied(key.realm, key.organizationId, key.userId);
    const options = callOptions(key.realm, signalOf(req));
    try {
      await ctx.client.addMember(key.organizationId, key.userId, options);
    } catch (error) {
      // The add may have happened although its answer was lost: the service knows.
      if ((await membershipAfterFailure(ctx, error, key.organizationId, key.userId, options)) === true) {
        return stateOf(key);
      }
      if (isObjectNotFound(error)) await reportUnknownUserOrOrganization(ctx, key, diags);
      else reportError(diags, error, { action: 'add organization member', target: describe(key), permission: 'manage-organizations' }, reportingFor(ctx, key.realm));
      return null;
    }
    return stateOf(key);
  },

  async read(ctx, req, diags) {
    const key = keyOf(ctx, req.state);
    let member: boolean;
    try {
      member = await ctx.client.isMember(key.organizationId, key.userId, callOptions(key.realm, signalOf(req)));
    } catch (error) {
      reportError(diags, error, { action: 'check organization membership', target: `of ${describe(key)}`, permission: 'view-organizations' }, reportingFor(ctx, key.realm));
      return req.state;
    }
    if (!member) {
      diags.warning(
        'Membership removed outside Terraform',
        `The membership of ${describe(key)} no longer exists (or the user or organization was deleted). It is removed from the state; the next plan adds it again.`,
      );
      return null;
    }
    return stateOf(key);
  },

  async update(_ctx, req) {
    // Every attribute forces replacement, so an update only ever carries the planned state.
    return req.plannedState;
  },

  async delete(ctx, req, diags) {
    const key = keyOf(ctx, req.priorState);
    // The destroy half of a replacement of this same membership (taint, -replace), or the old
    // object after a create_before_destroy replacement: the membership stays.
    if (takePlannedFor(req.private) === membershipId(key.organizationId, key.userId) || ctx.claims.membershipApplied(key.realm, key.organizationId, key.userId)) {
      ctx.logger.info('membership replaced: the member stays', { organizationId: key.organizationId, userId: key.userId });
      return;
    }
    ctx.claims.noteApplied(key.realm, key.organizationId);
    try {
      await ctx.client.removeMember(key.organizationId, key.userId, callOptions(key.realm, signalOf(req)));
    } catch (error) {
      if (isObjectNotFound(error)) return; // not a member any more: the goal of delete
      if (isDefaultAdminRefusal(error)) {
        diags.error(
          'Cannot remove the organization\'s default admin user',
          `Cannot remove user ${quote(key.userId)} from organization ${quote(key.organizationId)}: ${serviceAnswer(error.status, error.error, error.errorDescription)} ` +
            `The organization's default admin user (${orgAdminUsername(key.organizationId)}) stays a member as long as the organization exists. ` +
            'Stop managing this membership with `terraform state rm <address>`, or delete the organization.',
        );
        return;
      }
      reportError(diags, error, { action: 'remove organization member', target: describe(key), permission: 'manage-organizations' }, reportingFor(ctx, key.realm));
    }
  },

  async importState(ctx, req, diags) {
    const parsed = parseImportId(req.id, MEMBERSHIP_IMPORT_ID, diags);
    if (!parsed) return null;
    const key: MembershipKey = { organizationId: parsed.ids[0]!, userId: parsed.ids[1]!, realm: parsed.realm ?? ctx.realm };
    let member: boolean;
    try {
      member = await ctx.client.isMember(key.organizationId, key.userId, callOptions(key.realm, signalOf(req)));
    } catch (error) {
      reportError(diags, error, { action: 'check organization membership', target: `of ${describe(key)}`, permission: 'view-organizations' }, reportingFor(ctx, key.realm));
      return null;
    }
    if (!member) {
      diags.error(
        'Cannot import: not a member',
        `User ${quote(key.userId)} is not a member of organization ${quote(key.organizationId)} in realm ${quote(key.realm)} (or the user or organization does not exist), so there is no membership to import. ` +
          'Check both ids (the user\'s id, not the username), or let Terraform create the membership instead of importing it.',
      );
      return null;
    }
    return stateOf(key);
  },
};

/**
 * Plan-time checks of a new membership, with the rules the apply meets: the organization exists,
 * the user exists and is not the organization's default admin user. A check the credentials
 * cannot make (no `view-users`) is left to the apply.
 */
async function checkAtPlan(ctx: OrgAdminProviderContext, key: MembershipKey, signal: AbortSignal | undefined, diags: Diagnostics): Promise<void> {
  const options = callOptions(key.realm, signal);
  const path = key.realm !== ctx.realm ? ['realm'] : ['organization_id'];
  try {
    if (await ctx.client.isMember(key.organizationId, key.userId, options)) return; // already a member: it exists
    await ctx.client.getOrganization(key.organizationId, options);
  } catch (error) {
    if (isObjectNotFound(error)) {
      diags.error(
        'Organization not found',
        `There is no organization with id ${quote(key.organizationId)} in realm ${quote(key.realm)} (the service answered HTTP 404). ` +
          'Check `organization_id`; reference the organization resource (`orgadmin_organization.<name>.id`) so that it is created first.',
        ['organization_id'],
      );
    } else {
      reportError(diags, error, { action: 'check organization membership', target: `of ${describe(key)}`, permission: 'view-organizations', path }, reportingFor(ctx, key.realm));
    }
    return;
  }
  let user: Awaited<ReturnType<typeof ctx.users.find>>;
  try {
    user = await ctx.users.find(key.realm, { ids: [key.userId] }, signal);
  } catch (error) {
    ctx.logger.debug('could not look the user up at plan; the apply will tell', { realm: key.realm, error: String(error) });
    return;
  }
  const found = user.byId.get(key.userId);
  if (found === null) {
    diags.error(
      'User not found',
      `Realm ${quote(key.realm)} has no user with the id ${quote(key.userId)}. \`user_id\` is the user's id, not the username or email ` +
        '(the `orgadmin_user` and `orgadmin_users` data sources find ids by username or email).',
      ['user_id'],
    );
  } else if (found !== undefined && found.username === orgAdminUsername(key.organizationId)) {
    diags.error(
      'Default admin user',
      `User ${quote(key.userId)} is the default admin user (${found.username}) of organization ${quote(key.organizationId)}: it is always a member, and removing it is refused. Do not manage it with a membership.`,
      ['user_id'],
    );
  }
}
