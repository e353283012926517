/**
 * Permissions an API key can hold (the wire contract, docs/guides/service.md).
 *
 * `manage-organizations` implies `view-organizations` and `manage-events` implies `view-events`
 * (Keycloak's realm-management roles of the same names guard the vendor's webhooks and events); use {@link hasPermission} rather than
 * checking set membership directly so that the implication lives in one place.
 */
export const PERMISSIONS = [
  'view-organizations',
  'manage-organizations',
  'create-organization',
  'view-users',
  'view-events',
  'manage-events',
] as const;

/** One permission name. */
export type Permission = (typeof PERMISSIONS)[number];

/** True when `value` is one of the documented permission names. */
export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/**
 * True when a holder of `granted` may do what `needed` allows.
 * `manage-organizations` implies `view-organizations`; `manage-events` implies `view-events`.
 */
export function hasPermission(granted: readonly string[], needed: Permission): boolean {
  if (granted.includes(needed)) return true;
  if (needed === 'view-events') return granted.includes('manage-events');
  return needed === 'view-organizations' && granted.includes('manage-organizations');
}
