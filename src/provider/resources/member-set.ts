/**
 * How `orgadmin_organization_members` names its members in state, and what it remembers of them.
 *
 * Members are named three ways: `user_ids` (a list, for very large sets: Terraform checks lists in
 * linear time), `usernames` and `emails` (sets: Terraform shows their changes member by member
 * whatever the order, and checks them in quadratic time). A configuration may mix them; each user
 * once.
 *
 * - **Placement.** The state lists each live member in the attribute that names it (by id, then
 *   username, then email, spelled as the configuration spells it); a member that no attribute
 *   names (added outside Terraform) goes to `usernames` when that is in use, else to `emails` when
 *   the member has one and it is in use, else to `user_ids`, so that the plan shows it by name.
 * - **Managed members.** Destroying the set removes only the members its configuration listed:
 *   private data (`outside`) keeps the ids of state members that came from outside Terraform.
 */
import type { Member } from '../../api';
import type { PrivateData, Value } from '../../tfplugin/framework/types';
import { inOrderOf } from '../id-list';
import { knownStringList } from '../values';
import { nameKey } from '../user-directory';

/** The three attributes that name members, in the order a member is looked for. */
export const NAMING_ATTRIBUTES = ['user_ids', 'usernames', 'emails'] as const;

/** One of {@link NAMING_ATTRIBUTES}. */
export type NamingAttribute = (typeof NAMING_ATTRIBUTES)[number];

/** The three naming attributes' values: null when not in use. */
export type MemberNames = Record<NamingAttribute, string[] | null>;

/** The naming attributes of a state, plan or configuration. */
export function memberNamesOf(value: { [name: string]: Value }): MemberNames {
  return {
    user_ids: knownStringList(value['user_ids']) ?? null,
    usernames: knownStringList(value['usernames']) ?? null,
    emails: knownStringList(value['emails']) ?? null,
  };
}

/**
 * The naming attributes for the `members`, placed and spelled after `shape` (the prior state, or
 * the plan): see the module comment.
 */
export function placeMembers(members: readonly Member[], shape: MemberNames): MemberNames {
  const ids = new Set(shape.user_ids ?? []);
  const usernames = new Map((shape.usernames ?? []).map((name) => [nameKey(name), name]));
  const emails = new Map((shape.emails ?? []).map((email) => [nameKey(email), email]));
  const placed: Record<NamingAttribute, string[]> = { user_ids: [], usernames: [], emails: [] };
  // Username order: the order new ids join `user_ids` in (see ../id-list.ts).
  for (const member of [...members].sort(byUsername)) {
    const email = member.email ? nameKey(member.email) : undefined;
    if (ids.has(member.id)) placed.user_ids.push(member.id);
    else if (usernames.has(nameKey(member.username))) placed.usernames.push(usernames.get(nameKey(member.username))!);
    else if (email !== undefined && emails.has(email)) placed.emails.push(emails.get(email)!);
    else if (shape.usernames !== null) placed.usernames.push(member.username);
    else if (shape.emails !== null && member.email) placed.emails.push(member.email);
    else placed.user_ids.push(member.id);
  }
  const inUse = (attribute: NamingAttribute): boolean => shape[attribute] !== null || placed[attribute].length > 0;
  return {
    user_ids: inUse('user_ids') ? inOrderOf(shape.user_ids ?? undefined, placed.user_ids) : null,
    usernames: inUse('usernames') ? [...placed.usernames].sort() : null,
    emails: inUse('emails') ? [...placed.emails].sort() : null,
  };
}

/** Orders users by username, as `orgadmin_users` lists them. */
export function byUsername(a: Pick<Member, 'username'>, b: Pick<Member, 'username'>): number {
  return a.username < b.username ? -1 : a.username > b.username ? 1 : 0;
}

/**
 * The ids of the `members` that `names` lists (matched as {@link placeMembers} does): the live
 * members a state or plan names.
 */
export function namedMemberIds(members: readonly Member[], names: MemberNames): string[] {
  const ids = new Set(names.user_ids ?? []);
  const usernames = new Set((names.usernames ?? []).map(nameKey));
  const emails = new Set((names.emails ?? []).map(nameKey));
  return members
    .filter((member) => ids.has(member.id) || usernames.has(nameKey(member.username)) || (member.email ? emails.has(nameKey(member.email)) : false))
    .map((member) => member.id);
}

/** True when two name sets hold the same names, without regard to case (names are matched so). */
export function sameNames(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a.map(nameKey));
  const right = new Set(b.map(nameKey));
  return left.size === right.size && [...left].every((name) => right.has(name));
}

/** Private data key: ids of state members that came from outside Terraform. */
const OUTSIDE_KEY = 'outside';
/** Private data key: set by an import, whose members are all the configuration's. */
const IMPORTED_KEY = 'imported';
/**
 * Private data key of a plan of a create or update: the organization it is for. The destroy half
 * of a replacement receives the replacing create's plan data, and knows by it that the same member
 * set is about to be created again. Cleared by every apply and by destroy plans.
 */
const PLANNED_FOR_KEY = 'plannedFor';

/** Ids of state members that came from outside Terraform. */
export function outsideIds(data: PrivateData | undefined): string[] {
  const value = data?.get(OUTSIDE_KEY);
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
}

/** Records the ids of state members that came from outside Terraform. */
export function setOutsideIds(data: PrivateData | undefined, ids: readonly string[]): void {
  data?.set(OUTSIDE_KEY, ids.length > 0 ? [...ids].sort() : undefined);
}

/** Marks data of an import: the next read counts every member as the configuration's. */
export function markImported(data: PrivateData | undefined): void {
  data?.set(IMPORTED_KEY, true);
}

/** True (and cleared) when the data comes from an import. */
export function takeImported(data: PrivateData | undefined): boolean {
  const imported = data?.get(IMPORTED_KEY) === true;
  if (imported) data?.set(IMPORTED_KEY, undefined);
  return imported;
}

/** Marks a plan of a create or update as being for `id` (an organization's, or a membership's). */
export function markPlannedFor(data: PrivateData, id: string): void {
  data.set(PLANNED_FOR_KEY, id);
}

/**
 * True when the plan's starting private data already carries the mark for `id`: Terraform plans a
 * replacement twice (the second time as a create, handing over the first plan's data), and the
 * second plan is not another resource claiming the same members.
 */
export function isReplanOf(data: PrivateData, id: string): boolean {
  return data.get(PLANNED_FOR_KEY) === id;
}

/** The organization a plan's data says it was made for, clearing the mark. */
export function takePlannedFor(data: PrivateData | undefined): string | undefined {
  const value = data?.get(PLANNED_FOR_KEY);
  data?.set(PLANNED_FOR_KEY, undefined);
  return typeof value === 'string' ? value : undefined;
}
