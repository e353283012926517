/**
 * Users, named the way people know them. Memberships address users by id, but people write
 * `alice@example.com`; {@link User.fromEmail} and {@link User.fromUsername} look the id up at plan
 * time through the `orgadmin_user` data source, so a configuration never carries raw ids.
 */
import type { TerraformProvider } from './toolkit';
import { Construct, type IConstruct } from 'constructs';
import { DataOrgadminUser } from './gen/data-orgadmin-user';
import { emailProblem } from '../api/validation';
import { Problems, isUnresolved, quote } from './validation';

/** A user of the service, as a member of organizations. */
export interface IUser extends IConstruct {
  /** The user's id (a token resolved at plan time when the user was looked up). */
  readonly userId: string;
  /** How to name this user in messages (`alice@example.com`, `user 6f1c…`). */
  readonly description: string;
}

/** Options of the user look-ups. */
export interface UserLookupOptions {
  /**
   * Realm to look the user up in.
   * @default the provider's realm
   */
  readonly realm?: string;
  /**
   * The provider configuration to use.
   * @default the stack's default orgadmin provider
   */
  readonly provider?: TerraformProvider;
}

/**
 * A user looked up by email or username (or named directly by id). Construct it through the
 * static methods; the construct id becomes part of the data source's address
 * (`data.orgadmin_user.<id>`) and of the ids of memberships that name this user.
 *
 * @example
 * const alice = User.fromEmail(stack, 'alice', 'alice@example.com');
 * org.addMember(alice);
 */
export class User extends Construct implements IUser {
  /**
   * Looks a user up by email address (exact match) with the `orgadmin_user` data source.
   *
   * @throws ConstructValidationError when `email` is not an email address.
   */
  static fromEmail(scope: Construct, id: string, email: string, options: UserLookupOptions = {}): User {
    const problems = new Problems();
    if (!isUnresolved(email) && emailProblem(email)) problems.add(`email must be an email address (got ${quote(email)}).`);
    problems.throwIfAny(`${scope.node.path}/${id}`);
    return new User(scope, id, { email, realm: options.realm, provider: options.provider }, email);
  }

  /**
   * Looks a user up by username (exact match) with the `orgadmin_user` data source.
   *
   * @throws ConstructValidationError when `username` is empty.
   */
  static fromUsername(scope: Construct, id: string, username: string, options: UserLookupOptions = {}): User {
    const problems = new Problems();
    if (!isUnresolved(username) && username.trim() === '') problems.add(`username must not be empty (got ${quote(username)}).`);
    problems.throwIfAny(`${scope.node.path}/${id}`);
    return new User(scope, id, { username, realm: options.realm, provider: options.provider }, username);
  }

  /** Names a user whose id is already known; no look-up happens. */
  static fromUserId(scope: Construct, id: string, userId: string): IUser {
    const problems = new Problems();
    if (!isUnresolved(userId) && userId.trim() === '') problems.add(`userId must not be empty (got ${quote(userId)}).`);
    problems.throwIfAny(`${scope.node.path}/${id}`);
    return new KnownUser(scope, id, userId);
  }

  /** The user's id, known at plan time. */
  readonly userId: string;
  /** The email or username this user was looked up by. */
  readonly description: string;
  /** The `orgadmin_user` data source behind this user. */
  readonly lookup: DataOrgadminUser;

  private constructor(scope: Construct, id: string, query: { email?: string; username?: string; realm?: string | undefined; provider?: TerraformProvider | undefined }, description: string) {
    super(scope, id);
    // `Default` keeps the data source's address equal to this construct's id.
    this.lookup = new DataOrgadminUser(this, 'Default', query);
    this.userId = this.lookup.id;
    this.description = description;
  }
}

/** A user named by id, with no data source behind it. */
class KnownUser extends Construct implements IUser {
  readonly description: string;

  constructor(
    scope: Construct,
    id: string,
    readonly userId: string,
  ) {
    super(scope, id);
    this.description = `user ${quote(userId)}`;
  }
}
