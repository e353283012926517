/**
 * Creating an organization safely under faults and crashes: no orphan, no duplicate, no manual
 * import, and never a silent take-over of somebody else's organization.
 *
 * The mechanism (documented for users in the provider's index page):
 *
 * 1. **Creation marker.** Every create sends a client-chosen id (a random UUID) and a reserved
 *    attribute {@link CREATION_MARKER} holding that id. The marker says "created by an orgadmin
 *    Terraform apply that may not have recorded it yet". The provider never shows it in state or
 *    plans, and keeps it on update until the organization has been read back from a state.
 * 2. **Repeatable create.** Because it carries its id, the create is retried after a timeout or a
 *    dropped connection (see `src/client/retry-policy.ts`). A retry that meets its own first
 *    attempt gets 409; the provider then finds the organization by id (or, on a service that
 *    ignores client-chosen ids, by name) and accepts it only when its marker holds this create's
 *    id: that is proof that this very create made it.
 * 3. **Adoption at plan.** When an apply was interrupted (answer lost after the retries, terraform
 *    or the runner killed before the state was saved), the organization exists but no state holds
 *    it. The next plan looks the planned name up: an organization with the marker is the
 *    interrupted create of a configuration like this one, and the plan adopts it (its id is planned,
 *    a warning says so, the apply updates it to the configuration). An organization without the
 *    marker belongs to somebody else: the plan fails with its id and the import advice.
 * 4. **Marker cleared once recorded.** The first refresh of an organization from a state (the
 *    state was saved with it) clears the marker, so from then on no other configuration can adopt
 *    it: a second configuration that plans the same name gets the clear error of (3).
 *
 * Why it is safe: the marker is only ever set by this provider's create, and only an organization
 * that carries it is adopted; it is cleared as soon as a saved state holds the organization. The
 * remaining window is an interrupted create of one configuration being adopted by another one that
 * plans the same name in the same realm before the first one runs again; that plan shows a warning
 * naming the adopted organization.
 *
 * 5. **Duplicate names in one configuration** are refused at plan: the provider process remembers
 *    the names planned for creation (or a rename) per realm, and a second resource planning the
 *    same name fails on its `name` attribute.
 */
import { randomUUID } from 'node:crypto';
import type { Organization, OrganizationInput } from '../../api';
import { ConflictError } from '../../client/errors';
import type { OrgAdminProviderContext } from '../context';
import { isObjectNotFound, reportError, reportingFor, serviceAnswer } from '../diagnostics';
import type { Diagnostics, ObjectValue } from '../../tfplugin/framework/types';
import { knownString, quote } from '../values';
import { importCommands } from '../import-advice';

/** The reserved attribute that marks an organization whose create is not yet known to be recorded in a state. */
export const CREATION_MARKER = 'orgadmin.terraform/pending-create';

/** The organization's attributes without the provider's reserved marker: what users see. */
export function userAttributes(attributes: Record<string, string[]>): Record<string, string[]> {
  if (!(CREATION_MARKER in attributes)) return attributes;
  const { [CREATION_MARKER]: _marker, ...rest } = attributes;
  return rest;
}

/** True when `org` carries a creation marker (any create's). */
export function hasCreationMarker(org: Organization): boolean {
  return Array.isArray(org.attributes?.[CREATION_MARKER]);
}

/** True when `org` was made by the create whose client-chosen id is `creationId`. */
export function isFromCreation(org: Organization, creationId: string): boolean {
  return org.id === creationId || (org.attributes?.[CREATION_MARKER] ?? []).includes(creationId);
}

/** The organization of `realm` named exactly `name`, or undefined (a substring search, filtered). */
export async function findOrganizationByName(
  ctx: OrgAdminProviderContext,
  realm: string,
  name: string,
  signal?: AbortSignal,
): Promise<Organization | undefined> {
  const candidates = await ctx.client.listAllOrganizations({ search: name }, { realm, ...(signal ? { signal } : {}) });
  return candidates.find((org) => org.name === name);
}

/** The detail of the "name is taken" error: who holds it, and how to import it (CLI and `import {}` block). */
export function nameTakenAdvice(realm: string, name: string, existingId: string): string {
  return (
    `An organization named ${quote(name)} already exists in realm ${quote(realm)}, and this configuration does not manage it: ` +
    `its id is ${quote(existingId)}. orgadmin never takes over an organization it did not create.\n\n` +
    'To manage it with this resource, import it (use the resource\'s address):\n\n' +
    `${importCommands('orgadmin_organization', existingId)}\n\n` +
    'Otherwise choose another `name`. Import only into one resource: two resources must not manage one organization.'
  );
}

/** The target phrase of an operation on one organization: `"ID" ("NAME") in realm "REALM"`. */
export function target(realm: string, id: string | undefined, name?: string): string {
  const parts = [id, name].filter((part): part is string => part !== undefined).map(quote);
  const what = parts.length === 2 ? `${parts[0]} (${parts[1]})` : parts[0] ?? '';
  return `${what} in realm ${quote(realm)}`;
}

function capitalizeFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Reports a 409 on create or rename: names the organization that already has the name (looked up
 * by exact name) and how to import it.
 */
export async function reportNameTaken(
  ctx: OrgAdminProviderContext,
  realm: string,
  name: string,
  error: ConflictError,
  action: string,
  diags: Diagnostics,
  existing?: Organization,
): Promise<void> {
  let existingId = existing?.id;
  if (existingId === undefined) {
    try {
      existingId = (await findOrganizationByName(ctx, realm, name))?.id;
    } catch (lookupError) {
      ctx.logger.warn('could not look up the organization that holds a name', { realm, error: String(lookupError) });
    }
  }
  const answer = capitalizeFirst(serviceAnswer(error.status, error.error, error.errorDescription));
  const advice = existingId !== undefined && ctx.plannedNames.isRecorded(existingId) ? heldInThisStateAdvice : nameTakenAdvice;
  const detail =
    existingId !== undefined
      ? `${answer}\n\n${advice(realm, name, existingId)}`
      : `${answer}\n\nAn organization named ${quote(name)} already exists in realm ${quote(realm)} (its id could not be looked up with these credentials). ` +
        'Choose another `name`, or import the existing organization (`terraform import <resource address> <id>`, or an `import {}` block).';
  diags.error(`Failed to ${action}: the name ${quote(name)} is taken`, detail, ['name']);
}

/**
 * Plan-time checks of a planned name (create, or rename): refuses a name that another resource of
 * this configuration also plans, or that an organization outside this state holds; adopts the
 * organization left by an interrupted create of this configuration (see `./organization-creation`).
 */
export async function planName(
  ctx: OrgAdminProviderContext,
  req: { priorState: ObjectValue | null; plannedState: ObjectValue; signal?: AbortSignal },
  diags: Diagnostics,
): Promise<void> {
  const name = knownString(req.plannedState['name']);
  const realm = knownString(req.plannedState['realm']);
  if (name === undefined || realm === undefined) return; // decided at apply time
  const priorId = knownString(req.priorState?.['id']);
  const renamed = req.priorState !== null && knownString(req.priorState['name']) !== name;
  if (req.priorState !== null && !renamed) return;
  const other = ctx.plannedNames.claim(realm, name, priorId ?? `create#${randomUUID()}`);
  if (other !== undefined) {
    diags.error(
      'Duplicate organization name',
      `Another orgadmin_organization in this configuration also plans the name ${quote(name)} in realm ${quote(realm)}. ` +
        'Names are unique in a realm: give each organization its own `name` (two resources must not manage one organization).',
      ['name'],
    );
    return;
  }
  let existing: Organization | undefined;
  try {
    existing = await findOrganizationByName(ctx, realm, name, req.signal);
  } catch (error) {
    // Without view-organizations the check cannot be made here; the apply still reports a 409.
    ctx.logger.debug('could not check at plan time whether the name is taken', { realm, error: String(error) });
    return;
  }
  if (existing === undefined || existing.id === priorId) return;
  if (req.priorState === null && hasCreationMarker(existing) && !ctx.plannedNames.isRecorded(existing.id)) {
    req.plannedState['id'] = existing.id;
    diags.warning(
      'Adopting an organization left by an interrupted apply',
      `The organization ${target(realm, existing.id, name)} was created by an earlier orgadmin apply that did not record it in a state ` +
        '(its answer was lost, or terraform was stopped). This resource takes it over and updates it to the configuration; no second organization is created.',
    );
    return;
  }
  if (ctx.plannedNames.isRecorded(existing.id)) {
    diags.error(`The name ${quote(name)} is taken`, heldInThisStateAdvice(realm, name, existing.id), ['name']);
    return;
  }
  diags.error(`The name ${quote(name)} is taken`, nameTakenAdvice(realm, name, existing.id), ['name']);
}

/**
 * The detail when a rename targets the name of an organization that another resource of this same
 * state manages: importing it (the advice for an unmanaged holder) would put one organization
 * under two resources.
 */
function heldInThisStateAdvice(realm: string, name: string, existingId: string): string {
  return (
    `The organization ${target(realm, existingId, name)} holds this name, and another orgadmin_organization of this configuration manages it. ` +
    'Names are unique in a realm. To swap names between two organizations, rename the other one first (to its new name, or to a temporary one) ' +
    'in one apply, then give this one the freed name in the next. Do not import it: one organization must be managed by one resource.'
  );
}

/**
 * After a create whose outcome is unknown (the answer was lost, or a retry met the first attempt's
 * organization): the organization this create made, found by its client-chosen id or, on a service
 * that ignores client-chosen ids, by name and marker. Undefined when there is none (or it cannot
 * be looked up now).
 */
export async function findOwnCreation(
  ctx: OrgAdminProviderContext,
  realm: string,
  creationId: string,
  name: string,
  signal: AbortSignal | undefined,
): Promise<Organization | undefined> {
  const options = { realm, ...(signal ? { signal } : {}) };
  try {
    const byId = await ctx.client.getOrganization(creationId, options);
    if (isFromCreation(byId, creationId)) return byId;
  } catch (error) {
    if (!isObjectNotFound(error)) {
      ctx.logger.warn('could not check whether the create happened', { realm, error: String(error) });
      return undefined;
    }
  }
  try {
    const byName = await findOrganizationByName(ctx, realm, name, signal);
    return byName !== undefined && isFromCreation(byName, creationId) ? byName : undefined;
  } catch (error) {
    ctx.logger.warn('could not check whether the create happened', { realm, error: String(error) });
    return undefined;
  }
}

/**
 * Brings an organization adopted at plan time to the configuration (the marker stays until a
 * state holds it). `'gone'` when it vanished since the plan: the caller creates it with that id.
 */
export async function adoptOrganization(
  ctx: OrgAdminProviderContext,
  realm: string,
  id: string,
  input: OrganizationInput,
  signal: AbortSignal | undefined,
  diags: Diagnostics,
): Promise<'adopted' | 'gone' | 'failed'> {
  const options = { realm, ...(signal ? { signal } : {}) };
  try {
    const remote = await ctx.client.getOrganization(id, options);
    const marker = remote.attributes[CREATION_MARKER] ?? [id];
    const attributes = input.attributes ?? userAttributes(remote.attributes);
    await ctx.client.updateOrganization(id, { ...input, attributes: { ...attributes, [CREATION_MARKER]: marker } }, options);
    ctx.logger.info('adopted organization left by an interrupted apply', { realm, id });
    return 'adopted';
  } catch (error) {
    if (isObjectNotFound(error)) return 'gone';
    if (error instanceof ConflictError) await reportNameTaken(ctx, realm, input.name, error, 'create organization', diags);
    else reportError(diags, error, { action: 'create organization', target: target(realm, id, input.name), permission: 'manage-organizations' }, reportingFor(ctx, realm));
    return 'failed';
  }
}

/**
 * Clears the creation marker of an organization read from a state: the state was saved with it, so
 * no other configuration may adopt it any more. Best effort: a key without manage-organizations
 * (a read-only plan) leaves it for a later run.
 */
export async function clearCreationMarker(ctx: OrgAdminProviderContext, realm: string, org: Organization): Promise<void> {
  const body: OrganizationInput = {
    name: org.name,
    displayName: org.displayName ?? null,
    url: org.url ?? null,
    attributes: userAttributes(org.attributes),
  };
  try {
    await ctx.client.updateOrganization(org.id, body, { realm });
  } catch (error) {
    ctx.logger.debug('could not clear the creation marker', { realm, id: org.id, error: String(error) });
  }
}
