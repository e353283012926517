/**
 * Webhooks at the vendor's paths (p2-inc/keycloak-events, its spec's `/{realm}/webhooks…` below
 * this service's `/realms`): list, count, create, get, update, delete, the secret, the sends, one
 * send, resend. Reading needs `view-events`, changing and the secret `manage-events` (Keycloak's
 * realm-management roles of those names guard the vendor's). Rules live in admin/webhooks.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CountSchema,
  NoBodySchema,
  WEBHOOKS_PAGE,
  WebhookInputSchema,
  WebhookListSchema,
  WebhookSchema,
  WebhookSecretSchema,
  WebhookSendListSchema,
  WebhookSendSchema,
} from '../../api';
import { bearerHook, realmHook } from '../auth/guards';
import { originOf, realmOf, requestUrlOf, type ServiceContext } from '../context';
import { eventToWire } from '../events/event';
import { sendToWire, webhookToWire } from '../events/webhook-record';

const RealmParams = Type.Object({ realm: Type.String() });
const WebhookParams = Type.Object({ realm: Type.String(), id: Type.String() });
const SendParams = Type.Object({ realm: Type.String(), id: Type.String(), sendId: Type.String() });
const PageQuery = Type.Object({ first: Type.Optional(Type.Integer({ minimum: 0 })), max: Type.Optional(Type.Integer({ minimum: 0 })) });

/** `max` as the vendor reads it: absent or above the cap means the cap. */
const pageSize = (max: number | undefined): number => (max === undefined || max > WEBHOOKS_PAGE.cap ? WEBHOOKS_PAGE.default : max);

/** Registers the webhook routes. */
export async function webhookRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  const { webhooks } = ctx.admin;
  const realm = realmHook(ctx);
  const view = [realm, bearerHook(ctx, { permission: 'view-events' })];
  const manage = [realm, bearerHook(ctx, { permission: 'manage-events' })];
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  routes.get(
    '/realms/:realm/webhooks',
    { schema: { params: RealmParams, querystring: PageQuery, response: { 200: WebhookListSchema } }, onRequest: view },
    async (request) => (await webhooks.list(realmOf(request).name, request.query.first ?? 0, pageSize(request.query.max))).map(webhookToWire),
  );

  routes.get(
    '/realms/:realm/webhooks/count',
    { schema: { params: RealmParams, response: { 200: CountSchema } }, onRequest: view },
    async (request) => webhooks.count(realmOf(request).name),
  );

  routes.post(
    '/realms/:realm/webhooks',
    { schema: { params: RealmParams, body: WebhookInputSchema, response: { 201: NoBodySchema } }, onRequest: manage },
    async (request, reply) => {
      const { webhook } = await ctx.admin.as(originOf(request)).webhooks.create(realmOf(request).name, request.body);
      return reply.status(201).header('Location', `${requestUrlOf(request, ctx)}/${encodeURIComponent(webhook.id)}`).send();
    },
  );

  routes.get(
    '/realms/:realm/webhooks/:id',
    { schema: { params: WebhookParams, response: { 200: WebhookSchema } }, onRequest: view },
    async (request) => webhookToWire(await webhooks.get(realmOf(request).name, request.params.id)),
  );

  routes.put(
    '/realms/:realm/webhooks/:id',
    { schema: { params: WebhookParams, body: WebhookInputSchema, response: { 204: NoBodySchema } }, onRequest: manage },
    async (request, reply) => {
      await ctx.admin.as(originOf(request)).webhooks.update(realmOf(request).name, request.params.id, request.body);
      return reply.status(204).send();
    },
  );

  routes.delete(
    '/realms/:realm/webhooks/:id',
    { schema: { params: WebhookParams, response: { 204: NoBodySchema } }, onRequest: manage },
    async (request, reply) => {
      await ctx.admin.as(originOf(request)).webhooks.delete(realmOf(request).name, request.params.id);
      return reply.status(204).send();
    },
  );

  routes.get(
    '/realms/:realm/webhooks/:id/secret',
    { schema: { params: WebhookParams, response: { 200: WebhookSecretSchema } }, onRequest: manage },
    async (request, reply) => {
      const webhook = await webhooks.get(realmOf(request).name, request.params.id);
      // A secret in an answer must not be kept by caches on the way.
      return reply.header('Cache-Control', 'no-store').send({ type: 'secret' as const, value: webhook.secret });
    },
  );

  routes.get(
    '/realms/:realm/webhooks/:id/sends',
    { schema: { params: WebhookParams, querystring: PageQuery, response: { 200: WebhookSendListSchema } }, onRequest: view },
    async (request) => {
      const { webhook, sends } = await webhooks.sends(realmOf(request).name, request.params.id, request.query.first ?? 0, pageSize(request.query.max));
      return sends.map((send) => sendToWire(send, webhook));
    },
  );

  routes.get(
    '/realms/:realm/webhooks/:id/sends/:sendId',
    { schema: { params: SendParams, response: { 200: WebhookSendSchema } }, onRequest: view },
    async (request) => {
      const { webhook, due } = await webhooks.send(realmOf(request).name, request.params.id, request.params.sendId);
      return sendToWire(due.send, webhook, JSON.stringify(eventToWire(due.event, due.send.id)));
    },
  );

  routes.post(
    '/realms/:realm/webhooks/:id/sends/:sendId/resend',
    { schema: { params: SendParams, response: { 202: NoBodySchema } }, onRequest: manage },
    async (request, reply) => {
      await webhooks.resend(realmOf(request).name, request.params.id, request.params.sendId);
      return reply.status(202).send();
    },
  );
}
