/**
 * Memberships (the wire contract, docs/guides/service.md): get member info, list, count, check, add, remove.
 * `/orgs/me` is a static route, so find-my-way matches it before `/orgs/:orgId`.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CountSchema,
  MemberInfoSchema,
  MemberListSchema,
  MembersQuerySchema,
  memberToWire,
  organizationToWire,
  NoBodySchema,
  roleToWire,
  type MemberInfo,
  type MemberRepresentation,
} from '../../api';
import { bearerHook, realmHook, type Requirement } from '../auth/guards';
import { authOf, realmOf, requestUrlOf, type ServiceContext, originOf } from '../context';
import { notFound } from '../errors';
import { checkedJsonArrayInTurns, JSON_ITEMS_PER_TURN } from '../response-check';

/**
 * What "check membership" (`GET …/orgs/{orgId}/members/{userId}`) asks of its caller; the fast
 * path of the check (member-check-fast-path.ts) asks the same.
 */
export const MEMBER_CHECK_REQUIREMENT: Readonly<Requirement> = Object.freeze({ permission: 'view-organizations' });

const RealmParams = Type.Object({ realm: Type.String() });
const OrgParams = Type.Object({ realm: Type.String(), orgId: Type.String() });
const MemberParams = Type.Object({ realm: Type.String(), orgId: Type.String(), userId: Type.String() });
const CountQuery = Type.Object({ excludeAdminAccounts: Type.Optional(Type.Boolean()) });

/** Registers the membership routes. */
export async function membershipRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  const { store } = ctx;
  const { organizations } = ctx.admin;
  const realm = realmHook(ctx);
  // Request and answer types follow from the route schemas below.
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  routes.get(
    '/realms/:realm/orgs/me',
    { schema: { params: RealmParams, response: { 200: MemberInfoSchema } }, onRequest: [realm, bearerHook(ctx, {})] },
    async (request) => {
      const memberships = await store.listUserOrganizationRoles(realmOf(request).name, authOf(request).userId);
      const info: MemberInfo = {};
      for (const { organization: org, roles } of memberships) {
        // displayName and url are left out when null, by the one rule of organizationToWire.
        const { name, displayName, url, attributes } = organizationToWire(org);
        info[org.id] = {
          name,
          ...(displayName !== undefined ? { displayName } : {}),
          ...(url !== undefined ? { url } : {}),
          attributes,
          roles: roles.map((role) => role.name),
        };
      }
      return info;
    },
  );

  routes.get(
    '/realms/:realm/orgs/:orgId/members',
    {
      schema: { params: OrgParams, querystring: MembersQuerySchema, response: { 200: MemberListSchema } },
      onRequest: [realm, bearerHook(ctx, { permission: 'view-organizations' })],
    },
    async (request, reply) => {
      const realmName = realmOf(request).name;
      const { orgId } = request.params;
      const query = request.query;
      const members: MemberRepresentation[] = (await organizations.listMembers(realmName, orgId, query)).map(memberToWire);
      if (query.includeOrgs === true) {
        for (const member of members) {
          // Organization id → the member's roles there (the real service's shape).
          const organizations: NonNullable<MemberRepresentation['organizations']> = {};
          for (const { organization, roles } of await store.listUserOrganizationRoles(realmName, member.id)) {
            organizations[organization.id] = roles.map(roleToWire);
          }
          member.organizations = organizations;
        }
      }
      // A large page is checked and written a part at a time, so that it does not hold up the
      // requests that arrive meanwhile (response-check.ts); a small one goes the usual way.
      if (members.length <= JSON_ITEMS_PER_TURN) return members;
      const body = await checkedJsonArrayInTurns(MemberListSchema.items, members, { method: request.method, url: request.routeOptions.url ?? request.url, status: 200 });
      // Text is sent as it is (fastify serializes only objects); the type provider knows the
      // answer's object form only, hence the cast.
      return reply.type('application/json; charset=utf-8').send(body as unknown as MemberRepresentation[]);
    },
  );

  routes.get(
    '/realms/:realm/orgs/:orgId/members/count',
    {
      schema: { params: OrgParams, querystring: CountQuery, response: { 200: CountSchema } },
      onRequest: [realm, bearerHook(ctx, { permission: 'view-organizations' })],
    },
    async (request) => organizations.countMembers(realmOf(request).name, request.params.orgId, request.query),
  );

  routes.get(
    '/realms/:realm/orgs/:orgId/members/:userId',
    {
      schema: { params: MemberParams, response: { 204: NoBodySchema } },
      onRequest: [realm, bearerHook(ctx, MEMBER_CHECK_REQUIREMENT)],
    },
    async (request, reply) => {
      const { orgId, userId } = request.params;
      if (!(await store.isMember(realmOf(request).name, orgId, userId))) {
        throw notFound(`User ${userId} is not a member of organization ${orgId}.`);
      }
      return reply.status(204).send();
    },
  );

  routes.put(
    '/realms/:realm/orgs/:orgId/members/:userId',
    {
      schema: { params: MemberParams, response: { 201: NoBodySchema } },
      onRequest: [realm, bearerHook(ctx, { permission: 'manage-organizations' })],
    },
    async (request, reply) => {
      // Adding an existing member is a success too (idempotent), so retries are safe.
      await ctx.admin.as(originOf(request)).organizations.addMember(realmOf(request).name, request.params.orgId, request.params.userId);
      return reply.status(201).header('Location', requestUrlOf(request, ctx)).send();
    },
  );

  routes.delete(
    '/realms/:realm/orgs/:orgId/members/:userId',
    {
      schema: { params: MemberParams, response: { 204: NoBodySchema } },
      onRequest: [realm, bearerHook(ctx, { permission: 'manage-organizations' })],
    },
    async (request, reply) => {
      await ctx.admin.as(originOf(request)).organizations.removeMember(realmOf(request).name, request.params.orgId, request.params.userId);
      return reply.status(204).send();
    },
  );
}
