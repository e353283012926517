/**
 * Realm settings: the token lifetime, whether new organizations get a default admin user, the
 * realm's rate limit (the service default from `orgadmin serve --rate-limit`, off, or its own
 * limit) and how long the audit log keeps events, all changed together through
 * {@link Admin.updateRealm} (the same checks and limits as every other caller). Which limit then applies is rate-limit.ts's rule; this page only shows it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AdminError, MAX_EVENT_RETENTION_DAYS, MAX_TOKEN_LIFETIME_SECONDS } from '../../admin';
import type { ServiceContext } from '../../context';
import {
  MAX_REALM_RATE_LIMIT_REQUESTS,
  MAX_REALM_RATE_LIMIT_WINDOW_SECONDS,
  type RateLimitOptions,
  type RealmRateLimit,
} from '../../rate-limit';
import { html } from '../../web/html';
import { field } from '../form';
import { adminFor, guarded, type DashboardCaller } from '../session-guard';
import { csrfField, sectionPath, sendDashboard } from '../shell';

/** The choices of the rate limit radio buttons (`rateLimitMode`). */
type RateLimitMode = 'default' | 'off' | 'custom';

/** What the form shows: the realm's values, or after a refused post, what was typed. */
interface FormValues {
  lifetime: string;
  createAdminUser: boolean;
  mode: RateLimitMode;
  requests: string;
  windowSeconds: string;
  /** Days the audit log keeps events; empty: for ever. */
  retentionDays: string;
}

const describeLimit = (limit: RateLimitOptions | undefined): string =>
  limit ? `${limit.requests} requests per ${limit.windowSeconds} s` : 'off';

function modeOf(setting: RealmRateLimit): RateLimitMode {
  if (setting === null) return 'default';
  return setting === 'off' ? 'off' : 'custom';
}

/** The form's values for the realm as stored; the number fields start from the limit in force. */
async function storedValues(caller: DashboardCaller, ctx: ServiceContext): Promise<FormValues> {
  const realm = caller.realm;
  const retention = await ctx.admin.realms.eventRetentionDays(realm.name);
  const shown = realm.rateLimit !== null && realm.rateLimit !== 'off' ? realm.rateLimit : ctx.rateLimiter.serviceDefault;
  return {
    lifetime: String(realm.tokenLifetimeSeconds),
    createAdminUser: realm.createAdminUser,
    mode: modeOf(realm.rateLimit),
    requests: shown ? String(shown.requests) : '',
    windowSeconds: shown ? String(shown.windowSeconds) : '',
    retentionDays: retention === null ? '' : String(retention),
  };
}

function settingsPage(
  reply: FastifyReply,
  caller: DashboardCaller,
  ctx: ServiceContext,
  values: FormValues,
  opts: { status?: number; error?: string; done?: unknown } = {},
): FastifyReply {
  const realm = caller.realm;
  const serviceDefault = ctx.rateLimiter.serviceDefault;
  const radio = (mode: RateLimitMode, label: string) =>
    html`<label class="check"><input type="radio" id="rate-limit-${mode}" name="rateLimitMode" value="${mode}" ${values.mode === mode ? html`checked` : ''}>${label}</label>`;
  const body = html`<div class="card"><form method="post" action="${sectionPath(realm.name, 'settings')}" id="realm-settings">${csrfField(caller)}
<label for="token-lifetime">Access token lifetime (seconds, 1 to ${MAX_TOKEN_LIFETIME_SECONDS})</label>
<input type="number" id="token-lifetime" name="tokenLifetimeSeconds" min="1" max="${MAX_TOKEN_LIFETIME_SECONDS}" required value="${values.lifetime}">
<p><label class="check"><input type="checkbox" id="create-admin-user" name="createAdminUser" value="on" ${values.createAdminUser ? html`checked` : ''}>New organizations get a default admin user (<code>org-admin-&lt;id&gt;</code>)</label></p>
<h2>Rate limit</h2>
<p class="muted">Counted per API key, and per user for end users. In force now: <strong id="rate-limit">${describeLimit(ctx.rateLimiter.limitFor(realm))}</strong>.</p>
<p>${radio('default', `Service default: ${describeLimit(serviceDefault)} (orgadmin serve --rate-limit)`)}${radio('off', 'Off for this realm')}${radio('custom', 'This realm’s own limit:')}</p>
<label for="rate-limit-requests">Requests per window (1 to ${MAX_REALM_RATE_LIMIT_REQUESTS}; used with “own limit”)</label>
<input type="number" id="rate-limit-requests" name="rateLimitRequests" min="1" max="${MAX_REALM_RATE_LIMIT_REQUESTS}" value="${values.requests}">
<label for="rate-limit-window">Window (seconds, 1 to ${MAX_REALM_RATE_LIMIT_WINDOW_SECONDS}; used with “own limit”)</label>
<input type="number" id="rate-limit-window" name="rateLimitWindowSeconds" min="1" max="${MAX_REALM_RATE_LIMIT_WINDOW_SECONDS}" value="${values.windowSeconds}">
<h2>Audit log</h2>
<label for="event-retention">Keep events for (days, 1 to ${MAX_EVENT_RETENTION_DAYS}; empty: for ever)</label>
<input type="number" id="event-retention" name="eventRetentionDays" min="1" max="${MAX_EVENT_RETENTION_DAYS}" value="${values.retentionDays}">
<p><button type="submit" id="save-settings">Save settings</button></p></form></div>`;
  return sendDashboard(reply, caller, 'settings', { title: 'Realm settings', body, status: opts.status, error: opts.error, done: opts.done });
}

/** A whole number typed in a form field (at most 9 digits, so it is exact), or an error naming it. */
function wholeNumber(value: string, what: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new AdminError(`${what} "${value}" is not a whole number.`);
  return Number(value);
}

/** The rate limit setting the form asks for; the limits themselves are checked by {@link Admin.updateRealm}. */
function rateLimitOf(values: FormValues): RealmRateLimit {
  if (values.mode === 'default') return null;
  if (values.mode === 'off') return 'off';
  return {
    requests: wholeNumber(values.requests, 'Rate limit requests'),
    windowSeconds: wholeNumber(values.windowSeconds, 'Rate limit window'),
  };
}

/** Registers the Realm settings section. */
export function settingsPages(app: FastifyInstance, ctx: ServiceContext): void {

  type Req = FastifyRequest<{ Params: { realm: string } }>;
  app.get(
    '/realms/:realm/dashboard/settings',
    guarded<Req>(ctx, async (request, reply, caller) =>
      settingsPage(reply, caller, ctx, await storedValues(caller, ctx), { done: field(request.query, 'done') }),
    ),
  );
  app.post(
    '/realms/:realm/dashboard/settings',
    guarded<Req>(ctx, async (request, reply, caller) => {
      const mode = field(request.body, 'rateLimitMode');
      const values: FormValues = {
        lifetime: field(request.body, 'tokenLifetimeSeconds'),
        createAdminUser: field(request.body, 'createAdminUser') === 'on',
        // A post without the choice (an older form) leaves the rate limit as it is.
        mode: mode === '' ? modeOf(caller.realm.rateLimit) : mode === 'off' || mode === 'custom' ? mode : 'default',
        requests: field(request.body, 'rateLimitRequests'),
        windowSeconds: field(request.body, 'rateLimitWindowSeconds'),
        retentionDays: field(request.body, 'eventRetentionDays'),
      };
      // A post without the field (an older form) leaves the retention as it is; an empty one keeps events for ever.
      const retentionPosted = typeof request.body === 'object' && request.body !== null && 'eventRetentionDays' in request.body;
      try {
        // Every value is read and checked before the one update that writes them all.
        if (mode !== '' && mode !== 'default' && mode !== 'off' && mode !== 'custom') {
          throw new AdminError(`Rate limit choice "${mode}" is not one of default, off or custom.`);
        }
        const tokenLifetimeSeconds = wholeNumber(values.lifetime, 'Token lifetime');
        await adminFor(ctx, request, caller).updateRealm(caller.realm.name, {
          tokenLifetimeSeconds,
          createAdminUser: values.createAdminUser,
          rateLimit: mode === '' ? undefined : rateLimitOf(values),
          eventRetentionDays: !retentionPosted ? undefined : values.retentionDays.trim() === '' ? null : wholeNumber(values.retentionDays.trim(), 'Event retention'),
        });
        return reply.redirect(`${sectionPath(caller.realm.name, 'settings')}?done=settings`, 303);
      } catch (error) {
        if (!(error instanceof AdminError)) throw error;
        return settingsPage(reply, caller, ctx, values, { status: 400, error: error.message });
      }
    }),
  );
}
