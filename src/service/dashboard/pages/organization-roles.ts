/**
 * The roles part of an organization's dashboard page: its roles, who holds each, a form to grant a
 * role to a member and a button to revoke each grant. Reads and changes go through the Admin API's
 * roles area (admin/roles.ts), whose rules are the JSON API's: a grant needs a member (400
 * `not_member`), a role the organization lacks is 404, revoking a grant that is not there is 404;
 * a refusal is shown with the API's status and sentence, and changes nothing.
 */
import type { Member } from '../../../api';
import type { RoleWithHolders } from '../../admin';
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from '../../context';
import { ServiceError } from '../../errors';
import { html, type Html } from '../../web/html';
import { field } from '../form';
import { operation } from '../operation';
import { adminFor, type DashboardCaller } from '../session-guard';
import { csrfField } from '../shell';

/** What a role form does: the path under the organization's page it posts to, and the notice after it. */
export const ROLE_CHANGES = {
  grant: { path: '/roles/grant', done: 'role-granted' },
  revoke: { path: '/roles/revoke', done: 'role-revoked' },
} as const;

/** Whether a role form grants or revokes. */
export type RoleFormKind = keyof typeof ROLE_CHANGES;

/** The organization's roles with their holders, or the API's refusal. */
export function readRoles(ctx: ServiceContext, caller: DashboardCaller, orgId: string): Promise<RoleWithHolders[] | ServiceError> {
  return operation(ctx, caller, () => ctx.admin.roles.listWithHolders(caller.realm.name, orgId));
}

/**
 * The roles section: one row per role with its holders (each with a Revoke button), and the grant
 * form offering the members shown on the page. `base` is the organization page's path.
 */
export function rolesSection(caller: DashboardCaller, orgName: string, base: string, roles: RoleWithHolders[] | ServiceError, members: Member[]): Html {
  if (roles instanceof ServiceError) return html`<h2>Roles</h2><p class="muted" id="roles-unavailable">${roles.description}</p>`;
  const revokeForm = (role: string, holder: Member): Html =>
    html`<form method="post" action="${base}${ROLE_CHANGES.revoke.path}" data-confirm="Revoke role ${role} from ${holder.username} in ${orgName}?">${csrfField(caller)}<input type="hidden" name="userId" value="${holder.id}"><input type="hidden" name="role" value="${role}"><button type="submit" class="danger">Revoke from ${holder.username}</button></form>`;
  const rows = roles.map(
    ({ role, holders }) => html`<tr data-role="${role.name}"><td>${role.name}</td><td>${role.description ?? '—'}</td><td>${
      holders.length === 0 ? html`<span class="muted">nobody</span>` : holders.map((holder) => html`<span class="holder" data-username="${holder.username}">${revokeForm(role.name, holder)}</span>`)
    }</td></tr>`,
  );
  const grant =
    members.length === 0 || roles.length === 0
      ? html`<p class="muted">Add a member first to grant roles.</p>`
      : html`<form method="post" action="${base}${ROLE_CHANGES.grant.path}" class="row" id="grant-role">${csrfField(caller)}
<div><label for="grant-member">Member</label><select id="grant-member" name="userId">${members.map((member) => html`<option value="${member.id}">${member.username}</option>`)}</select></div>
<div><label for="grant-role-name">Role</label><select id="grant-role-name" name="role">${roles.map(({ role }) => html`<option value="${role.name}">${role.name}</option>`)}</select></div>
<button type="submit" id="grant-role-button">Grant role</button></form>`;
  return html`<h2>Roles (${roles.length})</h2>
<table id="roles"><thead><tr><th>Role</th><th>Description</th><th>Held by</th></tr></thead><tbody>${rows}</tbody></table>
<div class="card"><h2>Grant a role</h2>${grant}</div>`;
}

/**
 * Grants or revokes the role named by a posted role form (fields `userId` and `role`) by the JSON
 * API's rules. Gives nothing when done, else the refusal to show: 400 for a form missing either
 * field, or the API's own.
 */
export async function changeRoleFromForm(
  ctx: ServiceContext,
  request: FastifyRequest,
  caller: DashboardCaller,
  orgId: string,
  body: unknown,
  kind: RoleFormKind,
): Promise<ServiceError | undefined> {
  const userId = field(body, 'userId');
  const role = field(body, 'role');
  if (userId === '' || role === '') return new ServiceError(400, 'invalid_body', 'Choose a member and a role.');
  // The grant's event names the signed-in user, the dashboard and the user's address.
  const { roles } = adminFor(ctx, request, caller);
  const realm = caller.realm.name;
  const done = await operation(ctx, caller, () => (kind === 'grant' ? roles.grant(realm, orgId, role, userId) : roles.revoke(realm, orgId, role, userId)));
  return done instanceof ServiceError ? done : undefined;
}
