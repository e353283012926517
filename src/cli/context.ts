/**
 * What every data-handling command shares: the `--data` and `--json` flags, where the data file
 * lives, and opening the service's administration API on it for the duration of one command.
 */
import { CLI_ORIGIN } from '../service/events/event';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Admin } from '../service/admin';
import { isPostgresUrl, openStore as openServiceStore, redactLocation } from '../service/store/open-store';
import type { Store } from '../service/store/store';
import { CliError } from './errors';
import type { CliIO } from './io';

/** The data file used when neither `--data` nor `ORGADMIN_DATA` says otherwise (relative to cwd). */
export const DEFAULT_DATA_FILE = '.orgadmin/orgadmin.db';

/** The flags every data-handling command accepts. */
export const COMMON_FLAGS = {
  data: {
    type: 'string',
    valueName: 'PATH',
    description: `SQLite data file or postgres:// URL (default: $ORGADMIN_DATA or ${DEFAULT_DATA_FILE}).`,
  },
  json: { type: 'boolean', description: 'Print machine-readable JSON.' },
} as const;

/**
 * The absolute path of the data file: `--data`, else `ORGADMIN_DATA`, else
 * {@link DEFAULT_DATA_FILE}, resolved against the command's working directory. Creates the
 * directory that holds it, so a first run on a fresh machine just works. A PostgreSQL URL
 * (`postgres://…`) is returned as it is.
 */
export function resolveDataFile(flag: string | undefined, io: CliIO): string {
  const fromEnv = io.env.ORGADMIN_DATA;
  const chosen = flag ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEFAULT_DATA_FILE);
  if (isPostgresUrl(chosen)) return chosen;
  const file = resolve(io.cwd, chosen);
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (error) {
    throw new CliError(`cannot create the directory of data file ${file}: ${(error as Error).message}`);
  }
  return file;
}

/**
 * The one-sentence {@link CliError} for a store of `dataFile` that could not be opened (a
 * directory, no permission, not a database, no server: the user's to fix), or undefined when
 * `error` is not such a failure (then it is a bug and keeps its stack). A URL's password never
 * appears in the sentence.
 */
export function explainStoreError(error: unknown, dataFile: string): CliError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  // SQLite result codes, Node system errors (ENOENT, ECONNREFUSED, ...), PostgreSQL SQLSTATEs.
  if (typeof code !== 'string' || !(code.startsWith('SQLITE_') || code.startsWith('E') || /^[0-9A-Z]{5}$/.test(code))) {
    return undefined;
  }
  const where = redactLocation(dataFile);
  const message = (error as Error).message.split(dataFile).join(where);
  return new CliError(`cannot open ${isPostgresUrl(dataFile) ? 'database' : 'data file'} ${where}: ${message}`);
}

/** Opens the store of `dataFile` (a SQLite file or a PostgreSQL URL); failures as {@link explainStoreError}. */
export async function openStore(dataFile: string): Promise<Store> {
  try {
    return await openServiceStore(dataFile);
  } catch (error) {
    throw explainStoreError(error, dataFile) ?? error;
  }
}

/**
 * Opens the data file, runs `work` with the administration API on it, and closes the store
 * whatever happens, so a failed command leaves no open database behind.
 */
export async function withAdmin<T>(dataFile: string, work: (admin: Admin) => Promise<T>): Promise<T> {
  const store = await openStore(dataFile);
  try {
    return await work(new Admin(store, { origin: CLI_ORIGIN }));
  } finally {
    await store.close();
  }
}
