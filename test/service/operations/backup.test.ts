/**
 * Backups while the service takes 200 concurrent writes, then restores: `orgadmin backup` and
 * `orgadmin restore` on SQLite (the integrity check passes and every write acknowledged before the
 * backup began is in the restored file; restore refuses to overwrite without --force and refuses a
 * damaged file), and on PostgreSQL the standard route the guide documents (pg_dump of the schema
 * while the service serves, pg_restore into an empty database, the service ready on it).
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { memberPath, orgsPath, tokenPath } from '../../../src/api';
import { Admin } from '../../../src/service/admin';
import { startServer } from '../../../src/service/server';
import { SqliteStore } from '../../../src/service/store/sqlite-store';
import { createSandbox, type CliSandbox } from '../../cli/harness';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

const run = promisify(execFile);

let sandbox: CliSandbox;
beforeEach(() => {
  sandbox = createSandbox();
});
afterEach(() => sandbox.cleanup());

/**
 * Serves `dataFile` (realm `acme`, one organization, 200 users), adds the 200 users as members
 * concurrently, and runs `backUp` once 50 of those writes are acknowledged, while the rest are
 * under way. Resolves, once every write is answered and the service closed, with the organization
 * and the users whose writes were acknowledged before `backUp` began.
 */
async function backUpUnderWrites<T>(dataFile: string, backUp: () => Promise<T>): Promise<{ orgId: string; acknowledgedBefore: string[]; result: T }> {
  const server = await startServer({ dataFile, port: 0 });
  try {
    const admin = new Admin(server.store);
    await admin.createRealm('acme');
    const key = await admin.createApiKey('acme', { name: 'w', permissions: ['view-organizations', 'manage-organizations', 'create-organization'] });
    const users: string[] = [];
    for (let i = 0; i < 200; i += 1) users.push((await admin.createUser('acme', { username: `user-${i}` })).id);
    const token = await fetch(`${server.url}${tokenPath('acme')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }),
    });
    const authorization = `Bearer ${((await token.json()) as { access_token: string }).access_token}`;
    const created = await fetch(`${server.url}${orgsPath('acme')}`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'busy' }) });
    const orgId = created.headers.get('location')!.split('/').pop()!;

    const acknowledged: Array<{ userId: string; at: number }> = [];
    const statuses: number[] = [];
    const writes = users.map(async (userId) => {
      const answer = await fetch(`${server.url}${memberPath('acme', orgId, userId)}`, { method: 'PUT', headers: { authorization } });
      statuses.push(answer.status);
      if (answer.status === 201) acknowledged.push({ userId, at: performance.now() });
    });
    // The backup starts while the writes are under way (after the first 50 acknowledgements).
    while (acknowledged.length < 50) await new Promise((resolve) => setImmediate(resolve));
    const backupStartedAt = performance.now();
    const result = await backUp();
    await Promise.all(writes);
    expect(statuses.filter((status) => status !== 201)).toEqual([]);
    const acknowledgedBefore = acknowledged.filter((write) => write.at < backupStartedAt).map((write) => write.userId);
    expect(acknowledgedBefore.length).toBeGreaterThanOrEqual(50);
    return { orgId, acknowledgedBefore, result };
  } finally {
    await server.close();
  }
}

describe('orgadmin backup and restore', () => {
  it('backs up during 200 concurrent writes; the restore holds every write acknowledged before the backup began', async () => {
    const backupFile = join(sandbox.dir, 'backup.db');
    const { orgId, acknowledgedBefore, result: backup } = await backUpUnderWrites(sandbox.dataFile, () => sandbox.run('backup', '--out', backupFile));
    expect(backup).toEqual({ code: 0, stdout: expect.stringMatching(/^Backed up to .*backup\.db \(integrity check ok, \d+ migrations\)\.\n$/), stderr: '' });

    const restoredFile = join(sandbox.dir, 'restored', 'orgadmin.db');
    const restore = await sandbox.runRaw(['restore', backupFile, '--data', restoredFile]);
    expect(restore.code).toBe(0);
    const restored = SqliteStore.open(restoredFile);
    try {
      const members = new Set((await restored.listMembers('acme', orgId, {})).map((user) => user.id));
      for (const userId of acknowledgedBefore) expect(members.has(userId)).toBe(true);
    } finally {
      await restored.close();
    }
  }, 60_000);

  it('refuses to overwrite a data file without --force, and a damaged backup even with it', async () => {
    expect((await sandbox.run('realms', 'create', 'acme')).code).toBe(0);
    const backupFile = join(sandbox.dir, 'b.db');
    expect((await sandbox.run('backup', '--out', backupFile)).code).toBe(0);
    expect(await sandbox.run('backup', '--out', backupFile)).toEqual({ code: 1, stdout: '', stderr: `orgadmin: ${backupFile} already exists; choose another file or add --force to replace it.\n` });
    const refused = await sandbox.run('restore', backupFile);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: `orgadmin: data file ${sandbox.dataFile} already exists; stop the service and add --force to replace it with the backup.\n` });
    expect((await sandbox.run('restore', backupFile, '--force')).code).toBe(0);
    expect((await sandbox.json<Array<{ name: string }>>('realms', 'list')).map((realm) => realm.name)).toEqual(['acme']);

    const damaged = join(sandbox.dir, 'damaged.db');
    writeFileSync(damaged, 'SQLite format 3\u0000 but nothing else');
    const bad = await sandbox.run('restore', damaged, '--force');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^orgadmin: .*damaged\.db is not a sound backup: .*Nothing was restored\.\n$/);
    expect((await sandbox.json<Array<{ name: string }>>('realms', 'list')).map((realm) => realm.name)).toEqual(['acme']);
    const postgres = await sandbox.runRaw(['backup', '--out', 'x.dump', '--data', 'postgres://app:pw@db.internal/orgadmin']);
    expect(postgres.stderr).toContain('pg_dump --format=custom');
    expect(postgres.stderr).not.toContain(':pw@');
  });
});

describe('PostgreSQL backup and restore (the standard route of the guide)', () => {
  let postgres: TestPostgres | undefined;
  afterAll(async () => {
    await postgres?.stop();
  });

  it('pg_dump of the schema during 200 concurrent writes, pg_restore into an empty database: ready, every acknowledged write there', async () => {
    postgres = await startPostgres();
    const source = await postgres.createSchema();
    const schema = /search_path=(\w+)/.exec(decodeURIComponent(source))![1];
    const dump = join(sandbox.dir, 'orgadmin.dump');
    // What docs/guides/service.md says to run, against the URL without its search_path option.
    const { orgId, acknowledgedBefore } = await backUpUnderWrites(source, () => run('pg_dump', ['--format=custom', `--schema=${schema}`, `--file=${dump}`, postgres!.url]));

    const admin = new Client({ connectionString: postgres.url });
    await admin.connect();
    try {
      await admin.query('CREATE DATABASE orgadmin_restored');
    } finally {
      await admin.end();
    }
    const restoredDatabase = postgres.url.replace(/\/orgadmin$/, '/orgadmin_restored');
    await run('pg_restore', ['--no-owner', `--dbname=${restoredDatabase}`, dump]);

    const restored = await startServer({ dataFile: `${restoredDatabase}?options=${encodeURIComponent(`-c search_path=${schema}`)}`, port: 0 });
    try {
      const ready = await fetch(`${restored.url}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'UP', checks: [{ name: 'store', status: 'UP' }, { name: 'migrations', status: 'UP' }] });
      const members = new Set((await restored.store.listMembers('acme', orgId, {})).map((user) => user.id));
      for (const userId of acknowledgedBefore) expect(members.has(userId)).toBe(true);
    } finally {
      await restored.close();
    }
  }, 120_000);
});
