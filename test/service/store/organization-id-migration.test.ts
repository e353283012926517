/**
 * Migration 009 (organization ids per realm, issue 27 finding 8) on databases written before it, on
 * both stores, in both orders it meets in the field: after 008 alone (011 comes after it), and
 * after 011 (databases made while 011 was the newest migration, with 011's text of then from
 * test/fixtures/migrations-before-009). Every row is read back through the upgraded store (ids,
 * member order, roles, grants, default admin users, verified domains, providers), and the upgraded
 * database then lets another realm take the same id, and deletes one organization without touching
 * the other.
 */
import Database from 'better-sqlite3';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { POSTGRES_MIGRATIONS_DIR, PostgresStore } from '../../../src/service/store/postgres-store';
import { SQLITE_MIGRATIONS_DIR, SqliteStore } from '../../../src/service/store/sqlite-store';
import { newUser, type Store } from '../../../src/service/store/store';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

const OLD_011_DIR = join(__dirname, '..', '..', 'fixtures', 'migrations-before-009');
const DOMAINS_011 = '011_domains_and_identity_providers.sql';

/** Which migrations the old database had: up to 008, or up to 008 and 011 (011's text of then). */
type Before = 'before-011' | 'after-011';

/**
 * A copy of the migrations `dir` (`sqlite` or `postgres` flavour) without 009, and without 011
 * or with the 011 of before 009.
 */
function migrationsBefore009(dir: string, flavour: 'sqlite' | 'postgres', before: Before): string {
  const copy = mkdtempSync(join(tmpdir(), 'orgadmin-before-009-'));
  cpSync(dir, copy, { recursive: true });
  rmSync(join(copy, '009_realm_scoped_organization_ids.sql'));
  rmSync(join(copy, DOMAINS_011));
  if (before === 'after-011') cpSync(join(OLD_011_DIR, flavour, DOMAINS_011), join(copy, DOMAINS_011));
  return copy;
}

/** What a service of before 009 wrote (statements valid on both databases). */
function oldData(before: Before): string[] {
  const realm = (name: string) =>
    `INSERT INTO realms (name, enabled, token_lifetime_seconds, create_admin_user, created_timestamp, private_key_pem, public_key_pem, key_id)
     VALUES ('${name}', TRUE, 300, TRUE, 1, 'private', 'public', 'kid-${name}')`;
  const statements = [
    realm('acme'),
    realm('beta'),
    `INSERT INTO organizations (id, realm, name, domains, created_timestamp)
     VALUES ('o1', 'acme', 'one', '["one.example"]', 1000), ('o2', 'acme', 'two', '[]', 2000), ('b1', 'beta', 'bee', '[]', 3000)`,
    `INSERT INTO users (id, realm, username, created_timestamp, kind, admin_of_organization)
     VALUES ('admin-o1', 'acme', 'org-admin-o1', 1000, 'org-admin', 'o1'), ('alice', 'acme', 'alice', 1, 'user', NULL),
            ('bob', 'beta', 'bob', 1, 'user', NULL)`,
    // One at a time, so their seq (the member order) is as listed.
    `INSERT INTO memberships (organization_id, user_id, created_timestamp) VALUES ('o1', 'admin-o1', 1000)`,
    `INSERT INTO memberships (organization_id, user_id, created_timestamp) VALUES ('o2', 'alice', 2001)`,
    `INSERT INTO memberships (organization_id, user_id, created_timestamp) VALUES ('o1', 'alice', 1001)`,
    `INSERT INTO memberships (organization_id, user_id, created_timestamp) VALUES ('b1', 'bob', 3001)`,
    `INSERT INTO organization_roles (id, organization_id, name, description, created_timestamp)
     VALUES ('r1', 'o1', 'editor', 'Edits', 1000), ('r2', 'o2', 'editor', NULL, 2000)`,
    `INSERT INTO role_grants (organization_id, role_id, user_id, created_timestamp) VALUES ('o1', 'r1', 'alice', 1002)`,
  ];
  if (before === 'after-011') {
    statements.push(
      `INSERT INTO domain_verifications (realm, domain, organization_id, verified_timestamp) VALUES ('acme', 'one.example', 'o1', 1500)`,
      `INSERT INTO identity_providers (realm, alias, internal_id, organization_id, provider_id, display_name, enabled, trust_email, config, client_secret, created_timestamp)
       VALUES ('acme', 'corp', 'internal-corp', 'o1', 'oidc', NULL, TRUE, FALSE, '{"clientId":"c"}', NULL, 1600),
              ('acme', 'loose', 'internal-loose', NULL, 'oidc', NULL, TRUE, FALSE, '{}', NULL, 1601)`,
      `INSERT INTO identity_provider_mappers (id, realm, alias, name, mapper_type, config, created_timestamp)
       VALUES ('m1', 'acme', 'corp', 'roles', 'oidc-role-idp-mapper', '{}', 1700)`,
    );
  }
  return statements;
}

const names = (items: Array<{ id: string }> | undefined): string[] => (items ?? []).map((item) => item.id);

/** The checks, whichever store upgraded the database. */
async function expectKeptAndScoped(store: Store, before: Before): Promise<void> {
  expect(await store.pendingMigrations()).toEqual([]);
  // Everything is there, in its order.
  expect(await store.getOrganization('acme', 'o1')).toMatchObject({ name: 'one', domains: ['one.example'] });
  expect((await store.getOrganization('beta', 'b1'))?.name).toBe('bee');
  expect(names(await store.listMembers('acme', 'o1', {}))).toEqual(['admin-o1', 'alice']);
  expect(names(await store.listMembers('acme', 'o2', {}))).toEqual(['alice']);
  expect(names(await store.listMembers('beta', 'b1', {}))).toEqual(['bob']);
  expect(await store.isMember('acme', 'o1', 'alice')).toBe(true);
  expect((await store.getUser('acme', 'admin-o1'))?.adminOfOrganization).toBe('o1');
  expect(await store.getRole('acme', 'o1', 'editor')).toMatchObject({ id: 'r1', description: 'Edits' });
  expect(names(await store.listMemberRoles('acme', 'o1', 'alice'))).toEqual(['r1']);
  expect(names(await store.listRoleUsers('acme', 'o1', 'editor', {}))).toEqual(['alice']);
  if (before === 'after-011') {
    expect(await store.sso.verifiedDomains('acme', 'o1')).toEqual(['one.example']);
    expect((await store.sso.getIdentityProvider('acme', 'corp'))?.organizationId).toBe('o1');
    expect((await store.sso.listMappers('acme', 'corp')).map((mapper) => mapper.id)).toEqual(['m1']);
  }

  // Another realm takes the same id; each sees its own.
  const theirs = { id: 'o1', realm: 'beta', name: 'beta one', displayName: null, url: null, domains: [], attributes: {} };
  const theirAdmin = newUser({ id: 'admin-beta-o1', realm: 'beta', username: 'org-admin-o1', kind: 'org-admin', adminOfOrganization: 'o1', createdTimestamp: 4000 });
  await store.createOrganization(theirs, theirAdmin, 4000);
  expect(await store.addMember('beta', 'o1', 'bob', 4001)).toBe(true);
  expect(names(await store.listMembers('beta', 'o1', {}))).toEqual(['admin-beta-o1', 'bob']);
  expect(await store.isMember('acme', 'o1', 'bob')).toBe(false);
  expect((await store.getOrganization('acme', 'o1'))?.name).toBe('one');
  // A member added now comes after the members kept (the membership order goes on).
  await store.createUser(newUser({ id: 'carol', realm: 'acme', username: 'carol', kind: 'user', createdTimestamp: 5000 }));
  expect(await store.addMember('acme', 'o2', 'carol', 5000)).toBe(true);
  expect(names(await store.listMembers('acme', 'o2', {}))).toEqual(['alice', 'carol']);

  // Deleting acme's o1 takes what was its own, and nothing of beta's o1.
  expect(await store.deleteOrganization('acme', 'o1')).toBe(true);
  expect(await store.getUser('acme', 'admin-o1')).toBeUndefined();
  expect(await store.isMember('acme', 'o1', 'alice')).toBe(false);
  expect(names(await store.listMembers('acme', 'o2', {}))).toEqual(['alice', 'carol']);
  expect((await store.getRole('acme', 'o2', 'editor'))?.id).toBe('r2');
  expect(await store.getOrganization('beta', 'o1')).toMatchObject({ name: 'beta one' });
  expect(names(await store.listMembers('beta', 'o1', {}))).toEqual(['admin-beta-o1', 'bob']);
  expect(await store.getUser('beta', 'admin-beta-o1')).toBeDefined();
  if (before === 'after-011') {
    expect(await store.sso.getIdentityProvider('acme', 'corp')).toBeUndefined();
    expect(await store.sso.getIdentityProvider('acme', 'loose')).toMatchObject({ organizationId: null });
    expect(await store.sso.verifiedDomains('acme', 'o1')).toEqual([]);
  }
}

const ORDERS: Before[] = ['before-011', 'after-011'];

describe('migration 009 on SQLite', () => {
  it.each(ORDERS)('keeps every row of a database from %s and scopes its organization ids to the realm', async (before) => {
    const dir = mkdtempSync(join(tmpdir(), 'orgadmin-id-migration-'));
    const migrations = migrationsBefore009(SQLITE_MIGRATIONS_DIR, 'sqlite', before);
    try {
      const file = join(dir, 'old.db');
      await SqliteStore.open(file, { migrationsDir: migrations }).close();
      const raw = new Database(file);
      try {
        raw.pragma('foreign_keys = ON');
        for (const sql of oldData(before)) raw.exec(sql);
      } finally {
        raw.close();
      }
      const store = SqliteStore.open(file);
      try {
        await expectKeptAndScoped(store, before);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(migrations, { recursive: true, force: true });
    }
  });
});

describe('migration 009 on PostgreSQL', () => {
  let postgres: TestPostgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await postgres?.stop();
  });

  it.each(ORDERS)('keeps every row of a database from %s and scopes its organization ids to the realm', async (before) => {
    const url = await postgres.createSchema();
    const migrations = migrationsBefore009(POSTGRES_MIGRATIONS_DIR, 'postgres', before);
    try {
      await (await PostgresStore.open(url, { migrationsDir: migrations })).close();
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        for (const sql of oldData(before)) await client.query(sql);
      } finally {
        await client.end();
      }
      const store = await PostgresStore.open(url);
      try {
        await expectKeptAndScoped(store, before);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(migrations, { recursive: true, force: true });
    }
  });
});
