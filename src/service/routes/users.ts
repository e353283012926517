/**
 * The user lookup (Keycloak's `GET /admin/realms/{realm}/users`, and `…/users/{id}` for one user),
 * so that people can name a member by username or email instead of an id, and a client can tell an
 * unknown id before using it. Read-only: users are created by administrators.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { MEMBERS_PAGE, MemberListSchema, MemberSchema, memberToWire, UsersQuerySchema } from '../../api';
import { bearerHook, realmHook } from '../auth/guards';
import { notFound } from '../errors';
import { realmOf, type ServiceContext } from '../context';
import { toMember } from '../store/store';

const RealmParams = Type.Object({ realm: Type.String() });
const UserParams = Type.Object({ realm: Type.String(), userId: Type.String() });

/** Registers the user lookup. */
export async function userRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/admin/realms/:realm/users',
    {
      schema: { params: RealmParams, querystring: UsersQuerySchema, response: { 200: MemberListSchema } },
      onRequest: [realmHook(ctx), bearerHook(ctx, { permission: 'view-users' })],
    },
    async (request) => {
      const query = request.query;
      const users = await ctx.store.findUsers(realmOf(request).name, {
        username: query.username,
        email: query.email,
        search: query.search,
        exact: query.exact === true,
        first: query.first ?? 0,
        max: Math.min(query.max ?? MEMBERS_PAGE.default, MEMBERS_PAGE.cap),
      });
      return users.map((user) => memberToWire(toMember(user)));
    },
  );

  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/admin/realms/:realm/users/:userId',
    {
      schema: { params: UserParams, response: { 200: MemberSchema } },
      onRequest: [realmHook(ctx), bearerHook(ctx, { permission: 'view-users' })],
    },
    async (request) => {
      const user = await ctx.store.getUser(realmOf(request).name, request.params.userId);
      if (!user) throw notFound('User not found');
      return memberToWire(toMember(user));
    },
  );
}
