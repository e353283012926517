/**
 * The public client end users name with the password grant (as Keycloak's `admin-cli`): it has no
 * secret and cannot use `client_credentials`. API keys may use the password grant too.
 */
export const PUBLIC_CLIENT_ID = 'admin-cli';
