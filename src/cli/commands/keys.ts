/**
 * `orgadmin keys create|list|update|revoke`: API keys are the confidential clients that get tokens with
 * the client-credentials grant. The secret is shown once, at creation, and stored only as a hash.
 */
import { isPermission, PERMISSIONS, type Permission } from '../../api';
import { defineCommand, defineGroup } from '../command';
import { COMMON_FLAGS, resolveDataFile, withAdmin } from '../context';
import { CliError, EXIT, UsageError } from '../errors';
import { formatTimestamp, printJson, printTable } from '../output';

/**
 * Parses `--permissions p1,p2`: comma-separated, each a documented permission, no duplicates.
 * @throws UsageError naming the first unknown permission and listing the valid ones.
 */
export function parsePermissions(value: string): Permission[] {
  const names = value.split(',').map((name) => name.trim());
  const permissions: Permission[] = [];
  for (const name of names) {
    if (name === '') throw new UsageError(`--permissions has an empty entry in "${value}"; give a comma-separated list such as ${PERMISSIONS.join(',')}.`);
    if (!isPermission(name)) {
      throw new UsageError(`unknown permission "${name}"; valid permissions are ${PERMISSIONS.join(', ')}.`);
    }
    if (!permissions.includes(name)) permissions.push(name);
  }
  return permissions;
}

const create = defineCommand(
  {
    command: 'keys create',
    summary: 'Creates an API key and prints its client ID and secret (shown only this once).',
    flags: {
      realm: { type: 'string', valueName: 'NAME', required: true, description: 'Realm of the key.' },
      name: { type: 'string', valueName: 'KEYNAME', required: true, description: 'Name of the key, unique among the active keys of the realm.' },
      permissions: {
        type: 'string',
        valueName: 'P1,P2',
        required: true,
        description: `Comma-separated permissions: ${PERMISSIONS.join(', ')}.`,
      },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags }, io) => {
    const permissions = parsePermissions(flags.permissions);
    const dataFile = resolveDataFile(flags.data, io);
    const key = await withAdmin(dataFile, (admin) => admin.createApiKey(flags.realm, { name: flags.name, permissions }));
    if (flags.json) {
      printJson(io, { clientId: key.clientId, clientSecret: key.clientSecret, permissions: [...key.permissions] });
      // On stderr so that stdout stays one JSON document for scripts.
      io.stderr('Store the secret now: it is not shown again.\n');
    } else {
      io.stdout(
        [
          `Created API key ${key.name} in realm ${flags.realm}.`,
          `  Client ID:     ${key.clientId}`,
          `  Client secret: ${key.clientSecret}`,
          `  Permissions:   ${key.permissions.join(', ')}`,
          'Store the secret now: it is not shown again.',
          '',
        ].join('\n'),
      );
    }
    return EXIT.ok;
  },
);

const list = defineCommand(
  {
    command: 'keys list',
    summary: 'Lists API keys (never their secrets).',
    flags: {
      realm: { type: 'string', valueName: 'NAME', description: 'Only the keys of this realm.' },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags }, io) => {
    const dataFile = resolveDataFile(flags.data, io);
    // The administration API's view of a key (ApiKeyInfo): never the secret or its hash.
    const keys = await withAdmin(dataFile, (admin) => admin.listApiKeys(flags.realm));
    if (flags.json) {
      printJson(io, keys);
    } else {
      printTable(
        io,
        ['CLIENT ID', 'REALM', 'NAME', 'STATUS', 'CREATED', 'PERMISSIONS'],
        keys.map((k) => [k.clientId, k.realm, k.name, k.revoked ? 'revoked' : 'active', formatTimestamp(k.createdTimestamp), k.permissions.join(',')]),
        flags.realm === undefined ? 'No API keys.' : `No API keys in realm ${flags.realm}.`,
      );
    }
    return EXIT.ok;
  },
);

const revoke = defineCommand(
  {
    command: 'keys revoke',
    summary: 'Revokes an API key: it gets no new tokens, and the tokens already issued to it are refused.',
    positionals: [{ name: 'CLIENT_ID', required: true, description: 'Client ID of the key.' }],
    flags: { ...COMMON_FLAGS },
  },
  async ({ flags, positionals }, io) => {
    const clientId = positionals[0]!;
    const dataFile = resolveDataFile(flags.data, io);
    await withAdmin(dataFile, (admin) => admin.revokeApiKey(clientId));
    if (flags.json) printJson(io, { clientId, revoked: true });
    else io.stdout(`Revoked API key ${clientId}.\n`);
    return EXIT.ok;
  },
);

const update = defineCommand(
  {
    command: 'keys update',
    summary: "Replaces an active API key's permissions (tokens issued before keep theirs until they expire).",
    positionals: [{ name: 'CLIENT_ID', required: true, description: 'Client ID of the key.' }],
    flags: {
      permissions: {
        type: 'string',
        valueName: 'P1,P2',
        required: true,
        description: `The key's new permissions, comma-separated, replacing the old ones: ${PERMISSIONS.join(', ')}.`,
      },
      realm: { type: 'string', valueName: 'NAME', description: 'Realm of the key; when given, a key of another realm is refused.' },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags, positionals }, io) => {
    const clientId = positionals[0]!;
    const permissions = parsePermissions(flags.permissions);
    const dataFile = resolveDataFile(flags.data, io);
    const key = await withAdmin(dataFile, async (admin) => {
      // The administration API changes a key within a realm (as the dashboard does); without
      // --realm the key's own realm is that realm, like `keys revoke CLIENT_ID`.
      const realm = flags.realm ?? (await admin.listApiKeys()).find((k) => k.clientId === clientId)?.realm;
      if (realm === undefined) throw new CliError(`API key "${clientId}" does not exist.`);
      return admin.setApiKeyPermissions(realm, clientId, permissions);
    });
    if (flags.json) printJson(io, key);
    else io.stdout(`Updated API key ${key.name} (${key.clientId}) in realm ${key.realm}: permissions ${key.permissions.join(', ')}.\n`);
    return EXIT.ok;
  },
);

/** `orgadmin keys ...` */
export const runKeysCommand = defineGroup('keys', 'Manage API keys (clients of the token endpoint).', { create, list, update, revoke });
