/**
 * The audit log: `GET /admin/realms/{realm}/events` (beside Keycloak's user lookup), a page of the
 * realm's admin and access events, newest first, filtered by type, resource path prefix, actor and
 * time range (admin/audit-log.ts). Needs `view-events`.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { EventListSchema, EventsQuerySchema } from '../../api';
import { bearerHook, realmHook } from '../auth/guards';
import { realmOf, type ServiceContext } from '../context';

const RealmParams = Type.Object({ realm: Type.String() });

/** Registers the audit log route. */
export async function eventRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/admin/realms/:realm/events',
    {
      schema: { params: RealmParams, querystring: EventsQuerySchema, response: { 200: EventListSchema } },
      onRequest: [realmHook(ctx), bearerHook(ctx, { permission: 'view-events' })],
    },
    async (request) => ctx.admin.events.list(realmOf(request).name, request.query),
  );
}
