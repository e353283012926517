/**
 * Who claims which members, per provider process: the rule that no apply removes a member that
 * the configuration still asks for, whatever order Terraform runs creates and destroys in.
 *
 * Terraform runs the creates and destroys of unrelated resources in parallel, in no set order. So
 * when one organization's members are managed by two resources at once (an additive membership and
 * an authoritative member set, or two member sets, or two memberships of one user) and one of them
 * is destroyed, its removal can land after the other has claimed the member: the member is gone
 * although the configuration keeps it. Terraform plans every resource of a configuration in one
 * provider process (and applies them in one), which makes two mechanisms possible:
 *
 * 1. **Refused at plan.** Each plan of a member set or membership (creates, updates, unchanged
 *    ones and destroys alike: the provider plans destroys) registers its claim here. A second
 *    claim on the same organization that could remove what the first keeps fails the plan, on
 *    whichever of the two is planned second, with the recipe that does the change safely (a
 *    `removed` block that forgets instead of destroying, or a `moved` block). Two destroys never
 *    conflict: nothing stays that they could take away.
 * 2. **Replacements at apply.** The destroy half of a replacement of the same object (taint,
 *    `-replace`, `create_before_destroy`) never removes what the replacing object keeps: see the
 *    resources, which use {@link MemberClaims.noteApplied} and the replacement records here.
 *
 * Plans made in the apply process after an apply of the same organization (the second plan of a
 * `create_before_destroy` replacement, which Terraform makes in the apply) are not checked: the
 * plan process already checked the whole configuration.
 */

/** What a plan claims: a whole member set, or one user's membership. */
export type MemberClaim = { readonly kind: 'set' } | { readonly kind: 'membership'; readonly userId: string };

/** Why two claims on one organization cannot be applied together. */
export type ClaimConflict = 'both-styles' | 'two-sets' | 'two-memberships';

interface Registered {
  readonly claim: MemberClaim;
  /** The plan keeps the claim (create, update, no change); false for a destroy. */
  readonly keeps: boolean;
}

function organizationKey(realm: string, organizationId: string): string {
  return `${realm}\u0000${organizationId}`;
}

/** The claims of one provider process. Safe under concurrent planning (one handler step at a time). */
export class MemberClaims {
  private readonly planned = new Map<string, Registered[]>();
  private readonly appliedOrganizations = new Set<string>();
  private readonly appliedSets = new Map<string, ReadonlySet<string>>();
  private readonly replacedSets = new Map<string, readonly string[]>();
  private readonly appliedMemberships = new Set<string>();

  /**
   * Registers a planned claim on `organizationId` (in `realm`); returns the conflict with an earlier
   * claim of this process, or undefined.
   */
  plan(realm: string, organizationId: string, claim: MemberClaim, keeps: boolean): ClaimConflict | undefined {
    const key = organizationKey(realm, organizationId);
    if (this.appliedOrganizations.has(key)) return undefined;
    const earlier = this.planned.get(key) ?? [];
    let conflict: ClaimConflict | undefined;
    for (const other of earlier) {
      if (!keeps && !other.keeps) continue;
      if (claim.kind !== other.claim.kind) conflict = 'both-styles';
      else if (claim.kind === 'set') conflict = 'two-sets';
      else if (other.claim.kind === 'membership' && other.claim.userId === claim.userId) conflict = 'two-memberships';
      if (conflict) break;
    }
    earlier.push({ claim, keeps });
    this.planned.set(key, earlier);
    return conflict;
  }

  /** Notes that a create, update or delete of `organizationId`'s members was applied in this process. */
  noteApplied(realm: string, organizationId: string): void {
    this.appliedOrganizations.add(organizationKey(realm, organizationId));
  }

  /** Records the members a member set of `organizationId` was created or updated to in this process. */
  noteSetApplied(realm: string, organizationId: string, desired: ReadonlySet<string>): void {
    this.noteApplied(realm, organizationId);
    this.appliedSets.set(organizationKey(realm, organizationId), desired);
  }

  /** The members a member set of `organizationId` was applied with in this process, if any. */
  appliedSet(realm: string, organizationId: string): ReadonlySet<string> | undefined {
    return this.appliedSets.get(organizationKey(realm, organizationId));
  }

  /**
   * Records that the destroy half of a member set's replacement left its members in place, with
   * the ids that object managed: the replacing create, right after in this process, removes those
   * its configuration no longer lists.
   */
  noteSetReplaced(realm: string, organizationId: string, managed: readonly string[]): void {
    this.noteApplied(realm, organizationId);
    this.replacedSets.set(organizationKey(realm, organizationId), managed);
  }

  /** The managed ids a replaced member set left for its replacement (once). */
  takeReplacedSet(realm: string, organizationId: string): readonly string[] | undefined {
    const key = organizationKey(realm, organizationId);
    const managed = this.replacedSets.get(key);
    this.replacedSets.delete(key);
    return managed;
  }

  /** Records that the membership of `userId` in `organizationId` was created in this process. */
  noteMembershipApplied(realm: string, organizationId: string, userId: string): void {
    this.noteApplied(realm, organizationId);
    this.appliedMemberships.add(`${organizationKey(realm, organizationId)}\u0000${userId}`);
  }

  /** True when the membership of `userId` in `organizationId` was created in this process. */
  membershipApplied(realm: string, organizationId: string, userId: string): boolean {
    return this.appliedMemberships.has(`${organizationKey(realm, organizationId)}\u0000${userId}`);
  }
}

/** The `removed` block that forgets instead of destroying, for a resource type. */
function forgetRecipe(type: string): string {
  return `  removed {\n    from = ${type}.<name>\n    lifecycle {\n      destroy = false\n    }\n  }`;
}

/** The `moved` block for a resource type. */
function moveRecipe(type: string): string {
  return `  moved {\n    from = ${type}.<old address>\n    to   = ${type}.<new address>\n  }`;
}

/** The diagnostic (summary and detail) of a conflict on an organization; `who` names the organization and realm. */
export function conflictText(conflict: ClaimConflict, who: string, userId?: string): { summary: string; detail: string } {
  const risk =
    'Terraform runs the creates and destroys of different resources in parallel, in no set order, so a destroy of one can remove a member that the other has just claimed and that the configuration keeps. Nothing was changed.';
  switch (conflict) {
    case 'both-styles':
      return {
        summary: 'Organization managed by both membership styles',
        detail:
          `${who} is planned under both orgadmin_membership and orgadmin_organization_members in this configuration or its state. ${risk}\n\n` +
          'One organization uses one style. To switch from memberships to a member set, add the member set and let Terraform forget the memberships instead of destroying them (their members stay), in the same change:\n\n' +
          `${forgetRecipe('orgadmin_membership')}\n\n` +
          'To switch from a member set to memberships, forget the member set the same way:\n\n' +
          `${forgetRecipe('orgadmin_organization_members')}`,
      };
    case 'two-sets':
      return {
        summary: 'Organization managed by two member sets',
        detail:
          `${who} is the organization of two orgadmin_organization_members in this plan (for example one destroyed at an old address or key and one created at a new one). ${risk}\n\n` +
          `Move the member set to its new address instead:\n\n${moveRecipe('orgadmin_organization_members')}\n\nor keep one member set per organization.`,
      };
    case 'two-memberships':
      return {
        summary: 'Membership managed by two resources',
        detail:
          `The membership of user ${JSON.stringify(userId ?? '')} in ${who} is managed by two orgadmin_membership in this plan (for example a \`for_each\` key that changed). ${risk}\n\n` +
          `Move the membership to its new address instead:\n\n${moveRecipe('orgadmin_membership')}`,
      };
  }
}
