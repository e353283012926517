/**
 * A user's organizations and a member's roles, the hosted service's `/{realm}/users/{userId}/orgs`
 * resources under `/realms` (docs/guides/service.md#organization-roles): the organizations a user
 * belongs to, and one member's roles in one organization: list, grant many (PUT), revoke many
 * (PATCH), each many answered 207 with one entry per role asked.
 *
 * Following the hosted service's source (keycloak-orgs UserResource): the organizations of a user
 * are those the caller may see (all with `view-organizations`, else those the caller is a member
 * of); a member's roles need `view-organizations` or the organization's `view-roles` role; grants
 * and revokes need `manage-organizations` or its `manage-roles` role; the user must be a member
 * (400 `not_member`), and a role the organization does not have is refused in its own entry (the
 * rules: the admin API's roles area, admin/roles.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  BulkResultListSchema,
  hasPermission,
  MANAGE_ROLES_ROLE,
  organizationToWire,
  OrganizationListSchema,
  RoleInputListSchema,
  RoleListSchema,
  roleToWire,
  VIEW_ROLES_ROLE,
} from '../../api';
import { bearerHook, realmHook } from '../auth/guards';
import { authOf, originOf, realmOf, type ServiceContext } from '../context';
import { notFound } from '../errors';
import { multiStatus } from './roles';

const UserParams = Type.Object({ realm: Type.String(), userId: Type.String() });
const MemberParams = Type.Object({ realm: Type.String(), userId: Type.String(), orgId: Type.String() });

/** Registers the routes of a user's organizations and a member's roles. */
export async function memberRoleRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  const { store } = ctx;
  const realm = realmHook(ctx);
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const memberRolesUrl = '/realms/:realm/users/:userId/orgs/:orgId/roles';

  routes.get(
    '/realms/:realm/users/:userId/orgs',
    { schema: { params: UserParams, response: { 200: OrganizationListSchema } }, onRequest: [realm, bearerHook(ctx, {})] },
    async (request) => {
      const realmName = realmOf(request).name;
      const { userId } = request.params;
      if (!(await store.getUser(realmName, userId))) throw notFound(`User ${userId} does not exist.`);
      const organizations = await store.listUserOrganizations(realmName, userId);
      const caller = authOf(request);
      if (hasPermission(caller.permissions, 'view-organizations')) return organizations.map(organizationToWire);
      // Without the permission, the organizations the caller belongs to as well.
      const callers = new Set((await store.listUserOrganizations(realmName, caller.userId)).map((org) => org.id));
      return organizations.filter((org) => callers.has(org.id)).map(organizationToWire);
    },
  );

  routes.get(
    memberRolesUrl,
    {
      schema: { params: MemberParams, response: { 200: RoleListSchema } },
      onRequest: [realm, bearerHook(ctx, { permission: 'view-organizations', orOrgRoles: [VIEW_ROLES_ROLE] })],
    },
    async (request) => (await ctx.admin.roles.memberRoles(realmOf(request).name, request.params.orgId, request.params.userId)).map(roleToWire),
  );

  for (const [method, change] of [
    ['PUT', 'grant'],
    ['PATCH', 'revoke'],
  ] as const) {
    routes.route({
      method,
      url: memberRolesUrl,
      schema: { params: MemberParams, body: RoleInputListSchema, response: { 207: BulkResultListSchema } },
      onRequest: [realm, bearerHook(ctx, { permission: 'manage-organizations', orOrgRoles: [MANAGE_ROLES_ROLE] })],
      handler: async (request, reply) => {
        const { userId, orgId } = request.params;
        const names = request.body.map((input) => input.name);
        return multiStatus(ctx, request, reply, await ctx.admin.as(originOf(request)).roles.changeMemberRoles(realmOf(request).name, orgId, userId, names, change));
      },
    });
  }
}
