/**
 * What only PostgresStore has to get right: migrations shared by several service instances
 * (advisory lock, one transaction), and several instances (pools) on one database at once.
 * The behaviour common to every store is in store-contract.ts.
 */
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { readMigrations } from '../../../src/service/store/migrations';
import { POSTGRES_MIGRATIONS_DIR, PostgresStore } from '../../../src/service/store/postgres-store';
import type { UserRecord } from '../../../src/service/store/store';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';
import { describeSharedDatabase } from './shared-database-contract';

const T0 = 1_764_000_000_000;

let postgres: TestPostgres;

beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);

afterAll(async () => {
  await postgres?.stop();
});

/** Every migration of this build, as a fully migrated database lists them. */
const ALL_MIGRATIONS = readMigrations(POSTGRES_MIGRATIONS_DIR).map(({ version, name }) => ({ version, name }));

/** Runs one query on its own connection (to look at the database behind the store's back). */
async function query(url: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

function endUser(id: string): UserRecord {
  return {
    id,
    realm: 'acme',
    username: id,
    email: null,
    firstName: null,
    lastName: null,
    emailVerified: false,
    enabled: true,
    createdTimestamp: T0,
    kind: 'user',
    adminOfOrganization: null,
    passwordHash: null,
    realmAdmin: false,
  };
}

/** Waits until some session of the cluster is waiting for a lock (at most 10 s). */
async function someoneWaitsForALock(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await query(url, "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'"))[0]!.n === 0) {
    if (Date.now() > deadline) throw new Error('No session started waiting for a lock within 10 s.');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function seed(store: PostgresStore): Promise<void> {
  await store.createRealm({
    name: 'acme',
    enabled: true,
    tokenLifetimeSeconds: 300,
    createAdminUser: true,
    organizationsClaim: false,
    rateLimit: null,
    createdTimestamp: T0,
    privateKeyPem: 'private',
    publicKeyPem: 'public',
    keyId: 'kid',
  });
}

describe('PostgresStore.open', () => {
  it('migrates once when several instances start at the same moment', async () => {
    const url = await postgres.createSchema();
    const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.open(url)));
    try {
      for (const store of stores) expect(await store.appliedMigrations()).toEqual(ALL_MIGRATIONS);
      expect(await query(url, 'SELECT count(*)::int AS n FROM schema_migrations')).toEqual([{ n: ALL_MIGRATIONS.length }]);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('keeps the data and applies nothing again when reopened', async () => {
    const url = await postgres.createSchema();
    const first = await PostgresStore.open(url);
    await seed(first);
    await first.close();
    const second = await PostgresStore.open(url);
    try {
      expect((await second.listRealms()).map((realm) => realm.name)).toEqual(['acme']);
      expect(await second.appliedMigrations()).toEqual(ALL_MIGRATIONS);
    } finally {
      await second.close();
    }
  });

  it('refuses a rate limit pair the columns cannot mean, in the schema itself', async () => {
    const url = await postgres.createSchema();
    const store = await PostgresStore.open(url);
    try {
      await seed(store);
      for (const pair of ['5, NULL', 'NULL, 5', '0, 5', '-1, 5', '5, 0']) {
        await expect(
          query(url, `UPDATE realms SET (rate_limit_requests, rate_limit_window_seconds) = (${pair}) WHERE name = 'acme'`),
        ).rejects.toThrow(/realms_rate_limit_shape/);
      }
      expect((await store.getRealm('acme'))?.rateLimit).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('upgrades a database made before keyset member pages and the realm change counter', async () => {
    const url = await postgres.createSchema();
    const dir = mkdtempSync(join(tmpdir(), 'orgadmin-pg-migrations-'));
    try {
      cpSync(POSTGRES_MIGRATIONS_DIR, dir, { recursive: true });
      // Organizations and memberships are written as that version did: this store writes the realm (009).
      for (const later of ['005_hot_paths.sql', '006_list_versions.sql', '009_realm_scoped_organization_ids.sql', '011_domains_and_identity_providers.sql']) {
        await rm(join(dir, later));
      }
      const old = await PostgresStore.open(url, { migrationsDir: dir });
      try {
        await seed(old);
        await query(url, "INSERT INTO organizations (id, realm, name, created_timestamp) VALUES ('o1', 'acme', 'one', 1)");
        for (let i = 0; i < 9; i += 1) {
          await old.createUser({ ...endUser(`u${i}`), email: `User${i}@Example.com` });
          await query(url, `INSERT INTO memberships (organization_id, user_id, created_timestamp) VALUES ('o1', 'u${i}', ${i})`);
        }
      } finally {
        await old.close();
      }
      const upgraded = await PostgresStore.open(url);
      try {
        expect(await upgraded.appliedMigrations()).toEqual(ALL_MIGRATIONS);
        const pages = [];
        for (let first = 0; first < 9; first += 4) pages.push((await upgraded.listMembers('acme', 'o1', { first, max: 4 })).map((u) => u.id));
        expect(pages).toEqual([['u0', 'u1', 'u2', 'u3'], ['u4', 'u5', 'u6', 'u7'], ['u8']]);
        expect((await upgraded.findUsers('acme', { email: 'user7@example.COM', exact: true })).map((u) => u.id)).toEqual(['u7']);
        const version = async () => (await query(url, "SELECT members_version::int AS v FROM organizations WHERE id = 'o1'"))[0]!.v;
        expect(await version()).toBe(0);
        await upgraded.removeMember('acme', 'o1', 'u2');
        await upgraded.addMember('acme', 'o1', 'u2', 10);
        expect(await version()).toBe(2);
        expect((await upgraded.listMembers('acme', 'o1', { first: 4, max: 4 })).map((u) => u.id)).toEqual(['u5', 'u6', 'u7', 'u8']);
        const changes = async () => (await query(url, 'SELECT version::int AS v FROM realm_changes'))[0]!.v as number;
        const counted = await changes();
        await upgraded.updateRealm('acme', { enabled: false });
        expect(await changes()).toBe(counted + 1);
        expect((await upgraded.getRealmSettings('acme'))?.enabled).toBe(false);
      } finally {
        await upgraded.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('upgrades a database made before keyset organization pages: its lists page as before and count their changes', async () => {
    const url = await postgres.createSchema();
    const dir = mkdtempSync(join(tmpdir(), 'orgadmin-pg-migrations-'));
    const org = (id: string, name: string) => ({ id, name, displayName: null, url: null, domains: [], attributes: {}, realm: 'acme' });
    try {
      cpSync(POSTGRES_MIGRATIONS_DIR, dir, { recursive: true });
      // Organizations are written as that version did: this store writes their roles' realm (009).
      for (const later of ['006_list_versions.sql', '009_realm_scoped_organization_ids.sql', '011_domains_and_identity_providers.sql']) await rm(join(dir, later));
      const old = await PostgresStore.open(url, { migrationsDir: dir });
      try {
        await seed(old);
        for (let i = 0; i < 9; i += 1) {
          await query(url, `INSERT INTO organizations (id, realm, name, created_timestamp) VALUES ('o${i}', 'acme', 'org-${8 - i}', 1)`);
        }
      } finally {
        await old.close();
      }
      const upgraded = await PostgresStore.open(url);
      try {
        expect(await upgraded.appliedMigrations()).toEqual(ALL_MIGRATIONS);
        const pages = [];
        for (let first = 0; first < 9; first += 4) pages.push((await upgraded.listOrganizations('acme', { first, max: 4 })).map((o) => o.id));
        expect(pages).toEqual([['o8', 'o7', 'o6', 'o5'], ['o4', 'o3', 'o2', 'o1'], ['o0']]);
        const version = async () =>
          (await query(url, "SELECT coalesce((SELECT version::int FROM list_versions WHERE realm = 'acme' AND list = 'organizations'), 0) AS v"))[0]!.v;
        expect(await version()).toBe(0);
        await upgraded.deleteOrganization('acme', 'o7');
        await upgraded.createOrganization(org('o7', 'org-1x'));
        const renamed = { ...org('o3', 'org-5'), displayName: 'Renamed' };
        await upgraded.updateOrganization('acme', 'o3', renamed);
        expect(await version()).toBe(3);
        // Only what orders or filters the list counts: a url or domains change, or a member added, does not.
        await upgraded.updateOrganization('acme', 'o3', { ...renamed, url: 'https://five.example', domains: ['five.example'] });
        await upgraded.createUser(endUser('m1'));
        await upgraded.addMember('acme', 'o3', 'm1', 1);
        expect(await version()).toBe(3);
        // The realm's user list counts users added, not a change of their enabled flag.
        const users = async () =>
          (await query(url, "SELECT coalesce((SELECT version::int FROM list_versions WHERE realm = 'acme' AND list = 'users'), 0) AS v"))[0]!.v;
        expect(await users()).toBe(1);
        await upgraded.updateUser('acme', 'm1', { enabled: false });
        expect(await users()).toBe(1);
        expect((await upgraded.listOrganizations('acme', { first: 4, max: 4 })).map((o) => o.id)).toEqual(['o4', 'o3', 'o2', 'o1']);
      } finally {
        await upgraded.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('leaves the schema untouched when a migration fails', async () => {
    const url = await postgres.createSchema();
    const dir = mkdtempSync(join(tmpdir(), 'orgadmin-pg-migrations-'));
    try {
      cpSync(POSTGRES_MIGRATIONS_DIR, dir, { recursive: true });
      writeFileSync(join(dir, '099_broken.sql'), 'CREATE TABLE half_done (id int);\nSELECT no_such_function();\n');
      await expect(PostgresStore.open(url, { migrationsDir: dir })).rejects.toThrow(/no_such_function/);
      // Nothing of 001, 002 or 099 survived: all migrations run in one transaction.
      expect(await query(url, "SELECT to_regclass('half_done') AS t1, to_regclass('organizations') AS t2")).toEqual([
        { t1: null, t2: null },
      ]);
      const store = await PostgresStore.open(url);
      expect(await store.appliedMigrations()).toEqual(ALL_MIGRATIONS);
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rejects with the connection error when the server cannot be reached', async () => {
    const closedPort = new URL(postgres.url);
    closedPort.port = '1';
    await expect(PostgresStore.open(closedPort.toString(), { pool: { connectionTimeoutMillis: 5000 } })).rejects.toThrow(
      /ECONNREFUSED/,
    );
  });
});

describe('several instances on one database', () => {
  let url: string;
  let a: PostgresStore;
  let b: PostgresStore;

  beforeAll(async () => {
    url = await postgres.createSchema();
    [a, b] = await Promise.all([PostgresStore.open(url), PostgresStore.open(url)]);
    await seed(a);
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('see each other’s writes at once', async () => {
    await a.createOrganization({ id: 'o1', name: 'Acme', displayName: null, url: null, domains: [], attributes: {}, realm: 'acme' });
    expect((await b.getOrganization('acme', 'o1'))?.name).toBe('Acme');
  });

  it('keep one membership when both add the same member many times at once', async () => {
    await a.createOrganization({ id: 'o2', name: 'Globex', displayName: null, url: null, domains: [], attributes: {}, realm: 'acme' });
    await a.createUser(endUser('u1'));
    const adds = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).addMember('acme', 'o2', 'u1', T0 + i));
    expect(await Promise.all(adds)).toEqual(Array(20).fill(true));
    expect(await query(url, "SELECT count(*)::int AS n FROM memberships WHERE organization_id = 'o2'")).toEqual([{ n: 1 }]);
  });

  it('report an organization deleted while a member is being added as not found', async () => {
    await a.createOrganization({ id: 'o3', name: 'Initech', displayName: null, url: null, domains: [], attributes: {}, realm: 'acme' });
    await a.createUser(endUser('u3'));
    // Another instance deletes the organization in a transaction that is still open: the add sees
    // the organization, then its foreign-key check waits for that transaction to finish.
    const deleter = new Client({ connectionString: url });
    await deleter.connect();
    try {
      await deleter.query('BEGIN');
      await deleter.query("DELETE FROM organizations WHERE id = 'o3'");
      const adding = b.addMember('acme', 'o3', 'u3', T0);
      await someoneWaitsForALock(url);
      await deleter.query('COMMIT');
      expect(await adding).toBe(false);
    } finally {
      await deleter.end();
    }
    expect(await query(url, "SELECT count(*)::int AS n FROM memberships WHERE organization_id = 'o3'")).toEqual([{ n: 0 }]);
  });

  it('create organizations in one realm without queueing behind each other’s open transactions, and count each in the list version', async () => {
    const version = async () =>
      (await query(url, "SELECT coalesce((SELECT version::int FROM list_versions WHERE realm = 'acme' AND list = 'organizations'), 0) AS v"))[0]!.v as number;
    const before = await version();
    const slow = new Client({ connectionString: url });
    const other = new Client({ connectionString: url });
    await Promise.all([slow.connect(), other.connect()]);
    try {
      // One instance's creation is still open (its admin user not yet written) ...
      await slow.query('BEGIN');
      await slow.query("INSERT INTO organizations (id, realm, name, created_timestamp) VALUES ('o4', 'acme', 'Hooli', 1)");
      // ... and another's goes through meanwhile: the list version is taken only at commit. Were it
      // taken at the insert, this would wait for the open transaction and fail after the lock timeout.
      await other.query("SET lock_timeout = '5s'");
      await other.query("INSERT INTO organizations (id, realm, name, created_timestamp) VALUES ('o5', 'acme', 'Umbrella', 1)");
      expect(await version()).toBe(before + 1);
      await slow.query('COMMIT');
      expect(await version()).toBe(before + 2);
    } finally {
      await Promise.all([slow.end(), other.end()]);
    }
    // Many at once through both instances: every creation counted, none lost.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).createOrganization({ id: `many-${i}`, name: `many-${i}`, displayName: null, url: null, domains: [], attributes: {}, realm: 'acme' }),
      ),
    );
    expect(await version()).toBe(before + 22);
    expect((await b.listOrganizations('acme', { search: 'many-', first: 0, max: 100 })).length).toBe(20);
  });
});

describeSharedDatabase('PostgresStore on a database shared with other instances', async () => {
  const url = await postgres.createSchema();
  return {
    open: (options) => PostgresStore.open(url, options),
    setTokenLifetimeBehindTheStores: async (realm, seconds) => {
      await query(url, `UPDATE realms SET token_lifetime_seconds = ${Number(seconds)} WHERE name = '${realm.replace(/'/g, "''")}'`);
    },
    // The schema goes with the cluster in afterAll.
    cleanup: async () => undefined,
  };
});
