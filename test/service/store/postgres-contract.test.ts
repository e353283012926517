/**
 * The shared Store contract on PostgreSQL: one throwaway cluster for this file, a fresh schema
 * for each test.
 */
import { Client } from 'pg';
import { PostgresStore } from '../../../src/service/store/postgres-store';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';
import { describeSsoStoreContract } from './sso-store-contract';
import { describeStoreContract, type OpenedStore } from './store-contract';

let postgres: TestPostgres;

beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);

afterAll(async () => {
  await postgres?.stop();
});

const open = async (): Promise<OpenedStore> => {
  const url = await postgres.createSchema();
  const opened: OpenedStore = {
    store: await PostgresStore.open(url),
    async reopenRefusingInserts(table) {
      await opened.store.close();
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE FUNCTION refuse_${table}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
        await client.query(`CREATE TRIGGER refuse_${table} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION refuse_${table}()`);
      } finally {
        await client.end();
      }
      opened.store = await PostgresStore.open(url);
      return opened.store;
    },
    async cleanup() {
      await opened.store.close();
    },
  };
  return opened;
};

describeStoreContract('PostgresStore', open);
describeSsoStoreContract('PostgresStore', open);
