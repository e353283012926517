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
import type { Organization } from '../../api';
import type { OrgAdminProviderContext } from '../context';
import { quote } from '../values';

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

/**
 * Names planned for creation or rename in this provider process, per realm: Terraform plans every
 * resource of a configuration in one provider process, so a second resource with the same name is
 * seen here. Safe under concurrent planning (JavaScript runs one handler step at a time).
 */
export class PlannedNames {
  private readonly claims = new Map<string, string>();
  private readonly recorded = new Set<string>();

  /** Notes that a state holds organization `id` (it was refreshed from one): it is never adopted. */
  record(id: string): void {
    this.recorded.add(id);
  }

  /** True when organization `id` was refreshed from a state in this process. */
  isRecorded(id: string): boolean {
    return this.recorded.has(id);
  }

  /**
   * Claims `name` in `realm` for the resource described by `claimant`. Returns undefined when the
   * claim is new or the same claimant's, otherwise the other claimant's description.
   */
  claim(realm: string, name: string, claimant: string): string | undefined {
    const key = `${realm}\u0000${name}`;
    const holder = this.claims.get(key);
    if (holder !== undefined && holder !== claimant) return holder;
    this.claims.set(key, claimant);
    return undefined;
  }
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
    `  terraform import orgadmin_organization.<name> ${existingId}\n\n` +
    'or with an import block:\n\n' +
    `  import {\n    to = orgadmin_organization.<name>\n    id = "${existingId}"\n  }\n\n` +
    'Otherwise choose another `name`. Import only into one resource: two resources must not manage one organization.'
  );
}
