import Database from 'better-sqlite3';
import { cpSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Organization } from '../../../src/api';
import { generateSigningKey } from '../../../src/service/auth/jwt';
import { readMigrations } from '../../../src/service/store/migrations';
import { MEMBER_PAGE_CHUNK, SQLITE_MIGRATIONS_DIR, SqliteStore } from '../../../src/service/store/sqlite-store';
import { StoreConflictError, type UserRecord } from '../../../src/service/store/store';

const signingKey = generateSigningKey();

function realm(name: string) {
  return { name, enabled: true, tokenLifetimeSeconds: 300, createAdminUser: true, organizationsClaim: false, rateLimit: null, createdTimestamp: 1, ...signingKey };
}
function org(id: string, name: string, extra: Partial<Organization> = {}): Organization {
  return { id, name, displayName: null, url: null, domains: [], attributes: {}, realm: 'acme', ...extra };
}
/** Writes to the database file behind any store's back, as an older service would have. */
function writeRaw(file: string, write: (raw: Database.Database) => void): void {
  const raw = new Database(file);
  try {
    write(raw);
  } finally {
    raw.close();
  }
}
function user(id: string, username: string, extra: Partial<UserRecord> = {}): UserRecord {
  return {
    id,
    realm: 'acme',
    username,
    email: null,
    firstName: null,
    lastName: null,
    emailVerified: false,
    enabled: true,
    createdTimestamp: 1,
    kind: 'user',
    adminOfOrganization: null,
    passwordHash: null,
    realmAdmin: false,
    ...extra,
  };
}

describe('SqliteStore', () => {
  let dir: string;
  let file: string;
  let store: SqliteStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orgadmin-store-'));
    file = join(dir, 'nested', 'store.db');
    store = SqliteStore.open(file);
    await store.createRealm(realm('acme'));
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('applies the migrations once, records them, and turns on WAL and foreign keys', async () => {
    expect(await store.appliedMigrations()).toEqual(readMigrations(SQLITE_MIGRATIONS_DIR).map(({ version, name }) => ({ version, name })));
    await store.close();
    store = SqliteStore.open(file);
    expect(await store.appliedMigrations()).toEqual(readMigrations(SQLITE_MIGRATIONS_DIR).map(({ version, name }) => ({ version, name })));
    const raw = new Database(file, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
    }
  });

  it('refuses a migrations directory holding two files of one version, and changes no database', async () => {
    const doubled = join(dir, 'migrations-doubled');
    cpSync(SQLITE_MIGRATIONS_DIR, doubled, { recursive: true });
    cpSync(join(doubled, '006_list_versions.sql'), join(doubled, '006_left_behind.sql'));
    const target = join(dir, 'doubled.db');
    expect(() => SqliteStore.open(target, { migrationsDir: doubled })).toThrow(
      `Migrations left_behind and list_versions in ${doubled} share version 006; remove the one that is not meant to be there.`,
    );
    expect(existsSync(target)).toBe(false);
  });

  it('applies migrations with foreign keys off, and refuses one that leaves a dangling reference, changing nothing', async () => {
    const dangling = join(dir, 'migrations-dangling');
    cpSync(SQLITE_MIGRATIONS_DIR, dangling, { recursive: true });
    // Dropping a parent with foreign keys on would cascade; off, the rows stay and the check finds them.
    writeFileSync(
      join(dangling, '099_dangling.sql'),
      "INSERT INTO organizations (realm, id, name, created_timestamp) VALUES ('acme', 'gone', 'gone', 1);\n" +
        "INSERT INTO memberships (realm, organization_id, user_id, created_timestamp) VALUES ('acme', 'gone', 'nobody', 1);\n",
    );
    await store.close();
    expect(() => SqliteStore.open(file, { migrationsDir: dangling })).toThrow(
      'Migration dangling leaves 1 row(s) whose foreign key names no row (first: table memberships, parent users); nothing of it was applied.',
    );
    store = SqliteStore.open(file);
    expect(await store.pendingMigrations()).toEqual([]);
    expect(await store.getOrganization('acme', 'gone')).toBeUndefined();
    const raw = new Database(file, { readonly: true });
    try {
      expect(raw.prepare('SELECT count(*) AS n FROM schema_migrations WHERE version = 99').get()).toEqual({ n: 0 });
    } finally {
      raw.close();
    }
    // Foreign keys are on again for the store's own work: a deleted organization takes its admin user.
    const withAdmin = org('o-fk', 'fk');
    await store.createOrganization(withAdmin, user('admin-o-fk', 'org-admin-o-fk', { kind: 'org-admin', adminOfOrganization: 'o-fk' }));
    expect(await store.deleteOrganization('acme', 'o-fk')).toBe(true);
    expect(await store.getUser('acme', 'admin-o-fk')).toBeUndefined();
  });

  it('upgrades a database made before realm rate limits: its realms follow the service default', async () => {
    const before = join(dir, 'migrations-before-004');
    cpSync(SQLITE_MIGRATIONS_DIR, before, { recursive: true });
    for (const later of ['004_realm_rate_limit.sql', '005_hot_paths.sql', '006_list_versions.sql', '007_organization_roles.sql', '008_organizations_claim.sql', '009_realm_scoped_organization_ids.sql', '011_domains_and_identity_providers.sql']) rmSync(join(before, later));
    const oldFile = join(dir, 'old.db');
    const old = SqliteStore.open(oldFile, { migrationsDir: before });
    try {
      const raw = new Database(oldFile);
      try {
        // Written as a version-3 service would: no rate limit columns exist yet.
        raw.prepare(
          `INSERT INTO realms (name, enabled, token_lifetime_seconds, create_admin_user, created_timestamp, private_key_pem, public_key_pem, key_id)
           VALUES ('legacy', 1, 300, 1, 1, 'private', 'public', 'kid')`,
        ).run();
      } finally {
        raw.close();
      }
    } finally {
      await old.close();
    }
    const upgraded = SqliteStore.open(oldFile);
    try {
      expect(await upgraded.pendingMigrations()).toEqual([]);
      expect((await upgraded.getRealm('legacy'))?.rateLimit).toBeNull();
      expect((await upgraded.updateRealm('legacy', { rateLimit: { requests: 3, windowSeconds: 9 } }))?.rateLimit).toEqual({ requests: 3, windowSeconds: 9 });
    } finally {
      await upgraded.close();
    }
  });

  it('upgrades a database made before keyset organization pages: its lists page as before and count their changes', async () => {
    const before = join(dir, 'migrations-before-006');
    cpSync(SQLITE_MIGRATIONS_DIR, before, { recursive: true });
    // Organizations are written as that version did: this store writes their roles' realm (009).
    for (const later of ['006_list_versions.sql', '009_realm_scoped_organization_ids.sql', '011_domains_and_identity_providers.sql']) rmSync(join(before, later));
    const oldFile = join(dir, 'old-005.db');
    const old = SqliteStore.open(oldFile, { migrationsDir: before });
    try {
      await old.createRealm(realm('acme'));
    } finally {
      await old.close();
    }
    writeRaw(oldFile, (raw) => {
      const insert = raw.prepare("INSERT INTO organizations (id, realm, name, created_timestamp) VALUES (?, 'acme', ?, 1)");
      for (let i = 0; i < 9; i += 1) insert.run(`o${i}`, `org-${8 - i}`);
    });
    const upgraded = SqliteStore.open(oldFile);
    try {
      expect(await upgraded.pendingMigrations()).toEqual([]);
      const pages = [];
      for (let first = 0; first < 9; first += 4) pages.push((await upgraded.listOrganizations('acme', { first, max: 4 })).map((o) => o.id));
      expect(pages).toEqual([['o8', 'o7', 'o6', 'o5'], ['o4', 'o3', 'o2', 'o1'], ['o0']]);
      const raw = new Database(oldFile);
      try {
        const version = () => (raw.prepare("SELECT coalesce((SELECT version FROM list_versions WHERE realm = 'acme' AND list = 'organizations'), 0) AS v").get() as { v: number }).v;
        expect(version()).toBe(0);
        await upgraded.deleteOrganization('acme', 'o7');
        await upgraded.createOrganization(org('o7', 'org-1x'));
        const renamed = org('o3', 'org-5', { displayName: 'Renamed' });
        await upgraded.updateOrganization('acme', 'o3', { ...renamed, attributes: {} });
        expect(version()).toBe(3);
        // Only what orders or filters the list counts: a url or domains change does not.
        await upgraded.updateOrganization('acme', 'o3', { ...renamed, url: 'https://five.example', attributes: {}, domains: ['five.example'] });
        expect(version()).toBe(3);
        // The realm's user list counts users added, not a change of their enabled flag.
        const users = () => (raw.prepare("SELECT coalesce((SELECT version FROM list_versions WHERE realm = 'acme' AND list = 'users'), 0) AS v").get() as { v: number }).v;
        expect(users()).toBe(0);
        await upgraded.createUser(user('x1', 'xavier'));
        await upgraded.updateUser('acme', 'x1', { enabled: false });
        expect(users()).toBe(1);
      } finally {
        raw.close();
      }
      expect((await upgraded.listOrganizations('acme', { first: 4, max: 4 })).map((o) => o.id)).toEqual(['o4', 'o3', 'o2', 'o1']);
    } finally {
      await upgraded.close();
    }
  });

  it('upgrades a database made before keyset member pages: its lists page as before and count their changes', async () => {
    const before = join(dir, 'migrations-before-005');
    cpSync(SQLITE_MIGRATIONS_DIR, before, { recursive: true });
    // Organizations and memberships are written as that version did: this store writes the realm (009).
    for (const later of ['005_hot_paths.sql', '006_list_versions.sql', '009_realm_scoped_organization_ids.sql', '011_domains_and_identity_providers.sql']) {
      rmSync(join(before, later));
    }
    const oldFile = join(dir, 'old-004.db');
    const old = SqliteStore.open(oldFile, { migrationsDir: before });
    try {
      await old.createRealm(realm('acme'));
      for (let i = 0; i < 9; i += 1) await old.createUser(user(`u${i}`, `user${i}`, { email: `User${i}@Example.com` }));
    } finally {
      await old.close();
    }
    writeRaw(oldFile, (raw) => {
      raw.exec("INSERT INTO organizations (id, realm, name, created_timestamp) VALUES ('o1', 'acme', 'one', 1)");
      const insert = raw.prepare("INSERT INTO memberships (organization_id, user_id, created_timestamp) VALUES ('o1', ?, ?)");
      for (let i = 0; i < 9; i += 1) insert.run(`u${i}`, i);
    });
    const upgraded = SqliteStore.open(oldFile);
    try {
      expect(await upgraded.pendingMigrations()).toEqual([]);
      const pages = [];
      for (let first = 0; first < 9; first += 4) pages.push((await upgraded.listMembers('acme', 'o1', { first, max: 4 })).map((u) => u.id));
      expect(pages).toEqual([['u0', 'u1', 'u2', 'u3'], ['u4', 'u5', 'u6', 'u7'], ['u8']]);
      expect((await upgraded.findUsers('acme', { email: 'user7@example.COM', exact: true })).map((u) => u.id)).toEqual(['u7']);
      const raw = new Database(oldFile);
      try {
        const version = () => (raw.prepare("SELECT members_version AS v FROM organizations WHERE id = 'o1'").get() as { v: number }).v;
        expect(version()).toBe(0);
        await upgraded.removeMember('acme', 'o1', 'u2');
        await upgraded.addMember('acme', 'o1', 'u2', 10);
        expect(version()).toBe(2);
        expect(raw.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'memberships_organization_order'").all()).toHaveLength(1);
      } finally {
        raw.close();
      }
      expect((await upgraded.listMembers('acme', 'o1', { first: 4, max: 4 })).map((u) => u.id)).toEqual(['u5', 'u6', 'u7', 'u8']);
    } finally {
      await upgraded.close();
    }
  });

  it('refuses a rate limit pair the columns cannot mean, in the schema itself', async () => {
    const raw = new Database(file);
    try {
      for (const pair of ['5, NULL', 'NULL, 5', '0, 5', '-1, 5', '5, 0']) {
        expect(() => raw.exec(`UPDATE realms SET (rate_limit_requests, rate_limit_window_seconds) = (${pair}) WHERE name = 'acme'`)).toThrow(/CHECK constraint failed/);
      }
    } finally {
      raw.close();
    }
    expect((await store.getRealm('acme'))?.rateLimit).toBeNull();
  });

  it('round-trips a realm with its key', async () => {
    expect(await store.getRealm('acme')).toEqual(realm('acme'));
    expect(await store.getRealm('nope')).toBeUndefined();
    await expect(store.createRealm(realm('acme'))).rejects.toThrow(StoreConflictError);
    const updated = await store.updateRealm('acme', { enabled: false, tokenLifetimeSeconds: 60 });
    expect(updated).toMatchObject({ enabled: false, tokenLifetimeSeconds: 60, createAdminUser: true });
    expect(await store.updateRealm('nope', { enabled: false })).toBeUndefined();
  });

  it('enforces unique organization names per realm, but not across realms', async () => {
    await store.createOrganization(org('o1', 'same'));
    await expect(store.createOrganization(org('o2', 'same'))).rejects.toMatchObject({ what: 'organization name' });
    await expect(store.createOrganization(org('o1', 'other'))).rejects.toMatchObject({ what: 'organization id' });
    await store.createRealm(realm('beta'));
    await store.createOrganization({ ...org('o3', 'same'), realm: 'beta' });
    expect(await store.countOrganizations('acme', {})).toBe(1);
  });

  it('creates an organization with its admin user atomically', async () => {
    await store.createUser(user('taken-id', 'someone'));
    // The admin user's id collides: neither the organization nor the user may remain.
    await expect(
      store.createOrganization(org('o1', 'atomic'), user('taken-id', 'org-admin-o1', { kind: 'org-admin', adminOfOrganization: 'o1' })),
    ).rejects.toThrow(StoreConflictError);
    expect(await store.getOrganization('acme', 'o1')).toBeUndefined();
    expect(await store.findUserByUsername('acme', 'org-admin-o1')).toBeUndefined();
  });

  it('deletes memberships and the default admin user with the organization', async () => {
    await store.createOrganization(org('o1', 'gone'), user('admin1', 'org-admin-o1', { kind: 'org-admin', adminOfOrganization: 'o1' }));
    await store.createUser(user('u1', 'member'));
    expect(await store.addMember('acme', 'o1', 'u1', 2)).toBe(true);
    expect(await store.deleteOrganization('acme', 'o1')).toBe(true);
    expect(await store.getUser('acme', 'admin1')).toBeUndefined();
    expect(await store.getUser('acme', 'u1')).toBeDefined();
    expect(await store.listUserOrganizations('acme', 'u1')).toEqual([]);
    expect(await store.deleteOrganization('acme', 'o1')).toBe(false);
  });

  describe('member pages larger than one chunk', () => {
    const size = MEMBER_PAGE_CHUNK * 2 + 37;
    const ids = Array.from({ length: size }, (_, i) => `u${String(i).padStart(4, '0')}`);
    beforeEach(async () => {
      await store.createOrganization(org('o1', 'big'));
      for (const [i, id] of ids.entries()) {
        await store.createUser(user(id, `member-${i}`));
        await store.addMember('acme', 'o1', id, 10 + i);
      }
    });

    it('gives what OFFSET first LIMIT max gives, for pages within, across and beyond chunks', async () => {
      for (const max of [1, MEMBER_PAGE_CHUNK - 1, MEMBER_PAGE_CHUNK, MEMBER_PAGE_CHUNK + 1, 300, 1000]) {
        for (let first = 0; first < size + max; first += max) {
          const page = (await store.listMembers('acme', 'o1', { first, max })).map((u) => u.id);
          expect({ first, max, page }).toEqual({ first, max, page: ids.slice(first, first + max) });
        }
      }
      expect((await store.listMembers('acme', 'o1', {})).map((u) => u.id)).toEqual(ids);
      // Filters hold across chunks too: every member whose username has a 1 in it.
      const ones = ids.filter((_, i) => `member-${i}`.includes('1'));
      expect((await store.listMembers('acme', 'o1', { searchTerms: ['1'], max: 1000 })).map((u) => u.id)).toEqual(ones);
    });

    it('reads the page again by position when the list changes between its chunks', async () => {
      // The first chunk is read before listMembers first waits; the removal lands before the second.
      const removedWhileReading = store.listMembers('acme', 'o1', { first: 0, max: 1000 });
      expect(await store.removeMember('acme', 'o1', ids[5])).toBe(true);
      expect((await removedWhileReading).map((u) => u.id)).toEqual(ids.filter((id) => id !== ids[5]));
      const addedWhileReading = store.listMembers('acme', 'o1', { first: 1, max: MEMBER_PAGE_CHUNK + 10 });
      await store.createUser(user('late', 'late-member'));
      expect(await store.addMember('acme', 'o1', 'late', 9999)).toBe(true);
      const current = [...ids.filter((id) => id !== ids[5]), 'late'];
      expect((await addedWhileReading).map((u) => u.id)).toEqual(current.slice(1, 1 + MEMBER_PAGE_CHUNK + 10));
    });

    it('lets membership checks through between the chunks of a large page', async () => {
      const order: string[] = [];
      const page = store.listMembers('acme', 'o1', { max: 1000 }).then(() => order.push('page'));
      const check = store.isMember('acme', 'o1', ids[0]).then(() => order.push('check'));
      await Promise.all([page, check]);
      expect(order).toEqual(['check', 'page']);
    });
  });

  it('keeps one membership per organization and user', async () => {
    await store.createOrganization(org('o1', 'club'));
    await store.createUser(user('u1', 'member'));
    await Promise.all(Array.from({ length: 10 }, () => store.addMember('acme', 'o1', 'u1', 3)));
    expect(await store.countMembers('acme', 'o1', {})).toBe(1);
    expect(await store.addMember('acme', 'o1', 'ghost', 3)).toBe(false);
    expect(await store.addMember('acme', 'ghost', 'u1', 3)).toBe(false);
    expect(await store.removeMember('acme', 'o1', 'u1')).toBe(true);
    expect(await store.removeMember('acme', 'o1', 'u1')).toBe(false);
  });

  it('enforces unique usernames and emails per realm, case-insensitively', async () => {
    await store.createUser(user('u1', 'Alice', { email: 'Alice@Example.com' }));
    await expect(store.createUser(user('u2', 'alice'))).rejects.toMatchObject({ what: 'username' });
    await expect(store.createUser(user('u3', 'alice2', { email: 'alice@example.com' }))).rejects.toMatchObject({ what: 'email' });
  });

  it('filters organizations by search and attribute pairs', async () => {
    await store.createOrganization(org('o1', 'Alpha', { attributes: { tier: ['gold'], 'a key': ['with space'] } }));
    await store.createOrganization(org('o2', 'beta', { displayName: 'The ALPHA team', attributes: { tier: ['silver'] } }));
    expect((await store.listOrganizations('acme', { search: 'alp' })).map((o) => o.id)).toEqual(['o1', 'o2']);
    expect((await store.listOrganizations('acme', { attributes: [['tier', 'gold']] })).map((o) => o.id)).toEqual(['o1']);
    expect((await store.listOrganizations('acme', { attributes: [['a key', 'with space'], ['tier', 'gold']] })).map((o) => o.id)).toEqual(['o1']);
    expect(await store.countOrganizations('acme', { attributes: [['tier', 'bronze']] })).toBe(0);
  });

  it('marks API keys revoked and frees their name', async () => {
    const key = {
      clientId: 'c1',
      realm: 'acme',
      name: 'ci',
      secretHash: 'scrypt$x',
      permissions: ['view-organizations' as const],
      serviceAccountUserId: 'sa1',
      createdTimestamp: 1,
      revokedTimestamp: null,
    };
    await store.createApiKey(key, user('sa1', 'service-account-c1', { kind: 'service-account' }));
    await expect(
      store.createApiKey({ ...key, clientId: 'c2', serviceAccountUserId: 'sa2' }, user('sa2', 'service-account-c2', { kind: 'service-account' })),
    ).rejects.toMatchObject({ what: 'API key name' });
    // The failed key left no service-account user behind.
    expect(await store.getUser('acme', 'sa2')).toBeUndefined();
    expect(await store.revokeApiKey('c1', 5)).toBe(true);
    expect(await store.revokeApiKey('nope', 5)).toBe(false);
    expect((await store.getApiKey('c1'))?.revokedTimestamp).toBe(5);
    await store.createApiKey({ ...key, clientId: 'c3', serviceAccountUserId: 'sa3' }, user('sa3', 'service-account-c3', { kind: 'service-account' }));
    expect((await store.listApiKeys('acme')).map((k) => k.clientId)).toEqual(['c1', 'c3']);
    // Service accounts never show up in the user lookup.
    expect(await store.findUsers('acme', {})).toEqual([]);
  });
});
