/**
 * The shared Store contract on PostgreSQL: one throwaway cluster for this file, a fresh schema
 * for each test.
 */
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
  const store = await PostgresStore.open(await postgres.createSchema());
  return {
    store,
    async cleanup() {
      await store.close();
    },
  };
};

describeStoreContract('PostgresStore', open);
describeSsoStoreContract('PostgresStore', open);
