/**
 * Paths of the browser login (authorization endpoint, end-session endpoint) and of the dashboard,
 * at Keycloak's places for the OpenID Connect ones. Discovery lists the first two.
 */
import { realmPath } from '../api';

const openidConnect = (realm: string): string => `${realmPath(realm)}/protocol/openid-connect`;

/** OpenID Connect authorization endpoint (code flow with PKCE; GET shows the login page, POST signs in). */
export const authorizationPath = (realm: string): string => `${openidConnect(realm)}/auth`;
/** OpenID Connect RP-initiated logout (end_session_endpoint). */
export const endSessionPath = (realm: string): string => `${openidConnect(realm)}/logout`;
/** The realm's dashboard. */
export const dashboardPath = (realm: string): string => `${realmPath(realm)}/dashboard`;
/** Where the dashboard receives its authorization code. */
export const dashboardCallbackPath = (realm: string): string => `${dashboardPath(realm)}/callback`;
/** Static files of the login page and the dashboard (the same for every realm). */
export const WEB_ASSETS_PATH = '/_orgadmin/assets';
