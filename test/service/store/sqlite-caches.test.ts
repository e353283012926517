import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningKey } from '../../../src/service/auth/jwt';
import { DEFAULT_REALM_RECHECK_MS, SqliteStore } from '../../../src/service/store/sqlite-store';

const signingKey = generateSigningKey();
const realm = (name: string) => ({
  name,
  enabled: true,
  tokenLifetimeSeconds: 300,
  createAdminUser: false,
  rateLimit: null,
  createdTimestamp: 1,
  ...signingKey,
});

describe('SqliteStore caches (realms, prepared statements)', () => {
  let dir: string;
  let file: string;
  let store: SqliteStore;
  /** An hour: longer than any test, so only the store's own invalidation can refresh a realm. */
  const NEVER = 3_600_000;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orgadmin-sqlite-caches-'));
    file = join(dir, 'store.db');
    store = SqliteStore.open(file, { realmRecheckMs: NEVER });
    await store.createRealm(realm('acme'));
  });

  /** Disables realm `acme` through a second store on the same file (as the CLI would). */
  async function disableElsewhere(): Promise<void> {
    const other = SqliteStore.open(file);
    try {
      await other.updateRealm('acme', { enabled: false });
    } finally {
      await other.close();
    }
  }
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('shows its own realm updates on the next read', async () => {
    expect((await store.getRealm('acme'))?.enabled).toBe(true);
    await store.updateRealm('acme', { enabled: false, tokenLifetimeSeconds: 60 });
    expect(await store.getRealm('acme')).toMatchObject({ enabled: false, tokenLifetimeSeconds: 60 });
  });

  it('shows a realm change made by another store within the default recheck interval', async () => {
    let clock = 1_000;
    const defaults = SqliteStore.open(file, { now: () => clock });
    try {
      expect((await defaults.getRealm('acme'))?.enabled).toBe(true);
      await disableElsewhere();
      // Within the interval the remembered realm is still served; past it, the change shows.
      clock += DEFAULT_REALM_RECHECK_MS - 1;
      expect((await defaults.getRealm('acme'))?.enabled).toBe(true);
      clock += 1;
      expect((await defaults.getRealm('acme'))?.enabled).toBe(false);
    } finally {
      await defaults.close();
    }
  });

  it('shows a realm change made by another store on the next read when rechecking every read', async () => {
    const exact = SqliteStore.open(file, { realmRecheckMs: 0 });
    try {
      expect((await exact.getRealm('acme'))?.enabled).toBe(true);
      await disableElsewhere();
      expect((await exact.getRealm('acme'))?.enabled).toBe(false);
    } finally {
      await exact.close();
    }
  });

  it('shows a realm change written by a raw SQLite connection (another process) after the recheck', async () => {
    let clock = 1_000;
    const quick = SqliteStore.open(file, { realmRecheckMs: 10, now: () => clock });
    try {
      expect((await quick.getRealm('acme'))?.tokenLifetimeSeconds).toBe(300);
      const raw = new Database(file);
      try {
        raw.prepare('UPDATE realms SET token_lifetime_seconds = 42 WHERE name = ?').run('acme');
      } finally {
        raw.close();
      }
      clock += 10;
      expect((await quick.getRealm('acme'))?.tokenLifetimeSeconds).toBe(42);
    } finally {
      await quick.close();
    }
  });

  it('refuses a negative recheck interval', () => {
    expect(() => SqliteStore.open(file, { realmRecheckMs: -1 })).toThrow(/realmRecheckMs/);
  });

  it('finds a realm created after a read that missed it', async () => {
    expect(await store.getRealm('later')).toBeUndefined();
    const other = SqliteStore.open(file);
    try {
      await other.createRealm(realm('later'));
    } finally {
      await other.close();
    }
    expect((await store.getRealm('later'))?.name).toBe('later');
  });

  it('hands out copies: changing a returned realm does not change the next read', async () => {
    const first = await store.getRealm('acme');
    first!.enabled = false;
    expect((await store.getRealm('acme'))?.enabled).toBe(true);
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
