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
  // RFC 7662 token introspection: what any token of the realm carries is not for every key to read.
  'introspect-tokens',
  'view-events',
  'manage-events',
] as const;

/** One permission name. */
export type Permission = (typeof PERMISSIONS)[number];

/**
 * What each permission allows, in the words the dashboard shows next to it and the service guide's
 * table uses. Roles follow the hosted service: the permissions that cover organizations cover their
 * roles and grants too, so a key that works there works here.
 */
export const PERMISSION_DESCRIPTIONS: Readonly<Record<Permission, string>> = Object.freeze({
  'view-organizations': 'read organizations, their members, roles and grants, and the organizations of a user',
  'manage-organizations': 'change and delete organizations, add and remove members, create, change and delete roles, grant and revoke them, create portal links (implies view-organizations)',
  'create-organization': 'create organizations',
  'view-users': 'look users up',
  'introspect-tokens': 'ask whether a token of the realm is active and what it carries (token introspection)',
  'view-events': 'read the audit log, webhooks and their delivery logs',
  'manage-events': 'create, change and delete webhooks, read their secrets, resend deliveries (implies view-events)',
});

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
