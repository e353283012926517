/**
 * Memberships (SERVICE_API.md, "Memberships"): get member info, list, count, check, add, remove.
 * `/orgs/me` is a static route, so find-my-way matches it before `/orgs/:orgId`.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  MEMBERS_PAGE,
  MembersQuerySchema,
  orgAdminUsername,
  type Member,
  type MemberInfo,
  type MembersQuery,
} from '../../api';
import { bearerHook, realmHook } from '../auth/guards';
import { authOf, realmOf, requestUrlOf, type ServiceContext } from '../context';
import { notFound, ServiceError } from '../errors';
import { toMember } from '../store/store';

const RealmParams = Type.Object({ realm: Type.String() });
const OrgParams = Type.Object({ realm: Type.String(), orgId: Type.String() });
const MemberParams = Type.Object({ realm: Type.String(), orgId: Type.String(), userId: Type.String() });
const CountQuery = Type.Object({ excludeAdminAccounts: Type.Optional(Type.Boolean()) });

/** Comma-separated search terms, blanks dropped. */
function searchTerms(search: string | undefined): string[] | undefined {
  if (search === undefined) return undefined;
  const terms = search.split(',').map((term) => term.trim()).filter((term) => term !== '');
  return terms.length > 0 ? terms : undefined;
}

/** Registers the membership routes. */
export async function membershipRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  const { store } = ctx;
  const realm = realmHook(ctx);

  /** 404 unless the organization exists in the realm. */
  async function requireOrg(realmName: string, orgId: string): Promise<void> {
    if (!(await store.getOrganization(realmName, orgId))) throw notFound(`Organization ${orgId} does not exist.`);
  }

  app.get<{ Params: { realm: string } }>(
    '/realms/:realm/orgs/me',
    { schema: { params: RealmParams }, onRequest: [realm, bearerHook(ctx, {})] },
    async (request): Promise<MemberInfo> => {
      const orgs = await store.listUserOrganizations(realmOf(request).name, authOf(request).userId);
      const info: MemberInfo = {};
      for (const org of orgs) {
        info[org.id] = {
          name: org.name,
          ...(org.displayName !== null ? { displayName: org.displayName } : {}),
          ...(org.url !== null ? { url: org.url } : {}),
          attributes: org.attributes,
          // The service has no organization roles yet; the field keeps the real service's shape.
          roles: [],
        };
      }
      return info;
    },
  );

  app.get<{ Params: { realm: string; orgId: string }; Querystring: MembersQuery }>(
    '/realms/:realm/orgs/:orgId/members',
    {
      schema: { params: OrgParams, querystring: MembersQuerySchema },
      onRequest: [realm, bearerHook(ctx, { permission: 'view-organizations' })],
    },
    async (request): Promise<Member[]> => {
      const realmName = realmOf(request).name;
      const { orgId } = request.params;
      const query = request.query;
      await requireOrg(realmName, orgId);
      const users = await store.listMembers(realmName, orgId, {
        searchTerms: searchTerms(query.search),
        excludeAdminAccounts: query.excludeAdminAccounts === true,
        first: query.first ?? 0,
        max: Math.min(query.max ?? MEMBERS_PAGE.default, MEMBERS_PAGE.cap),
      });
      const members = users.map(toMember);
      if (query.includeOrgs === true) {
        for (const member of members) {
          member.organizations = (await store.listUserOrganizations(realmName, member.id)).map((org) => org.id);
        }
      }
      return members;
    },
  );

  app.get<{ Params: { realm: string; orgId: string }; Querystring: { excludeAdminAccounts?: boolean } }>(
    '/realms/:realm/orgs/:orgId/members/count',
    {
      schema: { params: OrgParams, querystring: CountQuery },
      onRequest: [realm, bearerHook(ctx, { permission: 'view-organizations' })],
    },
    async (request, reply) => {
      const realmName = realmOf(request).name;
      const { orgId } = request.params;
      await requireOrg(realmName, orgId);
      const count = await store.countMembers(realmName, orgId, {
        excludeAdminAccounts: request.query.excludeAdminAccounts === true,
      });
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(count));
    },
  );

  app.get<{ Params: { realm: string; orgId: string; userId: string } }>(
    '/realms/:realm/orgs/:orgId/members/:userId',
    {
      schema: { params: MemberParams },
      onRequest: [realm, bearerHook(ctx, { permission: 'view-organizations' })],
    },
    async (request, reply) => {
      const { orgId, userId } = request.params;
      if (!(await store.isMember(realmOf(request).name, orgId, userId))) {
        throw notFound(`User ${userId} is not a member of organization ${orgId}.`);
      }
      return reply.status(204).send();
    },
  );

  app.put<{ Params: { realm: string; orgId: string; userId: string } }>(
    '/realms/:realm/orgs/:orgId/members/:userId',
    {
      schema: { params: MemberParams },
      onRequest: [realm, bearerHook(ctx, { permission: 'manage-organizations' })],
    },
    async (request, reply) => {
      const realmName = realmOf(request).name;
      const { orgId, userId } = request.params;
      // Adding an existing member is a success too (idempotent), so retries are safe.
      if (!(await store.addMember(realmName, orgId, userId, Date.now()))) {
        const org = await store.getOrganization(realmName, orgId);
        throw notFound(org ? `User ${userId} does not exist.` : `Organization ${orgId} does not exist.`);
      }
      return reply.status(201).header('Location', requestUrlOf(request, ctx)).send();
    },
  );

  app.delete<{ Params: { realm: string; orgId: string; userId: string } }>(
    '/realms/:realm/orgs/:orgId/members/:userId',
    {
      schema: { params: MemberParams },
      onRequest: [realm, bearerHook(ctx, { permission: 'manage-organizations' })],
    },
    async (request, reply) => {
      const realmName = realmOf(request).name;
      const { orgId, userId } = request.params;
      const user = await store.getUser(realmName, userId);
      if (user && user.kind === 'org-admin' && user.username === orgAdminUsername(orgId)) {
        throw new ServiceError(403, 'forbidden', 'Cannot remove default organization user.');
      }
      if (!(await store.removeMember(realmName, orgId, userId))) {
        throw notFound(`User ${userId} is not a member of organization ${orgId}.`);
      }
      return reply.status(204).send();
    },
  );
}
