/**
 * `orgadmin users create|list|grant-admin|revoke-admin`: end users of a realm. The service's HTTP
 * API only looks users up; administrators create them here (or in the dashboard), and give or take
 * the realm administrator role (dashboard access) here only, like Keycloak's bootstrap admin.
 */
import type { Member } from '../../api';
import { defineCommand, defineGroup } from '../command';
import { COMMON_FLAGS, resolveDataFile, withAdmin } from '../context';
import { EXIT } from '../errors';
import { printJson, printTable } from '../output';

/** A member's display name for tables: first and last name, or empty. */
function fullName(member: Member): string {
  return [member.firstName, member.lastName].filter((part): part is string => part !== null && part !== '').join(' ');
}

const create = defineCommand(
  {
    command: 'users create',
    summary: 'Creates a user in a realm and prints its id.',
    flags: {
      realm: { type: 'string', valueName: 'NAME', required: true, description: 'Realm of the user.' },
      username: { type: 'string', valueName: 'U', required: true, description: 'Username, unique in the realm.' },
      email: { type: 'string', valueName: 'E', description: 'Email address, unique in the realm.' },
      'first-name': { type: 'string', valueName: 'F', description: 'First name.' },
      'last-name': { type: 'string', valueName: 'L', description: 'Last name.' },
      password: {
        type: 'string',
        valueName: 'P',
        description: 'Password for the browser login and the password grant; without it the user cannot sign in.',
      },
      admin: { type: 'boolean', description: 'Make the user an administrator of the realm (dashboard access, every API permission).' },
      'email-verified': {
        type: 'boolean',
        description: 'Mark the email address as verified: ID tokens carry email_verified true, which a service brokering sign-ins to this realm may link accounts by.',
      },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags }, io) => {
    const dataFile = resolveDataFile(flags.data, io);
    const member = await withAdmin(dataFile, (admin) =>
      admin.createUser(flags.realm, {
        username: flags.username,
        email: flags.email,
        firstName: flags['first-name'],
        lastName: flags['last-name'],
        password: flags.password,
        realmAdmin: flags.admin === true,
        emailVerified: flags['email-verified'] === true,
      }),
    );
    if (flags.json) printJson(io, { ...member, realmAdmin: flags.admin === true });
    else {
      const role = flags.admin === true ? ' (realm administrator)' : '';
      io.stdout(`Created user ${member.username}${role} in realm ${flags.realm} with id ${member.id}.\n`);
    }
    return EXIT.ok;
  },
);

const list = defineCommand(
  {
    command: 'users list',
    summary: 'Lists the users of a realm (service accounts excluded).',
    flags: {
      realm: { type: 'string', valueName: 'NAME', required: true, description: 'Realm whose users to list.' },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags }, io) => {
    const dataFile = resolveDataFile(flags.data, io);
    const users = await withAdmin(dataFile, (admin) => admin.listUsers(flags.realm));
    if (flags.json) {
      printJson(io, users);
    } else {
      printTable(
        io,
        ['ID', 'USERNAME', 'EMAIL', 'NAME'],
        users.map((u) => [u.id, u.username, u.email ?? '', fullName(u)]),
        `No users in realm ${flags.realm}.`,
      );
    }
    return EXIT.ok;
  },
);

/** `users grant-admin` and `users revoke-admin`: the same command with the role on or off. */
function adminRoleCommand(grant: boolean) {
  return defineCommand(
    {
      command: grant ? 'users grant-admin' : 'users revoke-admin',
      summary: grant
        ? 'Makes an existing user an administrator of the realm (dashboard access, every API permission).'
        : 'Takes the realm administrator role from a user (effective at once, also for signed-in dashboard sessions).',
      positionals: [{ name: 'USERNAME', required: true, description: 'Username of the user.' }],
      flags: {
        realm: { type: 'string', valueName: 'NAME', required: true, description: 'Realm of the user.' },
        ...COMMON_FLAGS,
      },
    },
    async ({ flags, positionals }, io) => {
      const username = positionals[0]!;
      const dataFile = resolveDataFile(flags.data, io);
      const user = await withAdmin(dataFile, (admin) => admin.setRealmAdmin(flags.realm, username, grant));
      if (flags.json) printJson(io, { id: user.id, username: user.username, realm: flags.realm, realmAdmin: user.realmAdmin });
      else io.stdout(`User ${user.username} ${grant ? 'is now an' : 'is no longer an'} administrator of realm ${flags.realm}.\n`);
      return EXIT.ok;
    },
  );
}

/** `orgadmin users ...` */
export const runUsersCommand = defineGroup('users', 'Manage the users of a realm.', {
  create,
  list,
  'grant-admin': adminRoleCommand(true),
  'revoke-admin': adminRoleCommand(false),
});
