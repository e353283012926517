/**
 * Organizations: the list with search and paging, one organization's fields, domains (each with its
 * verification state and the DNS record to publish), identity providers, attributes and members,
 * adding and removing members, its roles with granting and revoking them (organization-roles.ts),
 * and creating an admin portal link. Every read and change goes through the {@link Admin} API's
 * organizations, domains, identity providers and roles areas, whose rules are the JSON API's
 * (admin/organizations.ts: e.g. an organization's default admin user cannot be removed); a refusal
 * is shown with the API's status and sentence.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { brokerEndpointPath, domainRecordName, orgAdminUsername, type Member, type OrganizationDomain, type PortalLink } from '../../../api';
import { DASHBOARD_CLIENT_ID } from '../../auth/oidc-clients';
import { baseUrlOf, type ServiceContext } from '../../context';
import { ServiceError } from '../../errors';
import type { IdentityProviderRecord } from '../../store/sso-store';
import { html, type Html } from '../../web/html';
import { field, offset } from '../form';
import { operation } from '../operation';
import { changeRoleFromForm, readRoles, ROLE_CHANGES, rolesSection } from './organization-roles';
import { adminFor, guarded, type DashboardCaller } from '../session-guard';
import { copyable, csrfField, sectionPath, sendDashboard } from '../shell';

/** Organizations per page. */
const PAGE_SIZE = 20;
/** Members shown on an organization's page. */
const MEMBERS_SHOWN = 100;

type Req = FastifyRequest<{ Params: { realm: string; orgId?: string; userId?: string } }>;

async function listPage(ctx: ServiceContext, request: Req, reply: FastifyReply, caller: DashboardCaller): Promise<FastifyReply> {
  const realm = caller.realm.name;
  const search = field(request.query, 'search');
  const first = offset(request.query);
  const { organizations } = ctx.admin;
  const [orgs, count] = await Promise.all([
    operation(ctx, caller, () => organizations.list(realm, { search, first, max: PAGE_SIZE })),
    operation(ctx, caller, () => organizations.count(realm, { search })),
  ]);
  if (orgs instanceof ServiceError) return sendDashboard(reply, caller, 'organizations', { title: 'Organizations', body: html``, status: orgs.statusCode, error: orgs.description });
  const total = count instanceof ServiceError ? orgs.length : count;
  const path = sectionPath(realm, 'organizations');
  const pageLink = (to: number) => `${path}?${new URLSearchParams({ search, first: String(to) }).toString()}`;
  const body = html`<form method="get" action="${path}" class="row"><div><label for="org-search">Search name or display name</label><input type="search" id="org-search" name="search" value="${search}"></div><button type="submit" class="secondary">Search</button></form>
<p class="muted">${total} organization${total === 1 ? '' : 's'}${search ? ` matching “${search}”` : ''}${total > 0 ? `, showing ${first + 1}–${first + orgs.length}` : ''}.</p>
<table id="organizations"><thead><tr><th>Name</th><th>Display name</th><th>Domains</th><th>ID</th></tr></thead>
<tbody>${
    orgs.length === 0
      ? html`<tr><td colspan="4" class="muted">No organizations.</td></tr>`
      : orgs.map(
          (org) => html`<tr><td><a href="${sectionPath(realm, 'organizations', `/${encodeURIComponent(org.id)}`)}">${org.name}</a></td><td>${org.displayName ?? '—'}</td><td>${org.domains.join(', ') || '—'}</td><td><code>${org.id}</code></td></tr>`,
        )
  }</tbody></table>
<div class="pager">${first > 0 ? html`<a href="${pageLink(Math.max(0, first - PAGE_SIZE))}" id="previous-page">Previous</a>` : ''}${first + PAGE_SIZE < total ? html`<a href="${pageLink(first + PAGE_SIZE)}" id="next-page">Next</a>` : ''}</div>`;
  return sendDashboard(reply, caller, 'organizations', { title: 'Organizations', body });
}

async function detailPage(
  ctx: ServiceContext,
  request: Req,
  reply: FastifyReply,
  caller: DashboardCaller,
  opts: { status?: number; error?: string; done?: unknown; portalLink?: PortalLink } = {},
): Promise<FastifyReply> {
  const realm = caller.realm.name;
  const orgId = request.params.orgId!;
  const { organizations } = ctx.admin;
  const org = await operation(ctx, caller, () => organizations.get(realm, orgId));
  if (org instanceof ServiceError) {
    return sendDashboard(reply, caller, 'organizations', { title: 'Organization', body: html``, status: org.statusCode, error: org.description });
  }
  // An organization deleted since it was read shows no members rather than an error.
  const [members, count, roles, domainList, providerList] = await Promise.all([
    operation(ctx, caller, () => organizations.listMembers(realm, orgId, { first: 0, max: MEMBERS_SHOWN })),
    operation(ctx, caller, () => organizations.countMembers(realm, orgId)),
    readRoles(ctx, caller, orgId),
    operation(ctx, caller, () => ctx.admin.domains.list(realm, orgId)),
    operation(ctx, caller, () => ctx.admin.identityProviders.list(realm, orgId)),
  ]);
  const list: Member[] = members instanceof ServiceError ? [] : members;
  const domains: OrganizationDomain[] = domainList instanceof ServiceError ? [] : domainList;
  const providers: IdentityProviderRecord[] = providerList instanceof ServiceError ? [] : providerList;
  const origin = baseUrlOf(request, ctx);
  const base = sectionPath(realm, 'organizations', `/${encodeURIComponent(orgId)}`);
  const attributes: Html[] = Object.entries(org.attributes).map(([key, values]) => html`<tr><td>${key}</td><td>${values.join(', ')}</td></tr>`);
  const body = html`<table id="organization-fields"><tbody>
<tr><th>ID</th><td><code>${org.id}</code></td></tr>
<tr><th>Name</th><td>${org.name}</td></tr>
<tr><th>Display name</th><td>${org.displayName ?? '—'}</td></tr>
<tr><th>URL</th><td>${org.url ?? '—'}</td></tr>
<tr><th>Domains</th><td>${org.domains.join(', ') || '—'}</td></tr>
</tbody></table>
<h2>Domains</h2>
${
    domains.length === 0
      ? html`<p class="muted">No domains.</p>`
      : html`<p>A domain is verified by a DNS TXT record of this name and value, checked with <code>POST …/domains/{domain}/verify</code>.</p>
<table id="domains"><thead><tr><th>Domain</th><th>State</th><th>Record name</th><th>Record value</th></tr></thead><tbody>${domains.map(
          (domain) => html`<tr data-domain="${domain.domain_name}"><td>${domain.domain_name}</td><td class="${domain.verified ? 'verified' : 'unverified'}">${domain.verified ? 'verified' : 'not verified'}</td><td><code>${domainRecordName(domain.domain_name)}</code></td><td><code>${domain.record_value}</code></td></tr>`,
        )}</tbody></table>`
  }
<h2>Identity providers</h2>
${
    providers.length === 0
      ? html`<p class="muted">No identity providers.</p>`
      : html`<table id="identity-providers"><thead><tr><th>Alias</th><th>Display name</th><th>State</th><th>Upstream</th><th>Redirect URI to register upstream</th></tr></thead><tbody>${providers.map(
          (provider) => html`<tr data-alias="${provider.alias}"><td>${provider.alias}</td><td>${provider.displayName ?? '—'}</td><td>${provider.enabled ? 'enabled' : 'disabled'}</td><td>${provider.config.issuer ?? provider.config.metadataDescriptorUrl ?? '—'}</td><td><code>${origin}${brokerEndpointPath(realm, provider.alias)}</code></td></tr>`,
        )}</tbody></table>`
  }
<h2>Attributes</h2>
${attributes.length === 0 ? html`<p class="muted">No attributes.</p>` : html`<table id="organization-attributes"><thead><tr><th>Key</th><th>Values</th></tr></thead><tbody>${attributes}</tbody></table>`}
<h2>Members (${count instanceof ServiceError ? list.length : count})</h2>
<table id="members"><thead><tr><th>Username</th><th>Email</th><th>User ID</th><th>Actions</th></tr></thead><tbody>${
    list.length === 0
      ? html`<tr><td colspan="4" class="muted">No members.</td></tr>`
      : list.map(
          (member) => html`<tr data-username="${member.username}"><td>${member.username}</td><td>${member.email ?? '—'}</td><td><code>${member.id}</code></td>
<td>${
            // The service refuses to remove the default admin user (403): no button that can only fail.
            member.username === orgAdminUsername(org.id)
              ? html`<span class="muted">default admin user, always a member</span>`
              : html`<form method="post" action="${base}/members/${encodeURIComponent(member.id)}/remove" data-confirm="Remove ${member.username} from ${org.name}?">${csrfField(caller)}<button type="submit" class="danger">Remove</button></form>`
          }</td></tr>`,
        )
  }</tbody></table>
<div class="card"><h2>Add member</h2><form method="post" action="${base}/members" class="row" id="add-member">${csrfField(caller)}
<div><label for="member-username">Username</label><input type="text" id="member-username" name="username" required></div><button type="submit" id="add-member-button">Add member</button></form></div>
${rolesSection(caller, org.name, base, roles, list)}
<div class="card"><h2>Admin portal link</h2>
${opts.portalLink ? html`${copyable('portal-link', `Link for ${opts.portalLink.user}`, opts.portalLink.link)}<p class="warning">Anyone with this link can administer the organization until it expires; it is shown only now.</p>` : ''}
<form method="post" action="${base}/portal-link" id="create-portal-link">${csrfField(caller)}<button type="submit" class="secondary" id="create-portal-link-button">Create admin portal link</button></form></div>
<p><a href="${sectionPath(realm, 'organizations')}">Back to organizations</a></p>`;
  return sendDashboard(reply, caller, 'organizations', { title: `Organization ${org.name}`, body, status: opts.status, error: opts.error, done: opts.done });
}

/** Registers the Organizations section. */
export function organizationPages(app: FastifyInstance, ctx: ServiceContext): void {
  const page = (handler: (request: Req, reply: FastifyReply, caller: DashboardCaller) => Promise<FastifyReply>) => guarded<Req>(ctx, handler);
  const detailUrl = (caller: DashboardCaller, orgId: string, done: string) =>
    `${sectionPath(caller.realm.name, 'organizations', `/${encodeURIComponent(orgId)}`)}?done=${done}`;

  app.get('/realms/:realm/dashboard/organizations', page(async (request, reply, caller) => listPage(ctx, request, reply, caller)));
  app.get(
    '/realms/:realm/dashboard/organizations/:orgId',
    page(async (request, reply, caller) => detailPage(ctx, request, reply, caller, { done: field(request.query, 'done') })),
  );

  app.post(
    '/realms/:realm/dashboard/organizations/:orgId/members',
    page(async (request, reply, caller) => {
      const realm = caller.realm.name;
      const orgId = request.params.orgId!;
      const username = field(request.body, 'username').trim();
      if (username === '') return detailPage(ctx, request, reply, caller, { status: 400, error: 'Enter the username of the user to add.' });
      const user = await operation(ctx, caller, () => ctx.admin.users.findExact(realm, username));
      if (user instanceof ServiceError) return detailPage(ctx, request, reply, caller, { status: user.statusCode, error: user.description });
      if (!user) return detailPage(ctx, request, reply, caller, { status: 400, error: `Realm ${realm} has no user ${username}.` });
      const added = await operation(ctx, caller, () => adminFor(ctx, request, caller).organizations.addMember(realm, orgId, user.id));
      if (added instanceof ServiceError) return detailPage(ctx, request, reply, caller, { status: added.statusCode, error: added.description });
      return reply.redirect(detailUrl(caller, orgId, 'member-added'), 303);
    }),
  );

  app.post(
    '/realms/:realm/dashboard/organizations/:orgId/members/:userId/remove',
    page(async (request, reply, caller) => {
      const orgId = request.params.orgId!;
      const removed = await operation(ctx, caller, () => adminFor(ctx, request, caller).organizations.removeMember(caller.realm.name, orgId, request.params.userId!));
      if (removed instanceof ServiceError) return detailPage(ctx, request, reply, caller, { status: removed.statusCode, error: removed.description });
      return reply.redirect(detailUrl(caller, orgId, 'member-removed'), 303);
    }),
  );

  for (const kind of ['grant', 'revoke'] as const) {
    app.post(
      `/realms/:realm/dashboard/organizations/:orgId${ROLE_CHANGES[kind].path}`,
      page(async (request, reply, caller) => {
        const orgId = request.params.orgId!;
        const refused = await changeRoleFromForm(ctx, request, caller, orgId, request.body, kind);
        if (refused) return detailPage(ctx, request, reply, caller, { status: refused.statusCode, error: refused.description });
        return reply.redirect(detailUrl(caller, orgId, ROLE_CHANGES[kind].done), 303);
      }),
    );
  }

  app.post(
    '/realms/:realm/dashboard/organizations/:orgId/portal-link',
    page(async (request, reply, caller) => {
      const created = await operation(ctx, caller, () =>
        ctx.admin.organizations.createPortalLink(caller.realm.name, request.params.orgId!, {}, { baseUrl: baseUrlOf(request, ctx), clientId: DASHBOARD_CLIENT_ID }),
      );
      if (created instanceof ServiceError) return detailPage(ctx, request, reply, caller, { status: created.statusCode, error: created.description });
      return detailPage(ctx, request, reply, caller, { portalLink: created });
    }),
  );
}
