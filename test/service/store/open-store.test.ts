/**
 * openStore picks the store from one location string, and the whole service runs on what it
 * opens from a postgres:// URL (token, create organization, add and check a member) over a real
 * port. Why not `app.inject()`: light-my-request pulls in an ES module jest's CommonJS runtime
 * cannot load (see test/service/support.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { memberPath, membersCountPath, orgPath, orgsPath, PERMISSIONS, tokenPath } from '../../../src/api';
import { Admin } from '../../../src/service/admin';
import { buildApp } from '../../../src/service/app';
import { isPostgresUrl, openStore, redactLocation } from '../../../src/service/store/open-store';
import { readMigrations } from '../../../src/service/store/migrations';
import { POSTGRES_MIGRATIONS_DIR, PostgresStore } from '../../../src/service/store/postgres-store';
import { SqliteStore } from '../../../src/service/store/sqlite-store';
import type { Store } from '../../../src/service/store/store';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

let postgres: TestPostgres;

beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);

afterAll(async () => {
  await postgres?.stop();
});

describe('isPostgresUrl', () => {
  it('recognizes postgres:// and postgresql:// URLs and nothing else', () => {
    expect(isPostgresUrl('postgres://u@h/db')).toBe(true);
    expect(isPostgresUrl('PostgreSQL://u@h/db')).toBe(true);
    expect(isPostgresUrl('./data/postgres://not-a-url.db')).toBe(false);
    expect(isPostgresUrl('/var/lib/orgadmin/orgadmin.db')).toBe(false);
    expect(isPostgresUrl('postgres:/missing-slash')).toBe(false);
  });
});

describe('redactLocation', () => {
  it('hides the password of a PostgreSQL URL and leaves file paths alone', () => {
    expect(redactLocation('postgres://app:s3cret@db.internal:5432/orgadmin?sslmode=require')).toBe(
      'postgres://app:***@db.internal:5432/orgadmin?sslmode=require',
    );
    expect(redactLocation('postgresql://app@db/orgadmin')).toBe('postgresql://app@db/orgadmin');
    expect(redactLocation('postgres://app:s3cret@[bad')).toBe('postgres://…');
    expect(redactLocation('/var/lib/orgadmin/app:s3cret@x.db')).toBe('/var/lib/orgadmin/app:s3cret@x.db');
  });
});

describe('openStore', () => {
  it('opens a SQLite file for a path, creating its directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orgadmin-open-store-'));
    try {
      const store = await openStore(join(dir, 'nested', 'orgadmin.db'));
      expect(store).toBeInstanceOf(SqliteStore);
      expect(await store.listRealms()).toEqual([]);
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('opens a migrated PostgreSQL database for a postgres:// or postgresql:// URL', async () => {
    for (const url of [await postgres.createSchema(), (await postgres.createSchema()).replace(/^postgres:/, 'postgresql:')]) {
      const store = await openStore(url);
      try {
        expect(store).toBeInstanceOf(PostgresStore);
        expect(await (store as PostgresStore).appliedMigrations()).toEqual(readMigrations(POSTGRES_MIGRATIONS_DIR).map(({ version, name }) => ({ version, name })));
      } finally {
        await store.close();
      }
    }
  });

  it('refuses an empty location', async () => {
    await expect(openStore('  ')).rejects.toThrow(/store location is empty/);
  });
});

describe('the service on PostgreSQL', () => {
  let store: Store;
  let app: FastifyInstance;
  let baseUrl: string;

  beforeAll(async () => {
    store = await openStore(postgres.url);
    app = await buildApp({ store });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  });

  afterAll(async () => {
    await app?.close();
    await store?.close();
  });

  async function call(method: string, path: string, token: string, body?: unknown): Promise<Response> {
    return fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  it('issues a token, creates an organization, adds a member and confirms the membership', async () => {
    const admin = new Admin(store);
    await admin.createRealm('acme');
    const key = await admin.createApiKey('acme', { name: 'pg-test', permissions: [...PERMISSIONS] });
    const alice = await admin.createUser('acme', { username: 'alice', email: 'alice@example.com' });

    const tokenResponse = await fetch(`${baseUrl}${tokenPath('acme')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }).toString(),
    });
    expect(tokenResponse.status).toBe(200);
    const token = ((await tokenResponse.json()) as { access_token: string }).access_token;

    const created = await call('POST', orgsPath('acme'), token, { name: 'Acme Corp', attributes: { tier: ['gold'] } });
    expect(created.status).toBe(201);
    const orgId = decodeURIComponent(String(created.headers.get('location')).split('/').pop() ?? '');
    const org = await call('GET', orgPath('acme', orgId), token);
    expect(await org.json()).toMatchObject({ id: orgId, name: 'Acme Corp', attributes: { tier: ['gold'] }, realm: 'acme' });

    expect((await call('PUT', memberPath('acme', orgId, alice.id), token)).status).toBe(201);
    expect((await call('PUT', memberPath('acme', orgId, alice.id), token)).status).toBe(201);
    expect((await call('GET', memberPath('acme', orgId, alice.id), token)).status).toBe(204);
    // The default admin user and alice.
    expect(await (await call('GET', membersCountPath('acme', orgId), token)).json()).toBe(2);

    const duplicate = await call('POST', orgsPath('acme'), token, { name: 'Acme Corp' });
    expect(duplicate.status).toBe(409);

    expect((await call('DELETE', orgPath('acme', orgId), token)).status).toBe(204);
    expect((await call('GET', memberPath('acme', orgId, alice.id), token)).status).toBe(404);
  });
});
