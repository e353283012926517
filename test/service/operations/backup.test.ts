/**
 * `orgadmin backup` while the service takes 200 concurrent writes, then `orgadmin restore`: the
 * integrity check passes and every write acknowledged before the backup began is in the restored
 * file; restore refuses to overwrite without --force and refuses a damaged file.
 */
import { writeFileSync } from 'node:fs';
import { memberPath, orgsPath, tokenPath } from '../../../src/api';
import { Admin } from '../../../src/service/admin';
import { startServer } from '../../../src/service/server';
import { SqliteStore } from '../../../src/service/store/sqlite-store';
import { createSandbox, type CliSandbox } from '../../cli/harness';
import { join } from 'node:path';

let sandbox: CliSandbox;
beforeEach(() => {
  sandbox = createSandbox();
});
afterEach(() => sandbox.cleanup());

describe('orgadmin backup and restore', () => {
  it('backs up during 200 concurrent writes; the restore holds every write acknowledged before the backup began', async () => {
    expect((await sandbox.run('realms', 'create', 'acme')).code).toBe(0);
    const server = await startServer({ dataFile: sandbox.dataFile, port: 0 });
    const admin = new Admin(server.store);
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
    let backupStartedAt = Number.POSITIVE_INFINITY;
    const backupFile = join(sandbox.dir, 'backup.db');
    const writes = users.map(async (userId) => {
      const answer = await fetch(`${server.url}${memberPath('acme', orgId, userId)}`, { method: 'PUT', headers: { authorization } });
      expect(answer.status).toBe(201);
      acknowledged.push({ userId, at: performance.now() });
    });
    // The backup starts while the writes are under way (after the first 50 acknowledgements).
    while (acknowledged.length < 50) await new Promise((resolve) => setImmediate(resolve));
    backupStartedAt = performance.now();
    const backup = await sandbox.run('backup', '--out', backupFile);
    await Promise.all(writes);
    await server.close();
    expect(backup).toEqual({ code: 0, stdout: expect.stringMatching(/^Backed up to .*backup\.db \(integrity check ok, \d+ migrations\)\.\n$/), stderr: '' });

    const restoredFile = join(sandbox.dir, 'restored', 'orgadmin.db');
    const restore = await sandbox.runRaw(['restore', backupFile, '--data', restoredFile]);
    expect(restore.code).toBe(0);
    const restored = SqliteStore.open(restoredFile);
    try {
      const members = new Set((await restored.listMembers('acme', orgId, {})).map((user) => user.id));
      const before = acknowledged.filter((write) => write.at < backupStartedAt);
      expect(before.length).toBeGreaterThanOrEqual(50);
      for (const write of before) expect(members.has(write.userId)).toBe(true);
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
