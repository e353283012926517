/**
 * The shared Store contract on SQLite: a real database file in a temporary directory per test.
 */
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../../src/service/store/sqlite-store';
import { describeSsoStoreContract } from './sso-store-contract';
import { describeStoreContract, type OpenedStore } from './store-contract';

const open = async (): Promise<OpenedStore> => {
  const dir = await mkdtemp(join(tmpdir(), 'orgadmin-sqlite-contract-'));
  const file = join(dir, 'store.db');
  const opened: OpenedStore = {
    store: SqliteStore.open(file),
    async reopenRefusingInserts(table) {
      await opened.store.close();
      const db = new Database(file);
      try {
        db.exec(`CREATE TRIGGER refuse_${table} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
      } finally {
        db.close();
      }
      opened.store = SqliteStore.open(file);
      return opened.store;
    },
    async cleanup() {
      await opened.store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return opened;
};

describeStoreContract('SqliteStore', open);
describeSsoStoreContract('SqliteStore', open);
