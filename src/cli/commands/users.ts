/**
 * `orgadmin users create|list`: end users of a realm. The service's HTTP API only looks users up;
 * administrators create them here.
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
        description: 'Password for the direct (password) grant; without it the user cannot get tokens.',
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
      }),
    );
    if (flags.json) printJson(io, member);
    else io.stdout(`Created user ${member.username} in realm ${flags.realm} with id ${member.id}.\n`);
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

/** `orgadmin users ...` */
export const runUsersCommand = defineGroup('users', 'Manage the users of a realm.', { create, list });
