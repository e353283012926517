/**
 * Identity providers of an organization and their mappers, at the vendor's paths with Keycloak's
 * representations: list, create, link, get, update, delete, unlink; mappers list, add, get,
 * update, delete. The rules are the identity-provider area's (admin/identity-providers.ts); this
 * file adds HTTP. `…/idps/link` is a static route, so it is matched before `…/idps/:alias`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  IdentityProviderInputSchema,
  IdentityProviderListSchema,
  IdentityProviderMapperInputSchema,
  IdentityProviderMapperListSchema,
  IdentityProviderMapperSchema,
  IdentityProviderSchema,
  LinkIdentityProviderSchema,
  NoBodySchema,
} from '../../api';
import { bearerHook, realmHook } from '../auth/guards';
import { baseUrlOf, originOf, realmOf, requestUrlOf, type ServiceContext } from '../context';

const OrgParams = Type.Object({ realm: Type.String(), orgId: Type.String() });
const AliasParams = Type.Object({ realm: Type.String(), orgId: Type.String(), alias: Type.String() });
const MapperParams = Type.Object({ realm: Type.String(), orgId: Type.String(), alias: Type.String(), id: Type.String() });

/** Registers the identity provider routes. */
export async function identityProviderRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  const { identityProviders: idps } = ctx.admin;
  /** The area acting for the request's caller, whose changes' events name it. */
  const actingFor = (request: FastifyRequest) => ctx.admin.as(originOf(request)).identityProviders;
  const realm = realmHook(ctx);
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const view = bearerHook(ctx, { permission: 'view-organizations' });
  const manage = bearerHook(ctx, { permission: 'manage-organizations' });
  const base = '/realms/:realm/orgs/:orgId/idps';

  routes.get(base, { schema: { params: OrgParams, response: { 200: IdentityProviderListSchema } }, onRequest: [realm, view] }, async (request) => {
    const baseUrl = baseUrlOf(request, ctx);
    return (await idps.list(realmOf(request).name, request.params.orgId)).map((provider) => idps.representation(provider, baseUrl));
  });

  routes.post(
    base,
    { schema: { params: OrgParams, body: IdentityProviderInputSchema, response: { 201: NoBodySchema } }, onRequest: [realm, manage] },
    async (request, reply) => {
      const alias = await actingFor(request).create(realmOf(request).name, request.params.orgId, request.body);
      return reply.status(201).header('Location', `${requestUrlOf(request, ctx)}/${encodeURIComponent(alias)}`).send();
    },
  );

  routes.post(
    `${base}/link`,
    { schema: { params: OrgParams, body: LinkIdentityProviderSchema, response: { 201: NoBodySchema } }, onRequest: [realm, manage] },
    async (request, reply) => {
      const alias = await actingFor(request).link(realmOf(request).name, request.params.orgId, request.body);
      const collection = requestUrlOf(request, ctx).replace(/\/link$/, '');
      return reply.status(201).header('Location', `${collection}/${encodeURIComponent(alias)}`).send();
    },
  );

  routes.get(
    `${base}/:alias`,
    { schema: { params: AliasParams, response: { 200: IdentityProviderSchema } }, onRequest: [realm, view] },
    async (request) => idps.representation(await idps.owned(realmOf(request).name, request.params.orgId, request.params.alias), baseUrlOf(request, ctx)),
  );

  routes.put(
    `${base}/:alias`,
    { schema: { params: AliasParams, body: IdentityProviderInputSchema, response: { 204: NoBodySchema } }, onRequest: [realm, manage] },
    async (request, reply) => {
      await actingFor(request).update(realmOf(request).name, request.params.orgId, request.params.alias, request.body);
      return reply.status(204).send();
    },
  );

  routes.delete(`${base}/:alias`, { schema: { params: AliasParams, response: { 204: NoBodySchema } }, onRequest: [realm, manage] }, async (request, reply) => {
    await actingFor(request).delete(realmOf(request).name, request.params.orgId, request.params.alias);
    return reply.status(204).send();
  });

  routes.post(
    `${base}/:alias/unlink`,
    { schema: { params: AliasParams, response: { 204: NoBodySchema } }, onRequest: [realm, manage] },
    async (request, reply) => {
      await actingFor(request).unlink(realmOf(request).name, request.params.orgId, request.params.alias);
      return reply.status(204).send();
    },
  );

  // Mappers ---------------------------------------------------------------------------------------

  routes.get(
    `${base}/:alias/mappers`,
    { schema: { params: AliasParams, response: { 200: IdentityProviderMapperListSchema } }, onRequest: [realm, view] },
    async (request) => (await idps.mappers(realmOf(request).name, request.params.orgId, request.params.alias)).map((mapper) => idps.mapperRepresentation(mapper)),
  );

  routes.post(
    `${base}/:alias/mappers`,
    { schema: { params: AliasParams, body: IdentityProviderMapperInputSchema, response: { 201: NoBodySchema } }, onRequest: [realm, manage] },
    async (request, reply) => {
      const id = await actingFor(request).createMapper(realmOf(request).name, request.params.orgId, request.params.alias, request.body);
      return reply.status(201).header('Location', `${requestUrlOf(request, ctx)}/${encodeURIComponent(id)}`).send();
    },
  );

  routes.get(
    `${base}/:alias/mappers/:id`,
    { schema: { params: MapperParams, response: { 200: IdentityProviderMapperSchema } }, onRequest: [realm, view] },
    async (request) => idps.mapperRepresentation(await idps.mapper(realmOf(request).name, request.params.orgId, request.params.alias, request.params.id)),
  );

  // 204, as the vendor's resource (a void method) answers; its spec says 200.
  routes.put(
    `${base}/:alias/mappers/:id`,
    { schema: { params: MapperParams, body: IdentityProviderMapperInputSchema, response: { 204: NoBodySchema } }, onRequest: [realm, manage] },
    async (request, reply) => {
      await actingFor(request).updateMapper(realmOf(request).name, request.params.orgId, request.params.alias, request.params.id, request.body);
      return reply.status(204).send();
    },
  );

  routes.delete(
    `${base}/:alias/mappers/:id`,
    { schema: { params: MapperParams, response: { 204: NoBodySchema } }, onRequest: [realm, manage] },
    async (request, reply) => {
      await actingFor(request).deleteMapper(realmOf(request).name, request.params.orgId, request.params.alias, request.params.id);
      return reply.status(204).send();
    },
  );
}
