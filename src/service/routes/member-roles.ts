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
 * (400 `not_member`), and a role the organization does not have is refused in its own entry.
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
  type BulkResult,
} from '../../api';
import { bearerHook, realmHook } from '../auth/guards';
import { authOf, realmOf, type ServiceContext } from '../context';
import { notFound } from '../errors';
import type { RoleChange } from '../store/store';
import { memberRolesRefusal, multiStatus, noRole } from './role-answers';

const UserParams = Type.Object({ realm: Type.String(), userId: Type.String() });
const MemberParams = Type.Object({ realm: Type.String(), userId: Type.String(), orgId: Type.String() });

/** One entry of a grant or revoke answer: `success` (201 granted, 204 revoked) or 400 for a role the organization lacks. */
function entryOf(change: RoleChange, orgId: string, success: number): BulkResult {
  return change.outcome === 'no-role' ? { status: 400, error: noRole(orgId, change.name) } : { status: success, item: roleToWire(change.role) };
}

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
    async (request) => {
      const realmName = realmOf(request).name;
      const { userId, orgId } = request.params;
      const roles = await store.listMemberRoles(realmName, orgId, userId);
      if (roles) return roles.map(roleToWire);
      if (!(await store.getOrganization(realmName, orgId))) throw notFound(`Organization ${orgId} does not exist.`);
      throw notFound(`User ${userId} is not a member of organization ${orgId}.`);
    },
  );

  for (const [method, change, success, what] of [
    ['PUT', 'grant', 201, 'granted roles'],
    ['PATCH', 'revoke', 204, 'have roles revoked'],
  ] as const) {
    routes.route({
      method,
      url: memberRolesUrl,
      schema: { params: MemberParams, body: RoleInputListSchema, response: { 207: BulkResultListSchema } },
      onRequest: [realm, bearerHook(ctx, { permission: 'manage-organizations', orOrgRoles: [MANAGE_ROLES_ROLE] })],
      handler: async (request, reply) => {
        const { userId, orgId } = request.params;
        const names = request.body.map((input) => input.name);
        const outcome = await store.changeMemberRoles(realmOf(request).name, orgId, userId, names, change, Date.now());
        if (outcome.kind !== 'done') throw memberRolesRefusal(outcome.kind, orgId, userId, what);
        return multiStatus(ctx, request, reply, outcome.changes.map((entry) => entryOf(entry, orgId, success)));
      },
    });
  }
}
