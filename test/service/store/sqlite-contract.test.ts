/**
 * The shared Store contract on SQLite: a real database file in a temporary directory per test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../../src/service/store/sqlite-store';
import { describeSsoStoreContract } from './sso-store-contract';
import { describeStoreContract, type OpenedStore } from './store-contract';

const open = async (): Promise<OpenedStore> => {
  const dir = await mkdtemp(join(tmpdir(), 'orgadmin-sqlite-contract-'));
  const store = SqliteStore.open(join(dir, 'store.db'));
  return {
    store,
    async cleanup() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
};

describeStoreContract('SqliteStore', open);
describeSsoStoreContract('SqliteStore', open);
