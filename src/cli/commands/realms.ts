/**
 * `orgadmin realms create|list|update|export|import`: realms are the service's tenants; each has
 * its own signing key, token lifetime, default-admin-user switch and rate limit. A realm moves to
 * another instance as one file (service/operations/realm-transfer.ts says what it carries).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { asRealmFile, exportRealm, importRealm, RealmFileError } from '../../service/operations/realm-transfer';
import { MAX_EVENT_RETENTION_DAYS, MAX_TOKEN_LIFETIME_SECONDS } from '../../service/admin';
import type { RealmRateLimit } from '../../service/rate-limit';
import { parseRateLimit } from './serve';
import { defineCommand, defineGroup } from '../command';
import { COMMON_FLAGS, openStore, resolveDataFile, withAdmin } from '../context';
import { CliError, EXIT, UsageError } from '../errors';
import { Admin } from '../../service/admin';
import { formatTimestamp, printJson, printTable } from '../output';

/** The fields of a realm that the command line shows. Signing keys never leave the service. */
export interface RealmView {
  name: string;
  enabled: boolean;
  tokenLifetimeSeconds: number;
  createAdminUser: boolean;
  organizationsClaim: boolean;
  createdTimestamp: number;
}

/** Picks the shown fields of a realm, so that nothing else (the private key) can leak into output. */
export function toRealmView(realm: RealmView): RealmView {
  return {
    name: realm.name,
    enabled: realm.enabled,
    tokenLifetimeSeconds: realm.tokenLifetimeSeconds,
    createAdminUser: realm.createAdminUser,
    organizationsClaim: realm.organizationsClaim,
    createdTimestamp: realm.createdTimestamp,
  };
}

/**
 * Parses a whole number of seconds from 1 to `max` given on the command line. The range is part of
 * the value's form (like a port's), so a value outside it is a usage error (exit 2), refused before
 * the data file is opened, not a failure of the service (exit 1).
 * @throws UsageError when `value` is not a whole number from 1 to `max`.
 */
export function parseSeconds(flag: string, value: string, max: number): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw new UsageError(`--${flag} must be a whole number of seconds from 1 to ${max}, not "${value}".`);
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
        description: `Lifetime of access tokens issued in the realm, 1 to ${MAX_TOKEN_LIFETIME_SECONDS} (default 300).`,
      },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags, positionals }, io) => {
    const name = positionals[0]!;
    const lifetime = flags['token-lifetime'];
    const tokenLifetimeSeconds = lifetime === undefined ? undefined : parseSeconds('token-lifetime', lifetime, MAX_TOKEN_LIFETIME_SECONDS);
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

/**
 * Parses `--rate-limit` of `realms update`: `N/SECONDS` (the realm's own limit), `off` (none in this
 * realm), or `default` (the service's `--rate-limit`). The bounds are the service's
 * (`realmRateLimitProblem`, checked by the Admin API); the form is checked here (exit 2).
 */
export function parseRealmRateLimit(value: string): RealmRateLimit {
  if (value === 'off') return 'off';
  if (value === 'default') return null;
  try {
    return parseRateLimit(value);
  } catch {
    throw new UsageError(`--rate-limit must be REQUESTS/SECONDS (e.g. 100/60), "off" or "default", not "${value}".`);
  }
}

/** Reads `on`/`off` of a switch flag. @throws UsageError for anything else */
export function parseSwitch(flag: string, value: string): boolean {
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new UsageError(`--${flag} must be "on" or "off", not "${value}".`);
}

/**
 * Parses `--event-retention` of `realms update`: whole days from 1 to the service's maximum, or
 * `forever` (null: events are never pruned).
 */
export function parseEventRetention(value: string): number | null {
  if (value === 'forever') return null;
  if (!/^[0-9]+$/.test(value) || Number(value) < 1 || Number(value) > MAX_EVENT_RETENTION_DAYS) {
    throw new UsageError(`--event-retention must be a whole number of days from 1 to ${MAX_EVENT_RETENTION_DAYS} or "forever", not "${value}".`);
  }
  return Number(value);
}

const update = defineCommand(
  {
    command: 'realms update',
    summary: "Changes a realm's settings (token lifetime, default admin user, organizations claim, rate limit, event retention).",
    positionals: [{ name: 'NAME', required: true, description: 'Name of the realm.' }],
    flags: {
      'token-lifetime': {
        type: 'string',
        valueName: 'SECONDS',
        description: `Lifetime of access tokens issued in the realm, 1 to ${MAX_TOKEN_LIFETIME_SECONDS}.`,
      },
      'admin-user': {
        type: 'string',
        valueName: 'on|off',
        description: 'Whether a new organization gets its default admin user org-admin-<id>.',
      },
      'organizations-claim': {
        type: 'string',
        valueName: 'on|off',
        description: "Whether every token a user gets in the realm carries the organizations claim (the user's organizations and roles there).",
      },
      'rate-limit': {
        type: 'string',
        valueName: 'N/SECONDS|off|default',
        description: "The realm's rate limit per client: its own, none, or the service's --rate-limit.",
      },
      'event-retention': {
        type: 'string',
        valueName: 'DAYS|forever',
        description: `Days the realm keeps its events (audit log), 1 to ${MAX_EVENT_RETENTION_DAYS}, or "forever" (the default).`,
      },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags, positionals }, io) => {
    const name = positionals[0]!;
    const lifetime = flags['token-lifetime'];
    const changes = {
      ...(lifetime === undefined ? {} : { tokenLifetimeSeconds: parseSeconds('token-lifetime', lifetime, MAX_TOKEN_LIFETIME_SECONDS) }),
      ...(flags['admin-user'] === undefined ? {} : { createAdminUser: parseSwitch('admin-user', flags['admin-user']) }),
      ...(flags['organizations-claim'] === undefined ? {} : { organizationsClaim: parseSwitch('organizations-claim', flags['organizations-claim']) }),
      ...(flags['rate-limit'] === undefined ? {} : { rateLimit: parseRealmRateLimit(flags['rate-limit']) }),
      ...(flags['event-retention'] === undefined ? {} : { eventRetentionDays: parseEventRetention(flags['event-retention']) }),
    };
    if (Object.keys(changes).length === 0) {
      throw new UsageError('realms update needs at least one of --token-lifetime, --admin-user, --organizations-claim, --rate-limit, --event-retention.');
    }
    const dataFile = resolveDataFile(flags.data, io);
    const realm = await withAdmin(dataFile, (admin) => admin.updateRealm(name, changes));
    const view = toRealmView(realm);
    if (flags.json) printJson(io, view);
    else io.stdout(`Updated realm ${view.name}.\n`);
    return EXIT.ok;
  },
);

/** `orgadmin realms ...` */
const exportCommand = defineCommand(
  {
    command: 'realms export',
    summary: 'Writes a realm (settings, users, clients, organizations, memberships) to a file for "realms import".',
    positionals: [{ name: 'NAME', required: true, description: 'The realm to export.' }],
    flags: {
      out: { type: 'string', valueName: 'FILE', description: 'The file to write (required; readable by you only: it holds password hashes).' },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags, positionals }, io) => {
    if (flags.out === undefined) throw new CliError('--out FILE is required: the file to write the realm to.');
    const name = positionals[0]!;
    const out = resolve(io.cwd, flags.out);
    const store = await openStore(resolveDataFile(flags.data, io));
    try {
      const file = await exportRealm(store, name);
      if (file === undefined) throw new CliError(`realm ${name} does not exist.`);
      writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
      const summary = { realm: name, file: out, users: file.users.length, organizations: file.organizations.length };
      if (flags.json) printJson(io, summary);
      else io.stdout(`Exported realm ${name} to ${out} (${summary.users} users, ${summary.organizations} organizations).\n`);
    } finally {
      await store.close();
    }
    return EXIT.ok;
  },
);

const importCommand = defineCommand(
  {
    command: 'realms import',
    summary: 'Creates a realm from a file of "realms export" (the realm must not exist yet).',
    positionals: [{ name: 'FILE', required: true, description: 'The file written by "orgadmin realms export".' }],
    flags: {
      as: { type: 'string', valueName: 'NAME', description: 'Name of the new realm (default: the exported realm\'s name).' },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags, positionals }, io) => {
    const path = resolve(io.cwd, positionals[0]!);
    let file;
    try {
      file = asRealmFile(JSON.parse(readFileSync(path, 'utf8')) as unknown);
    } catch (error) {
      throw new CliError(`cannot import ${path}: ${error instanceof RealmFileError || error instanceof SyntaxError ? error.message : (error as Error).message}`);
    }
    const store = await openStore(resolveDataFile(flags.data, io));
    try {
      const imported = await importRealm(new Admin(store), store, file, flags.as).catch((error: unknown) => {
        throw error instanceof RealmFileError ? new CliError(`cannot import ${path}: ${error.message}`) : error;
      });
      const name = flags.as ?? file.realm.name;
      if (flags.json) printJson(io, { realm: name, ...imported });
      else io.stdout(`Imported realm ${name} (${imported.users} users, ${imported.organizations} organizations, ${imported.memberships} memberships); create its API keys anew.\n`);
    } finally {
      await store.close();
    }
    return EXIT.ok;
  },
);

export const runRealmsCommand = defineGroup('realms', 'Manage realms (tenants).', { create, list, update, export: exportCommand, import: importCommand });
