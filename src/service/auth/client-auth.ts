/**
 * Client authentication of the OAuth endpoints (token, introspection, revocation): reading the
 * form, the credentials (`client_secret_post` or `client_secret_basic`, RFC 6749 §2.3.1), and
 * checking an API key's secret under the failed-credential throttle.
 *
 * Every check of a presented credential takes the same path whether the client exists or not
 * (one store read, one HMAC, one constant-time comparison), so timing does not tell client ids
 * apart, and in standard mode neither does the answer: an unknown, revoked or other realm's client
 * and a wrong or missing secret all get the same 401 `invalid_client` (RFC 6749 §5.2). Hosted
 * compatibility mode answers as Keycloak does: `invalid_client` for an unknown client,
 * `unauthorized_client` for a wrong or missing secret, one description for both.
 */
import type { FastifyRequest } from 'fastify';
import type { RealmSettings, ApiKeyRecord } from '../store/store';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { hasControlCharacter } from '../text-checks';
import { throttleKey } from './credential-throttle';

/** A form-encoded request body: one value per parameter. */
export type Form = Record<string, string | undefined>;

/** Reads the form; a repeated parameter is a 400 (RFC 6749 §3.2). */
export function readForm(request: FastifyRequest): Form {
  const type = request.headers['content-type'];
  if (type !== undefined && !/^application\/x-www-form-urlencoded\b/i.test(type)) {
    throw new ServiceError(400, 'invalid_request', 'Requests to this endpoint must be sent as application/x-www-form-urlencoded.');
  }
  const body = (request.body ?? {}) as Record<string, unknown>;
  const form: Form = {};
  for (const [name, value] of Object.entries(body)) {
    if (Array.isArray(value)) throw new ServiceError(400, 'invalid_request', `Parameter ${name} must not be repeated.`);
    form[name] = typeof value === 'string' ? value : undefined;
  }
  return form;
}

/** `Authorization: Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 §2.3.1), or undefined. */
function basicCredentials(request: FastifyRequest): { id: string; secret: string } | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const unescape = (text: string): string => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return text;
    }
  };
  return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
}

/** The client a request names and the secret it presents (undefined: none). */
export interface PresentedClient {
  clientId: string;
  secret: string | undefined;
}

/**
 * The client id and secret of a request: form fields win over HTTP Basic when both are present.
 * No client id is 400 `invalid_client`; one with a control character (no stored client has one)
 * is 401 `invalid_client`. Sets `request.clientId`.
 */
export function presentedClient(request: FastifyRequest, form: Form): PresentedClient {
  const basic = basicCredentials(request);
  const clientId = form.client_id || basic?.id;
  if (!clientId) throw new ServiceError(400, 'invalid_client', 'Missing form parameter: client_id.');
  const secret = form.client_id ? (form.client_secret ?? (basic?.id === form.client_id ? basic.secret : undefined)) : basic?.secret;
  request.clientId = clientId;
  if (hasControlCharacter(clientId)) throw invalidClient();
  return { clientId, secret };
}

/** The one refusal of client credentials in standard mode (RFC 6749 §5.2). */
export const invalidClient = (): ServiceError => new ServiceError(401, 'invalid_client', 'Invalid client or client credentials.');

/** Keycloak's description of both refusals (ClientIdAndSecretAuthenticator), for hosted mode. */
const KEYCLOAK_CLIENT_REFUSAL = 'Invalid client or Invalid client credentials';

/**
 * The refusal of client credentials: why (`unknown`: no such client in the realm, or revoked;
 * `secret`: a wrong or missing secret) shows only in hosted compatibility mode, as Keycloak's
 * error code; standard mode answers both alike, so a guesser cannot tell which client ids exist.
 */
export function refusedClient(ctx: Pick<ServiceContext, 'compat'>, why: 'unknown' | 'secret'): ServiceError {
  if (ctx.compat !== 'hosted') return invalidClient();
  return new ServiceError(401, why === 'unknown' ? 'invalid_client' : 'unauthorized_client', KEYCLOAK_CLIENT_REFUSAL);
}

/**
 * Checks an API key's credentials: refused with 429 while this (realm, client id, address) must
 * wait after failures; otherwise the attempt is counted, the key is read and the secret checked
 * (against a dummy hash when the key does not exist), and a success clears the count. Returns the key.
 */
export async function authenticateApiKey(
  ctx: ServiceContext,
  request: FastifyRequest,
  realm: RealmSettings,
  client: PresentedClient,
): Promise<ApiKeyRecord> {
  const throttle = throttleKey(realm.name, `client:${client.clientId}`, request.ip);
  // Counted before the lookup and the hash, so concurrent guesses cannot all pass (credential-throttle.ts).
  ctx.credentialThrottle.attempt(throttle);
  const found = await ctx.store.getApiKey(client.clientId);
  const key = found && found.realm === realm.name ? found : undefined;
  // Keys still stored the legacy way cost a slow hash, under the same bound as passwords.
  const secretOk = await ctx.apiKeySecrets.verify(key, client.secret ?? '', (work) => ctx.hashGate.run(request.ip, work));
  if (!key || key.revokedTimestamp !== null) throw refusedClient(ctx, 'unknown');
  if (!client.secret || !secretOk) throw refusedClient(ctx, 'secret');
  ctx.credentialThrottle.success(throttle);
  return key;
}
