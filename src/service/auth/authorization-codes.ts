/**
 * Authorization codes of the code flow (RFC 6749 §4.1 with PKCE, RFC 7636): issued after a login,
 * valid for {@link AUTHORIZATION_CODE_LIFETIME_MS}, exchanged once. Only the SHA-256 of a code is
 * stored, and the store hands a code out to exactly one exchange (a second one, even concurrent,
 * finds nothing), so a leaked or replayed code is worthless.
 *
 * Every refusal of an exchange is 400 `invalid_grant` (RFC 6749 §5.2) with Keycloak's wording;
 * an unknown code and one of another client or realm are told apart by nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { nowSeconds, type ServiceContext } from '../context';
import { ServiceError } from '../errors';
import type { AuthorizationCodeRecord, RealmSettings, UserRecord } from '../store/store';
import { verifierMatches } from './pkce';

/** Lifetime of an authorization code: long enough for a redirect and one exchange. */
export const AUTHORIZATION_CODE_LIFETIME_MS = 60_000;

const hashOf = (code: string): string => createHash('sha256').update(code).digest('base64url');

/**
 * The login session a code starts: its id (the `sid` claim of the tokens the code is exchanged
 * for, and the dashboard session's id) is derived from the code, which is made once per login, so
 * it needs no column of its own; a hash under its own label, so neither the code nor its stored
 * hash can be read back from it. Signing out revokes it (auth/revocations.ts).
 */
export const sessionIdOf = (code: string): string => createHash('sha256').update('login session\u0000').update(code).digest('base64url').slice(0, 22);

/** What a login grants: to whom, for which client and redirect, under which PKCE challenge (as stored). */
export type CodeGrant = Pick<AuthorizationCodeRecord, 'clientId' | 'redirectUri' | 'userId' | 'codeChallenge' | 'nonce' | 'scope'>;

/** Issues a code for a completed login and returns it (256 random bits, base64url). */
export async function issueAuthorizationCode(ctx: ServiceContext, realm: RealmSettings, grant: CodeGrant): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  const now = ctx.now();
  await ctx.store.saveAuthorizationCode(
    { ...grant, codeHash: hashOf(code), realm: realm.name, authTime: nowSeconds(ctx), expiresTimestamp: now + AUTHORIZATION_CODE_LIFETIME_MS },
    now,
  );
  return code;
}

/** What the token endpoint's `authorization_code` grant presents. */
export interface CodeExchange {
  code: string | undefined;
  clientId: string;
  redirectUri: string | undefined;
  codeVerifier: string | undefined;
}

const invalidGrant = (description: string): ServiceError => new ServiceError(400, 'invalid_grant', description);

/**
 * Consumes the code and checks it against the exchange: same realm and client, the exact same
 * redirect URI, a code verifier that matches the challenge, not expired, and a user that is still
 * enabled. The code is gone afterwards whatever the outcome (a failed exchange cannot be retried).
 * Gives the login session it started too ({@link sessionIdOf}).
 */
export async function redeemAuthorizationCode(
  ctx: ServiceContext,
  realm: RealmSettings,
  exchange: CodeExchange,
): Promise<{ code: AuthorizationCodeRecord; user: UserRecord; sessionId: string }> {
  if (!exchange.code) throw new ServiceError(400, 'invalid_request', 'Missing form parameter: code.');
  if (!exchange.codeVerifier) throw new ServiceError(400, 'invalid_request', 'Missing form parameter: code_verifier.');
  const code = await ctx.store.consumeAuthorizationCode(hashOf(exchange.code));
  if (!code || code.realm !== realm.name || code.clientId !== exchange.clientId) throw invalidGrant('Code not valid.');
  if (code.expiresTimestamp <= ctx.now()) throw invalidGrant('Code expired.');
  if (exchange.redirectUri !== code.redirectUri) throw invalidGrant('Incorrect redirect_uri.');
  if (!verifierMatches(exchange.codeVerifier, code.codeChallenge)) throw invalidGrant('PKCE verification failed.');
  const user = await ctx.store.getUser(realm.name, code.userId);
  if (!user || user.kind !== 'user' || !user.enabled) throw invalidGrant('The user is disabled or does not exist.');
  return { code, user, sessionId: sessionIdOf(exchange.code) };
}
