/**
 * The public clients that may use the authorization code flow, and the redirect URI rule.
 *
 * - The dashboard is a built-in client of every realm (`orgadmin-dashboard`). Its one redirect URI
 *   is the service's own callback under the base address the request came by (the issuer's base),
 *   so it needs no registration and follows the service to any host name or port.
 * - Other clients are registered per realm with `orgadmin clients create --redirect-uri ...`.
 * Redirect URIs are compared exactly, character for character (RFC 9700 §4.1.3): no prefixes,
 * patterns or normalization.
 */
import type { FastifyRequest } from 'fastify';
import { secureUrlProblem } from '../../api';
import { baseUrlOf, type ServiceContext } from '../context';
import { dashboardCallbackPath } from '../login-paths';
import type { RealmSettings } from '../store/store';
import { PUBLIC_CLIENT_ID } from './public-client';

/** Client id of the dashboard. */
export const DASHBOARD_CLIENT_ID = 'orgadmin-dashboard';

/** Client ids that cannot be registered: the service's own. */
export const RESERVED_CLIENT_IDS: readonly string[] = [DASHBOARD_CLIENT_ID, PUBLIC_CLIENT_ID];

/** A client allowed to use the authorization code flow. */
export interface CodeFlowClient {
  clientId: string;
  /** Shown on the login page. */
  name: string;
  /** Exact redirect URIs. */
  redirectUris: string[];
}

/** The code-flow client `clientId` of a realm as seen from this request, or undefined. */
export async function codeFlowClient(
  ctx: ServiceContext,
  request: FastifyRequest,
  realm: RealmSettings,
  clientId: string,
): Promise<CodeFlowClient | undefined> {
  if (clientId === DASHBOARD_CLIENT_ID) {
    return { clientId, name: 'orgadmin dashboard', redirectUris: [`${baseUrlOf(request, ctx)}${dashboardCallbackPath(realm.name)}`] };
  }
  const registered = await ctx.store.getOidcClient(realm.name, clientId);
  return registered && { clientId, name: registered.name, redirectUris: registered.redirectUris };
}

/** Whether `uri` is one of the client's redirect URIs, exactly. */
export function isRegisteredRedirect(client: CodeFlowClient, uri: string | undefined): uri is string {
  return uri !== undefined && client.redirectUris.includes(uri);
}

/**
 * Why a redirect URI cannot be registered, or undefined: it must be an absolute https URL (http
 * only for loopback hosts) without a fragment or user information, at most 2000 characters.
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > 2000) return 'is longer than 2000 characters';
  return secureUrlProblem(uri);
}
