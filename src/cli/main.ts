/**
 * The `orgadmin` command line: dispatches the first word to a command and turns every expected
 * failure into one sentence on stderr and an exit code (0 ok, 1 error, 2 usage error).
 * `bin/orgadmin.js` calls {@link main} with the process's arguments and IO.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { missingServicePackages, SERVICE_PACKAGE } from '../service/runtime-dependencies';
import { CliError, EXIT, reportError, UsageError } from './errors';
import type { CliIO, Command } from './io';

/** The module of `orgadmin provider ...`, owned separately and loaded only when used. */
const PROVIDER_MODULE = './commands/provider';

/**
 * Loads `exportName` from `modulePath` (relative to this file) when the command is used, so that
 * a build without that module still runs every other command. Returns undefined when the module,
 * or the export, is not there; a module that exists but fails to load is a bug and rethrows.
 */
export function loadOptionalCommand(modulePath: string, exportName: string): Command | undefined {
  let loaded: Record<string, unknown>;
  try {
    // A computed path keeps the compiler from requiring the module at build time.
    loaded = require(modulePath) as Record<string, unknown>;
  } catch (error) {
    // Duck-typed rather than `instanceof Error`: loaders (jest's among them) may throw errors made
    // in another realm.
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    const firstLine = typeof message === 'string' ? (message.split('\n')[0] ?? '') : '';
    // Only "this module is missing" means "not in this build"; a missing dependency of the module
    // is a broken build and must stay visible.
    if (code === 'MODULE_NOT_FOUND' && firstLine.includes(modulePath)) return undefined;
    throw error;
  }
  const command = loaded[exportName];
  return typeof command === 'function' ? (command as Command) : undefined;
}

/**
 * A command that lives in an optional module: loaded on first use, so that a build without the
 * module still runs every other command. Without the module it fails with `unavailable` (exit 1).
 */
export function lazyCommand(modulePath: string, exportName: string, unavailable: string): Command {
  return async (argv, io) => {
    const command = loadOptionalCommand(modulePath, exportName);
    if (command === undefined) throw new CliError(unavailable);
    return command(argv, io);
  };
}

/** `orgadmin provider ...`: dispatched to the provider module when this build has it. */
const runProviderCommand = lazyCommand(PROVIDER_MODULE, 'runProviderCommand', 'provider commands are not available in this build.');

/**
 * A command that runs the service or opens its store. Its module is loaded on first use, after
 * checking that the service's runtime packages are installed: the orgadmin package alone (the SDK,
 * the constructs, the provider) leaves them out, and `orgadmin provider install` must work there.
 */
function serviceCommand(word: string, load: () => Promise<Command>): Command {
  return async (argv, io) => {
    const missing = missingServicePackages();
    if (missing.length > 0) {
      throw new CliError(
        `"orgadmin ${word}" runs the Organization Administration Service, whose packages are not installed ` +
          `(${missing.join(', ')}): run "npm install ${SERVICE_PACKAGE}" and try again.`,
      );
    }
    return (await load())(argv, io);
  };
}

/** The top-level commands, in the order `orgadmin --help` lists them. */
const COMMANDS: ReadonlyArray<{ word: string; summary: string; run: Command }> = [
  { word: 'serve', summary: 'Run the Organization Administration Service.', run: serviceCommand('serve', async () => (await import('./commands/serve')).runServeCommand) },
  { word: 'realms', summary: 'Create and list realms (tenants).', run: serviceCommand('realms', async () => (await import('./commands/realms')).runRealmsCommand) },
  { word: 'keys', summary: 'Create, list, update (permissions) and revoke API keys.', run: serviceCommand('keys', async () => (await import('./commands/keys')).runKeysCommand) },
  { word: 'users', summary: 'Create and list the users of a realm; give and take the realm administrator role.', run: serviceCommand('users', async () => (await import('./commands/users')).runUsersCommand) },
  { word: 'events', summary: "Show a realm's audit log (list, or tail to follow new events).", run: serviceCommand('events', async () => (await import('./commands/events')).runEventsCommand) },
  { word: 'backup', summary: 'Write a consistent copy of the SQLite data file (also while serving).', run: serviceCommand('backup', async () => (await import('./commands/backup')).runBackupCommand) },
  { word: 'restore', summary: 'Restore a backup as the data file, after an integrity check.', run: serviceCommand('restore', async () => (await import('./commands/backup')).runRestoreCommand) },
  { word: 'clients', summary: 'Register the public OpenID Connect clients of a realm (browser login).', run: serviceCommand('clients', async () => (await import('./commands/clients')).runClientsCommand) },
  { word: 'provider', summary: 'Install the Terraform provider.', run: runProviderCommand },
  {
    word: 'terraform',
    summary: 'Write import blocks that adopt a realm\'s organizations and members into Terraform.',
    run: async (argv, io) => (await import('./commands/terraform')).runTerraformCommand(argv, io),
  },
  {
    word: 'start',
    summary: 'Run the whole loop once: service, provider, examples/basic applied, an empty second plan.',
    run: serviceCommand('start', async () => (await import('./commands/start')).runStart),
  },
  { word: 'demo', summary: 'Run the service with a ready-to-use demo realm, key and users.', run: serviceCommand('demo', async () => (await import('./commands/demo')).runDemoCommand) },
];

/** The top-level help text. */
function topLevelHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.word.length));
  const lines = COMMANDS.map((c) => `  ${c.word.padEnd(width)}  ${c.summary}`);
  return [
    'orgadmin: the Organization Administration Service and its admin tools.',
    '',
    'Usage: orgadmin <command> [flags]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run "orgadmin <command> --help" for the flags of a command.',
    'Every data command takes --data PATH (default $ORGADMIN_DATA or .orgadmin/orgadmin.db) and --json.',
    '',
  ].join('\n');
}

/** The package version, read at run time so the same code works from src/ (tests) and dist/. */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

/**
 * Runs one `orgadmin` command line and returns its exit code. Never throws: expected errors print
 * one sentence prefixed `orgadmin: `; anything else prints its message (and its stack when
 * `ORGADMIN_DEBUG` is set).
 */
export async function main(argv: string[], io: CliIO): Promise<number> {
  try {
    const [word, ...rest] = argv;
    if (word === undefined) {
      throw new UsageError('a command is needed; run "orgadmin --help" for the list of commands.');
    }
    if (word === 'help' || word === '--help' || word === '-h') {
      io.stdout(topLevelHelp());
      return EXIT.ok;
    }
    if (word === '--version') {
      io.stdout(`${packageVersion()}\n`);
      return EXIT.ok;
    }
    const command = COMMANDS.find((c) => c.word === word);
    if (command === undefined) {
      const what = word.startsWith('-') ? `unknown flag ${word}` : `unknown command "${word}"`;
      throw new UsageError(`${what}; run "orgadmin --help" for the list of commands.`);
    }
    return await command.run(rest, io);
  } catch (error) {
    return reportError(error, io);
  }
}
