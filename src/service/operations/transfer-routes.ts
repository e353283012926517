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
import { authOf, realmOf, type ServiceContext } from '../context';
import { exportOrganizations, importOrganizations } from './org-transfer';

const RealmParams = Type.Object({ realm: Type.String() });

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
      return importOrganizations(ctx.store, realm, request.body, { ...request.query, now: ctx.now });
    },
  );
}
