/**
 * Reading the `.sql` migration files, shared by the SQLite and PostgreSQL stores (each has its own
 * directory of files and its own way to apply them).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One migration file: `NNN_name.sql`. */
export interface Migration {
  /** `NNN`, the order of application. */
  version: number;
  /** The part of the file name after `NNN_`. */
  name: string;
  /** The file's SQL. */
  sql: string;
}

/**
 * Reads the migration files (`NNN_name.sql`) of `dir` in version order; other files are ignored.
 * Two files with one version are refused: a store records applied migrations by version, so one of
 * them would silently never run (a renamed migration left behind in a copied directory, say).
 */
export function readMigrations(dir: string): Migration[] {
  const migrations = readdirSync(dir)
    .filter((file) => /^\d{3}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 3)),
      name: file.slice(4, -4),
      sql: readFileSync(join(dir, file), 'utf8'),
    }));
  for (const [index, migration] of migrations.entries()) {
    const previous = migrations[index - 1];
    if (previous?.version === migration.version) {
      throw new Error(
        `Migrations ${previous.name} and ${migration.name} in ${dir} share version ${String(migration.version).padStart(3, '0')}; remove the one that is not meant to be there.`,
      );
    }
  }
  return migrations;
}
