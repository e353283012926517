/**
 * API Keys: the list (name, client ID, permissions, created, last used, status), adding a key as
 * the specification describes (name, permissions among the five, then the client ID and the secret
 * shown once with copy buttons and a warning), revoking, changing permissions, rotating the secret.
 * Every change goes through the {@link Admin} API, as the command line's.
 */
import type { Admin } from '../../admin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PERMISSIONS, type Permission } from '../../../api';
import { AdminError, type ApiKeyInfo, type CreatedApiKey } from '../../admin';
import type { ServiceContext } from '../../context';
import { html, type Html } from '../../web/html';
import { field, fieldValues } from '../form';
import { adminFor, guarded, type DashboardCaller } from '../session-guard';
import { copyable, csrfField, sectionPath, sendDashboard, when } from '../shell';

/** What each permission lets a key do, shown next to its checkbox. */
const PERMISSION_HELP: Record<Permission, string> = {
  'view-organizations': 'read organizations and their members',
  'manage-organizations': 'change organizations and memberships, create portal links',
  'create-organization': 'create organizations',
  'view-users': 'look users up',
  'introspect-tokens': 'ask whether a token of the realm is active and what it carries (token introspection)',
  'view-events': 'read the audit log and webhooks',
  'manage-events': 'create, change and delete webhooks, read their secrets, resend',
};

const checkboxes = (name: string, idPrefix: string, checked: readonly string[]): Html[] =>
  PERMISSIONS.map(
    (permission) => html`<label class="check" title="${PERMISSION_HELP[permission]}"><input type="checkbox" name="${name}" value="${permission}" id="${idPrefix}-${permission}" ${checked.includes(permission) ? html`checked` : ''}>${permission}</label>`,
  );

function keyRow(caller: DashboardCaller, key: ApiKeyInfo): Html {
  const base = sectionPath(caller.realm.name, 'api-keys', `/${encodeURIComponent(key.clientId)}`);
  const actions = key.revoked
    ? html`<span class="muted">—</span>`
    : html`<form method="post" action="${base}/permissions">${csrfField(caller)}${checkboxes('permissions', `perm-${key.clientId}`, key.permissions)}<button type="submit" class="secondary">Save permissions</button></form>
<form method="post" action="${base}/rotate" data-confirm="Rotate the secret of ${key.name}? The current secret stops working at once.">${csrfField(caller)}<button type="submit" class="secondary">Rotate secret</button></form>
<form method="post" action="${base}/revoke" data-confirm="Revoke ${key.name}? It will get no new tokens.">${csrfField(caller)}<button type="submit" class="danger">Revoke</button></form>`;
  return html`<tr data-client-id="${key.clientId}">
<td>${key.name}</td><td><code>${key.clientId}</code></td><td>${key.permissions.join(', ')}</td>
<td>${when(key.createdTimestamp)}</td><td>${when(key.lastUsedTimestamp)}</td>
<td class="${key.revoked ? 'status-revoked' : 'status-active'}">${key.revoked ? `Revoked ${when(key.revokedTimestamp)}` : 'Active'}</td>
<td>${actions}</td></tr>`;
}

async function listPage(
  ctx: ServiceContext,
  reply: FastifyReply,
  caller: DashboardCaller,
  opts: { status?: number; error?: string; done?: unknown; name?: string; permissions?: string[] } = {},
): Promise<FastifyReply> {
  const keys = await ctx.admin.listApiKeys(caller.realm.name);
  const body = html`<table id="api-keys"><thead><tr><th>Name</th><th>Client ID</th><th>Permissions</th><th>Created</th><th>Last used</th><th>Status</th><th>Actions</th></tr></thead>
<tbody>${keys.length === 0 ? html`<tr><td colspan="7" class="muted">No API keys yet.</td></tr>` : keys.map((key) => keyRow(caller, key))}</tbody></table>
<div class="card"><h2>Add API key</h2>
<form method="post" action="${sectionPath(caller.realm.name, 'api-keys')}" id="add-api-key">${csrfField(caller)}
<label for="key-name">Name</label><input type="text" id="key-name" name="name" required maxlength="255" value="${opts.name ?? ''}">
<p><strong>Permissions</strong><br>${checkboxes('permissions', 'new', opts.permissions ?? [])}</p>
<button type="submit" id="create-api-key">Create</button></form></div>`;
  return sendDashboard(reply, caller, 'api-keys', { title: 'API Keys', body, status: opts.status, error: opts.error, done: opts.done });
}

/** The one page that shows a secret: right after creating a key or rotating its secret. */
function secretPage(reply: FastifyReply, caller: DashboardCaller, key: CreatedApiKey, rotated: boolean): FastifyReply {
  const body = html`<div class="card">
<p>${rotated ? 'The secret of' : 'The API key'} <strong>${key.name}</strong> ${rotated ? 'was replaced.' : 'was created'} ${rotated ? '' : html`with the permissions <strong>${key.permissions.join(', ')}</strong>.`}</p>
${copyable('client-id', 'Client ID', key.clientId)}
${copyable('client-secret', 'Client secret', key.clientSecret)}
<p class="warning" role="alert">Copy the secret now: it will not be shown again. The service keeps only a hash of it; if it is lost, rotate the secret.</p>
<p><a href="${sectionPath(caller.realm.name, 'api-keys')}" id="back-to-api-keys">Done, back to API keys</a></p></div>`;
  return sendDashboard(reply, caller, 'api-keys', { title: rotated ? 'API key secret rotated' : 'API key created', body });
}

/** Registers the API Keys section. */
export function apiKeyPages(app: FastifyInstance, ctx: ServiceContext): void {
  type Req = FastifyRequest<{ Params: { realm: string; clientId?: string } }>;
  const page = (handler: (request: Req, reply: FastifyReply, caller: DashboardCaller) => Promise<FastifyReply>) => guarded<Req>(ctx, handler);
  const back = (reply: FastifyReply, caller: DashboardCaller, done: string) =>
    reply.redirect(`${sectionPath(caller.realm.name, 'api-keys')}?done=${done}`, 303);

  app.get('/realms/:realm/dashboard/api-keys', page(async (request, reply, caller) => listPage(ctx, reply, caller, { done: field(request.query, 'done') })));

  app.post(
    '/realms/:realm/dashboard/api-keys',
    page(async (request, reply, caller) => {
      const name = field(request.body, 'name');
      const permissions = fieldValues(request.body, 'permissions');
      try {
        return secretPage(reply, caller, await adminFor(ctx, request, caller).createApiKey(caller.realm.name, { name, permissions }), false);
      } catch (error) {
        if (!(error instanceof AdminError)) throw error;
        return listPage(ctx, reply, caller, { status: 400, error: error.message, name, permissions });
      }
    }),
  );

  const change = (action: (admin: Admin, realm: string, clientId: string, request: Req) => Promise<unknown>, done: string | 'secret') =>
    page(async (request, reply, caller) => {
      try {
        const result = await action(adminFor(ctx, request, caller), caller.realm.name, request.params.clientId!, request);
        return done === 'secret' ? secretPage(reply, caller, result as CreatedApiKey, true) : back(reply, caller, done);
      } catch (error) {
        if (!(error instanceof AdminError)) throw error;
        return listPage(ctx, reply, caller, { status: 400, error: error.message });
      }
    });
  app.post('/realms/:realm/dashboard/api-keys/:clientId/revoke', change((admin, realm, clientId) => admin.revokeApiKey(clientId, realm), 'revoked'));
  app.post(
    '/realms/:realm/dashboard/api-keys/:clientId/permissions',
    change((admin, realm, clientId, request) => admin.setApiKeyPermissions(realm, clientId, fieldValues(request.body, 'permissions')), 'permissions'),
  );
  app.post('/realms/:realm/dashboard/api-keys/:clientId/rotate', change((admin, realm, clientId) => admin.rotateApiKeySecret(realm, clientId), 'secret'));
}
