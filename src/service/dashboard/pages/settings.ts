/**
 * Realm settings: the token lifetime and whether new organizations get a default admin user,
 * changed through {@link Admin.updateRealm} (the command line's rule and limits); the service's
 * rate limit, which is set per service process (`orgadmin serve --rate-limit`), is shown.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Admin, AdminError, MAX_TOKEN_LIFETIME_SECONDS } from '../../admin';
import type { ServiceContext } from '../../context';
import type { RateLimitOptions } from '../../rate-limit';
import { html } from '../../web/html';
import { field } from '../form';
import { guarded, type DashboardCaller } from '../session-guard';
import { csrfField, sectionPath, sendDashboard } from '../shell';

function settingsPage(
  reply: FastifyReply,
  caller: DashboardCaller,
  rateLimit: RateLimitOptions | undefined,
  opts: { status?: number; error?: string; done?: unknown; lifetime?: string } = {},
): FastifyReply {
  const realm = caller.realm;
  const body = html`<div class="card"><form method="post" action="${sectionPath(realm.name, 'settings')}" id="realm-settings">${csrfField(caller)}
<label for="token-lifetime">Access token lifetime (seconds, 1 to ${MAX_TOKEN_LIFETIME_SECONDS})</label>
<input type="number" id="token-lifetime" name="tokenLifetimeSeconds" min="1" max="${MAX_TOKEN_LIFETIME_SECONDS}" required value="${opts.lifetime ?? String(realm.tokenLifetimeSeconds)}">
<p><label class="check"><input type="checkbox" id="create-admin-user" name="createAdminUser" value="on" ${realm.createAdminUser ? html`checked` : ''}>New organizations get a default admin user (<code>org-admin-&lt;id&gt;</code>)</label></p>
<button type="submit" id="save-settings">Save settings</button></form></div>
<div class="card"><h2>Rate limit</h2><p id="rate-limit">${
    rateLimit
      ? `${rateLimit.requests} requests per ${rateLimit.windowSeconds} s per client (per user for end users).`
      : 'Off.'
  }</p><p class="muted">Set for the whole service when it starts: <code>orgadmin serve --rate-limit REQUESTS/SECONDS</code>.</p></div>`;
  return sendDashboard(reply, caller, 'settings', { title: 'Realm settings', body, status: opts.status, error: opts.error, done: opts.done });
}

/** Registers the Realm settings section. */
export function settingsPages(app: FastifyInstance, ctx: ServiceContext, rateLimit: RateLimitOptions | undefined): void {
  const admin = new Admin(ctx.store);
  type Req = FastifyRequest<{ Params: { realm: string } }>;
  app.get(
    '/realms/:realm/dashboard/settings',
    guarded<Req>(ctx, async (request, reply, caller) => settingsPage(reply, caller, rateLimit, { done: field(request.query, 'done') })),
  );
  app.post(
    '/realms/:realm/dashboard/settings',
    guarded<Req>(ctx, async (request, reply, caller) => {
      const lifetime = field(request.body, 'tokenLifetimeSeconds');
      try {
        if (!/^\d{1,9}$/.test(lifetime)) throw new AdminError(`Token lifetime "${lifetime}" is not a whole number of seconds.`);
        await admin.updateRealm(caller.realm.name, {
          tokenLifetimeSeconds: Number(lifetime),
          createAdminUser: field(request.body, 'createAdminUser') === 'on',
        });
        return reply.redirect(`${sectionPath(caller.realm.name, 'settings')}?done=settings`, 303);
      } catch (error) {
        if (!(error instanceof AdminError)) throw error;
        return settingsPage(reply, caller, rateLimit, { status: 400, error: error.message, lifetime });
      }
    }),
  );
}
