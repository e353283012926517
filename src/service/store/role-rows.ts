/**
 * Shaping role rows for the store's answers, shared by the SQLite and PostgreSQL stores.
 */
import type { Organization } from '../../api';
import type { OrganizationWithRoles, RoleRecord } from './store';

/**
 * The organizations a user belongs to, each with the user's roles there: `organizations` in their
 * order, `roles` (any order within an organization is kept) put under their organization.
 */
export function groupRolesByOrganization(organizations: readonly Organization[], roles: readonly RoleRecord[]): OrganizationWithRoles[] {
  const byOrganization = new Map<string, RoleRecord[]>();
  for (const role of roles) {
    const list = byOrganization.get(role.organizationId);
    if (list) list.push(role);
    else byOrganization.set(role.organizationId, [role]);
  }
  return organizations.map((organization) => ({ organization, roles: byOrganization.get(organization.id) ?? [] }));
}
