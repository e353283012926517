/**
 * A transaction whose connection the server ends between two statements (a restart, an
 * administrator's pg_terminate_backend) fails as an error of that transaction: the process keeps
 * running, the broken connection leaves the pool, and the next transaction works. Before
 * postgres-transaction.ts listened on the checked-out client, `pg` threw that connection's error
 * event out of the socket handler and ended the process (seen as an unhandled error in the
 * PostgreSQL readiness test).
 */
import { Pool, type PoolClient } from 'pg';
import { inTransaction } from '../../../src/service/store/postgres-transaction';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

let postgres: TestPostgres;
let pool: Pool;
const idleErrors: Error[] = [];
beforeAll(async () => {
  postgres = await startPostgres();
  pool = new Pool({ connectionString: await postgres.createSchema(), max: 2 });
  pool.on('error', (error) => idleErrors.push(error));
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await postgres?.stop();
});

/** Ends `client`'s backend from another connection and waits until `client` has seen it. */
async function endBackendOf(client: PoolClient): Promise<void> {
  const pid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
  const ended = new Promise<void>((resolve) => client.once('end', resolve));
  const terminated = await pool.query('SELECT pg_terminate_backend($1) AS done', [pid]);
  expect(terminated.rows[0].done).toBe(true);
  await ended;
}

it('fails the transaction, not the process, when its connection is ended between statements', async () => {
  await inTransaction(pool, (client) => client.query('CREATE TABLE t (v integer)'));
  let seen: unknown;
  let ended: PoolClient | undefined;
  const failed = await inTransaction(pool, async (client) => {
      await client.query('INSERT INTO t VALUES (1)');
      ended = client;
      await endBackendOf(client);
      try {
        await client.query('INSERT INTO t VALUES (2)');
      } catch (error) {
        seen = error;
        throw error;
      }
    }).then(() => undefined, (error: unknown) => error);
  // The statement after the break is what failed, and that failure is what the caller got.
  expect(seen).toBeInstanceOf(Error);
  expect(failed).toBe(seen);

  // The broken connection was discarded, not lent out again; nothing of the transaction stayed.
  // (The pool keeps one connection: the one that ended the other's backend.)
  expect(pool.totalCount).toBe(1);
  const after = await inTransaction(pool, async (client) => ({ client, n: (await client.query('SELECT count(*)::int AS n FROM t')).rows[0].n }));
  expect(after.client).not.toBe(ended);
  expect(after.n).toBe(0);
  expect(idleErrors).toEqual([]);
}, 60_000);

it('rolls back and keeps the connection when fn throws on a healthy connection', async () => {
  await expect(
    inTransaction(pool, async (client) => {
      await client.query('INSERT INTO t VALUES (3)');
      throw new Error('refused by the caller');
    }),
  ).rejects.toThrow('refused by the caller');
  expect(pool.totalCount).toBe(1);
  expect((await pool.query('SELECT count(*)::int AS n FROM t')).rows[0].n).toBe(0);
});
