/**
 * `orgadmin_organization_members`: the whole member set of one organization, authoritatively.
 *
 * What other providers got wrong, and what this one does instead:
 * - the live member list is read to the last page (auth0#925, github#1847 read only the first);
 * - one apply sends every add and every remove, whatever fails (the Auth0 resource returned early
 *   after its removals, so adds waited for the next apply), and reports every failure together;
 * - the organization's default admin user (`org-admin-<orgId>`) is never listed, counted as drift
 *   or removed (the service refuses with 403); listing it is refused at plan;
 * - removing a member only ends the membership, never deletes the user (keycloak PR #1656);
 * - mixing it with memberships, or moving it between addresses, never removes members the
 *   configuration keeps (../member-claims.ts), and a replacement never removes its own members;
 * - destroying it removes only the members its configuration listed (./member-set.ts).
 */
import type { Member } from '../../api';
import { orgAdminUsername } from '../../api/paths';
import { MAX_NAME_LENGTH, ORG_ADMIN_USERNAME_PREFIX, textProblem } from '../../api/validation';
import { HttpError } from '../../client/errors';
import { callOptions, signalOf, type OrgAdminProviderContext } from '../context';
import { describeError, isObjectNotFound, reportError, reportingFor } from '../diagnostics';
import { conflictText } from '../member-claims';
import { membershipAfterFailure } from '../outcome';
import type { AttributeSchema, Diagnostics, ObjectValue, PrivateData, Resource, Schema } from '../../tfplugin/framework/types';
import { containsUnknown } from '../../tfplugin/protocol/unknown';
import { forEachConcurrently } from '../concurrency';
import { checkNoRepeatedIds, plannedIdList } from '../id-list';
import { parseImportId, type ImportIdForm } from '../import-id';
import { planRealm, resourceRealmAttribute, validateRealm } from '../realm';
import { nameKey } from '../user-directory';
import { knownString, knownStringList, quote } from '../values';
import { importCommands } from '../import-advice';
import {
  isReplanOf,
  markImported,
  markPlannedFor,
  memberNamesOf,
  NAMING_ATTRIBUTES,
  namedMemberIds,
  outsideIds,
  placeMembers,
  sameNames,
  setOutsideIds,
  takeImported,
  takePlannedFor,
  type MemberNames,
  type NamingAttribute,
} from './member-set';

/** The resource's type name. */
export const ORGANIZATION_MEMBERS_RESOURCE_TYPE = 'orgadmin_organization_members';

/**
 * How a member set is imported (`terraform import`, `import {}` blocks; also
 * `provider::orgadmin::parse_import_id`). An optional ending `?by=usernames` or `?by=emails` says
 * how the imported members are named.
 */
export const ORGANIZATION_MEMBERS_IMPORT_ID: ImportIdForm = { typeName: ORGANIZATION_MEMBERS_RESOURCE_TYPE, segments: ['ORG'], example: '6f1d3c0e-5b0a-4c1e-9d1f-2a7b8c9d0e1f' };

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
  const managed = members.filter((member) => !isDefaultAdmin(member, organizationId));
  ctx.users.remember(realm, managed);
  return managed;
}

/**
 * The largest page of members the service serves. Read when listing, not imported: its module holds
 * the wire schemas, which only the SDK needs, and the provider processes that only answer schema
 * and validation calls (two of Terraform's three per command) never load the SDK.
 */
function largestMembersPage(): number {
  return (require('../../api/representations') as typeof import('../../api/representations')).MEMBERS_PAGE.cap;
}


interface Target {
  organizationId: string;
  realm: string;
  /** The Terraform request's cancellation. */
  signal?: AbortSignal;
}

function where(target: Target): string {
  return `organization ${quote(target.organizationId)} in realm ${quote(target.realm)}`;
}

function cacheKey(target: Target): string {
  return `${target.realm}\u0000${target.organizationId}`;
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
  const unknownUsers: string[] = [];
  const failures = new Map<string, { summary: string; detail: string; ids: string[] }>();
  const env = reportingFor(ctx, target.realm);
  const recordFailure = (error: unknown, action: string, preposition: string, userId: string): void => {
    // One diagnostic per kind of failure (its details differ only in the request's path): the first one's text, every id.
    const key = `${action}\n${failureKind(error)}`;
    const entry = failures.get(key) ?? { ...describeError(error, { action, target: `${preposition} ${where(target)}`, permission: 'manage-organizations' }, env), ids: [] };
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
      `Could not add ${unknownUsers.length} user${unknownUsers.length === 1 ? '' : 's'} to ${where(target)}: the service answered HTTP 404 for ${listIds(unknownUsers)}. ` +
        'No user has that id in the realm (or the organization was deleted meanwhile). Every other change was applied.',
      ['user_ids'],
    );
  }
  for (const failure of failures.values()) {
    failure.ids.sort();
    diags.error(failure.summary, `${failure.detail}\n\nUser ids affected: ${listIds(failure.ids)}.`, ['user_ids']);
  }
  return outcome;
}

/** What makes two failures the same for reporting: the error's class, and its HTTP status and code. */
function failureKind(error: unknown): string {
  if (error instanceof HttpError) return `${error.name} ${error.status} ${error.error ?? ''}`;
  return error instanceof Error ? error.name : typeof error;
}

function targetOf(ctx: OrgAdminProviderContext, state: ObjectValue, req: object): Target {
  const signal = signalOf(req);
  return {
    organizationId: knownString(state['organization_id']) ?? knownString(state['id']) ?? '',
    realm: knownString(state['realm']) ?? ctx.realm,
    ...(signal ? { signal } : {}),
  };
}

function stateOf(target: Target, names: MemberNames): ObjectValue {
  return { id: target.organizationId, organization_id: target.organizationId, realm: target.realm, ...names };
}

/** Lists the managed members; reports an error (on `organization_id` when the organization is missing). */
async function liveMembers(ctx: OrgAdminProviderContext, target: Target, action: string, diags: Diagnostics): Promise<Member[] | undefined> {
  try {
    return await listManagedMembers(ctx, target.organizationId, target.realm, target.signal);
  } catch (error) {
    if (isObjectNotFound(error)) {
      diags.error(
        'Organization not found',
        `Cannot ${action}: there is no organization with id ${quote(target.organizationId)} in realm ${quote(target.realm)} (the service answered HTTP 404). Check \`organization_id\`.`,
        ['organization_id'],
      );
    } else {
      reportError(diags, error, { action: 'list organization members', target: `of ${where(target)}`, permission: 'view-organizations', path: realmPath(ctx, target) }, reportingFor(ctx, target.realm));
    }
    return undefined;
  }
}

/** Errors of a realm other than the provider's point at `realm` (the key cannot reach it), else at the organization. */
function realmPath(ctx: OrgAdminProviderContext, target: Target): string[] {
  return target.realm !== ctx.realm ? ['realm'] : ['organization_id'];
}

/**
 * Turns the planned names into user ids, against the live members first and the realm's users
 * for the rest. Reports every problem on its attribute: unknown users, admin accounts, an email of
 * several users, a user listed twice. Undefined when a problem was reported.
 *
 * Without the `view-users` permission, users outside the organization cannot be looked up: names
 * are then an error (they cannot be resolved at all), ids are left for the service to judge.
 */
async function resolveDesired(
  ctx: OrgAdminProviderContext,
  target: Target,
  names: MemberNames,
  live: readonly Member[],
  diags: Diagnostics,
): Promise<Set<string> | undefined> {
  const liveIds = new Set(live.map((member) => member.id));
  const liveByUsername = new Map(live.map((member) => [nameKey(member.username), member]));
  const liveByEmail = new Map<string, Member[]>();
  for (const member of live) {
    if (!member.email) continue;
    const key = nameKey(member.email);
    liveByEmail.set(key, [...(liveByEmail.get(key) ?? []), member]);
  }
  const ids = names.user_ids ?? [];
  const usernames = names.usernames ?? [];
  const emails = names.emails ?? [];
  const defaultAdmin = orgAdminUsername(target.organizationId);
  let failed = false;
  const problems = {
    error(summary: string, detail: string, path: Array<string | number>): void {
      failed = true;
      diags.error(summary, detail, path);
    },
  };

  for (const username of usernames) {
    if (nameKey(username).startsWith(ORG_ADMIN_USERNAME_PREFIX)) {
      problems.error(
        nameKey(username) === nameKey(defaultAdmin) ? 'Default admin user listed' : 'Admin account listed',
        `\`usernames\` lists ${quote(username)}, ${nameKey(username) === nameKey(defaultAdmin) ? `the default admin user of ${where(target)}, which` : 'an organization\'s admin account, which'} ` +
          'is always a member of its organization and never managed by this resource. Remove it from `usernames`.',
        ['usernames'],
      );
    }
  }

  // Ids no user can have (the configuration's validation refuses them too) are never sent.
  const malformed = ids.filter((id) => id.trim() === '' || id.length > MAX_NAME_LENGTH);
  if (malformed.length > 0) {
    problems.error(
      'Invalid user ids',
      `\`user_ids\` holds ids that no user can have: ${listIds(malformed)} (empty, or longer than ${MAX_NAME_LENGTH} characters). Nothing was changed.`,
      ['user_ids'],
    );
    return undefined;
  }

  const lookupIds = ids.filter((id) => !liveIds.has(id));
  const lookupUsernames = usernames.filter((name) => !liveByUsername.has(nameKey(name)) && !nameKey(name).startsWith(ORG_ADMIN_USERNAME_PREFIX));
  const lookupEmails = emails.filter((email) => !liveByEmail.has(nameKey(email)));
  let found: Awaited<ReturnType<typeof ctx.users.find>> | undefined;
  if (lookupIds.length + lookupUsernames.length + lookupEmails.length > 0) {
    try {
      found = await ctx.users.find(target.realm, { ids: lookupIds, usernames: lookupUsernames, emails: lookupEmails }, target.signal);
    } catch (error) {
      if (lookupUsernames.length + lookupEmails.length > 0) {
        const attribute = lookupUsernames.length > 0 ? 'usernames' : 'emails';
        reportError(
          diags,
          error,
          { action: 'look up users', target: `named in \`${attribute}\` in realm ${quote(target.realm)}`, permission: 'view-users', path: [attribute] },
          reportingFor(ctx, target.realm),
        );
        return undefined;
      }
      ctx.logger.debug('could not look up user ids; the service will judge them', { realm: target.realm, error: String(error) });
    }
  }

  // Where each user was named, to refuse a user named twice.
  const namedAt = new Map<string, string>();
  const desired = new Set<string>();
  const name = (userId: string, as: string, attribute: NamingAttribute): void => {
    const earlier = namedAt.get(userId);
    if (earlier !== undefined) {
      problems.error(
        'User listed twice',
        `${as} and ${earlier} name the same user (id ${quote(userId)}). List each member once.`,
        [attribute],
      );
      return;
    }
    namedAt.set(userId, as);
    desired.add(userId);
  };

  const unknownIds: string[] = [];
  const adminIds: string[] = [];
  ids.forEach((id) => {
    if (liveIds.has(id)) return name(id, `\`user_ids\` element ${quote(id)}`, 'user_ids');
    const user = found?.byId.get(id);
    if (user === null) unknownIds.push(id);
    else if (user !== undefined && user.username.startsWith(ORG_ADMIN_USERNAME_PREFIX)) adminIds.push(id);
    else name(id, `\`user_ids\` element ${quote(id)}`, 'user_ids');
  });
  if (unknownIds.length > 0) {
    problems.error(
      'Users not found',
      `\`user_ids\` lists ${listIds(unknownIds)}, but realm ${quote(target.realm)} has no user with ${unknownIds.length === 1 ? 'that id' : 'those ids'}. ` +
        '`user_ids` holds user ids (not usernames or emails: use `usernames` or `emails` for those).',
      ['user_ids'],
    );
  }
  if (adminIds.length > 0) {
    const ownAdmin = adminIds.find((id) => found?.byId.get(id)?.username === defaultAdmin);
    problems.error(
      ownAdmin !== undefined ? 'Default admin user listed' : 'Admin account listed',
      (ownAdmin !== undefined ? `\`user_ids\` lists ${quote(ownAdmin)}, the default admin user of ${where(target)} (username ${quote(defaultAdmin)}). ` : '') +
        `\`user_ids\` lists admin accounts of organizations: ${listIds(adminIds)}. An admin account is always a member of its organization ` +
        'and this resource never manages it (member lists leave admin accounts out), so listed it would show as a change on every plan: remove it. Nothing was changed.',
      ['user_ids'],
    );
  }

  const unknownUsernames: string[] = [];
  for (const username of usernames) {
    if (nameKey(username).startsWith(ORG_ADMIN_USERNAME_PREFIX)) continue;
    const user = liveByUsername.get(nameKey(username)) ?? found?.byUsername.get(nameKey(username));
    if (user === null || user === undefined) unknownUsernames.push(username);
    else name(user.id, `\`usernames\` element ${quote(username)}`, 'usernames');
  }
  if (unknownUsernames.length > 0) {
    problems.error('Users not found', `No user of realm ${quote(target.realm)} has the username ${listIds(unknownUsernames.sort())}.`, ['usernames']);
  }

  const unknownEmails: string[] = [];
  for (const email of emails) {
    const users = liveByEmail.get(nameKey(email)) ?? found?.byEmail.get(nameKey(email)) ?? [];
    if (users.length === 0) unknownEmails.push(email);
    else if (users.length > 1) {
      problems.error(
        'Email of several users',
        `The email ${quote(email)} belongs to ${users.length} users of realm ${quote(target.realm)} (${users.map((u) => quote(u.username)).join(', ')}): name them in \`usernames\` instead.`,
        ['emails'],
      );
    } else if (users[0]!.username.startsWith(ORG_ADMIN_USERNAME_PREFIX)) {
      problems.error('Admin account listed', `\`emails\` lists ${quote(email)}, the email of the admin account ${quote(users[0]!.username)}, which this resource never manages. Remove it.`, ['emails']);
    } else name(users[0]!.id, `\`emails\` element ${quote(email)}`, 'emails');
  }
  if (unknownEmails.length > 0) {
    problems.error('Users not found', `No user of realm ${quote(target.realm)} has the email ${listIds(unknownEmails.sort())}.`, ['emails']);
  }
  return failed ? undefined : desired;
}

/** The error when a new member set would take over members its configuration does not list. */
function reportOutsideMembers(target: Target, outside: readonly Member[], diags: Diagnostics): void {
  const shown = outside.map((member) => member.username).sort();
  diags.error(
    'Organization has members the configuration does not list',
    `${where(target)} already has ${outside.length} member${outside.length === 1 ? '' : 's'} that the member set does not list: ${listIds(shown)} (usernames). ` +
      'This resource is authoritative and would remove them, so nothing was changed. Either list them, or import the current member set first and then edit it:\n\n' +
      importCommands(ORGANIZATION_MEMBERS_RESOURCE_TYPE, target.organizationId),
    ['organization_id'],
  );
}

/** `user_ids` as of schema version 1: a list, treated as a set by the provider. */
const USER_IDS: AttributeSchema = {
  type: ['list', 'string'],
  optional: true,
  description:
    'Members by user id. The order does not matter: the same ids in another order are no change. Each id may be listed ' +
    'once; a repeat is an error. A list, which Terraform checks in linear time: the form for very large sets. Terraform ' +
    'shows a list\'s changes element by element, so plans are shortest when the configuration lists the ids in the ' +
    'order the state has: after an import, the users\' username order, as `data.orgadmin_users.<name>.ids` and ' +
    '`[for u in data.orgadmin_user.<name> : u.id]` over usernames list them.',
};

const USERNAMES: AttributeSchema = {
  type: ['set', 'string'],
  optional: true,
  description:
    'Members by username (matched without regard to case; the state keeps your spelling). Plans name each added or ' +
    'removed member. A set, which Terraform checks in quadratic time when applied: for thousands of members prefer `user_ids`.',
};

const EMAILS: AttributeSchema = {
  type: ['set', 'string'],
  optional: true,
  description:
    'Members by email address (matched without regard to case; the state keeps your spelling). Each email must belong ' +
    'to one user. Plans name each added or removed member. A set, like `usernames`.',
};

/** The resource's schema. */
const SCHEMA: Schema = {
  // Version 2: `usernames` and `emails`; `user_ids` optional. Version 1: `user_ids` became a list.
  version: 2,
  description:
    'The complete member set of one organization, authoritatively: members the configuration does not list are removed, ' +
    'and members added outside Terraform show as drift. Members are named by `user_ids`, `usernames` or `emails`, or a ' +
    'mix (each user once). The organization\'s default admin user (`org-admin-<organization id>`) is never listed, ' +
    'removed or reported. Every page of members is read, and every add and remove of an apply is sent even when some fail.\n\n' +
    'Creating this resource for an organization that already has members it does not list fails (rather than silently ' +
    'removing them): list them, or import the current member set first. A create that fails part-way is completed by the ' +
    'next apply, which adds only what is missing; it never removes and re-adds members.\n\n' +
    'Destroying it removes only the members its configuration listed; members added outside Terraform stay (the plan of ' +
    'the destroy warns about them), and users themselves are never deleted. To stop managing the member set without ' +
    'removing anyone, forget it (`removed { lifecycle { destroy = false } }`, or `terraform state rm`).\n\n' +
    'One organization is managed by one style: a plan that puts an organization under this resource and ' +
    '`orgadmin_membership` too, or under two member sets (a `for_each` key or address that changed), fails before anything ' +
    'changes, with the `removed` or `moved` block that does the change safely.\n\n' +
    'Import by `ORG` or `REALM/ORG` (members as `user_ids`), or add `?by=usernames` or `?by=emails`, e.g. ' +
    '`terraform import orgadmin_organization_members.example "6f1d3c0e-…?by=emails"`.',
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
    usernames: USERNAMES,
    emails: EMAILS,
    realm: resourceRealmAttribute,
  },
};

/** The schema of version 1: `user_ids` (a required list) alone. */
const SCHEMA_V1: Schema = {
  ...SCHEMA,
  version: 1,
  attributes: {
    id: SCHEMA.attributes['id']!,
    organization_id: SCHEMA.attributes['organization_id']!,
    user_ids: { ...USER_IDS, optional: false, required: true },
    realm: resourceRealmAttribute,
  },
};

/**
 * Schema version 0, where `user_ids` was a set. Its states hold the ids sorted (Terraform's order
 * for a set of strings); upgraded, they are the same ids as a sorted list, which the next plan
 * compares with the configuration as ids, so no change is planned.
 */
const SCHEMA_V0: Schema = {
  ...SCHEMA_V1,
  version: 0,
  attributes: { ...SCHEMA_V1.attributes, user_ids: { ...USER_IDS, required: true, optional: false, type: ['set', 'string'] } },
};

/** The planned value of a name set: the prior one when it names the same users (case aside). */
function plannedNames(configured: ObjectValue[string] | undefined, prior: ObjectValue[string] | undefined): ObjectValue[string] | undefined {
  if (!Array.isArray(configured) || containsUnknown(configured)) return configured;
  const configuredNames = knownStringList(configured);
  const priorNames = knownStringList(prior);
  if (configuredNames === undefined || priorNames === undefined) return configured;
  return sameNames(configuredNames, priorNames) ? prior : configured;
}

/** Checks the names of one attribute: empty, too long or unstorable text. */
function validateNames(attribute: NamingAttribute, value: ObjectValue[string] | undefined, diags: Diagnostics): void {
  if (!Array.isArray(value)) return;
  value.forEach((item, index) => {
    if (typeof item !== 'string') return;
    const path = attribute === 'user_ids' ? [attribute, index] : [attribute];
    const problem = item.trim() === '' ? 'is empty' : item.length > MAX_NAME_LENGTH ? `is longer than ${MAX_NAME_LENGTH} characters` : textProblem(item);
    if (problem) diags.error(`Invalid ${attribute === 'user_ids' ? 'user id' : attribute === 'usernames' ? 'username' : 'email'}`, `The element ${quote(item)} of \`${attribute}\` ${problem}.`, path);
  });
}

/** The ids of the members a state names and Terraform manages (its members less those from outside). */
function managedIds(live: readonly Member[], state: ObjectValue, data: PrivateData | undefined): string[] {
  const outside = new Set(outsideIds(data));
  return namedMemberIds(live, memberNamesOf(state)).filter((id) => !outside.has(id));
}

/**
 * The new state after adds and removes: exactly the plan when everything succeeded (Terraform
 * requires it), otherwise the members reached, named after the plan. Records in the private data
 * which reached members the configuration does not list.
 */
function stateAfterApply(
  target: Target,
  planned: ObjectValue,
  reached: readonly Member[],
  desired: ReadonlySet<string>,
  data: PrivateData | undefined,
  diags: Diagnostics,
): ObjectValue {
  setOutsideIds(data, reached.filter((member) => !desired.has(member.id)).map((member) => member.id));
  if (!diags.hasErrors()) return { ...planned };
  return stateOf(target, placeMembers(reached, memberNamesOf(planned)));
}

/** The live members after an apply of `outcome` to `live` (added ones looked up by id where known). */
function membersAfter(ctx: OrgAdminProviderContext, target: Target, live: readonly Member[], outcome: ApplyOutcome, resolvedById: ReadonlyMap<string, Member>): Member[] {
  const removed = new Set(outcome.removed);
  const added = outcome.added.map((id) => resolvedById.get(id)).filter((member): member is Member => member !== undefined);
  ctx.logger.debug('organization members changed', { organizationId: target.organizationId, added: outcome.added.length, removed: outcome.removed.length });
  return [...live.filter((member) => !removed.has(member.id)), ...added];
}

/** Users known to this process by id (live members and lookups), for naming added members in state. */
async function knownUsersById(ctx: OrgAdminProviderContext, target: Target, ids: readonly string[]): Promise<Map<string, Member>> {
  const result = new Map<string, Member>();
  if (ids.length === 0) return result;
  try {
    const found = await ctx.users.find(target.realm, { ids }, target.signal);
    for (const id of ids) {
      const user = found.byId.get(id);
      if (user) result.set(id, user);
    }
  } catch {
    // Without view-users, added members are named by id in a partial state; nothing is lost.
  }
  return result;
}

/** Create and update: brings the live set to the planned one. */
async function converge(
  ctx: OrgAdminProviderContext,
  req: { plannedState: ObjectValue; priorState?: ObjectValue; private?: PrivateData; signal?: AbortSignal },
  diags: Diagnostics,
): Promise<ObjectValue | null> {
  const target = targetOf(ctx, req.plannedState, req);
  takePlannedFor(req.private);
  const creating = req.priorState === undefined;
  const live = await liveMembers(ctx, target, creating ? 'manage its members' : 'update its members', diags);
  if (live === undefined) return null;
  const desired = await resolveDesired(ctx, target, memberNamesOf(req.plannedState), live, diags);
  if (desired === undefined) return creating ? null : req.priorState ?? null;
  const liveIds = new Set(live.map((member) => member.id));
  const toAdd = [...desired].filter((id) => !liveIds.has(id));
  let toRemove: string[];
  if (creating) {
    // The destroy half of a replacement of this member set (just before, in this process) left its
    // members in place: remove those the configuration no longer lists, which the plan showed.
    const replaced = ctx.claims.takeReplacedSet(target.realm, target.organizationId);
    if (replaced !== undefined) {
      const previous = new Set(replaced);
      toRemove = live.filter((member) => previous.has(member.id) && !desired.has(member.id)).map((member) => member.id);
    } else {
      const outside = live.filter((member) => !desired.has(member.id));
      if (outside.length > 0) {
        reportOutsideMembers(target, outside, diags);
        return null;
      }
      toRemove = [];
    }
  } else {
    // Against the live list, not the prior state: members changed since the refresh are still
    // brought to the configured set.
    toRemove = live.filter((member) => !desired.has(member.id)).map((member) => member.id);
  }
  const outcome = await applyChanges(ctx, target, toAdd, toRemove, diags);
  ctx.claims.noteSetApplied(target.realm, target.organizationId, desired);
  const reached = membersAfter(ctx, target, live, outcome, await knownUsersById(ctx, target, outcome.added));
  // Adds that failed with nothing done: a create leaves no state (the next apply creates again and
  // only adds what is missing; Terraform would otherwise replace a tainted set).
  if (creating && diags.hasErrors() && outcome.added.length === 0 && outcome.removed.length === 0) return null;
  return stateAfterApply(target, req.plannedState, reached, desired, req.private, diags);
}

/** The `orgadmin_organization_members` resource. */
export const organizationMembersResource: Resource<OrgAdminProviderContext> = {
  typeName: ORGANIZATION_MEMBERS_RESOURCE_TYPE,
  schema: SCHEMA,
  stateUpgrades: {
    0: {
      priorSchema: SCHEMA_V0,
      upgrade: (prior) => ({
        ...prior,
        user_ids: Array.isArray(prior['user_ids']) ? [...(knownStringList(prior['user_ids']) ?? [])].sort() : null,
        usernames: null,
        emails: null,
      }),
    },
    1: { priorSchema: SCHEMA_V1, upgrade: (prior) => ({ ...prior, usernames: null, emails: null }) },
  },

  validate(config, diags) {
    const org = knownString(config['organization_id']);
    if (org !== undefined && org.trim() === '') diags.error('Invalid organization_id', '`organization_id` must not be empty.', ['organization_id']);
    if (NAMING_ATTRIBUTES.every((attribute) => config[attribute] === null || config[attribute] === undefined)) {
      diags.error('No members given', 'Name the members with `user_ids`, `usernames` or `emails` (an empty list for no members).', ['user_ids']);
    }
    for (const attribute of NAMING_ATTRIBUTES) validateNames(attribute, config[attribute], diags);
    checkNoRepeatedIds('user_ids', config['user_ids'], diags);
    validateRealm(config['realm'], diags);
  },

  async modifyPlan(ctx, req, plan, diags) {
    planRealm(ctx, req.config, req.priorState, plan);
    const org = knownString(req.config['organization_id']);
    if (org !== undefined) plan.plannedState['id'] = org;
    // The same members in another order (or case) are no change.
    const userIds = plannedIdList(req.config['user_ids'], req.priorState?.['user_ids']);
    if (userIds !== undefined) plan.plannedState['user_ids'] = userIds;
    for (const attribute of ['usernames', 'emails'] as const) {
      const planned = plannedNames(req.config[attribute], req.priorState?.[attribute]);
      if (planned !== undefined) plan.plannedState[attribute] = planned;
    }
    const realm = knownString(plan.plannedState['realm']);
    if (org === undefined || realm === undefined) return; // an organization created in this apply: nothing to check yet
    const target: Target = { organizationId: org, realm, ...(req.signal ? { signal: req.signal } : {}) };
    const conflict = isReplanOf(plan.private, org) ? undefined : ctx.claims.plan(realm, org, { kind: 'set' }, true);
    if (conflict) {
      const text = conflictText(conflict, where(target));
      diags.error(text.summary, text.detail, ['organization_id']);
      return;
    }
    markPlannedFor(plan.private, org);
    // Checked for the plan's reader; the apply process (which plans each create again) converges with the same rules.
    if (ctx.progress.applied || NAMING_ATTRIBUTES.some((attribute) => containsUnknown(plan.plannedState[attribute] ?? null))) return;
    // Everything knowable is checked now, on the attribute, with the rules the apply uses.
    const refreshed = ctx.refreshedMembers.get(cacheKey(target));
    const live = refreshed ?? (await liveMembers(ctx, target, 'plan its members', diags));
    if (live === undefined) return;
    const desired = await resolveDesired(ctx, target, memberNamesOf(plan.plannedState), live, diags);
    if (desired === undefined || req.priorState !== null || refreshed !== undefined) return;
    // A new member set (not the replacement of one refreshed here) must not take members over.
    const outside = live.filter((member) => !desired.has(member.id));
    if (outside.length > 0) reportOutsideMembers(target, outside, diags);
  },

  planDestroy(ctx, req, plan, diags) {
    takePlannedFor(plan.private);
    const target = targetOf(ctx, req.priorState, req);
    const conflict = ctx.claims.plan(target.realm, target.organizationId, { kind: 'set' }, false);
    if (conflict) {
      const text = conflictText(conflict, where(target));
      diags.error(text.summary, text.detail);
      return;
    }
    const outside = outsideIds(plan.private);
    if (outside.length > 0) {
      diags.warning(
        'Members added outside Terraform stay',
        `Destroying this member set removes the members its configuration listed. ${outside.length} member${outside.length === 1 ? '' : 's'} of ${where(target)} ` +
          `that came from outside Terraform stay${outside.length === 1 ? 's' : ''}: ${listIds(outside)} (user ids).`,
      );
    }
  },

  async create(ctx, req, diags) {
    return converge(ctx, { plannedState: req.plannedState, ...(req.private ? { private: req.private } : {}), ...(req.signal ? { signal: req.signal } : {}) }, diags);
  },

  async read(ctx, req, diags) {
    const target = targetOf(ctx, req.state, req);
    let live: Member[];
    try {
      live = await listManagedMembers(ctx, target.organizationId, target.realm, target.signal);
    } catch (error) {
      if (isObjectNotFound(error)) {
        diags.warning(
          'Organization removed outside Terraform',
          `Organization ${quote(target.organizationId)} in realm ${quote(target.realm)} no longer exists, so its member set is removed from the state.`,
        );
        return null;
      }
      reportError(diags, error, { action: 'list organization members', target: `of ${where(target)}`, permission: 'view-organizations' }, reportingFor(ctx, target.realm));
      return req.state;
    }
    ctx.refreshedMembers.set(cacheKey(target), live);
    // Members that were not in the state before came from outside Terraform (all of them after an import are the configuration's).
    const before = new Set(namedMemberIds(live, memberNamesOf(req.state)));
    const imported = takeImported(req.private);
    const kept = new Set(outsideIds(req.private));
    setOutsideIds(req.private, imported ? [] : live.filter((member) => kept.has(member.id) || !before.has(member.id)).map((member) => member.id));
    return stateOf(target, placeMembers(live, memberNamesOf(req.state)));
  },

  async update(ctx, req, diags) {
    return converge(ctx, req, diags);
  },

  async delete(ctx, req, diags) {
    const target = targetOf(ctx, req.priorState, req);
    const plannedFor = takePlannedFor(req.private);
    let live: Member[];
    try {
      live = await listManagedMembers(ctx, target.organizationId, target.realm, target.signal);
    } catch (error) {
      if (isObjectNotFound(error)) return; // the organization is gone, and its members with it
      reportError(diags, error, { action: 'list organization members', target: `of ${where(target)}`, permission: 'view-organizations' }, reportingFor(ctx, target.realm));
      return;
    }
    const managed = managedIds(live, req.priorState, req.private);
    if (plannedFor === target.organizationId) {
      // The destroy half of a replacement of this same member set: the create that follows keeps
      // the members; it removes those the configuration no longer lists.
      ctx.claims.noteSetReplaced(target.realm, target.organizationId, managed);
      ctx.logger.info('member set replaced: its members stay for the replacing create', { organizationId: target.organizationId });
      return;
    }
    // After a create_before_destroy replacement of the same set in this apply, keep what it claims.
    const claimedByReplacement = ctx.claims.appliedSet(target.realm, target.organizationId);
    const toRemove = managed.filter((id) => !claimedByReplacement?.has(id));
    ctx.claims.noteApplied(target.realm, target.organizationId);
    await applyChanges(ctx, target, [], toRemove, diags);
  },

  async importState(ctx, req, diags) {
    const [id, query] = splitImportQuery(req.id);
    const by = query === undefined ? 'user_ids' : BY_FORMS[query];
    if (by === undefined) {
      diags.error(
        `Invalid import id for ${ORGANIZATION_MEMBERS_RESOURCE_TYPE}`,
        `The import id ${quote(req.id)} ends in ${quote(`?${query}`)}; the accepted endings are ${Object.keys(BY_FORMS).map((form) => `\`?${form}\``).join(', ')}, or none (members as \`user_ids\`).`,
      );
      return null;
    }
    const parsed = parseImportId(id, ORGANIZATION_MEMBERS_IMPORT_ID, diags);
    if (!parsed) return null;
    markImported(req.private);
    const names: MemberNames = { user_ids: null, usernames: null, emails: null };
    names[by] = [];
    return stateOf({ organizationId: parsed.ids[0]!, realm: parsed.realm ?? ctx.realm }, names);
  },
};

/** The import id endings that choose how members are named. */
const BY_FORMS: Readonly<Record<string, NamingAttribute>> = { 'by=user_ids': 'user_ids', 'by=usernames': 'usernames', 'by=emails': 'emails' };

function splitImportQuery(id: string): [string, string | undefined] {
  const at = id.indexOf('?');
  return at < 0 ? [id, undefined] : [id.slice(0, at), id.slice(at + 1)];
}
