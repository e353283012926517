/**
 * Organization roles (docs/guides/service.md#organization-roles), the hosted service's
 * `/{realm}/orgs/{orgId}/roles` resources under `/realms`: list, create one (POST) or many (PUT),
 * delete many (PATCH), get, update and delete one, the users of a role, and one user's grant of a
 * role (check, grant, revoke).
 *
 * Who may: `view-organizations` reads, `manage-organizations` writes (the hosted service's realm
 * roles of the same names); a member who holds the organization's `view-roles` role may read its
 * roles, and one who also holds `manage-roles` may change them (the hosted service's
 * `hasOrgViewRoles` / `hasOrgManageRoles`). The rules themselves (what the hosted service's source
 * decides and its spec does not show) are the admin API's roles area, admin/roles.ts, which the
 * dashboard uses too; these routes add the HTTP: statuses, `Location`, the 207 answers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  BulkResultListSchema,
  MANAGE_ROLES_ROLE,
  memberToWire,
  MemberListSchema,
  NoBodySchema,
  RoleInputListSchema,
  RoleInputSchema,
  RoleListSchema,
  RoleSchema,
  roleToWire,
  VIEW_ROLES_ROLE,
  type BulkResult,
} from '../../api';
import { bearerHook, realmHook, type Requirement } from '../auth/guards';
import { originOf, realmOf, requestUrlOf, type ServiceContext } from '../context';
import { checkedJsonArrayInTurns, JSON_ITEMS_PER_TURN } from '../response-check';

/** What reading an organization's roles asks: `view-organizations`, or its `view-roles` role. */
export const VIEW_ROLES_REQUIREMENT: Readonly<Requirement> = Object.freeze({ permission: 'view-organizations', orOrgRoles: [VIEW_ROLES_ROLE] });
/**
 * What changing them asks: `manage-organizations`, or its `view-roles` and `manage-roles` roles
 * (the hosted service checks the first on the way to the roles, the second to change them).
 */
export const MANAGE_ROLES_REQUIREMENT: Readonly<Requirement> = Object.freeze({
  permission: 'manage-organizations',
  orOrgRoles: [VIEW_ROLES_ROLE, MANAGE_ROLES_ROLE],
});

/** HTTP 207 Multi-Status: the bulk operations' answer, one entry per entry of the request. */
export const MULTI_STATUS = 207;

/** A 207 answer with `Location` = the request's URL, as the hosted service sends it. */
export function multiStatus(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply, results: BulkResult[]): FastifyReply {
  return reply.status(MULTI_STATUS).header('Location', requestUrlOf(request, ctx)).send(results);
}

const OrgParams = Type.Object({ realm: Type.String(), orgId: Type.String() });
const RoleParams = Type.Object({ realm: Type.String(), orgId: Type.String(), name: Type.String() });
const GrantParams = Type.Object({ realm: Type.String(), orgId: Type.String(), name: Type.String(), userId: Type.String() });
const RoleUsersQuery = Type.Object({ excludeAdminAccounts: Type.Optional(Type.Boolean()) });

/** Registers the organization role routes. */
export async function roleRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  const { roles } = ctx.admin;
  const realm = realmHook(ctx);
  const view = bearerHook(ctx, VIEW_ROLES_REQUIREMENT);
  const manage = bearerHook(ctx, MANAGE_ROLES_REQUIREMENT);
  // Request and answer types follow from the route schemas below.
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const rolesUrl = '/realms/:realm/orgs/:orgId/roles';
  const roleUrl = `${rolesUrl}/:name`;

  routes.get(rolesUrl, { schema: { params: OrgParams, response: { 200: RoleListSchema } }, onRequest: [realm, view] }, async (request) =>
    (await roles.list(realmOf(request).name, request.params.orgId)).map(roleToWire),
  );

  routes.post(
    rolesUrl,
    { schema: { params: OrgParams, body: RoleInputSchema, response: { 201: NoBodySchema } }, onRequest: [realm, manage] },
    async (request, reply) => {
      const role = await ctx.admin.as(originOf(request)).roles.create(realmOf(request).name, request.params.orgId, request.body);
      return reply.status(201).header('Location', `${requestUrlOf(request, ctx)}/${encodeURIComponent(role.name)}`).send();
    },
  );

  routes.put(
    rolesUrl,
    { schema: { params: OrgParams, body: RoleInputListSchema, response: { 207: BulkResultListSchema } }, onRequest: [realm, manage] },
    async (request, reply) => multiStatus(ctx, request, reply, await ctx.admin.as(originOf(request)).roles.createMany(realmOf(request).name, request.params.orgId, request.body)),
  );

  routes.patch(
    rolesUrl,
    { schema: { params: OrgParams, body: RoleInputListSchema, response: { 207: BulkResultListSchema } }, onRequest: [realm, manage] },
    async (request, reply) =>
      multiStatus(ctx, request, reply, await ctx.admin.as(originOf(request)).roles.deleteMany(realmOf(request).name, request.params.orgId, request.body.map((input) => input.name))),
  );

  routes.get(roleUrl, { schema: { params: RoleParams, response: { 200: RoleSchema } }, onRequest: [realm, view] }, async (request) =>
    roleToWire(await roles.get(realmOf(request).name, request.params.orgId, request.params.name)),
  );

  routes.put(
    roleUrl,
    { schema: { params: RoleParams, body: RoleInputSchema, response: { 204: NoBodySchema } }, onRequest: [realm, manage] },
    async (request, reply) => {
      // Only the description changes (absent or null clears it); `name` and `id` are ignored.
      await ctx.admin.as(originOf(request)).roles.updateDescription(realmOf(request).name, request.params.orgId, request.params.name, request.body.description);
      return reply.status(204).send();
    },
  );

  routes.delete(roleUrl, { schema: { params: RoleParams, response: { 204: NoBodySchema } }, onRequest: [realm, manage] }, async (request, reply) => {
    await ctx.admin.as(originOf(request)).roles.delete(realmOf(request).name, request.params.orgId, request.params.name);
    return reply.status(204).send();
  });

  routes.get(
    `${roleUrl}/users`,
    { schema: { params: RoleParams, querystring: RoleUsersQuery, response: { 200: MemberListSchema } }, onRequest: [realm, view] },
    async (request, reply) => {
      const { orgId, name } = request.params;
      const members = (await roles.listUsers(realmOf(request).name, orgId, name, { excludeAdminAccounts: request.query.excludeAdminAccounts === true })).map(memberToWire);
      // A role of many members is checked and written a part at a time, as member pages are.
      if (members.length <= JSON_ITEMS_PER_TURN) return members;
      const body = await checkedJsonArrayInTurns(MemberListSchema.items, members, { method: request.method, url: request.routeOptions.url ?? request.url, status: 200 });
      return reply.type('application/json; charset=utf-8').send(body as unknown as typeof members);
    },
  );

  routes.get(`${roleUrl}/users/:userId`, { schema: { params: GrantParams, response: { 204: NoBodySchema } }, onRequest: [realm, view] }, async (request, reply) => {
    const { orgId, name, userId } = request.params;
    await roles.check(realmOf(request).name, orgId, name, userId);
    return reply.status(204).send();
  });

  routes.put(`${roleUrl}/users/:userId`, { schema: { params: GrantParams, response: { 201: NoBodySchema } }, onRequest: [realm, manage] }, async (request, reply) => {
    const { orgId, name, userId } = request.params;
    // Granting a held role is a success too (idempotent), so retries are safe.
    await ctx.admin.as(originOf(request)).roles.grant(realmOf(request).name, orgId, name, userId);
    return reply.status(201).header('Location', requestUrlOf(request, ctx)).send();
  });

  routes.delete(`${roleUrl}/users/:userId`, { schema: { params: GrantParams, response: { 204: NoBodySchema } }, onRequest: [realm, manage] }, async (request, reply) => {
    const { orgId, name, userId } = request.params;
    await ctx.admin.as(originOf(request)).roles.revoke(realmOf(request).name, orgId, name, userId);
    return reply.status(204).send();
  });
}
