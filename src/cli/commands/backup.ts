/**
 * `orgadmin backup --out FILE` and `orgadmin restore FILE`: a consistent copy of the SQLite data
 * file while the service serves, and its restoration after an integrity check
 * (service/operations/backup.ts). For PostgreSQL the commands name the standard route instead
 * (pg_dump / pg_restore), which docs/guides/service.md describes.
 */
import { BackupError, backupSqlite, restoreSqlite, type BackupCheck } from '../../service/operations/backup';
import { isPostgresUrl, redactLocation } from '../../service/store/open-store';
import { defineCommand } from '../command';
import { COMMON_FLAGS, resolveDataFile } from '../context';
import { CliError, EXIT } from '../errors';
import type { CliIO } from '../io';
import { printJson } from '../output';
import { resolve } from 'node:path';

/** The sentence for a PostgreSQL data location: the standard tools do this. */
function postgresRoute(what: 'backup' | 'restore', location: string): CliError {
  const where = redactLocation(location);
  return new CliError(
    what === 'backup'
      ? `${where} is a PostgreSQL database: back it up with PostgreSQL's own tool, e.g. pg_dump --format=custom --file=orgadmin.dump "${where}" (docs/guides/service.md, Backup and restore).`
      : `${where} is a PostgreSQL database: restore it with PostgreSQL's own tool, e.g. pg_restore --no-owner --dbname="${where}" orgadmin.dump, into an empty database (docs/guides/service.md, Backup and restore).`,
  );
}

/** Prints what a backup or restore wrote. */
function report(io: CliIO, json: boolean | undefined, verb: string, file: string, check: BackupCheck): void {
  if (json) printJson(io, { file, integrity: 'ok', migrations: check.migrations });
  else io.stdout(`${verb} ${file} (integrity check ok, ${check.migrations.length} migrations).\n`);
}

/** Runs `work`, turning a {@link BackupError} into the command's one sentence. */
async function explained<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BackupError) throw new CliError(error.message);
    throw error;
  }
}

const backup = defineCommand(
  {
    command: 'backup',
    summary: 'Writes a consistent copy of the SQLite data file, also while the service serves from it.',
    flags: {
      out: { type: 'string', valueName: 'FILE', description: 'The backup file to write (required).' },
      force: { type: 'boolean', description: 'Replace FILE when it exists.' },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags }, io) => {
    if (flags.out === undefined) throw new CliError('--out FILE is required: the file to write the backup to.');
    const dataFile = resolveDataFile(flags.data, io);
    if (isPostgresUrl(dataFile)) throw postgresRoute('backup', dataFile);
    const out = resolve(io.cwd, flags.out);
    const check = await explained(() => backupSqlite(dataFile, out, { force: flags.force }));
    report(io, flags.json, 'Backed up to', out, check);
    return EXIT.ok;
  },
);

const restore = defineCommand(
  {
    command: 'restore',
    summary: 'Restores a backup as the data file, after checking its integrity (stop the service first).',
    positionals: [{ name: 'FILE', required: true, description: 'The backup file written by "orgadmin backup".' }],
    flags: {
      force: { type: 'boolean', description: 'Replace the data file when it exists.' },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags, positionals }, io) => {
    const dataFile = resolveDataFile(flags.data, io);
    if (isPostgresUrl(dataFile)) throw postgresRoute('restore', dataFile);
    const file = resolve(io.cwd, positionals[0]!);
    const check = await explained(() => restoreSqlite(file, dataFile, { force: flags.force }));
    report(io, flags.json, 'Restored', dataFile, check);
    return EXIT.ok;
  },
);

/** `orgadmin backup ...` */
export const runBackupCommand = backup.run;
/** `orgadmin restore ...` */
export const runRestoreCommand = restore.run;
