/**
 * `GET /realms/{realm}/orgs/export` and `POST /realms/{realm}/orgs/import`, the hosted service's
 * bulk transfer (org-transfer.ts). As in the vendor's source (keycloak-orgs), the export asks for
 * `manage-organizations`; the import asks for `manage-organizations` and, since it creates
 * organizations, `create-organization` too.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  hasPermission,
  OrganizationsExportQuerySchema,
  OrganizationsExportSchema,
  OrganizationsImportQuerySchema,
  OrganizationsImportResultSchema,
  OrganizationsImportSchema,
} from '../../api';
import { bearerHook, insufficientScope, realmHook } from '../auth/guards';
import { authOf, originOf, realmOf, type ServiceContext } from '../context';
import { sendError, ServiceError } from '../errors';
import { exportOrganizations, importOrganizations } from './org-transfer';

const RealmParams = Type.Object({ realm: Type.String() });

/**
 * The other methods of the two paths: 405 with `Allow`, so that none of them reaches the
 * `/orgs/{orgId}` routes and reads `export` or `import` as an organization id.
 */
function refuseOtherMethods(app: FastifyInstance, url: string, allowed: 'GET' | 'POST'): void {
  const others = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((method) => method !== allowed);
  // fastify answers HEAD on every GET route; Allow lists it as the not-found handler does.
  const allow = allowed === 'GET' ? 'GET, HEAD' : allowed;
  app.route({
    method: others,
    url,
    handler: async (request, reply) =>
      sendError(reply, new ServiceError(405, 'method_not_allowed', `${request.method} is not allowed on ${request.url.split('?')[0]}; use ${allow}.`, { Allow: allow })),
  });
}

/** Registers the export and import routes. */
export async function transferRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const manage = [realmHook(ctx), bearerHook(ctx, { permission: 'manage-organizations' })];

  routes.get(
    '/realms/:realm/orgs/export',
    { schema: { params: RealmParams, querystring: OrganizationsExportQuerySchema, response: { 200: OrganizationsExportSchema } }, onRequest: manage },
    async (request) => {
      const { orgIds, ...include } = request.query;
      return exportOrganizations(ctx.store, realmOf(request), { ...include, orgIds: orgIds === undefined ? undefined : [orgIds].flat() }, ctx.now);
    },
  );

  refuseOtherMethods(app, '/realms/:realm/orgs/export', 'GET');
  refuseOtherMethods(app, '/realms/:realm/orgs/import', 'POST');

  routes.post(
    '/realms/:realm/orgs/import',
    {
      schema: {
        params: RealmParams,
        querystring: OrganizationsImportQuerySchema,
        body: OrganizationsImportSchema,
        response: { 200: OrganizationsImportResultSchema },
      },
      onRequest: manage,
    },
    async (request) => {
      const realm = realmOf(request);
      if (!hasPermission(authOf(request).permissions, 'create-organization')) throw insufficientScope(realm.name, 'create-organization');
      return importOrganizations(ctx.store, realm, request.body, { ...request.query, now: ctx.now, origin: originOf(request) });
    },
  );
}
