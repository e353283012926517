/**
 * One PostgreSQL transaction on one pooled connection, safe against the server going away while
 * the connection is checked out.
 *
 * Why this is its own rule: `pg` emits an `error` event on a client whose connection breaks
 * while no query is running on it (between two statements of a transaction, say, when the
 * server is restarted or an administrator ends the backend). The pool listens for that only on
 * idle clients; on a checked-out client with no listener the event is thrown and ends the
 * process. So while the transaction holds the client, this listens, and a client that broke is
 * handed back as broken so the pool discards it instead of lending it out again.
 */
import type { Pool, PoolClient } from 'pg';

/**
 * Runs `fn` between `BEGIN` and `COMMIT` on one connection of `pool`; rolls back and rethrows
 * when `fn` throws. A connection that broke meanwhile (its error event, or a failed rollback) is
 * released as broken; the statement that meets the broken connection rejects, so `fn`'s caller
 * sees the failure as an error, never as a crash.
 */
export async function inTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onBroken = (error: Error): void => {
    broken ??= error;
  };
  client.on('error', onBroken);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (broken === undefined) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        // The connection is unusable; the pool must not hand it out again.
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      }
    }
    throw error;
  } finally {
    client.removeListener('error', onBroken);
    client.release(broken);
  }
}
