/**
 * Memberships (the wire contract, docs/guides/service.md): get member info, list, count, check, add, remove.
 * `/orgs/me` is a static route, so find-my-way matches it before `/orgs/:orgId`.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CountSchema,
  MEMBERS_PAGE,
  MemberInfoSchema,
  MemberListSchema,
  MembersQuerySchema,
  memberToWire,
  organizationToWire,
  NoBodySchema,
  roleToWire,
  orgAdminUsername,
  type MemberInfo,
  type MemberRepresentation,
} from '../../api';
import { bearerHook, realmHook, type Requirement } from '../auth/guards';
import { authOf, realmOf, requestUrlOf, type ServiceContext } from '../context';
import { notFound, ServiceError } from '../errors';
import { checkedJsonArrayInTurns, JSON_ITEMS_PER_TURN } from '../response-check';
import { toMember } from '../store/store';

/**
 * What "check membership" (`GET …/orgs/{orgId}/members/{userId}`) asks of its caller; the fast
 * path of the check (member-check-fast-path.ts) asks the same.
 */
export const MEMBER_CHECK_REQUIREMENT: Readonly<Requirement> = Object.freeze({ permission: 'view-organizations' });

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
  // Request and answer types follow from the route schemas below.
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  /** 404 unless the organization exists in the realm. */
  async function requireOrg(realmName: string, orgId: string): Promise<void> {
    if (!(await store.getOrganization(realmName, orgId))) throw notFound(`Organization ${orgId} does not exist.`);
  }

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
      await requireOrg(realmName, orgId);
      const users = await store.listMembers(realmName, orgId, {
        searchTerms: searchTerms(query.search),
        excludeAdminAccounts: query.excludeAdminAccounts === true,
        first: query.first ?? 0,
        max: Math.min(query.max ?? MEMBERS_PAGE.default, MEMBERS_PAGE.cap),
      });
      const members: MemberRepresentation[] = users.map((user) => memberToWire(toMember(user)));
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
    async (request) => {
      const realmName = realmOf(request).name;
      const { orgId } = request.params;
      await requireOrg(realmName, orgId);
      return store.countMembers(realmName, orgId, { excludeAdminAccounts: request.query.excludeAdminAccounts === true });
    },
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

  routes.delete(
    '/realms/:realm/orgs/:orgId/members/:userId',
    {
      schema: { params: MemberParams, response: { 204: NoBodySchema } },
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
