/**
 * Organization roles (docs/guides/service.md#organization-roles), the hosted service's
 * `/{realm}/orgs/{orgId}/roles` resources under `/realms`: list, create one (POST) or many (PUT),
 * delete many (PATCH), get, update and delete one, the users of a role, and one user's grant of a
 * role (check, grant, revoke).
 *
 * Who may: `view-organizations` reads, `manage-organizations` writes (the hosted service's realm
 * roles of the same names); a member who holds the organization's `view-roles` role may read its
 * roles, and one who also holds `manage-roles` may change them (the hosted service's
 * `hasOrgViewRoles` / `hasOrgManageRoles`). Where the hosted service's source decides what its
 * spec does not show, these routes follow the source (keycloak-orgs RolesResource, RoleResource):
 * a grant needs a member (400), default roles cannot be deleted (400), deleting a role another
 * request already deleted counts as deleted in a bulk delete, an update changes the description only.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  BulkResultListSchema,
  isDefaultRole,
  MANAGE_ROLES_ROLE,
  memberToWire,
  MemberListSchema,
  NoBodySchema,
  RoleInputListSchema,
  RoleInputSchema,
  RoleListSchema,
  roleNameProblem,
  RoleSchema,
  roleToWire,
  VIEW_ROLES_ROLE,
  type BulkResult,
} from '../../api';
import { bearerHook, realmHook, type Requirement } from '../auth/guards';
import { realmOf, requestUrlOf, type ServiceContext } from '../context';
import { notFound, ServiceError } from '../errors';
import { checkedJsonArrayInTurns, JSON_ITEMS_PER_TURN } from '../response-check';
import { toMember, type RoleRecord, type Store } from '../store/store';
import { memberRolesRefusal, multiStatus, noRole } from './role-answers';

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

const OrgParams = Type.Object({ realm: Type.String(), orgId: Type.String() });
const RoleParams = Type.Object({ realm: Type.String(), orgId: Type.String(), name: Type.String() });
const GrantParams = Type.Object({ realm: Type.String(), orgId: Type.String(), name: Type.String(), userId: Type.String() });
const RoleUsersQuery = Type.Object({ excludeAdminAccounts: Type.Optional(Type.Boolean()) });

const invalidBody = (description: string): ServiceError => new ServiceError(400, 'invalid_body', description);
const orgMissing = (orgId: string): ServiceError => notFound(`Organization ${orgId} does not exist.`);
const roleExists = (name: string, orgId: string): string => `Role "${name}" already exists in organization ${orgId}.`;
const defaultRoleKept = (name: string): string => `Default organization role ${name} cannot be deleted.`;

/** The role name of a create, checked: 400 `invalid_body` when missing or not a name. */
function roleNameOf(name: string | undefined): string {
  if (name === undefined) throw invalidBody('name is required.');
  const problem = roleNameProblem(name);
  if (problem) throw invalidBody(`name ${problem}.`);
  return name;
}

/** The description of a create or update body: null when absent or null. */
const descriptionOf = (description: string | null | undefined): string | null => description ?? null;

/** 404 for a role that is not there: naming the organization when it is the one missing. */
async function roleMissing(store: Store, realm: string, orgId: string, name: string): Promise<ServiceError> {
  return (await store.getOrganization(realm, orgId)) ? notFound(noRole(orgId, name)) : orgMissing(orgId);
}

/** A role the caller addresses by name, or 404. */
async function requireRole(store: Store, realm: string, orgId: string, name: string): Promise<RoleRecord> {
  const role = await store.getRole(realm, orgId, name);
  if (!role) throw await roleMissing(store, realm, orgId, name);
  return role;
}

/** Registers the organization role routes. */
export async function roleRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  const { store } = ctx;
  const realm = realmHook(ctx);
  const view = bearerHook(ctx, VIEW_ROLES_REQUIREMENT);
  const manage = bearerHook(ctx, MANAGE_ROLES_REQUIREMENT);
  // Request and answer types follow from the route schemas below.
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const rolesUrl = '/realms/:realm/orgs/:orgId/roles';
  const roleUrl = `${rolesUrl}/:name`;

  routes.get(rolesUrl, { schema: { params: OrgParams, response: { 200: RoleListSchema } }, onRequest: [realm, view] }, async (request) => {
    const roles = await store.listRoles(realmOf(request).name, request.params.orgId);
    if (!roles) throw orgMissing(request.params.orgId);
    return roles.map(roleToWire);
  });

  routes.post(
    rolesUrl,
    { schema: { params: OrgParams, body: RoleInputSchema, response: { 201: NoBodySchema } }, onRequest: [realm, manage] },
    async (request, reply) => {
      const { orgId } = request.params;
      const name = roleNameOf(request.body.name);
      const created = await store.createRoles(realmOf(request).name, orgId, [{ id: randomUUID(), name, description: descriptionOf(request.body.description) }], Date.now());
      if (!created) throw orgMissing(orgId);
      if (!created[0]!.created) throw new ServiceError(409, 'conflict', roleExists(name, orgId));
      return reply.status(201).header('Location', `${requestUrlOf(request, ctx)}/${encodeURIComponent(name)}`).send();
    },
  );

  routes.put(
    rolesUrl,
    { schema: { params: OrgParams, body: RoleInputListSchema, response: { 207: BulkResultListSchema } }, onRequest: [realm, manage] },
    async (request, reply) => {
      const { orgId } = request.params;
      // Names that are not names are refused one by one; the others are created in one transaction.
      const results: Array<BulkResult | undefined> = request.body.map((input) => {
        const problem = roleNameProblem(input.name);
        return problem ? { status: 400, error: `name ${problem}.` } : undefined;
      });
      const wanted = request.body.flatMap((input, index) =>
        results[index] ? [] : [{ id: randomUUID(), name: input.name, description: descriptionOf(input.description) }],
      );
      const created = await store.createRoles(realmOf(request).name, orgId, wanted, Date.now());
      if (!created) throw orgMissing(orgId);
      let next = 0;
      const answer = results.map((result) => {
        if (result) return result;
        const { created: isNew, role } = created[next++]!;
        return isNew ? { status: 201, item: roleToWire(role) } : { status: 400, error: roleExists(role.name, orgId) };
      });
      return multiStatus(ctx, request, reply, answer);
    },
  );

  routes.patch(
    rolesUrl,
    { schema: { params: OrgParams, body: RoleInputListSchema, response: { 207: BulkResultListSchema } }, onRequest: [realm, manage] },
    async (request, reply) => {
      const { orgId } = request.params;
      const names = request.body.map((input) => input.name);
      const deletable = names.filter((name) => !isDefaultRole(name));
      const deleted = await store.deleteRoles(realmOf(request).name, orgId, deletable);
      if (!deleted) throw orgMissing(orgId);
      let next = 0;
      const answer = names.map((name): BulkResult => {
        if (isDefaultRole(name)) return { status: 400, error: defaultRoleKept(name) };
        const role = deleted[next++];
        // A role that was not there is what the delete wanted (the hosted service answers 204 too).
        return { status: 204, item: role ? roleToWire(role) : { name } };
      });
      return multiStatus(ctx, request, reply, answer);
    },
  );

  routes.get(roleUrl, { schema: { params: RoleParams, response: { 200: RoleSchema } }, onRequest: [realm, view] }, async (request) => {
    const { orgId, name } = request.params;
    return roleToWire(await requireRole(store, realmOf(request).name, orgId, name));
  });

  routes.put(
    roleUrl,
    { schema: { params: RoleParams, body: RoleInputSchema, response: { 204: NoBodySchema } }, onRequest: [realm, manage] },
    async (request, reply) => {
      const { orgId, name } = request.params;
      const realmName = realmOf(request).name;
      // Only the description changes (absent or null clears it); `name` and `id` are ignored.
      const updated = await store.updateRoleDescription(realmName, orgId, name, descriptionOf(request.body.description));
      if (!updated) throw await roleMissing(store, realmName, orgId, name);
      return reply.status(204).send();
    },
  );

  routes.delete(roleUrl, { schema: { params: RoleParams, response: { 204: NoBodySchema } }, onRequest: [realm, manage] }, async (request, reply) => {
    const { orgId, name } = request.params;
    const realmName = realmOf(request).name;
    if (isDefaultRole(name)) {
      // Unknown organizations are still a 404 (the hosted service looks the role up first).
      await requireRole(store, realmName, orgId, name);
      throw new ServiceError(400, 'invalid_request', defaultRoleKept(name));
    }
    const [deleted] = (await store.deleteRoles(realmName, orgId, [name])) ?? [undefined];
    if (!deleted) throw await roleMissing(store, realmName, orgId, name);
    return reply.status(204).send();
  });

  routes.get(
    `${roleUrl}/users`,
    { schema: { params: RoleParams, querystring: RoleUsersQuery, response: { 200: MemberListSchema } }, onRequest: [realm, view] },
    async (request, reply) => {
      const { orgId, name } = request.params;
      const realmName = realmOf(request).name;
      const users = await store.listRoleUsers(realmName, orgId, name, { excludeAdminAccounts: request.query.excludeAdminAccounts === true });
      if (!users) throw await roleMissing(store, realmName, orgId, name);
      const members = users.map((user) => memberToWire(toMember(user)));
      // A role of many members is checked and written a part at a time, as member pages are.
      if (members.length <= JSON_ITEMS_PER_TURN) return members;
      const body = await checkedJsonArrayInTurns(MemberListSchema.items, members, { method: request.method, url: request.routeOptions.url ?? request.url, status: 200 });
      return reply.type('application/json; charset=utf-8').send(body as unknown as typeof members);
    },
  );

  routes.get(
    `${roleUrl}/users/:userId`,
    { schema: { params: GrantParams, response: { 204: NoBodySchema } }, onRequest: [realm, view] },
    async (request, reply) => {
      const { orgId, name, userId } = request.params;
      if (!(await store.hasRole(realmOf(request).name, orgId, name, userId))) throw notFound(`User ${userId} does not have role ${name}.`);
      return reply.status(204).send();
    },
  );

  routes.put(
    `${roleUrl}/users/:userId`,
    { schema: { params: GrantParams, response: { 201: NoBodySchema } }, onRequest: [realm, manage] },
    async (request, reply) => {
      const { orgId, name, userId } = request.params;
      const realmName = realmOf(request).name;
      // Granting a held role is a success too (idempotent), so retries are safe.
      const change = await store.changeMemberRoles(realmName, orgId, userId, [name], 'grant', Date.now());
      if (change.kind !== 'done') throw memberRolesRefusal(change.kind, orgId, userId, 'granted a role');
      if (change.changes[0]!.outcome === 'no-role') throw notFound(noRole(orgId, name));
      return reply.status(201).header('Location', requestUrlOf(request, ctx)).send();
    },
  );

  routes.delete(
    `${roleUrl}/users/:userId`,
    { schema: { params: GrantParams, response: { 204: NoBodySchema } }, onRequest: [realm, manage] },
    async (request, reply) => {
      const { orgId, name, userId } = request.params;
      const change = await store.changeMemberRoles(realmOf(request).name, orgId, userId, [name], 'revoke', Date.now());
      if (change.kind !== 'done' || change.changes[0]!.outcome !== 'changed') throw notFound(`User ${userId} does not have role ${name}.`);
      return reply.status(204).send();
    },
  );
}
