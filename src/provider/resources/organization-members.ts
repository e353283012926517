/**
 * `orgadmin_organization_members`: the whole member set of one organization, authoritatively.
 *
 * What other providers got wrong, and what this one does instead:
 * - the live member list is read to the last page (auth0#925, github#1847 read only the first);
 * - one apply sends every add and every remove, whatever fails (the Auth0 resource returned early
 *   after its removals, so adds waited for the next apply), and reports every failure together;
 * - the organization's default admin user (`org-admin-<orgId>`) is never listed, counted as drift
 *   or removed (the service refuses with 403); listing it in `user_ids` is refused at apply time,
 *   since it would otherwise show as a change on every plan;
 * - removing a member only ends the membership, never deletes the user (keycloak PR #1656);
 * - `user_ids` is a list that the provider treats as a set (../id-list.ts): Terraform checks sets
 *   in quadratic time, lists in linear time, and member sets run to thousands of ids.
 */
import type { Member } from '../../api';
import { orgAdminUsername } from '../../api/paths';
import { MAX_NAME_LENGTH } from '../../api/validation';
import { callOptions, signalOf, type OrgAdminProviderContext } from '../context';
import { describeError, isObjectNotFound, reportError, reportingFor } from '../diagnostics';
import { membershipAfterFailure } from '../outcome';
import type { AttributeSchema, Diagnostics, ObjectValue, Resource, Schema } from '../../tfplugin/framework/types';
import { checkNoRepeatedIds, inOrderOf, plannedIdList } from '../id-list';
import { parseImportId, type ImportIdForm } from '../import-id';
import { planRealm, resourceRealmAttribute, validateRealm } from '../realm';
import { knownString, knownStringList, quote } from '../values';

/** The resource's type name. */
export const ORGANIZATION_MEMBERS_RESOURCE_TYPE = 'orgadmin_organization_members';

/** How a member set is imported (`terraform import`, `import {}` blocks; also `provider::orgadmin::parse_import_id`). */
export const ORGANIZATION_MEMBERS_IMPORT_ID: ImportIdForm = { typeName: ORGANIZATION_MEMBERS_RESOURCE_TYPE, segments: ['ORG'], example: '6f1d3c0e-5b0a-4c1e-9d1f-2a7b8c9d0e1f' };

/** How many adds or removes run at once: fast for large sets, gentle on the service. */
const CONCURRENCY = 4;

/** Longest list of ids written into one diagnostic before it says "and N more". */
const MAX_LISTED = 50;

/** Lists ids for a diagnostic: `"a", "b" and 3 more`. */
export function listIds(ids: readonly string[]): string {
  const shown = ids.slice(0, MAX_LISTED).map(quote).join(', ');
  return ids.length > MAX_LISTED ? `${shown} and ${ids.length - MAX_LISTED} more` : shown;
}

/** True when `member` is the organization's default admin user, which Terraform never manages. */
export function isDefaultAdmin(member: Pick<Member, 'username'>, organizationId: string): boolean {
  return member.username === orgAdminUsername(organizationId);
}

/**
 * The organization's members that Terraform manages: every page, admin accounts excluded by the
 * service and, to be sure, the default admin user excluded by username as well. Pages are as large
 * as the service allows: a member set of 10,000 is 10 requests instead of 100.
 */
export async function listManagedMembers(
  ctx: OrgAdminProviderContext,
  organizationId: string,
  realm: string,
  signal?: AbortSignal,
): Promise<Member[]> {
  const members = await ctx.client.listAllMembers(
    organizationId,
    { excludeAdminAccounts: true, pageSize: largestMembersPage() },
    callOptions(realm, signal),
  );
  return members.filter((member) => !isDefaultAdmin(member, organizationId));
}

/**
 * The largest page of members the service serves. Read when listing, not imported: its module holds
 * the wire schemas, which only the SDK needs, and the provider processes that only answer schema
 * and validation calls (two of Terraform's three per command) never load the SDK.
 */
function largestMembersPage(): number {
  return (require('../../api/representations') as typeof import('../../api/representations')).MEMBERS_PAGE.cap;
}

/** Username prefix of the service's admin accounts, which `excludeAdminAccounts` leaves out. */
const ADMIN_USERNAME_PREFIX = 'org-admin-';

/**
 * Which of `candidates` (ids about to be added, so absent from the managed member list) are admin
 * accounts that are already members: the member list Terraform reads hides them, so listed in
 * `user_ids` they would show as a change on every plan. One search by username prefix, run only
 * when there is something to add; it needs no other permission than the member list itself.
 */
async function listedAdminAccounts(ctx: OrgAdminProviderContext, target: Target, candidates: readonly string[]): Promise<Member[]> {
  if (candidates.length === 0) return [];
  const wanted = new Set(candidates);
  const admins = await ctx.client.listAllMembers(
    target.organizationId,
    { search: ADMIN_USERNAME_PREFIX, pageSize: largestMembersPage() },
    callOptions(target.realm, target.signal),
  );
  return admins.filter((member) => member.username.startsWith(ADMIN_USERNAME_PREFIX) && wanted.has(member.id));
}

/**
 * Refuses, before any change, a `user_ids` that lists admin accounts (the organization's default
 * admin user above all). Returns false, with an error on `user_ids`, when the apply must stop.
 */
async function checkNoAdminAccounts(ctx: OrgAdminProviderContext, target: Target, toAdd: readonly string[], diags: Diagnostics): Promise<boolean> {
  let listed: Member[];
  try {
    listed = await listedAdminAccounts(ctx, target, toAdd);
  } catch (error) {
    reportError(diags, error, { action: 'list organization members', target: `of organization ${quote(target.organizationId)} in realm ${quote(target.realm)}`, permission: 'view-organizations' }, reportingFor(ctx, target.realm));
    return false;
  }
  if (listed.length === 0) return true;
  const defaultAdmin = listed.find((member) => isDefaultAdmin(member, target.organizationId));
  const others = listed.filter((member) => member !== defaultAdmin).map((member) => member.id).sort();
  const where = `organization ${quote(target.organizationId)} in realm ${quote(target.realm)}`;
  const parts: string[] = [];
  if (defaultAdmin) {
    parts.push(
      `\`user_ids\` lists ${quote(defaultAdmin.id)}, the default admin user of ${where} (username ${quote(defaultAdmin.username)}). ` +
        'The default admin user is always a member and this resource never manages it, so it must not be listed: remove it from `user_ids`.',
    );
  }
  if (others.length > 0) {
    parts.push(
      `\`user_ids\` lists admin accounts of other organizations that are already members of ${where}: ${listIds(others)}. ` +
        'The service leaves admin accounts out of member lists, so this resource cannot manage them: remove them from `user_ids`.',
    );
  }
  parts.push('Listed, they would show as a change on every plan. Nothing was changed.');
  diags.error(defaultAdmin ? 'Default admin user listed in user_ids' : 'Admin accounts listed in user_ids', parts.join('\n\n'), ['user_ids']);
  return false;
}

/** Runs `task` for every item, at most {@link CONCURRENCY} at a time; never stops early. */
async function forEachConcurrently<T>(items: readonly T[], task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next]!;
      next += 1;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
}

interface Target {
  organizationId: string;
  realm: string;
  /** The Terraform request's cancellation. */
  signal?: AbortSignal;
}

/** What one batch of adds and removes achieved. */
interface ApplyOutcome {
  added: string[];
  removed: string[];
}

/**
 * Adds `toAdd` and removes `toRemove`, all of them, and reports every failure: one diagnostic for
 * users the service does not know, one per distinct other error (naming every id it hit).
 */
async function applyChanges(
  ctx: OrgAdminProviderContext,
  target: Target,
  toAdd: readonly string[],
  toRemove: readonly string[],
  diags: Diagnostics,
): Promise<ApplyOutcome> {
  const outcome: ApplyOutcome = { added: [], removed: [] };
  // Every change is checked before the first is sent: a malformed id stops the whole batch.
  const malformed = [...toAdd, ...toRemove].filter((id) => id.trim() === '' || id.length > MAX_NAME_LENGTH);
  if (malformed.length > 0) {
    diags.error(
      'Invalid user ids',
      `\`user_ids\` holds ids that no user can have: ${listIds(malformed)} (empty, or longer than ${MAX_NAME_LENGTH} characters). Nothing was changed.`,
      ['user_ids'],
    );
    return outcome;
  }
  const unknownUsers: string[] = [];
  const failures = new Map<string, { summary: string; detail: string; ids: string[] }>();
  const env = reportingFor(ctx, target.realm);
  const where = `organization ${quote(target.organizationId)} in realm ${quote(target.realm)}`;
  const recordFailure = (error: unknown, action: string, preposition: string, userId: string): void => {
    const text = describeError(error, { action, target: `${preposition} ${where}`, permission: 'manage-organizations' }, env);
    const key = `${text.summary}\n${text.detail}`;
    const entry = failures.get(key) ?? { ...text, ids: [] };
    entry.ids.push(userId);
    failures.set(key, entry);
  };

  const options = callOptions(target.realm, target.signal);
  // A change whose answer was lost may have happened: the service is asked before reporting it.
  const settled = (error: unknown, userId: string): Promise<boolean | undefined> =>
    membershipAfterFailure(ctx, error, target.organizationId, userId, options);
  await forEachConcurrently(toAdd, async (userId) => {
    try {
      await ctx.client.addMember(target.organizationId, userId, options);
      outcome.added.push(userId);
    } catch (error) {
      if (isObjectNotFound(error)) unknownUsers.push(userId);
      else if ((await settled(error, userId)) === true) outcome.added.push(userId);
      else recordFailure(error, 'add organization members', 'to', userId);
    }
  });
  await forEachConcurrently(toRemove, async (userId) => {
    try {
      await ctx.client.removeMember(target.organizationId, userId, options);
      outcome.removed.push(userId);
    } catch (error) {
      // Not a member any more: that is what the removal wanted.
      if (isObjectNotFound(error) || (await settled(error, userId)) === false) outcome.removed.push(userId);
      else recordFailure(error, 'remove organization members', 'from', userId);
    }
  });

  if (unknownUsers.length > 0) {
    unknownUsers.sort();
    diags.error(
      'Users not found',
      `Could not add ${unknownUsers.length} user${unknownUsers.length === 1 ? '' : 's'} to ${where}: the service answered HTTP 404 for ${listIds(unknownUsers)}. ` +
        'No user has that id in the realm (or the organization was deleted meanwhile). Fix `user_ids`: they are user ids, not usernames or emails ' +
        '(the `orgadmin_user` data source finds an id by username or email). Every other change was applied.',
      ['user_ids'],
    );
  }
  for (const failure of failures.values()) {
    failure.ids.sort();
    diags.error(failure.summary, `${failure.detail}\n\nUser ids affected: ${listIds(failure.ids)}.`, ['user_ids']);
  }
  return outcome;
}

function targetOf(ctx: OrgAdminProviderContext, state: ObjectValue, req: object): Target {
  const signal = signalOf(req);
  return {
    organizationId: knownString(state['organization_id']) ?? knownString(state['id']) ?? '',
    realm: knownString(state['realm']) ?? ctx.realm,
    ...(signal ? { signal } : {}),
  };
}

/**
 * The state for the members `userIds`, listed in the order of `order` (the prior state or the
 * plan; see ../id-list.ts), so that the same members in another order are no change.
 */
function stateOf(target: Target, userIds: Iterable<string>, order: readonly string[] | undefined): ObjectValue {
  return {
    id: target.organizationId,
    organization_id: target.organizationId,
    user_ids: inOrderOf(order, userIds),
    realm: target.realm,
  };
}

/** Lists the managed members; reports an error (on `organization_id` when the organization is missing). */
async function liveMemberIds(ctx: OrgAdminProviderContext, target: Target, action: string, diags: Diagnostics): Promise<string[] | undefined> {
  try {
    return (await listManagedMembers(ctx, target.organizationId, target.realm, target.signal)).map((member) => member.id);
  } catch (error) {
    if (isObjectNotFound(error)) {
      diags.error(
        'Organization not found',
        `Cannot ${action}: there is no organization with id ${quote(target.organizationId)} in realm ${quote(target.realm)} (the service answered HTTP 404). Check \`organization_id\`.`,
        ['organization_id'],
      );
    } else {
      reportError(diags, error, { action: 'list organization members', target: `of organization ${quote(target.organizationId)} in realm ${quote(target.realm)}`, permission: 'view-organizations' }, reportingFor(ctx, target.realm));
    }
    return undefined;
  }
}

/** `user_ids` as of schema version 1: a list, treated as a set by the provider. */
const USER_IDS: AttributeSchema = {
  type: ['list', 'string'],
  required: true,
  description:
    'The ids of every user that must be a member. Users are added and removed to match. The order does not matter: ' +
    'the same ids in another order are no change, in the configuration and in the service. Each id may be listed ' +
    'once; a repeat is an error. Do not list the organization\'s default admin user (`org-admin-<organization id>`): ' +
    'it is always a member, and an apply that lists it fails without changing anything.',
};

/** The resource's schema. */
const SCHEMA: Schema = {
  // Version 1: `user_ids` became a list (it was a set in version 0).
  version: 1,
  description:
    'The complete member set of one organization, authoritatively: members not in `user_ids` are removed, and members ' +
    'added outside Terraform show as drift. The organization\'s default admin user (`org-admin-<organization id>`) is ' +
    'never listed, removed or reported. Every page of members is read, and every add and remove of an apply is sent ' +
    'even when some fail.\n\n' +
    'Creating this resource for an organization that already has members outside `user_ids` fails (rather than ' +
    'silently removing them): add them to `user_ids`, or import the resource first. Destroying it removes only the ' +
    'members listed in `user_ids`; users themselves are never deleted. To stop managing the member set without removing ' +
    'anyone, forget the resource instead of destroying it (`terraform state rm`, or a `removed` block with `destroy = false`).\n\n' +
    'Made for large organizations: refreshes, plans without a change and applies grow linearly with the number of ids. ' +
    'A plan that changes a long list costs Terraform more: it displays the change by comparing the old and the new list ' +
    'element against element (with 10,000 ids, tens of seconds and about 1 GB of memory in Terraform).\n\n' +
    'Do not combine with `orgadmin_membership` for the same organization.\n\n' +
    'Import by `ORG` or `REALM/ORG`, e.g. `terraform import orgadmin_organization_members.example 6f1d3c0e-…`.',
  attributes: {
    id: {
      type: 'string',
      computed: true,
      useStateForUnknown: true,
      description: 'The organization\'s id (the same as `organization_id`).',
    },
    organization_id: {
      type: 'string',
      required: true,
      requiresReplace: true,
      description: 'The organization whose members this resource manages.',
    },
    user_ids: USER_IDS,
    realm: resourceRealmAttribute,
  },
};

/**
 * Schema version 0, where `user_ids` was a set. Its states hold the ids sorted (Terraform's order
 * for a set of strings); upgraded, they are the same ids as a sorted list, which the next plan
 * compares with the configuration as ids, so no change is planned.
 */
const SCHEMA_V0: Schema = {
  ...SCHEMA,
  version: 0,
  attributes: { ...SCHEMA.attributes, user_ids: { ...USER_IDS, type: ['set', 'string'] } },
};

/** The `orgadmin_organization_members` resource. */
export const organizationMembersResource: Resource<OrgAdminProviderContext> = {
  typeName: ORGANIZATION_MEMBERS_RESOURCE_TYPE,
  schema: SCHEMA,
  stateUpgrades: {
    0: {
      priorSchema: SCHEMA_V0,
      upgrade: (prior) => ({ ...prior, user_ids: Array.isArray(prior['user_ids']) ? inOrderOf(undefined, knownStringList(prior['user_ids']) ?? []) : null }),
    },
  },

  validate(config, diags) {
    const org = knownString(config['organization_id']);
    if (org !== undefined && org.trim() === '') diags.error('Invalid organization_id', '`organization_id` must not be empty.', ['organization_id']);
    const userIds = config['user_ids'];
    if (Array.isArray(userIds)) {
      const empty = userIds.filter((id) => typeof id === 'string' && id.trim() === '').length;
      if (empty > 0) diags.error('Invalid user id', '`user_ids` holds an empty id; every element must be a user id.', ['user_ids']);
    }
    checkNoRepeatedIds('user_ids', userIds, diags);
    validateRealm(config['realm'], diags);
  },

  modifyPlan(ctx, req, plan) {
    planRealm(ctx, req.config, req.priorState, plan);
    const org = knownString(req.config['organization_id']);
    if (org !== undefined) plan.plannedState['id'] = org;
    // The same ids in another order are no change (see ../id-list.ts).
    const userIds = plannedIdList(req.config['user_ids'], req.priorState?.['user_ids']);
    if (userIds !== undefined) plan.plannedState['user_ids'] = userIds;
  },

  async create(ctx, req, diags) {
    const target = targetOf(ctx, req.plannedState, req);
    const planned = knownStringList(req.plannedState['user_ids']) ?? [];
    const desired = new Set(planned);
    const live = await liveMemberIds(ctx, target, 'manage its members', diags);
    if (live === undefined) return null;
    const outside = live.filter((id) => !desired.has(id));
    if (outside.length > 0) {
      diags.error(
        'Organization has members outside user_ids',
        `Organization ${quote(target.organizationId)} in realm ${quote(target.realm)} already has ${outside.length} member${outside.length === 1 ? '' : 's'} that \`user_ids\` does not list: ${listIds(outside)}. ` +
          'This resource is authoritative and would remove them, so nothing was changed. Either add them to `user_ids`, or import the current member set first and then edit it:\n\n' +
          `  terraform import ${ORGANIZATION_MEMBERS_RESOURCE_TYPE}.<name> ${target.organizationId}\n\n` +
          `or with an import block:\n\n  import {\n    to = ${ORGANIZATION_MEMBERS_RESOURCE_TYPE}.<name>\n    id = "${target.organizationId}"\n  }`,
        ['user_ids'],
      );
      return null;
    }
    const liveSet = new Set(live);
    const toAdd = [...desired].filter((id) => !liveSet.has(id));
    if (!(await checkNoAdminAccounts(ctx, target, toAdd, diags))) return null;
    const outcome = await applyChanges(ctx, target, toAdd, [], diags);
    // Nothing half-applied is forgotten: when some adds failed, the state records the members that
    // are there now (Terraform keeps it, marked tainted, and the next apply finishes the set).
    // Members that were already in `user_ids` before (an earlier interrupted apply) count as done.
    if (diags.hasErrors() && outcome.added.length === 0) return null;
    return stateOf(target, [...live, ...outcome.added], planned);
  },

  async read(ctx, req, diags) {
    const target = targetOf(ctx, req.state, req);
    try {
      const members = await listManagedMembers(ctx, target.organizationId, target.realm, target.signal);
      return stateOf(
        target,
        members.map((member) => member.id),
        knownStringList(req.state['user_ids']),
      );
    } catch (error) {
      if (isObjectNotFound(error)) {
        diags.warning(
          'Organization removed outside Terraform',
          `Organization ${quote(target.organizationId)} in realm ${quote(target.realm)} no longer exists, so its member set is removed from the state.`,
        );
        return null;
      }
      reportError(diags, error, { action: 'list organization members', target: `of organization ${quote(target.organizationId)} in realm ${quote(target.realm)}`, permission: 'view-organizations' }, reportingFor(ctx, target.realm));
      return req.state;
    }
  },

  async update(ctx, req, diags) {
    const target = targetOf(ctx, req.priorState, req);
    const planned = knownStringList(req.plannedState['user_ids']) ?? [];
    const desired = new Set(planned);
    // The difference is taken against the live list, not the prior state: members changed since
    // the refresh are still brought to the configured set.
    const live = await liveMemberIds(ctx, target, 'update its members', diags);
    if (live === undefined) return null;
    const liveSet = new Set(live);
    const toAdd = [...desired].filter((id) => !liveSet.has(id));
    const toRemove = live.filter((id) => !desired.has(id));
    if (!(await checkNoAdminAccounts(ctx, target, toAdd, diags))) return null;
    ctx.logger.debug('updating organization members', { organizationId: target.organizationId, add: toAdd.length, remove: toRemove.length });
    const outcome = await applyChanges(ctx, target, toAdd, toRemove, diags);
    const removed = new Set(outcome.removed);
    // The state records what is true now, also after partial failures, so the next plan retries
    // exactly what is still missing.
    return stateOf(target, [...live.filter((id) => !removed.has(id)), ...outcome.added], planned);
  },

  async delete(ctx, req, diags) {
    const target = targetOf(ctx, req.priorState, req);
    const listed = knownStringList(req.priorState['user_ids']) ?? [];
    await applyChanges(ctx, target, [], listed, diags);
  },

  async importState(ctx, req, diags) {
    const parsed = parseImportId(req.id, ORGANIZATION_MEMBERS_IMPORT_ID, diags);
    if (!parsed) return null;
    return { id: parsed.ids[0]!, organization_id: parsed.ids[0]!, user_ids: null, realm: parsed.realm ?? ctx.realm };
  },
};
