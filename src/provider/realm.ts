/**
 * The `realm` attribute that every orgadmin resource and data source has: optional, defaulting to
 * the provider's realm, and (on resources) replacing the object when it changes, because an
 * organization cannot move between realms.
 */
import { realmNameProblem } from '../api/validation';
import type { OrgAdminProviderContext } from './context';
import type { AttributeSchema, Diagnostics, ObjectValue, PlanModification, Value } from '../tfplugin/framework/types';
import { isUnknown } from '../tfplugin/protocol/unknown';
import { knownString, quote } from './values';

/** The schema of a resource's `realm` attribute. */
export const resourceRealmAttribute: AttributeSchema = {
  type: 'string',
  optional: true,
  computed: true,
  requiresReplace: true,
  description:
    'The realm (project) the object lives in. Defaults to the provider\'s `realm`. Changing it replaces the object: ' +
    'it is created in the new realm and deleted from the old one. API keys belong to one realm, so objects of another ' +
    'realm usually need a second provider configuration (`alias`) with a key of that realm.',
};

/** The schema of a data source's `realm` attribute. */
export const dataSourceRealmAttribute: AttributeSchema = {
  type: 'string',
  optional: true,
  computed: true,
  description: 'The realm (project) to read from. Defaults to the provider\'s `realm`.',
};

/** Reports an error on `realm` when a known value cannot name a realm. */
export function validateRealm(value: Value | undefined, diags: Diagnostics): void {
  const realm = knownString(value);
  if (realm === undefined) return;
  const problem = realmNameProblem(realm);
  if (problem) {
    diags.error('Invalid realm', `\`realm\` ${quote(realm)} ${problem}; or leave it out to use the provider's realm.`, ['realm']);
  }
}

/**
 * Plans `realm`: the configured value, else the provider's realm. When the planned realm differs
 * from the prior state's, the object is replaced (also when the provider's realm changed under a
 * resource that did not set its own).
 */
export function planRealm(
  ctx: OrgAdminProviderContext,
  config: ObjectValue,
  priorState: ObjectValue | null,
  plan: PlanModification,
): void {
  const configured = config['realm'];
  const planned: Value = isUnknown(configured) ? configured : knownString(configured) ?? ctx.realm;
  plan.plannedState['realm'] = planned;
  const prior = priorState ? knownString(priorState['realm']) : undefined;
  if (prior !== undefined && typeof planned === 'string' && planned !== prior) {
    plan.requiresReplace.push(['realm']);
  }
}
