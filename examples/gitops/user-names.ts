/**
 * Names for the user ids in a drift summary: people know `alice@example.com`, not
 * `7c9e6679-7425-40de-944b-e07fc1f90ae7`. Users are looked up through the SDK's user lookup, which
 * needs the `view-users` permission; when the key lacks it (or the lookup fails otherwise) the
 * summary keeps the ids and says why, since naming users is a courtesy, not the drift check's job.
 */
import { realmFromBaseUrl } from '../../src/api';
import { ClientCredentialsTokenSource, ForbiddenError, OrgAdminClient, StaticTokenSource, UnauthorizedError } from '../../src/client';

/** One page of the realm's users, as the SDK's `findUsers` returns them. */
export type UserPage = ReadonlyArray<{ readonly id: string; readonly username: string; readonly email: string | null }>;

/** Reads one page (`first`, `max`) of a realm's users. */
export type FindUsersPage = (realm: string, first: number, max: number) => Promise<UserPage>;

/** What {@link lookupUserNames} found. */
export interface UserNames {
  /** Shown name by user id: the email, else the username. Ids not found are left out. */
  readonly names: ReadonlyMap<string, string>;
  /** Why users stay named by id, when the lookup could not be done. */
  readonly note?: string;
}

/** No names, no note: the summary shows ids. */
export const NO_USER_NAMES: UserNames = { names: new Map() };

/** Page size of the lookup: the service's cap for the user lookup. */
const DEFAULT_PAGE_SIZE = 1000;

/**
 * Finds the email (else the username) of each id in `idsByRealm`, reading each realm's users page
 * by page until every id of that realm is found or the users run out. Never throws: a refused
 * lookup (401/403, the key lacks `view-users`) or any other failure gives the names found so far
 * and a note saying why the rest are ids.
 * @param pageSize users per page (the service's cap by default; tests page with smaller ones)
 */
export async function lookupUserNames(
  idsByRealm: ReadonlyMap<string, ReadonlySet<string>>,
  findPage: FindUsersPage,
  pageSize: number = DEFAULT_PAGE_SIZE,
): Promise<UserNames> {
  const names = new Map<string, string>();
  try {
    for (const [realm, ids] of idsByRealm) {
      const missing = new Set(ids);
      for (let first = 0; missing.size > 0; first += pageSize) {
        const page = await findPage(realm, first, pageSize);
        for (const user of page) {
          if (!missing.delete(user.id)) continue;
          names.set(user.id, user.email ?? user.username);
        }
        if (page.length < pageSize) break;
      }
    }
    return { names };
  } catch (error) {
    if (error instanceof ForbiddenError || error instanceof UnauthorizedError) {
      return { names, note: 'Users are named by id: the credentials may not look users up (that needs the view-users permission).' };
    }
    const reason = error instanceof Error ? error.message : String(error);
    return { names, note: `Users are named by id: looking them up failed (${reason}).` };
  }
}

/**
 * The user lookup with the provider's settings from the environment (`ORGADMIN_BASE_URL`,
 * `ORGADMIN_REALM`, and `ORGADMIN_CLIENT_ID` with `ORGADMIN_CLIENT_SECRET` or
 * `ORGADMIN_ACCESS_TOKEN`): the same credentials terraform used for the plan. Undefined when the
 * environment does not hold them (the provider block had them in the configuration instead).
 * The caller closes the returned client.
 */
export function userLookupFromEnvironment(env: NodeJS.ProcessEnv): { findPage: FindUsersPage; defaultRealm: string; close(): Promise<void> } | undefined {
  const baseUrl = env.ORGADMIN_BASE_URL;
  if (!baseUrl) return undefined;
  const defaultRealm = env.ORGADMIN_REALM || realmFromBaseUrl(baseUrl);
  if (!defaultRealm) return undefined;
  let tokenSource: ClientCredentialsTokenSource | StaticTokenSource;
  if (env.ORGADMIN_CLIENT_ID && env.ORGADMIN_CLIENT_SECRET) {
    tokenSource = new ClientCredentialsTokenSource({ baseUrl, clientId: env.ORGADMIN_CLIENT_ID, clientSecret: env.ORGADMIN_CLIENT_SECRET });
  } else if (env.ORGADMIN_ACCESS_TOKEN) {
    tokenSource = new StaticTokenSource(env.ORGADMIN_ACCESS_TOKEN);
  } else {
    return undefined;
  }
  const client = new OrgAdminClient({ baseUrl, realm: defaultRealm, tokenSource });
  return {
    findPage: (realm, first, max) => client.findUsers({ first, max }, { realm }),
    defaultRealm,
    close: () => client.close(),
  };
}
