/**
 * End users: create (optionally with a password), list and find, the realm administrator role,
 * passwords, enabling and disabling. Service accounts are the API keys' business, never listed
 * or changed here.
 */
import { randomUUID } from 'node:crypto';
import { emailProblem, MAX_NAME_LENGTH, reservedUsernameProblem, type Member } from '../../api';
import { hashSecret } from '../auth/secrets';
import { hasControlCharacter } from '../text-checks';
import { newUser, StoreConflictError, toMember, type Store, type UserRecord } from '../store/store';
import { AdminError, optionalText } from './admin-error';
import { requireRealm } from './realms';
import { UNKNOWN_ORIGIN, type ChangeOrigin } from '../events/event';

/** An end user as administrators see it: the wire fields plus the administrator role. */
export interface UserInfo extends Member {
  /** Whether the user administers the realm (dashboard access; tokens carry every permission). */
  realmAdmin: boolean;
  /** Whether the user can sign in with a password. */
  hasPassword: boolean;
  /** `user`, or `org-admin` for an organization's default admin user. */
  kind: 'user' | 'org-admin';
}

/** What {@link UserAdmin.create} needs; only the username is required. */
export interface NewUserInput {
  username: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  password?: string;
  realmAdmin?: boolean;
  /**
   * Whether the email address is known to be the user's (default false): carried as
   * `email_verified` in ID tokens and userinfo, so that a service brokering sign-ins to this realm
   * may link accounts by it. Needs an email.
   */
  emailVerified?: boolean;
}

function userInfo(user: UserRecord): UserInfo {
  return { ...toMember(user), realmAdmin: user.realmAdmin, hasPassword: user.passwordHash !== null, kind: user.kind === 'org-admin' ? 'org-admin' : 'user' };
}

/** Administration of end users over a {@link Store}. */
export class UserAdmin {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
    /** Who the changes are made by and from where: written into their events. */
    private readonly origin: ChangeOrigin = UNKNOWN_ORIGIN,
  ) {}

  /** Creates an end user (optionally with a password for the password grant). */
  async create(realm: string, opts: NewUserInput): Promise<Member> {
    await requireRealm(this.store, realm);
    const username = opts.username;
    if (typeof username !== 'string' || username.trim() === '' || username.length > MAX_NAME_LENGTH || /\s/.test(username)) {
      throw new AdminError(`Username "${String(username)}" must be 1 to ${MAX_NAME_LENGTH} characters without spaces.`);
    }
    if (hasControlCharacter(username)) throw new AdminError('Usernames must not contain control characters (U+0000 to U+001F).');
    const reserved = reservedUsernameProblem(username);
    if (reserved) throw new AdminError(`Username "${username}" ${reserved}.`);
    const email = optionalText('Email', opts.email);
    const emailBad = email === null ? undefined : emailProblem(email);
    if (emailBad) throw new AdminError(`Email "${email}" ${emailBad}.`);
    const firstName = optionalText('First name', opts.firstName);
    const lastName = optionalText('Last name', opts.lastName);
    if (opts.emailVerified === true && email === null) throw new AdminError(`User "${username}" cannot have a verified email without an email.`);
    if (opts.password !== undefined && (typeof opts.password !== 'string' || opts.password.length < 1)) {
      throw new AdminError(`The password of user "${username}" must not be empty.`);
    }
    if (await this.store.findUserByUsername(realm, username)) {
      throw new AdminError(`Realm "${realm}" already has a user named "${username}".`);
    }
    if (email !== null && (await this.store.findUsers(realm, { email, exact: true, max: 1 })).length > 0) {
      throw new AdminError(`Realm "${realm}" already has a user with email "${email}".`);
    }
    const user = newUser({
      id: randomUUID(),
      realm,
      username,
      email,
      firstName,
      lastName,
      createdTimestamp: this.now(),
      kind: 'user',
      passwordHash: opts.password === undefined ? null : await hashSecret(opts.password),
      realmAdmin: opts.realmAdmin === true,
      emailVerified: opts.emailVerified === true,
    });
    try {
      await this.store.createUser(user, this.origin);
    } catch (error) {
      if (error instanceof StoreConflictError) {
        throw new AdminError(
          error.what === 'email'
            ? `Realm "${realm}" already has a user with email "${email}".`
            : `Realm "${realm}" already has a user named "${username}".`,
        );
      }
      throw error;
    }
    return toMember(user);
  }

  /** End users and organization admin users of a realm, ordered by username (no service accounts). */
  async list(realm: string): Promise<Member[]> {
    await requireRealm(this.store, realm);
    return (await this.store.findUsers(realm, {})).map(toMember);
  }

  /** One user by username (case-insensitive), or undefined. */
  async findByUsername(realm: string, username: string): Promise<Member | undefined> {
    await requireRealm(this.store, realm);
    const user = await this.store.findUserByUsername(realm, username);
    return user && toMember(user);
  }

  /**
   * The end user or organization admin user whose username is `username` (case-insensitive), as
   * the user lookup's `exact` search finds it (never a service account), or undefined.
   */
  async findExact(realm: string, username: string): Promise<Member | undefined> {
    await requireRealm(this.store, realm);
    const [user] = await this.store.findUsers(realm, { username, exact: true, max: 1 });
    return user && toMember(user);
  }

  /** End users and organization admin users matching `search`, one page, with the total count. */
  async find(realm: string, opts: { search?: string; first?: number; max?: number } = {}): Promise<{ users: UserInfo[]; total: number }> {
    await requireRealm(this.store, realm);
    const filter = { search: opts.search, first: opts.first ?? 0, max: opts.max ?? 50 };
    const [users, total] = await Promise.all([this.store.findUsers(realm, filter), this.store.countUsers(realm, { search: opts.search })]);
    return { users: users.map(userInfo), total };
  }

  /** One end user by username with the administrator role, or undefined. */
  async getInfo(realm: string, username: string): Promise<UserInfo | undefined> {
    await requireRealm(this.store, realm);
    const user = await this.store.findUserByUsername(realm, username);
    return user && user.kind !== 'service-account' ? userInfo(user) : undefined;
  }

  /** The end user `username` of `realm`, or an {@link AdminError}. */
  private async requireEndUser(realm: string, by: { username?: string; id?: string }): Promise<UserRecord> {
    await requireRealm(this.store, realm);
    const user = by.id !== undefined ? await this.store.getUser(realm, by.id) : await this.store.findUserByUsername(realm, by.username ?? '');
    const name = by.username ?? by.id;
    if (!user || user.kind === 'service-account') throw new AdminError(`Realm "${realm}" has no user "${name}".`);
    return user;
  }

  /**
   * Gives or takes the realm administrator role (by username). Only end users may hold it: not
   * organizations' default admin users, not service accounts.
   */
  async setRealmAdmin(realm: string, username: string, realmAdmin: boolean): Promise<UserInfo> {
    const user = await this.requireEndUser(realm, { username });
    if (realmAdmin && user.kind !== 'user') {
      throw new AdminError(`User "${username}" is an organization's default admin user and cannot administer the realm.`);
    }
    const updated = await this.store.updateUser(realm, user.id, { realmAdmin }, this.origin);
    if (!updated) throw new AdminError(`Realm "${realm}" has no user "${username}".`);
    return userInfo(updated);
  }

  /** Sets a new password for an end user (by username). */
  async setPassword(realm: string, username: string, password: string): Promise<void> {
    const user = await this.requireEndUser(realm, { username });
    if (typeof password !== 'string' || password.length < 1) throw new AdminError(`The password of user "${username}" must not be empty.`);
    await this.store.updateUser(realm, user.id, { passwordHash: await hashSecret(password) }, this.origin);
  }

  /** Enables or disables a user (by id); a disabled user cannot sign in or get tokens. */
  async setEnabled(realm: string, userId: string, enabled: boolean): Promise<UserInfo> {
    await this.requireEndUser(realm, { id: userId });
    const updated = await this.store.updateUser(realm, userId, { enabled }, this.origin);
    if (!updated) throw new AdminError(`Realm "${realm}" has no user "${userId}".`);
    return userInfo(updated);
  }
}
