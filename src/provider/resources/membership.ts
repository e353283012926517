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
import { membershipAfterFailure } from '../outcome';
import type { Diagnostics, ObjectValue, Resource } from '../../tfplugin/framework/types';
import { parseImportId, type ImportIdForm } from '../import-id';
import { planRealm, resourceRealmAttribute, validateRealm } from '../realm';
import { knownString, quote } from '../values';

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

  modifyPlan(ctx, req, plan) {
    planRealm(ctx, req.config, req.priorState, plan);
    // The id follows from the two ids: show it in the plan when they are known.
    const org = knownString(req.config['organization_id']);
    const user = knownString(req.config['user_id']);
    if (org !== undefined && user !== undefined) plan.plannedState['id'] = membershipId(org, user);
  },

  async create(ctx, req, diags) {
    const key = keyOf(ctx, req.plannedState);
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
    return stateOf({ organizationId: parsed.ids[0]!, userId: parsed.ids[1]!, realm: parsed.realm ?? ctx.realm });
  },
};
