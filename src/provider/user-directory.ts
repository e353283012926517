/**
 * Finding users of a realm by id, username or email, for the plan-time checks of memberships and
 * member sets and for the `orgadmin_users` data source. Lookups are remembered for the provider
 * process, and many at once are answered from a few pages of the realm's user list instead of one
 * request each (1,000 `orgadmin_user` data sources took a request each per plan).
 *
 * Usernames and emails are matched without regard to case, as the service matches them.
 */
import type { Member } from '../api';
import type { OrgAdminClient } from '../client';
import { forEachConcurrently } from './concurrency';
import { isObjectNotFound } from './diagnostics';

/** Above this many names or ids to find, the realm's user list is read page by page instead. */
export const SCAN_THRESHOLD = 50;

/** The largest page of the user list the service serves. */
const USERS_PAGE = 1000;

/** What to find; each list may be empty. */
export interface UserQuery {
  readonly ids?: readonly string[];
  readonly usernames?: readonly string[];
  readonly emails?: readonly string[];
}

/** What was found: users by id, and by lowercase username and email (an email may belong to several users). */
export interface UserMatches {
  /** The user with that id, or null when the realm has none. */
  readonly byId: ReadonlyMap<string, Member | null>;
  /** The user with that username (lowercase key), or null. */
  readonly byUsername: ReadonlyMap<string, Member | null>;
  /** The users with that email (lowercase key); empty when none. */
  readonly byEmail: ReadonlyMap<string, readonly Member[]>;
}


/** The lowercase key usernames and emails are matched by. */
export function nameKey(name: string): string {
  return name.toLowerCase();
}

/** The users of one realm that this process has seen, and whether it has read all of them. */
class RealmUsers {
  readonly byId = new Map<string, Member | null>();
  readonly byUsername = new Map<string, Member | null>();
  readonly byEmail = new Map<string, Member[]>();
  complete = false;

  remember(user: Member): void {
    this.byId.set(user.id, user);
    this.byUsername.set(nameKey(user.username), user);
    if (user.email) {
      const key = nameKey(user.email);
      const known = this.byEmail.get(key) ?? [];
      if (!known.some((other) => other.id === user.id)) known.push(user);
      this.byEmail.set(key, known);
    }
  }
}

/**
 * The user lookups of one provider process. Errors of the service (a missing `view-users`
 * permission above all) are thrown to the caller, which decides whether a check can wait for apply.
 */
export class UserDirectory {
  private readonly realms = new Map<string, RealmUsers>();

  constructor(private readonly client: OrgAdminClient) {}

  /** Remembers users read elsewhere (member lists carry the same fields). */
  remember(realm: string, users: readonly Member[]): void {
    const known = this.realmUsers(realm);
    for (const user of users) known.remember(user);
  }

  /** Finds the users `query` names in `realm`. */
  async find(realm: string, query: UserQuery, signal?: AbortSignal): Promise<UserMatches> {
    const known = this.realmUsers(realm);
    const ids = [...new Set(query.ids ?? [])].filter((id) => !known.byId.has(id));
    const usernames = [...new Set((query.usernames ?? []).map(nameKey))].filter((name) => !known.byUsername.has(name));
    const emails = [...new Set((query.emails ?? []).map(nameKey))].filter((email) => !known.byEmail.has(email));
    const missing = ids.length + usernames.length + emails.length;
    if (missing > 0 && !known.complete) {
      if (missing > SCAN_THRESHOLD) await this.readAll(realm, known, signal);
      else await this.lookUpEach(realm, known, ids, usernames, emails, signal);
    }
    // Whatever is still unknown after the lookups does not exist.
    for (const id of ids) if (!known.byId.has(id)) known.byId.set(id, null);
    for (const name of usernames) if (!known.byUsername.has(name)) known.byUsername.set(name, null);
    for (const email of emails) if (!known.byEmail.has(email)) known.byEmail.set(email, []);
    return known;
  }

  private realmUsers(realm: string): RealmUsers {
    let known = this.realms.get(realm);
    if (!known) {
      known = new RealmUsers();
      this.realms.set(realm, known);
    }
    return known;
  }

  private async readAll(realm: string, known: RealmUsers, signal: AbortSignal | undefined): Promise<void> {
    for (let first = 0; ; first += USERS_PAGE) {
      const page = await this.client.findUsers({ first, max: USERS_PAGE }, { realm, ...(signal ? { signal } : {}) });
      for (const user of page) known.remember(user);
      if (page.length < USERS_PAGE) break;
    }
    known.complete = true;
  }

  private async lookUpEach(
    realm: string,
    known: RealmUsers,
    ids: readonly string[],
    usernames: readonly string[],
    emails: readonly string[],
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const options = { realm, ...(signal ? { signal } : {}) };
    type Lookup = { kind: 'id' | 'username' | 'email'; value: string };
    const lookups: Lookup[] = [
      ...ids.map((value) => ({ kind: 'id' as const, value })),
      ...usernames.map((value) => ({ kind: 'username' as const, value })),
      ...emails.map((value) => ({ kind: 'email' as const, value })),
    ];
    await forEachConcurrently(lookups, async ({ kind, value }) => {
      if (kind === 'id') {
        try {
          known.remember(await this.client.getUser(value, options));
        } catch (error) {
          if (!isObjectNotFound(error)) throw error;
          known.byId.set(value, null);
        }
        return;
      }
      const found = await this.client.findUsers(kind === 'username' ? { username: value, exact: true } : { email: value, exact: true }, options);
      // "exact" is the service's; compare here too so that a service matching loosely cannot pick the wrong user.
      for (const user of found) {
        const field = kind === 'username' ? user.username : user.email;
        if (field !== undefined && field !== null && nameKey(field) === value) known.remember(user);
      }
    });
  }
}
