import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memberPath, orgPath, orgsPath } from '../../src/api';
import { createTestRealm, getToken, startTestService } from '../helpers/service';
import { call } from './support';

describe('persistence', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orgadmin-persist-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads back realms, keys, organizations and memberships after a restart on the same file', async () => {
    const dataFile = join(dir, 'service.db');
    const first = await startTestService({ dataFile });
    const key = await createTestRealm(first, 'acme');
    const token = await getToken(first, 'acme', key.clientId, key.clientSecret);
    const created = await call(first, { method: 'POST', url: orgsPath('acme'), token, payload: { name: 'durable', domains: ['durable.example.com'] } });
    const orgId = String(created.headers.location).split('/').pop()!;
    const user = await first.admin.createUser('acme', { username: 'stay', email: 'stay@example.com' });
    await call(first, { method: 'PUT', url: memberPath('acme', orgId, user.id), token });
    await first.close();

    const second = await startTestService({ dataFile });
    try {
      // Same key, same signing key: the old token still verifies and a new one can be fetched.
      const old = await call(second, { method: 'GET', url: orgPath('acme', orgId), token });
      expect(old.status).toBe(200);
      expect(old.json).toMatchObject({ name: 'durable', domains: ['durable.example.com'] });
      const fresh = await getToken(second, 'acme', key.clientId, key.clientSecret);
      expect((await call(second, { method: 'GET', url: memberPath('acme', orgId, user.id), token: fresh })).status).toBe(204);
      expect((await second.admin.getRealm('acme'))?.name).toBe('acme');
    } finally {
      await second.close();
    }
  });

  it('stores secrets and passwords only as hashes', async () => {
    const dataFile = join(dir, 'hashed.db');
    const svc = await startTestService({ dataFile });
    const key = await createTestRealm(svc, 'acme');
    await svc.admin.createUser('acme', { username: 'hidden', password: 'plain-password-value' });
    await svc.close();
    const bytes = await readFile(dataFile);
    const wal = await readFile(`${dataFile}-wal`).catch(() => Buffer.alloc(0));
    for (const content of [bytes, wal]) {
      expect(content.includes(key.clientSecret)).toBe(false);
      expect(content.includes('plain-password-value')).toBe(false);
    }
    expect(bytes.includes(key.clientId)).toBe(true);
  });
});
