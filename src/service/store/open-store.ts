/**
 * Chooses the store from one configuration string, so that the server and the command line take
 * a single "where is the data" setting: a PostgreSQL URL or a SQLite file path.
 */
import { PostgresStore } from './postgres-store';
import { SqliteStore } from './sqlite-store';
import type { Store } from './store';

/** Whether `location` names a PostgreSQL database (`postgres://…` or `postgresql://…`). */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(location);
}

/**
 * `location` as it may be shown in logs and error messages: a PostgreSQL URL loses its password
 * (`postgres://app:***@db/orgadmin`); a file path is shown as it is.
 */
export function redactLocation(location: string): string {
  if (!isPostgresUrl(location)) return location;
  try {
    const url = new URL(location);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    // Not parseable, so we cannot tell where a password would be: show only the scheme.
    return `${location.slice(0, location.indexOf('://') + 3)}…`;
  }
}

/**
 * Opens the store at `location` and applies pending migrations: a `postgres://` or
 * `postgresql://` URL opens a {@link PostgresStore}; anything else is a SQLite file path (created
 * when missing; `:memory:` for a private in-memory database).
 *
 * @example
 * const store = await openStore(process.env.ORGADMIN_DATABASE_URL ?? './data/orgadmin.db');
 */
export async function openStore(location: string): Promise<Store> {
  if (location.trim() === '') throw new TypeError('The store location is empty: give a SQLite file path or a postgres:// URL.');
  return isPostgresUrl(location) ? PostgresStore.open(location) : SqliteStore.open(location);
}
