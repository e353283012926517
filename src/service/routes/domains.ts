/**
 * Domains of an organization and their verification (the vendor's `DomainsResource`): list, get,
 * verify. The rules are the domains area's (admin/domains.ts); this file adds HTTP.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DomainVerificationSchema, OrganizationDomainListSchema, OrganizationDomainSchema } from '../../api';
import { bearerHook, realmHook } from '../auth/guards';
import { originOf, realmOf, type ServiceContext } from '../context';

const OrgParams = Type.Object({ realm: Type.String(), orgId: Type.String() });
const DomainParams = Type.Object({ realm: Type.String(), orgId: Type.String(), domainName: Type.String() });

/** Registers the domain routes. */
export async function domainRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  const { domains } = ctx.admin;
  const realm = realmHook(ctx);
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  // Members of the organization may read its domains, as they may read the organization.
  const view = bearerHook(ctx, { permission: 'view-organizations', orMemberOfOrg: true });
  const manage = bearerHook(ctx, { permission: 'manage-organizations' });

  routes.get(
    '/realms/:realm/orgs/:orgId/domains',
    { schema: { params: OrgParams, response: { 200: OrganizationDomainListSchema } }, onRequest: [realm, view] },
    async (request) => domains.list(realmOf(request).name, request.params.orgId),
  );

  routes.get(
    '/realms/:realm/orgs/:orgId/domains/:domainName',
    { schema: { params: DomainParams, response: { 200: OrganizationDomainSchema } }, onRequest: [realm, view] },
    async (request) => domains.get(realmOf(request).name, request.params.orgId, request.params.domainName),
  );

  // 202 as the vendor answers, whether or not the domain is verified now.
  routes.post(
    '/realms/:realm/orgs/:orgId/domains/:domainName/verify',
    { schema: { params: DomainParams, response: { 202: DomainVerificationSchema } }, onRequest: [realm, manage] },
    async (request, reply) => reply.status(202).send(await ctx.admin.as(originOf(request)).domains.verify(realmOf(request).name, request.params.orgId, request.params.domainName)),
  );
}
