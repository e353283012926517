/**
 * Checking an end user's username and password, the one rule shared by the `password` grant and
 * the login page of the authorization endpoint: under the failed-credential throttle and the bound
 * on slow hashes (hash-gate.ts), in the same time whether the user exists or not.
 */
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import type { RealmSettings, UserRecord } from '../store/store';
import { hasControlCharacter } from '../text-checks';
import { throttleKey } from './credential-throttle';
import { verifyPassword } from './secrets';

/**
 * The enabled end user with this username and password, or undefined. Unknown, disabled and
 * password-less users cost a password hash too (against a dummy), so the answer takes as long as
 * a wrong password. Throws 429 while this address has as many hashes waiting as it may
 * (hash-gate.ts), or while this (realm, username, address) must wait (credential-throttle.ts);
 * both are decided before any lookup or hash.
 */
export async function authenticateUser(
  ctx: ServiceContext,
  request: FastifyRequest,
  realm: RealmSettings,
  username: string,
  password: string,
): Promise<UserRecord | undefined> {
  const throttle = throttleKey(realm.name, `user:${username.toLowerCase()}`, request.ip);
  // The address's place for the hash first: a refusal there is no attempt at this credential.
  const turn = ctx.hashGate.enter(request.ip);
  try {
    // Counted before the hash, so concurrent guesses cannot all pass (credential-throttle.ts).
    ctx.credentialThrottle.attempt(throttle);
    // No user the service stores has a control character in its name.
    const found = hasControlCharacter(username) ? undefined : await ctx.store.findUserByUsername(realm.name, username);
    const user = found && found.kind === 'user' && found.enabled ? found : undefined;
    const ok = await turn.run(() => verifyPassword(password, user?.passwordHash));
    if (!ok || !user) return undefined;
    ctx.credentialThrottle.success(throttle);
    return user;
  } finally {
    turn.cancel();
  }
}
