/**
 * Which store failures mean "the database cannot be reached right now" rather than a bug: the
 * service answers those 503 `temporarily_unavailable` with `Retry-After` (errors.ts), and
 * readiness (operations/health.ts) reports the store down, so a client retries and an
 * orchestrator takes the instance out of rotation instead of reading a 500 as a fault of the request.
 */

/** Node's socket errors of a connection that cannot be made or was lost. */
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);

/**
 * PostgreSQL SQLSTATEs of an unavailable server: class 08 (connection exception), the server
 * shutting down or starting (57P01-57P03), too many connections (53300).
 */
function unavailableSqlState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/**
 * What `pg` throws without a code when a connection ends under a query, when the pool cannot
 * connect in time, or once the pool is closed (the service shutting down).
 */
const PG_CONNECTION_MESSAGES = [/^Connection terminated/, /^timeout exceeded when trying to connect/, /^Cannot use a pool after calling end/, /^Client has encountered a connection error/];

/** Whether `error` says the store's database is unreachable or busy for now (see the module comment). */
export function isStoreUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONNECTION_ERRNOS.has(code)) return true;
    // SQLite: another connection held the write lock past the busy timeout.
    if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return unavailableSqlState(code);
  }
  // An AggregateError of several failed connection attempts (IPv4 and IPv6 of one host).
  const inner = (error as { errors?: unknown }).errors;
  if (Array.isArray(inner) && inner.length > 0 && inner.every(isStoreUnavailable)) return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && PG_CONNECTION_MESSAGES.some((pattern) => pattern.test(message));
}
