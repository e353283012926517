/**
 * Lists of ids that mean a set: `orgadmin_organization_members.user_ids` is typed as a list because
 * Terraform checks a set's planned and applied values against each other in quadratic time (an
 * apply of 10,000 ids took minutes), while it compares lists element by element. The provider makes
 * the list behave like the set it stands for, with these rules:
 *
 * - order carries no meaning: a list holding the same ids as the prior state, in any order, is
 *   planned as the prior state (no change), and ids read from the service keep the order the state
 *   already has, new ones after them in the users' username order (the service's order is no change
 *   either). Terraform compares lists element by element when it shows a change, so a state in the
 *   order a configuration lists the ids in keeps plans short: username order is the order of the
 *   common `[for u in data.orgadmin_user.x : u.id]` (data sources keyed by username), and of
 *   `data.orgadmin_users.<name>.ids`;
 * - an id listed twice in the configuration is an error on the repeated element (a set would have
 *   dropped it silently; a list that is a set of members has no use for a repeat).
 */
import type { Diagnostics, Value } from '../tfplugin/framework/types';
import { containsUnknown } from '../tfplugin/protocol/unknown';
import { knownStringList, quote, sameStringSet } from './values';

/**
 * `ids` (deduplicated) in the order of `order`: those `order` lists first, in its order, then the
 * rest in the order given. With `order` the prior state (or the plan), a member list read in any
 * order comes out as the state had it, so reading it again shows no change.
 */
export function inOrderOf(order: readonly string[] | undefined, ids: Iterable<string>): string[] {
  const remaining = new Set(ids);
  const ordered = (order ?? []).filter((id) => remaining.delete(id));
  return [...ordered, ...remaining];
}

/**
 * The planned value of an id list attribute: the prior state's value when the configuration lists
 * the same ids in another order (Terraform accepts a planned value equal to the prior one as "no
 * change"), otherwise the configuration's value (a planned value must equal one or the other).
 */
export function plannedIdList(configured: Value | undefined, prior: Value | undefined): Value | undefined {
  if (!Array.isArray(configured) || containsUnknown(configured)) return configured;
  const priorIds = knownStringList(prior);
  const configuredIds = knownStringList(configured);
  if (priorIds === undefined || configuredIds === undefined) return configured;
  return sameStringSet(configuredIds, priorIds) ? prior : configured;
}

/**
 * Reports every id the configuration lists more than once, as an error on the repeated element
 * (its index in the list), so that Terraform points at the line.
 */
export function checkNoRepeatedIds(attribute: string, value: Value | undefined, diags: Diagnostics): void {
  if (!Array.isArray(value)) return;
  const firstAt = new Map<string, number>();
  value.forEach((id, index) => {
    if (typeof id !== 'string') return;
    const first = firstAt.get(id);
    if (first === undefined) {
      firstAt.set(id, index);
      return;
    }
    diags.error(
      `Duplicate id in ${attribute}`,
      `\`${attribute}\` lists ${quote(id)} more than once (elements ${first} and ${index}). It is a set of ids whose order ` +
        'does not matter, and each id may appear once: remove the repeat (`distinct(...)` removes repeats from a computed list).',
      [attribute, index],
    );
  });
}
