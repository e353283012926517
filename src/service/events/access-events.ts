/**
 * Sign-ins and token grants in the audit log: Keycloak's user event types (`access.LOGIN`,
 * `access.CLIENT_LOGIN`, `access.CODE_TO_TOKEN`, `access.REVOKE_GRANT`, each with `_ERROR` when it
 * failed). Recorded after the outcome is known; they change no stored data, so they have no
 * transaction to share (docs/guides/service.md says so). Attempts refused by the failed-credential
 * throttle (429) are not recorded: a guesser cannot grow the log faster than the throttle allows.
 */
import type { FastifyRequest } from 'fastify';
import type { AccessEventType } from '../../api';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { accessEvent } from './event';

/** What is known of a sign-in or grant attempt so far; the handler fills it in as it learns. */
export interface AccessAttempt {
  /** Which kind of attempt, once known (an unknown grant type records nothing). */
  type?: AccessEventType;
  clientId?: string;
  userId?: string;
  username?: string;
  details: Record<string, string>;
}

/** Records an attempt's event: success, or failure with an error code or the `ServiceError` it failed with. */
export async function recordAccess(
  ctx: Pick<ServiceContext, 'store' | 'now'>,
  request: FastifyRequest,
  realm: string,
  attempt: AccessAttempt,
  failure?: unknown,
): Promise<void> {
  if (attempt.type === undefined) return;
  let error: string | undefined;
  if (typeof failure === 'string') error = failure;
  else if (failure !== undefined) {
    // Throttled attempts and the service's own failures are not sign-in outcomes.
    if (!(failure instanceof ServiceError) || failure.statusCode === 429 || failure.statusCode >= 500) return;
    error = failure.code;
  }
  const details = { ...attempt.details };
  if (attempt.username !== undefined) details.username = attempt.username;
  await ctx.store.events.record(
    accessEvent(
      realm,
      { type: attempt.type, error, details },
      { clientId: attempt.clientId ?? null, userId: attempt.userId ?? null, username: attempt.username ?? null, ipAddress: request.ip },
      ctx.now(),
    ),
  );
}
