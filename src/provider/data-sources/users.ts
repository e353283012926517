/**
 * `orgadmin_users` data source: many users of a realm at once, by usernames, emails or a search,
 * in one request or a few pages of the realm's user list (see ../user-directory.ts) instead of one
 * `orgadmin_user` data source, and one request, per user.
 */
import type { Member } from '../../api';
import type { OrgAdminProviderContext } from '../context';
import { realmFor } from '../context';
import { reportError, reportingFor } from '../diagnostics';
import type { AttributeType, DataSource, Value } from '../../tfplugin/framework/types';
import { dataSourceRealmAttribute, validateRealm } from '../realm';
import { nameKey } from '../user-directory';
import { knownString, knownStringList, quote } from '../values';
import { listIds } from '../resources/organization-members';
import { byUsername } from '../resources/member-set';

/** The data source's type name. */
export const USERS_DATA_SOURCE_TYPE = 'orgadmin_users';

/** The largest page of the user list the service serves. */
const USERS_PAGE = 1000;

/** The type of one element of `users`. */
const USER_OBJECT: AttributeType = [
  'object',
  { id: 'string', username: 'string', email: 'string', first_name: 'string', last_name: 'string', enabled: 'bool' },
];

function userObject(user: Member): Value {
  return {
    id: user.id,
    username: user.username,
    email: user.email ?? null,
    first_name: user.firstName ?? null,
    last_name: user.lastName ?? null,
    enabled: user.enabled,
  };
}

/** Every user of `realm` whose username, email or name contains `search`, every page. */
async function searchAll(ctx: OrgAdminProviderContext, realm: string, search: string, signal: AbortSignal | undefined): Promise<Member[]> {
  const found: Member[] = [];
  for (let first = 0; ; first += USERS_PAGE) {
    const page = await ctx.client.findUsers({ search, first, max: USERS_PAGE }, { realm, ...(signal ? { signal } : {}) });
    found.push(...page);
    if (page.length < USERS_PAGE) return found;
  }
}

/** The `orgadmin_users` data source. */
export const usersDataSource: DataSource<OrgAdminProviderContext> = {
  typeName: USERS_DATA_SOURCE_TYPE,
  schema: {
    description:
      'Looks up many users of the realm at once: by exact `usernames`, by exact `emails` (both may be given; not ' +
      'case-sensitive), or by a `search` text. Every name must match a user: the error names every one that does not. ' +
      'Many names are answered from a few pages of the realm\'s user list, not a request each. Needs the `view-users` permission.',
    attributes: {
      usernames: { type: ['set', 'string'], optional: true, description: 'Usernames to look up (exact, not case-sensitive).' },
      emails: { type: ['set', 'string'], optional: true, description: 'Email addresses to look up (exact, not case-sensitive); each must belong to one user.' },
      search: {
        type: 'string',
        optional: true,
        description: 'Instead of names: every user whose username, email, first or last name contains this text (not case-sensitive).',
      },
      realm: dataSourceRealmAttribute,
      users: {
        type: ['list', USER_OBJECT],
        computed: true,
        description: 'The users found, sorted by username: each with `id`, `username`, `email`, `first_name`, `last_name` and `enabled`.',
      },
      ids: {
        type: ['list', 'string'],
        computed: true,
        description:
          'The users\' ids, in the order of `users` (by username): the order an imported `orgadmin_organization_members` ' +
          'lists `user_ids` in, so that `user_ids = data.orgadmin_users.<name>.ids` plans changes member by member.',
      },
    },
  },

  validate(config, diags) {
    const named = (config['usernames'] ?? null) !== null || (config['emails'] ?? null) !== null;
    const searched = (config['search'] ?? null) !== null;
    if (named && searched) diags.error('Conflicting lookups', 'Set `usernames` and/or `emails`, or `search`, not both.', ['search']);
    if (!named && !searched) diags.error('Nothing to look up', 'Set `usernames`, `emails` or `search`.', ['usernames']);
    for (const attribute of ['usernames', 'emails']) {
      for (const name of knownStringList(config[attribute]) ?? []) {
        if (name.trim() === '') diags.error(`Invalid ${attribute === 'usernames' ? 'username' : 'email'}`, `\`${attribute}\` holds an empty value.`, [attribute]);
      }
    }
    validateRealm(config['realm'], diags);
  },

  async read(ctx, req, diags) {
    const realm = realmFor(ctx, req.config['realm']);
    const signal = req.signal;
    const usernames = knownStringList(req.config['usernames']) ?? [];
    const emails = knownStringList(req.config['emails']) ?? [];
    const search = knownString(req.config['search']);
    let users: Member[];
    try {
      if (search !== undefined) {
        users = await searchAll(ctx, realm, search, signal);
      } else {
        const found = await ctx.users.find(realm, { usernames, emails }, signal);
        const byId = new Map<string, Member>();
        const unknownUsernames = usernames.filter((name) => {
          const user = found.byUsername.get(nameKey(name));
          if (user) byId.set(user.id, user);
          return !user;
        });
        const unknownEmails: string[] = [];
        for (const email of emails) {
          const matches = found.byEmail.get(nameKey(email)) ?? [];
          if (matches.length === 0) unknownEmails.push(email);
          else if (matches.length > 1) {
            diags.error(
              'Email of several users',
              `The email ${quote(email)} belongs to ${matches.length} users of realm ${quote(realm)} (${matches.map((u) => quote(u.username)).join(', ')}): look them up by \`usernames\`.`,
              ['emails'],
            );
          } else byId.set(matches[0]!.id, matches[0]!);
        }
        if (unknownUsernames.length > 0) {
          diags.error('Users not found', `No user of realm ${quote(realm)} has the username ${listIds(unknownUsernames.sort())}.`, ['usernames']);
        }
        if (unknownEmails.length > 0) {
          diags.error('Users not found', `No user of realm ${quote(realm)} has the email ${listIds(unknownEmails.sort())}.`, ['emails']);
        }
        if (diags.hasErrors()) return null;
        users = [...byId.values()];
      }
    } catch (error) {
      reportError(diags, error, { action: 'look up users', target: `in realm ${quote(realm)}`, permission: 'view-users' }, reportingFor(ctx, realm));
      return null;
    }
    users.sort(byUsername);
    return {
      usernames: req.config['usernames'] ?? null,
      emails: req.config['emails'] ?? null,
      search: search ?? null,
      realm,
      users: users.map(userObject),
      ids: users.map((user) => user.id),
    };
  },
};
