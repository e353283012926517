/**
 * Memberships that this provider process has planned: Terraform plans every resource of a
 * configuration in one provider process, and plans a resource after the resources it refers to. So
 * when `orgadmin_organization_member_roles` is planned for a user who is not a member yet, a
 * membership planned earlier in the process (by `orgadmin_membership` or in the `user_ids` of
 * `orgadmin_organization_members`, which the member roles refer to) will be there at apply; one that
 * nothing plans will not, and the plan says so (resources/organization-member-roles.ts).
 *
 * The membership resources are not changed for this: {@link recordingPlannedMemberships} wraps
 * their `modifyPlan` and notes what it planned, by their attributes `organization_id`, `realm` and
 * `user_id` or `user_ids`.
 */
import type { OrgAdminProviderContext } from './context';
import type { Resource } from '../tfplugin/framework/types';
import { knownString, knownStringList } from './values';

/** Memberships planned in this process, per realm and organization. Safe under concurrent planning. */
export class PlannedMemberships {
  private readonly planned = new Set<string>();

  private static key(realm: string, organizationId: string, userId: string): string {
    return `${realm}\u0000${organizationId}\u0000${userId}`;
  }

  /** Notes that memberships of `userIds` in the organization were planned. */
  add(realm: string, organizationId: string, userIds: Iterable<string>): void {
    for (const userId of userIds) this.planned.add(PlannedMemberships.key(realm, organizationId, userId));
  }

  /** True when a membership of `userId` in the organization was planned in this process. */
  has(realm: string, organizationId: string, userId: string): boolean {
    return this.planned.has(PlannedMemberships.key(realm, organizationId, userId));
  }
}

/**
 * `resource` with a `modifyPlan` that, after the resource's own, notes the memberships its planned
 * state asks for (a known `organization_id` and `realm`, and a known `user_id` or the known ids of
 * `user_ids`). Everything else about the resource is unchanged.
 */
export function recordingPlannedMemberships(resource: Resource<OrgAdminProviderContext>): Resource<OrgAdminProviderContext> {
  return {
    ...resource,
    async modifyPlan(ctx, req, plan, diags) {
      await resource.modifyPlan?.(ctx, req, plan, diags);
      const planned = plan.plannedState;
      const organizationId = knownString(planned['organization_id']);
      const realm = knownString(planned['realm']);
      if (organizationId === undefined || realm === undefined) return;
      const single = knownString(planned['user_id']);
      ctx.plannedMemberships.add(realm, organizationId, single !== undefined ? [single] : knownStringList(planned['user_ids']) ?? []);
    },
  };
}
