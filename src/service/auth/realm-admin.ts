/**
 * The realm administrator role: one rule for what it means, used by every grant and the dashboard.
 * An administrator is an enabled end user with the role; the tokens it gets (password grant or
 * authorization code flow) carry every API permission, and only administrators may use the
 * dashboard. The role is given and taken by the command line (`orgadmin users grant-admin`).
 */
import { PERMISSIONS, type Permission } from '../../api';
import type { UserRecord } from '../store/store';

/** Whether the user administers its realm now (enabled end user with the role). */
export function isRealmAdmin(user: Pick<UserRecord, 'kind' | 'enabled' | 'realmAdmin'>): boolean {
  return user.kind === 'user' && user.enabled && user.realmAdmin;
}

/** The API permissions an end user's tokens carry: every one for administrators, none otherwise. */
export function permissionsOfUser(user: Pick<UserRecord, 'kind' | 'enabled' | 'realmAdmin'>): Permission[] {
  return isRealmAdmin(user) ? [...PERMISSIONS] : [];
}
