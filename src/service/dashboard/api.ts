/**
 * The dashboard's calls to the service's own JSON API (organizations, memberships, user lookup,
 * portal links): made in-process with `inject`, with an access token issued to the signed-in
 * administrator for the `orgadmin-dashboard` client. So the dashboard goes through exactly the
 * routes, validation, permission checks, rate limit and store calls of the API: there is no second
 * implementation of those rules.
 */
import type { FastifyRequest } from 'fastify';
import { issueAccessToken } from '../auth/access-tokens';
import { DASHBOARD_CLIENT_ID } from '../auth/oidc-clients';
import { permissionsOfUser } from '../auth/realm-admin';
import { signingRealm, type ServiceContext } from '../context';
import type { DashboardCaller } from './session-guard';

/** An answer of the API. */
export interface ApiAnswer {
  status: number;
  /** The parsed JSON body, or undefined for an empty one. */
  json: unknown;
}

/** Calls the API as the signed-in administrator. */
export async function callApi(
  ctx: ServiceContext,
  request: FastifyRequest,
  caller: DashboardCaller,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
): Promise<ApiAnswer> {
  const permissions = permissionsOfUser(caller.user);
  const { token } = issueAccessToken(ctx, request, await signingRealm(ctx, caller.realm), {
    subject: caller.user.id,
    clientId: DASHBOARD_CLIENT_ID,
    permissions,
    scope: permissions.join(' '),
  });
  const response = await request.server.inject({
    method,
    url,
    headers: {
      // The same Host: the same realm pinning and issuer as the page's own request.
      host: request.headers.host ?? 'localhost',
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  const text = response.body;
  return { status: response.statusCode, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** The `error_description` of an error answer (the API always sends one). */
export function apiErrorText(answer: ApiAnswer): string {
  const body = answer.json as { error_description?: unknown } | undefined;
  return typeof body?.error_description === 'string' ? body.error_description : `The API answered ${answer.status}.`;
}
