/**
 * Migration 007 (organization roles) on a database written before it, on both stores: every
 * organization gets the default roles of src/api/roles.ts (so the migration's own list of them
 * cannot drift from DEFAULT_ORGANIZATION_ROLES), and each organization's default admin user holds
 * them all, as for an organization created afterwards.
 */
import Database from 'better-sqlite3';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DEFAULT_ORGANIZATION_ROLES, DEFAULT_ORGANIZATION_ROLE_NAMES } from '../../../src/api';
import { POSTGRES_MIGRATIONS_DIR, PostgresStore } from '../../../src/service/store/postgres-store';
import { SQLITE_MIGRATIONS_DIR, SqliteStore } from '../../../src/service/store/sqlite-store';
import type { Store } from '../../../src/service/store/store';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

/** What a version-6 service wrote: a realm, two organizations (one with its admin user), a member. */
const BEFORE_ROLES = [
  `INSERT INTO realms (name, enabled, token_lifetime_seconds, create_admin_user, created_timestamp, private_key_pem, public_key_pem, key_id)
   VALUES ('acme', TRUE, 300, TRUE, 1, 'private', 'public', 'kid')`,
  `INSERT INTO organizations (id, realm, name, created_timestamp) VALUES ('o1', 'acme', 'one', 1000), ('o2', 'acme', 'two', 2000)`,
  `INSERT INTO users (id, realm, username, created_timestamp, kind, admin_of_organization)
   VALUES ('admin-o1', 'acme', 'org-admin-o1', 1000, 'org-admin', 'o1'), ('alice', 'acme', 'alice', 1, 'user', NULL)`,
  `INSERT INTO memberships (organization_id, user_id, created_timestamp) VALUES ('o1', 'admin-o1', 1000), ('o1', 'alice', 1001), ('o2', 'alice', 2001)`,
];

/** A copy of `dir` without the migrations from 007 on. */
function migrationsBeforeRoles(dir: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'orgadmin-before-roles-'));
  cpSync(dir, copy, { recursive: true });
  for (const file of readdirSync(copy)) if (Number(file.slice(0, 3)) >= 7) rmSync(join(copy, file));
  return copy;
}

const sortedDefaults = [...DEFAULT_ORGANIZATION_ROLE_NAMES].sort();

/** The checks, whichever store upgraded the database. */
async function expectDefaultRoles(store: Store): Promise<void> {
  const roles = (await store.listRoles('acme', 'o1'))!;
  expect(roles.map((role) => role.name)).toEqual(sortedDefaults);
  for (const role of DEFAULT_ORGANIZATION_ROLES) {
    expect(roles.find((r) => r.name === role.name)).toMatchObject({ description: role.description, createdTimestamp: 1000 });
  }
  // Fresh UUIDs, distinct across organizations.
  const o2 = (await store.listRoles('acme', 'o2'))!;
  const allIds = [...roles, ...o2].map((role) => role.id);
  expect(new Set(allIds).size).toBe(allIds.length);
  for (const id of allIds) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect((await store.listMemberRoles('acme', 'o1', 'admin-o1'))!.map((role) => role.name)).toEqual(sortedDefaults);
  expect(await store.listMemberRoles('acme', 'o1', 'alice')).toEqual([]);
  expect(o2.map((role) => role.name)).toEqual(sortedDefaults);
  expect(await store.listRoleUsers('acme', 'o2', 'manage-roles', {})).toEqual([]);
  // The upgraded database works like a new one: grants, and the cascade of a member's removal.
  const granted = await store.changeMemberRoles('acme', 'o1', 'alice', ['view-roles'], 'grant', 5);
  expect(granted.kind).toBe('done');
  await store.removeMember('acme', 'o1', 'alice');
  expect(await store.hasRole('acme', 'o1', 'view-roles', 'alice')).toBe(false);
}

describe('migration 007 on SQLite', () => {
  it('gives every organization the default roles and its default admin user all of them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orgadmin-role-migration-'));
    const before = migrationsBeforeRoles(SQLITE_MIGRATIONS_DIR);
    try {
      const file = join(dir, 'old.db');
      (await SqliteStore.open(file, { migrationsDir: before })).close();
      const raw = new Database(file);
      try {
        for (const sql of BEFORE_ROLES) raw.exec(sql);
      } finally {
        raw.close();
      }
      const store = SqliteStore.open(file);
      try {
        expect((await store.appliedMigrations()).map((m) => m.version)).toEqual(expect.arrayContaining([7, 8]));
        expect(await store.pendingMigrations()).toEqual([]);
        await expectDefaultRoles(store);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(before, { recursive: true, force: true });
    }
  });
});

describe('migration 007 on PostgreSQL', () => {
  let postgres: TestPostgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await postgres?.stop();
  });

  it('gives every organization the default roles and its default admin user all of them', async () => {
    const url = await postgres.createSchema();
    const before = migrationsBeforeRoles(POSTGRES_MIGRATIONS_DIR);
    try {
      await (await PostgresStore.open(url, { migrationsDir: before })).close();
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        for (const sql of BEFORE_ROLES) await client.query(sql);
      } finally {
        await client.end();
      }
      const store = await PostgresStore.open(url);
      try {
        expect((await store.appliedMigrations()).map((m) => m.version)).toEqual(expect.arrayContaining([7, 8]));
        expect(await store.pendingMigrations()).toEqual([]);
        await expectDefaultRoles(store);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(before, { recursive: true, force: true });
    }
  });
});
