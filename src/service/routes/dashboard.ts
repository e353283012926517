/**
 * The dashboard at `/realms/{realm}/dashboard`: server-rendered pages with a small script (copy
 * buttons, confirmations), for realm administrators signed in through the service's own
 * authorization code flow. Sections: API Keys, Users, Organizations, Realm settings, Events
 * (../dashboard/pages). Also serves the stylesheet and script of these pages and the login page.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { realmHook } from '../auth/guards';
import type { ServiceContext } from '../context';
import { apiKeyPages } from '../dashboard/pages/api-keys';
import { eventPages } from '../dashboard/pages/events';
import { organizationPages } from '../dashboard/pages/organizations';
import { settingsPages } from '../dashboard/pages/settings';
import { webhookPages } from '../dashboard/pages/webhooks';
import { userPages } from '../dashboard/pages/users';
import { dashboardCallback, guarded } from '../dashboard/session-guard';
import { sectionPath } from '../dashboard/shell';
import { webAssetRoutes } from '../web/assets';

/** Registers the dashboard and the web assets. */
export async function dashboardRoutes(
  app: FastifyInstance,
  opts: { ctx: ServiceContext },
): Promise<void> {
  const { ctx } = opts;
  await app.register(formbody);
  await app.register(webAssetRoutes);
  await app.register(async (realmScope) => {
    // Every dashboard route addresses a realm: the realm hook checks it (and Host pinning) first.
    realmScope.addHook('onRequest', realmHook(ctx));
    realmScope.get(
      '/realms/:realm/dashboard',
      guarded<FastifyRequest>(ctx, async (_request, reply, caller) => reply.redirect(sectionPath(caller.realm.name, 'api-keys'), 303)),
    );
    realmScope.get('/realms/:realm/dashboard/callback', (request, reply) => dashboardCallback(ctx, request, reply));
    apiKeyPages(realmScope, ctx);
    userPages(realmScope, ctx);
    organizationPages(realmScope, ctx);
    settingsPages(realmScope, ctx);
    eventPages(realmScope, ctx);
    webhookPages(realmScope, ctx);
  });
}
