/**
 * The `scope` parameter of a token request (RFC 6749 §3.3): the permissions the token should carry,
 * a subset of what the client holds (down-scoping). Absent or empty: everything the client holds.
 * `openid` is accepted (OpenID Connect clients send it) and carries no permission.
 */
import { hasPermission, isPermission, PERMISSIONS, type Permission } from '../../api';
import { ServiceError } from '../errors';

/** Scope values the service understands besides the permission names. */
export const OPENID_SCOPE = 'openid';

/** Every scope value the service accepts (listed in discovery). */
export const SUPPORTED_SCOPES: readonly string[] = [OPENID_SCOPE, ...PERMISSIONS];

/** What a token request is granted: its permissions and the `scope` string to report. */
export interface GrantedScope {
  permissions: Permission[];
  /** Space-separated: the granted permissions, plus `openid` when it was asked for. */
  scope: string;
}

/**
 * The permissions a token gets for the requested `scope` out of the `held` ones. A scope value
 * that is not a known permission (or `openid`), or a permission the client does not hold (also
 * not by implication: `manage-organizations` holds `view-organizations`), is 400 `invalid_scope`.
 */
export function grantScope(requested: string | undefined, held: readonly Permission[]): GrantedScope {
  const values = (requested ?? '').split(' ').filter((value) => value !== '');
  if (values.length === 0) return { permissions: [...held], scope: held.join(' ') };
  const permissions: Permission[] = [];
  let openid = false;
  for (const value of values) {
    if (value === OPENID_SCOPE) {
      openid = true;
      continue;
    }
    if (!isPermission(value)) throw invalidScope(`Unknown scope ${JSON.stringify(value)}.`);
    if (!hasPermission(held, value)) throw invalidScope(`The client does not hold the scope ${value}.`);
    if (!permissions.includes(value)) permissions.push(value);
  }
  // Only openid asked for: a token with the client's permissions, as without a scope.
  const granted = permissions.length === 0 ? [...held] : permissions;
  return { permissions: granted, scope: [...(openid ? [OPENID_SCOPE] : []), ...granted].join(' ') };
}

const invalidScope = (description: string): ServiceError => new ServiceError(400, 'invalid_scope', description);
