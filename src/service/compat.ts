/**
 * Hosted-service compatibility mode (`orgadmin serve --compat hosted`, `buildApp`/`startServer`
 * option `compat: 'hosted'`): the service reproduces the real hosted service's known quirks, so
 * that clients (the SDK, the provider, anyone's scripts) can be tested against both behaviours.
 *
 * In `hosted` mode, for every answer except those of the OpenID Connect endpoints (token,
 * discovery, JWKS: Keycloak answers those in the OAuth shape too) and the portal page:
 * - a valid token without the needed permission gets 401, not 403 `insufficient_scope`;
 * - the error statuses that Keycloak's JAX-RS layer produces itself (400, 401, 403, 404, 405,
 *   409) carry Keycloak's body `{"error":"HTTP 404 Not Found"}` (status and reason phrase, no
 *   `error_description`), except `realm_not_found`/`realm_mismatch` (already Keycloak's wording)
 *   and `operation_not_supported` (an operation this service lacks is not a quirk to copy).
 * Headers (`WWW-Authenticate`, `Allow`, `Retry-After`) stay. The organization list's cap of 100
 * is the same in both modes (the contract copies it).
 *
 * The mode rewrites answers at the edge (one onSend hook), so no route knows about it.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The service's behaviours: `standard` (the contract) or `hosted` (the real service's quirks). */
export const COMPAT_MODES = ['standard', 'hosted'] as const;
/** One of {@link COMPAT_MODES}. */
export type CompatMode = (typeof COMPAT_MODES)[number];

/** True when `value` names a {@link CompatMode}. */
export function isCompatMode(value: unknown): value is CompatMode {
  return typeof value === 'string' && (COMPAT_MODES as readonly string[]).includes(value);
}

/** Statuses whose bodies Keycloak writes itself as `{"error":"HTTP <status> <reason>"}`. */
const KEYCLOAK_STATUSES = new Set([400, 401, 403, 404, 405, 409]);

/** Error codes whose bodies stay as they are in hosted mode (see the module comment). */
const KEPT_CODES = new Set(['realm_not_found', 'realm_mismatch', 'operation_not_supported']);

/** OpenID Connect endpoints and the portal page: answered as in standard mode. */
const UNCHANGED_PATHS = [/^\/realms\/[^/]+\/protocol\/openid-connect(\/|$)/, /^\/realms\/[^/]+\/\.well-known\//, /^\/realms\/[^/]+\/orgs\/[^/]+\/portal\/?$/];

/** The `error` code of a JSON error body, or undefined when the payload is not one. */
function errorCodeOf(payload: unknown): string | undefined {
  if (typeof payload !== 'string') return undefined;
  try {
    const body = JSON.parse(payload) as { error?: unknown };
    return typeof body?.error === 'string' ? body.error : undefined;
  } catch {
    return undefined;
  }
}

/** The body of a Keycloak-made error answer. */
export function keycloakErrorBody(status: number): string {
  return JSON.stringify({ error: `HTTP ${status} ${STATUS_CODES[status] ?? 'Error'}` });
}

/** onSend hook of hosted mode: rewrites error answers as the hosted service gives them. */
async function rewriteAsHosted(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (!KEYCLOAK_STATUSES.has(reply.statusCode)) return payload;
  const path = request.url.split('?')[0];
  if (UNCHANGED_PATHS.some((pattern) => pattern.test(path))) return payload;
  const code = errorCodeOf(payload);
  if (code === undefined || KEPT_CODES.has(code)) return payload;
  if (code === 'insufficient_scope') {
    // The hosted service answers a missing permission like a bad token.
    const realm = request.realm?.name ?? '';
    reply.code(401).header('WWW-Authenticate', `Bearer realm="${realm}"`);
  }
  return keycloakErrorBody(reply.statusCode);
}

/**
 * Installs the behaviour of `mode` on the app; `standard` installs nothing. Call before routes
 * are registered, so the hook covers every route and the not-found answer.
 */
export function installCompatMode(app: FastifyInstance, mode: CompatMode): void {
  if (mode === 'hosted') app.addHook('onSend', rewriteAsHosted);
}
