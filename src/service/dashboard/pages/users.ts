/**
 * Users: the list with search and paging, creating a user (with or without a password), and
 * disabling or enabling one. Through the {@link Admin} API, as the command line's. The realm
 * administrator role is given by the command line only (`orgadmin users grant-admin`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AdminError, type UserInfo } from '../../admin';
import type { ServiceContext } from '../../context';
import { html, type Html } from '../../web/html';
import { field, offset } from '../form';
import { adminFor, guarded, type DashboardCaller } from '../session-guard';
import { csrfField, sectionPath, sendDashboard, when } from '../shell';

/** Users per page. */
const PAGE_SIZE = 50;

function userRow(caller: DashboardCaller, user: UserInfo): Html {
  const action = user.enabled ? 'disable' : 'enable';
  const self = user.id === caller.user.id;
  return html`<tr data-username="${user.username}">
<td>${user.username}</td><td>${user.email ?? '—'}</td><td>${[user.firstName, user.lastName].filter((part) => part).join(' ') || '—'}</td>
<td>${user.kind === 'org-admin' ? 'organization admin' : user.realmAdmin ? 'realm administrator' : 'user'}</td>
<td>${user.hasPassword ? 'yes' : 'no'}</td><td>${when(user.createdTimestamp)}</td>
<td class="${user.enabled ? 'status-enabled' : 'status-disabled'}">${user.enabled ? 'Enabled' : 'Disabled'}</td>
<td>${
    self
      ? html`<span class="muted">you</span>`
      : html`<form method="post" action="${sectionPath(caller.realm.name, 'users', `/${encodeURIComponent(user.id)}/${action}`)}" ${action === 'disable' ? html`data-confirm="Disable ${user.username}? They can no longer sign in or get tokens."` : ''}>${csrfField(caller)}<button type="submit" class="${action === 'disable' ? 'danger' : 'secondary'}">${action === 'disable' ? 'Disable' : 'Enable'}</button></form>`
  }</td></tr>`;
}

async function listPage(
  ctx: ServiceContext,
  reply: FastifyReply,
  caller: DashboardCaller,
  query: unknown,
  opts: { status?: number; error?: string; form?: Record<string, string> } = {},
): Promise<FastifyReply> {
  const search = field(query, 'search');
  const first = offset(query);
  const { users, total } = await ctx.admin.findUsers(caller.realm.name, { search: search || undefined, first, max: PAGE_SIZE });
  const path = sectionPath(caller.realm.name, 'users');
  const pageLink = (to: number) => `${path}?${new URLSearchParams({ search, first: String(to) }).toString()}`;
  const form = opts.form ?? {};
  const body = html`<form method="get" action="${path}" class="row"><div><label for="user-search">Search username, email or name</label><input type="search" id="user-search" name="search" value="${search}"></div><button type="submit" class="secondary">Search</button></form>
<p class="muted">${total} user${total === 1 ? '' : 's'}${search ? ` matching “${search}”` : ''}.</p>
<table id="users"><thead><tr><th>Username</th><th>Email</th><th>Name</th><th>Role</th><th>Password</th><th>Created</th><th>Status</th><th>Actions</th></tr></thead>
<tbody>${users.length === 0 ? html`<tr><td colspan="8" class="muted">No users.</td></tr>` : users.map((user) => userRow(caller, user))}</tbody></table>
<div class="pager">${first > 0 ? html`<a href="${pageLink(Math.max(0, first - PAGE_SIZE))}">Previous</a>` : ''}${first + PAGE_SIZE < total ? html`<a href="${pageLink(first + PAGE_SIZE)}">Next</a>` : ''}</div>
<div class="card"><h2>Create user</h2>
<form method="post" action="${path}" id="create-user">${csrfField(caller)}
<div class="row"><div><label for="new-username">Username</label><input type="text" id="new-username" name="username" required value="${form.username ?? ''}"></div>
<div><label for="new-email">Email (optional)</label><input type="email" id="new-email" name="email" value="${form.email ?? ''}"></div></div>
<div class="row"><div><label for="new-first">First name (optional)</label><input type="text" id="new-first" name="firstName" value="${form.firstName ?? ''}"></div>
<div><label for="new-last">Last name (optional)</label><input type="text" id="new-last" name="lastName" value="${form.lastName ?? ''}"></div></div>
<label for="new-password">Password (optional: without one, the user cannot sign in)</label><input type="password" id="new-password" name="password" autocomplete="new-password">
<p><button type="submit" id="create-user-button">Create user</button></p></form></div>`;
  return sendDashboard(reply, caller, 'users', { title: 'Users', body, status: opts.status, error: opts.error, done: field(query, 'done') });
}

/** Registers the Users section. */
export function userPages(app: FastifyInstance, ctx: ServiceContext): void {

  type Req = FastifyRequest<{ Params: { realm: string; userId?: string } }>;
  const page = (handler: (request: Req, reply: FastifyReply, caller: DashboardCaller) => Promise<FastifyReply>) => guarded<Req>(ctx, handler);
  const back = (reply: FastifyReply, caller: DashboardCaller, done: string) => reply.redirect(`${sectionPath(caller.realm.name, 'users')}?done=${done}`, 303);

  app.get('/realms/:realm/dashboard/users', page(async (request, reply, caller) => listPage(ctx, reply, caller, request.query)));

  app.post(
    '/realms/:realm/dashboard/users',
    page(async (request, reply, caller) => {
      const form = { username: field(request.body, 'username'), email: field(request.body, 'email'), firstName: field(request.body, 'firstName'), lastName: field(request.body, 'lastName') };
      const password = field(request.body, 'password');
      try {
        await adminFor(ctx, request, caller).createUser(caller.realm.name, {
          username: form.username,
          email: form.email || undefined,
          firstName: form.firstName || undefined,
          lastName: form.lastName || undefined,
          password: password === '' ? undefined : password,
        });
        return back(reply, caller, 'user-created');
      } catch (error) {
        if (!(error instanceof AdminError)) throw error;
        return listPage(ctx, reply, caller, {}, { status: 400, error: error.message, form });
      }
    }),
  );

  for (const enabled of [false, true]) {
    app.post(
      `/realms/:realm/dashboard/users/:userId/${enabled ? 'enable' : 'disable'}`,
      page(async (request, reply, caller) => {
        try {
          // Disabling oneself would lock the last administrator out of the dashboard.
          if (request.params.userId === caller.user.id) throw new AdminError('You cannot disable yourself.');
          await adminFor(ctx, request, caller).setUserEnabled(caller.realm.name, request.params.userId!, enabled);
          return back(reply, caller, enabled ? 'user-enabled' : 'user-disabled');
        } catch (error) {
          if (!(error instanceof AdminError)) throw error;
          return listPage(ctx, reply, caller, {}, { status: 400, error: error.message });
        }
      }),
    );
  }
}
