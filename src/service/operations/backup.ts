/**
 * Backup and restore of the SQLite store (`orgadmin backup`, `orgadmin restore`).
 *
 * A backup is taken with SQLite's online backup API (better-sqlite3's `backup()`), while the
 * service keeps serving from another process: the copy is made in one step, which reads the
 * database in one read transaction, so it is a consistent snapshot of one moment (every write
 * committed before it began is in it; a write committed during it is not) and never a torn file.
 * The copy is written beside the destination and renamed into place once its integrity check
 * passes, so the destination is either absent or a whole backup.
 *
 * Restore checks the backup first (`PRAGMA integrity_check` and the service's migrations table),
 * refuses to replace an existing data file unless forced, and writes the restored file the same
 * way (beside, then renamed), removing the replaced database's write-ahead log so that none of it
 * is replayed onto the restored file. The service must be stopped while a restore runs.
 *
 * PostgreSQL has its own standard route (`pg_dump` / `pg_restore`; docs/guides/service.md).
 */
import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Most pages per backup step: all of them, so the copy is made in one read transaction (one moment). */
const ALL_PAGES = 0x7fffffff;

/** What a check of a backup (or data file) found. */
export interface BackupCheck {
  /** True when the integrity check passed and the file holds the service's tables. */
  ok: boolean;
  /** The problems found (SQLite's integrity messages, a missing migrations table); empty when ok. */
  problems: string[];
  /** Versions of the migrations applied in the file. */
  migrations: number[];
}

/** Raised when a backup or restore cannot be done; its message is one sentence for the user. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

/** A path beside `file` for a copy in progress (same directory, so the rename is atomic). */
function partialPath(file: string): string {
  return join(dirname(file), `.${basename(file)}.partial-${process.pid}`);
}

/** The files SQLite keeps beside a database: its write-ahead log, shared-memory index and rollback journal. */
const SIDE_FILES = ['-wal', '-shm', '-journal'];

/** Removes `file` with its side files. */
function removeDatabaseFiles(file: string): void {
  for (const suffix of ['', ...SIDE_FILES]) rmSync(`${file}${suffix}`, { force: true });
}

/** Checks the integrity of the SQLite file `file` and that it is a database of the service. */
export function checkBackup(file: string): BackupCheck {
  if (!existsSync(file)) return { ok: false, problems: [`${file} does not exist`], migrations: [] };
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const results = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((row) => row.integrity_check);
    const problems = results.length === 1 && results[0] === 'ok' ? [] : results;
    const hasMigrations = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get() !== undefined;
    if (!hasMigrations) return { ok: false, problems: [...problems, 'it is not a data file of the service (no schema_migrations table)'], migrations: [] };
    const migrations = (db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as Array<{ version: number }>).map((row) => Number(row.version));
    return { ok: problems.length === 0, problems, migrations };
  } catch (error) {
    return { ok: false, problems: [`it cannot be read as a SQLite database: ${(error as Error).message}`], migrations: [] };
  } finally {
    db?.close();
  }
}

/** Copies the database `source` into a new file `destination` in one backup step, then checks the copy. */
async function copyDatabase(source: Database.Database, destination: string): Promise<void> {
  const partial = partialPath(destination);
  removeDatabaseFiles(partial);
  try {
    await source.backup(partial, { progress: () => ALL_PAGES });
    const check = checkBackup(partial);
    if (!check.ok) throw new BackupError(`the copy failed its integrity check: ${check.problems.join('; ')}`);
    // The replaced database's log must not be replayed onto the copy; the rename replaces the
    // database file itself in one step.
    for (const suffix of SIDE_FILES) rmSync(`${destination}${suffix}`, { force: true });
    renameSync(partial, destination);
  } finally {
    removeDatabaseFiles(partial);
  }
}

/**
 * Writes a consistent copy of the SQLite data file `dataFile` to `out` while the service may be
 * serving from it (see the module comment). Refuses to replace an existing `out` unless `force`.
 */
export async function backupSqlite(dataFile: string, out: string, options: { force?: boolean } = {}): Promise<BackupCheck> {
  if (!existsSync(dataFile)) throw new BackupError(`data file ${dataFile} does not exist.`);
  if (existsSync(out) && !options.force) throw new BackupError(`${out} already exists; choose another file or add --force to replace it.`);
  if (!existsSync(dirname(out))) throw new BackupError(`the directory of ${out} does not exist.`);
  const source = new Database(dataFile, { fileMustExist: true });
  try {
    // Waits for a writer of the serving process rather than failing at once.
    source.pragma('busy_timeout = 5000');
    await copyDatabase(source, out);
  } finally {
    source.close();
  }
  return checkBackup(out);
}

/**
 * Restores the backup `backup` as the data file `dataFile` (see the module comment): checks it,
 * refuses to replace an existing data file unless `force`.
 */
export async function restoreSqlite(backup: string, dataFile: string, options: { force?: boolean } = {}): Promise<BackupCheck> {
  const check = checkBackup(backup);
  if (!check.ok) throw new BackupError(`${backup} is not a sound backup: ${check.problems.join('; ')}. Nothing was restored.`);
  if (existsSync(dataFile) && !options.force) {
    throw new BackupError(`data file ${dataFile} already exists; stop the service and add --force to replace it with the backup.`);
  }
  const source = new Database(backup, { readonly: true, fileMustExist: true });
  try {
    await copyDatabase(source, dataFile);
  } finally {
    source.close();
  }
  return checkBackup(dataFile);
}
