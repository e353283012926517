/**
 * One operation of the JSON API's rules run for the signed-in administrator, shared by the
 * dashboard pages that use the Admin API's organizations and roles areas.
 */
import { rateLimitKey } from '../auth/guards';
import { DASHBOARD_CLIENT_ID } from '../auth/oidc-clients';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import type { DashboardCaller } from './session-guard';

/**
 * Runs `call` after counting it against the realm's rate limit as the API counts its requests
 * (client `orgadmin-dashboard`). Gives its value, or the API's refusal (429 included) so the page
 * can show its status and sentence; other failures are thrown on.
 */
export async function operation<T>(ctx: ServiceContext, caller: DashboardCaller, call: () => Promise<T>): Promise<T | ServiceError> {
  try {
    ctx.rateLimiter.hit(caller.realm, rateLimitKey(caller.realm.name, DASHBOARD_CLIENT_ID, caller.user.id));
    return await call();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
}
