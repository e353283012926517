import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../../src/service/store/sqlite-store';
import { cachedRealm, describeSharedDatabase } from './shared-database-contract';

describeSharedDatabase('SqliteStore on a database shared with other stores', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orgadmin-sqlite-caches-'));
  const file = join(dir, 'store.db');
  return {
    open: async (options) => SqliteStore.open(file, options),
    setTokenLifetimeBehindTheStores: async (realm, seconds) => {
      const raw = new Database(file);
      try {
        raw.prepare('UPDATE realms SET token_lifetime_seconds = ? WHERE name = ?').run(seconds, realm);
      } finally {
        raw.close();
      }
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('SqliteStore prepared statements', () => {
  let dir: string;
  let store: SqliteStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orgadmin-sqlite-caches-'));
    store = SqliteStore.open(join(dir, 'store.db'));
    await store.createRealm(cachedRealm('acme'));
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps answering correctly past the prepared-statement bound', async () => {
    await store.createOrganization({
      id: 'o1', name: 'one', displayName: null, url: null, domains: [], attributes: {}, realm: 'acme',
    });
    // Each term count is a different SQL text: 300 shapes, more than the store keeps prepared.
    for (let terms = 1; terms <= 300; terms += 1) {
      const count = await store.countMembers('acme', 'o1', { searchTerms: Array.from({ length: terms }, (_, i) => `t${i}`) });
      expect(count).toBe(0);
    }
    expect(await store.countOrganizations('acme', {})).toBe(1);
    expect(await store.isMember('acme', 'o1', 'nobody')).toBe(false);
  });
});
