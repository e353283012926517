/**
 * The `scope` parameter of a token request (RFC 6749 §3.3): the permissions the token should carry,
 * a subset of what the client holds (down-scoping). Absent or empty: everything the client holds.
 * OpenID Connect's `openid`, `email` and `profile` are accepted (relying parties send them) and
 * carry no permission.
 */
import { hasPermission, isPermission, PERMISSIONS, type Permission } from '../../api';
import { ServiceError } from '../errors';

/** Scope values the service understands besides the permission names. */
export const OPENID_SCOPE = 'openid';

/**
 * OpenID Connect's scopes (Core §5.4, `openid`, `email`, `profile`): they name claims, not
 * permissions, and carry none; the service's ID tokens and userinfo hold those claims whenever it
 * knows them. Accepted so that standard relying parties (another service brokering sign-ins to
 * this one asks for `openid email profile`) can sign users in here.
 */
export const OIDC_SCOPES: readonly string[] = [OPENID_SCOPE, 'email', 'profile'];

/** Every scope value the service accepts (listed in discovery). */
export const SUPPORTED_SCOPES: readonly string[] = [...OIDC_SCOPES, ...PERMISSIONS];

/** What a token request is granted: its permissions and the `scope` string to report. */
export interface GrantedScope {
  permissions: Permission[];
  /** Space-separated: the granted permissions, plus `openid` when it was asked for. */
  scope: string;
}

/**
 * The permissions a token gets for the requested `scope` out of the `held` ones. A scope value
 * that is not a known permission (or an OpenID Connect scope), or a permission the client does not hold (also
 * not by implication: `manage-organizations` holds `view-organizations`), is 400 `invalid_scope`.
 */
export function grantScope(requested: string | undefined, held: readonly Permission[]): GrantedScope {
  const values = (requested ?? '').split(' ').filter((value) => value !== '');
  if (values.length === 0) return { permissions: [...held], scope: held.join(' ') };
  const permissions: Permission[] = [];
  const claimScopes: string[] = [];
  for (const value of values) {
    if (OIDC_SCOPES.includes(value)) {
      if (!claimScopes.includes(value)) claimScopes.push(value);
      continue;
    }
    if (!isPermission(value)) throw invalidScope(`Unknown scope ${JSON.stringify(value)}.`);
    if (!hasPermission(held, value)) throw invalidScope(`The client does not hold the scope ${value}.`);
    if (!permissions.includes(value)) permissions.push(value);
  }
  // Only OpenID Connect scopes asked for: a token with the client's permissions, as without a scope.
  const granted = permissions.length === 0 ? [...held] : permissions;
  return { permissions: granted, scope: [...claimScopes, ...granted].join(' ') };
}

const invalidScope = (description: string): ServiceError => new ServiceError(400, 'invalid_scope', description);
