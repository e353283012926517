/**
 * `orgadmin_user` data source: one user of the realm by exact `username` or `email`, so that a
 * configuration can name members by address while memberships take user ids.
 */
import type { Member } from '../../api';
import type { OrgAdminProviderContext } from '../context';
import { realmFor } from '../context';
import { reportError, reportingFor } from '../diagnostics';
import type { DataSource } from '../../tfplugin/framework/types';
import { dataSourceRealmAttribute, validateRealm } from '../realm';
import { reportMissingLookup, validateLookup, type LookupChoice } from './lookup';
import { knownString, quote } from '../values';

/** The data source's type name. */
export const USER_DATA_SOURCE_TYPE = 'orgadmin_user';

/** The data source chooses the user by `username` or by `email`. */
const LOOKUP: LookupChoice = { first: 'username', second: 'email', what: 'the user' };

/** The `orgadmin_user` data source. */
export const userDataSource: DataSource<OrgAdminProviderContext> = {
  typeName: USER_DATA_SOURCE_TYPE,
  schema: {
    description:
      'Looks up one user of the realm by exact `username` or exact `email` (set exactly one), typically to get the `id` ' +
      'that `orgadmin_membership` and `orgadmin_organization_members` take. Needs the `view-users` permission.',
    attributes: {
      username: {
        type: 'string',
        optional: true,
        computed: true,
        description: 'The exact username to look for (not case-sensitive). Set it, or `email`.',
      },
      email: {
        type: 'string',
        optional: true,
        computed: true,
        description: 'The exact email address to look for (not case-sensitive). Set it, or `username`.',
      },
      realm: dataSourceRealmAttribute,
      id: { type: 'string', computed: true, description: 'The user\'s id.' },
      first_name: { type: 'string', computed: true, description: 'The user\'s first name (null when unknown).' },
      last_name: { type: 'string', computed: true, description: 'The user\'s last name (null when unknown).' },
      enabled: { type: 'bool', computed: true, description: 'Whether the user may sign in.' },
    },
  },

  validate(config, diags) {
    validateLookup(config, LOOKUP, diags);
    validateRealm(config['realm'], diags);
  },

  async read(ctx, req, diags) {
    const realm = realmFor(ctx, req.config['realm']);
    const username = knownString(req.config['username']);
    const email = knownString(req.config['email']);
    const by = username !== undefined ? 'username' : 'email';
    const wanted = username ?? email;
    if (wanted === undefined) {
      reportMissingLookup(LOOKUP, diags);
      return null;
    }
    let found: Member[];
    try {
      const candidates = await ctx.client.findUsers(by === 'username' ? { username: wanted, exact: true } : { email: wanted, exact: true }, { realm });
      // The lookup's "exact" is the service's; compare here too so that a service that matches
      // loosely cannot pick the wrong user.
      const lower = wanted.toLowerCase();
      found = candidates.filter((user) => (by === 'username' ? user.username : user.email ?? '').toLowerCase() === lower);
    } catch (error) {
      reportError(diags, error, { action: 'look up user', target: `by ${by} ${quote(wanted)} in realm ${quote(realm)}`, permission: 'view-users', path: [by] }, reportingFor(ctx, realm));
      return null;
    }
    if (found.length === 0) {
      diags.error('User not found', `No user of realm ${quote(realm)} has the ${by} ${quote(wanted)} (exact match). Check \`${by}\` and \`realm\`; users are created by the service's administrators.`, [by]);
      return null;
    }
    if (found.length > 1) {
      diags.error(
        'More than one user found',
        `${found.length} users of realm ${quote(realm)} have the ${by} ${quote(wanted)}: ${found.map((u) => `${quote(u.username)} (id ${quote(u.id)})`).join(', ')}. Look the user up by \`username\`, which is unique.`,
        [by],
      );
      return null;
    }
    const user = found[0]!;
    // A configured value is echoed as written (Terraform requires it); the other one comes from the service.
    return {
      username: username ?? user.username,
      email: email ?? user.email ?? null,
      realm,
      id: user.id,
      first_name: user.firstName ?? null,
      last_name: user.lastName ?? null,
      enabled: user.enabled,
    };
  },
};
