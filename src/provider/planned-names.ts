/**
 * The organization names planned in one provider process, for the duplicate-name check of
 * ./resources/organization-creation.ts (its point 5).
 */

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
