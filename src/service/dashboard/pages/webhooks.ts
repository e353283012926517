/**
 * Webhooks: the realm's webhooks (URL, event-type filters, on or off, created), adding one (URL,
 * filters, an optional secret; without one a secret is generated and shown once, as an API key's
 * is), turning one on or off, and deleting one. Every change goes through {@link WebhookAdmin}
 * (`adminFor(…).webhooks`), as the JSON API's, so the rules (URL checks, filter syntax) and their
 * messages are the same; a refused form answers 400 with the message and keeps what was typed. The
 * secret of an existing webhook is never shown here (the JSON API's `…/secret` reads it).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_EVENT_TYPE_PATTERNS } from '../../../api';
import type { ServiceContext } from '../../context';
import { ServiceError } from '../../errors';
import type { WebhookRecord } from '../../events/webhook-record';
import { html, type Html } from '../../web/html';
import { field } from '../form';
import { adminFor, guarded, type DashboardCaller } from '../session-guard';
import { copyable, csrfField, sectionPath, sendDashboard, when } from '../shell';

/** Webhooks shown: the page lists them all up to this many (a realm has a handful). */
const LIST_MAX = 500;

/** What the add form shows: empty, or after a refused post, what was typed. */
interface AddValues {
  url: string;
  eventTypes: string;
}

/** The filters typed into the form: separated by commas, spaces or new lines; none means every event. */
function eventTypesOf(text: string): string[] | undefined {
  const types = text.split(/[\s,]+/).filter((type) => type !== '');
  return types.length === 0 ? undefined : types;
}

function webhookRow(caller: DashboardCaller, webhook: WebhookRecord): Html {
  const base = sectionPath(caller.realm.name, 'webhooks', `/${encodeURIComponent(webhook.id)}`);
  return html`<tr data-webhook-id="${webhook.id}">
<td><code>${webhook.url}</code></td><td>${webhook.eventTypes.map((type) => html`<code>${type}</code> `)}</td>
<td class="${webhook.enabled ? 'status-active' : 'status-revoked'}">${webhook.enabled ? 'On' : 'Off'}</td><td>${when(webhook.createdTimestamp)}</td>
<td><form method="post" action="${base}/${webhook.enabled ? 'disable' : 'enable'}">${csrfField(caller)}<button type="submit" class="secondary">${webhook.enabled ? 'Turn off' : 'Turn on'}</button></form>
<form method="post" action="${base}/delete" data-confirm="Delete the webhook to ${webhook.url}? Its delivery log goes with it.">${csrfField(caller)}<button type="submit" class="danger">Delete</button></form></td></tr>`;
}

async function listPage(
  ctx: ServiceContext,
  reply: FastifyReply,
  caller: DashboardCaller,
  opts: { status?: number; error?: string; done?: unknown; values?: AddValues } = {},
): Promise<FastifyReply> {
  const webhooks = await ctx.admin.webhooks.list(caller.realm.name, 0, LIST_MAX);
  const values = opts.values ?? { url: '', eventTypes: '' };
  const body = html`<table id="webhooks"><thead><tr><th>URL</th><th>Event types</th><th>Delivery</th><th>Created</th><th>Actions</th></tr></thead>
<tbody>${webhooks.length === 0 ? html`<tr><td colspan="5" class="muted">No webhooks yet.</td></tr>` : webhooks.map((webhook) => webhookRow(caller, webhook))}</tbody></table>
<div class="card"><h2>Add webhook</h2>
<p class="muted">Every matching event is posted to the URL, signed with HMAC-SHA-256 of the body under the secret in <code>X-Keycloak-Signature</code>.</p>
<form method="post" action="${sectionPath(caller.realm.name, 'webhooks')}" id="add-webhook">${csrfField(caller)}
<label for="webhook-url">URL (http or https)</label><input type="url" id="webhook-url" name="url" required value="${values.url}">
<label for="webhook-event-types">Event types (up to ${MAX_EVENT_TYPE_PATTERNS}, separated by commas; * matches any run of characters; empty: every event)</label>
<input type="text" id="webhook-event-types" name="eventTypes" value="${values.eventTypes}" placeholder="admin.ORGANIZATION-*, access.LOGIN_ERROR">
<label for="webhook-secret">Secret (empty: one is generated and shown once)</label><input type="password" id="webhook-secret" name="secret" autocomplete="new-password" maxlength="1024">
<p><button type="submit" id="create-webhook">Create</button></p></form></div>`;
  return sendDashboard(reply, caller, 'webhooks', { title: 'Webhooks', body, status: opts.status, error: opts.error, done: opts.done });
}

/** The page right after creating a webhook: its generated secret, once (a typed secret is not echoed). */
function createdPage(reply: FastifyReply, caller: DashboardCaller, webhook: WebhookRecord, generatedSecret: string | undefined): FastifyReply {
  const body = html`<div class="card">
<p>The webhook to <code>${webhook.url}</code> was created.</p>
${
  generatedSecret === undefined
    ? html`<p>Its deliveries are signed with the secret you typed.</p>`
    : html`${copyable('webhook-secret-value', 'Signing secret', generatedSecret)}
<p class="warning" role="alert">Copy the secret now: this page does not show it again (the JSON API's <code>GET …/webhooks/{id}/secret</code> reads it, with <code>manage-events</code>).</p>`
}
<p><a href="${sectionPath(caller.realm.name, 'webhooks')}" id="back-to-webhooks">Done, back to webhooks</a></p></div>`;
  return sendDashboard(reply, caller, 'webhooks', { title: 'Webhook created', body });
}

/** Registers the Webhooks section. */
export function webhookPages(app: FastifyInstance, ctx: ServiceContext): void {
  type Req = FastifyRequest<{ Params: { realm: string; id?: string } }>;
  const page = (handler: (request: Req, reply: FastifyReply, caller: DashboardCaller) => Promise<FastifyReply>) => guarded<Req>(ctx, handler);
  /** A refusal of the service's rules (400, 404) shown above the list; anything else is the service's fault. */
  const refused = (error: unknown): error is ServiceError => error instanceof ServiceError && error.statusCode < 500;

  app.get('/realms/:realm/dashboard/webhooks', page(async (request, reply, caller) => listPage(ctx, reply, caller, { done: field(request.query, 'done') })));

  app.post(
    '/realms/:realm/dashboard/webhooks',
    page(async (request, reply, caller) => {
      const values: AddValues = { url: field(request.body, 'url'), eventTypes: field(request.body, 'eventTypes') };
      const typed = field(request.body, 'secret');
      try {
        const created = await adminFor(ctx, request, caller).webhooks.create(caller.realm.name, {
          url: values.url,
          eventTypes: eventTypesOf(values.eventTypes),
          ...(typed === '' ? {} : { secret: typed }),
        });
        return createdPage(reply, caller, created.webhook, typed === '' ? created.secret : undefined);
      } catch (error) {
        if (!refused(error)) throw error;
        return listPage(ctx, reply, caller, { status: 400, error: error.message, values });
      }
    }),
  );

  const toggle = (enabled: boolean) =>
    page(async (request, reply, caller) => {
      const admin = adminFor(ctx, request, caller).webhooks;
      try {
        const current = await admin.get(caller.realm.name, request.params.id!);
        await admin.update(caller.realm.name, current.id, { url: current.url, enabled });
        return reply.redirect(`${sectionPath(caller.realm.name, 'webhooks')}?done=${enabled ? 'webhook-enabled' : 'webhook-disabled'}`, 303);
      } catch (error) {
        if (!refused(error)) throw error;
        return listPage(ctx, reply, caller, { status: error.statusCode, error: error.message });
      }
    });
  app.post('/realms/:realm/dashboard/webhooks/:id/enable', toggle(true));
  app.post('/realms/:realm/dashboard/webhooks/:id/disable', toggle(false));
  app.post(
    '/realms/:realm/dashboard/webhooks/:id/delete',
    page(async (request, reply, caller) => {
      try {
        await adminFor(ctx, request, caller).webhooks.delete(caller.realm.name, request.params.id!);
        return reply.redirect(`${sectionPath(caller.realm.name, 'webhooks')}?done=webhook-deleted`, 303);
      } catch (error) {
        if (!refused(error)) throw error;
        return listPage(ctx, reply, caller, { status: error.statusCode, error: error.message });
      }
    }),
  );
}
