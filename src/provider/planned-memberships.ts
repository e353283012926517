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
 * `user_id`, or `user_ids`, `usernames` and `emails`. Usernames and emails become ids through the
 * provider's user directory, which the member set's own plan has just filled: no further request.
 */
import type { OrgAdminProviderContext } from './context';
import type { Resource } from '../tfplugin/framework/types';
import { nameKey } from './user-directory';
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
 * state asks for (a known `organization_id` and `realm`, and a known `user_id`, or the known
 * elements of `user_ids`, `usernames` and `emails`). Nothing is noted for a plan with errors. Everything
 * else about the resource is unchanged.
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
      if (diags.hasErrors()) return;
      const single = knownString(planned['user_id']);
      if (single !== undefined) {
        ctx.plannedMemberships.add(realm, organizationId, [single]);
        return;
      }
      ctx.plannedMemberships.add(realm, organizationId, knownStringList(planned['user_ids']) ?? []);
      const usernames = knownStringList(planned['usernames']) ?? [];
      const emails = knownStringList(planned['emails']) ?? [];
      if (usernames.length === 0 && emails.length === 0) return;
      try {
        const found = await ctx.users.find(realm, { usernames, emails });
        const ids: string[] = [];
        for (const username of usernames) {
          const user = found.byUsername.get(nameKey(username));
          if (user) ids.push(user.id);
        }
        for (const email of emails) {
          const users = found.byEmail.get(nameKey(email)) ?? [];
          if (users.length === 1) ids.push(users[0]!.id);
        }
        ctx.plannedMemberships.add(realm, organizationId, ids);
      } catch {
        // The member set's plan read these names a moment ago; if that read now fails, the member
        // roles simply find no planned membership and check the live one.
      }
    },
  };
}
