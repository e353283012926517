/**
 * Writes whose answer never arrived. A timeout, a dropped connection or a failing gateway after
 * the retries does not mean the write did not happen: before reporting such a failure, the
 * resources ask the service what it now holds (see the provider's "Safe to re-run" guarantees).
 */
import { NetworkError, ServerError, TimeoutError } from '../client/errors';
import type { OrgAdminProviderContext } from './context';

/**
 * True when a failed write may nevertheless have happened: the answer never arrived (a timeout or
 * a dropped connection) or a gateway failed between us and the service (a 500 is the service's
 * own answer: it did not do the write).
 */
export function outcomeUnknown(error: unknown): boolean {
  return error instanceof TimeoutError || error instanceof NetworkError || (error instanceof ServerError && error.status !== 500);
}

/**
 * After a membership add or removal failed with `error`: whether `userId` is now a member of
 * `organizationId`, asked of the service when the failure leaves the outcome unknown. Undefined
 * when the outcome was known (the failure stands) or the check failed too.
 */
export async function membershipAfterFailure(
  ctx: OrgAdminProviderContext,
  error: unknown,
  organizationId: string,
  userId: string,
  options: { realm: string; signal?: AbortSignal },
): Promise<boolean | undefined> {
  if (!outcomeUnknown(error)) return undefined;
  try {
    return await ctx.client.isMember(organizationId, userId, options);
  } catch (checkError) {
    ctx.logger.warn('could not check a membership whose change got no answer', { realm: options.realm, error: String(checkError) });
    return undefined;
  }
}
