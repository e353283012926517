/**
 * Client authentication of confidential OpenID Connect clients at the token endpoint's
 * `authorization_code` grant (RFC 6749 §2.3.1: `client_secret_basic` or `client_secret_post`).
 * A public client presents no secret and proves itself by PKCE alone; a confidential one must
 * present its secret as well (PKCE is required of both). Failures count in the failed-credential
 * throttle like API-key secrets.
 */
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import type { RealmSettings } from '../store/store';
import { unauthorizedClient, type PresentedClient } from './client-auth';
import { throttleKey } from './credential-throttle';

/**
 * Checks the secret of a registered confidential client; does nothing for public clients and
 * unknown ones (the code, which names its client, refuses those). 401 `unauthorized_client` for a
 * missing or wrong secret.
 */
export async function authenticateCodeFlowClient(ctx: ServiceContext, request: FastifyRequest, realm: RealmSettings, client: PresentedClient): Promise<void> {
  const registered = await ctx.store.getOidcClient(realm.name, client.clientId);
  if (!registered || registered.secretHash === null) return;
  const throttle = throttleKey(realm.name, `client:${client.clientId}`, request.ip);
  ctx.credentialThrottle.check(throttle);
  if (!client.secret || !(await ctx.apiKeySecrets.matches(registered.secretHash, client.secret))) {
    ctx.credentialThrottle.failure(throttle);
    throw unauthorizedClient();
  }
  ctx.credentialThrottle.success(throttle);
}
