/**
 * What the data sources that read something of one organization (its members, its roles) report
 * when that read fails, in one place: an unknown organization on `organization_id`, anything else
 * with the general advice.
 */
import type { OrgAdminProviderContext } from '../context';
import { isObjectNotFound, reportError, reportingFor } from '../diagnostics';
import type { Diagnostics } from '../../tfplugin/framework/types';
import { quote } from '../values';

/** Reports the failure of `action` (`list organization roles`) on organization `organizationId`. */
export function reportOrganizationReadError(
  ctx: OrgAdminProviderContext,
  error: unknown,
  read: { action: string; organizationId: string; realm: string },
  diags: Diagnostics,
): void {
  const { action, organizationId, realm } = read;
  if (isObjectNotFound(error)) {
    diags.error(
      'Organization not found',
      `There is no organization with id ${quote(organizationId)} in realm ${quote(realm)}. Check \`organization_id\` (and \`realm\`).`,
      ['organization_id'],
    );
    return;
  }
  reportError(diags, error, { action, target: `of organization ${quote(organizationId)} in realm ${quote(realm)}`, permission: 'view-organizations', path: ['organization_id'] }, reportingFor(ctx, realm));
}
