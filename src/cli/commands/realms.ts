/**
 * `orgadmin realms create|list`: realms are the service's tenants; each has its own signing key
 * and token lifetime.
 */
import { defineCommand, defineGroup } from '../command';
import { COMMON_FLAGS, resolveDataFile, withAdmin } from '../context';
import { EXIT, UsageError } from '../errors';
import { formatTimestamp, printJson, printTable } from '../output';

/** The fields of a realm that the command line shows. Signing keys never leave the service. */
export interface RealmView {
  name: string;
  enabled: boolean;
  tokenLifetimeSeconds: number;
  createAdminUser: boolean;
  createdTimestamp: number;
}

/** Picks the shown fields of a realm, so that nothing else (the private key) can leak into output. */
export function toRealmView(realm: RealmView): RealmView {
  return {
    name: realm.name,
    enabled: realm.enabled,
    tokenLifetimeSeconds: realm.tokenLifetimeSeconds,
    createAdminUser: realm.createAdminUser,
    createdTimestamp: realm.createdTimestamp,
  };
}

/**
 * Parses a whole number of seconds given on the command line.
 * @throws UsageError when `value` is not a positive integer.
 */
export function parseSeconds(flag: string, value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${flag} must be a positive whole number of seconds, not "${value}".`);
  }
  return Number(value);
}

const create = defineCommand(
  {
    command: 'realms create',
    summary: 'Creates a realm (a tenant with its own signing key).',
    positionals: [{ name: 'NAME', required: true, description: 'Name of the realm (the first label of its host name).' }],
    flags: {
      'token-lifetime': {
        type: 'string',
        valueName: 'SECONDS',
        description: 'Lifetime of access tokens issued in the realm (default 300).',
      },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags, positionals }, io) => {
    const name = positionals[0]!;
    const lifetime = flags['token-lifetime'];
    const tokenLifetimeSeconds = lifetime === undefined ? undefined : parseSeconds('token-lifetime', lifetime);
    const dataFile = resolveDataFile(flags.data, io);
    const realm = await withAdmin(dataFile, (admin) => admin.createRealm(name, { tokenLifetimeSeconds }));
    const view = toRealmView(realm);
    if (flags.json) printJson(io, view);
    else io.stdout(`Created realm ${view.name} (tokens live ${view.tokenLifetimeSeconds} s).\n`);
    return EXIT.ok;
  },
);

const list = defineCommand(
  {
    command: 'realms list',
    summary: 'Lists the realms.',
    flags: { ...COMMON_FLAGS },
  },
  async ({ flags }, io) => {
    const dataFile = resolveDataFile(flags.data, io);
    const realms = (await withAdmin(dataFile, (admin) => admin.listRealms())).map(toRealmView);
    if (flags.json) {
      printJson(io, realms);
    } else {
      printTable(
        io,
        ['NAME', 'ENABLED', 'TOKEN LIFETIME', 'CREATED'],
        realms.map((r) => [r.name, r.enabled ? 'yes' : 'no', `${r.tokenLifetimeSeconds} s`, formatTimestamp(r.createdTimestamp)]),
        'No realms yet; create one with "orgadmin realms create NAME".',
      );
    }
    return EXIT.ok;
  },
);

/** `orgadmin realms ...` */
export const runRealmsCommand = defineGroup('realms', 'Manage realms (tenants).', { create, list });
