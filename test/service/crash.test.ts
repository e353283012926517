/**
 * A crash of the service at any point leaves the database consistent: a real service process on a
 * real SQLite file is killed with SIGKILL in the middle of 200 concurrent writes (organization
 * creates, which also create the default admin user and its membership, and member adds). After a
 * restart every write that was answered is there, no organization lacks its admin user or
 * membership, and SQLite's own integrity check passes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { orgAdminUsername } from '../../src/api';
import { ClientCredentialsTokenSource, OrgAdminClient } from '../../src/client';
import { Admin } from '../../src/service/admin';
import { SqliteStore } from '../../src/service/store/sqlite-store';
import { startServerProcess } from './fixtures/server-process';

jest.setTimeout(120_000);

describe('service crash', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orgadmin-crash-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the database consistent when killed with SIGKILL in the middle of 200 concurrent writes', async () => {
    const dataFile = join(dir, 'service.db');
    const setup = SqliteStore.open(dataFile);
    const admin = new Admin(setup);
    await admin.createRealm('acme');
    const key = await admin.createApiKey('acme', { name: 'crash', permissions: ['view-organizations', 'manage-organizations', 'create-organization', 'view-users'] });
    const users = await Promise.all(Array.from({ length: 5 }, (_, i) => admin.createUser('acme', { username: `crash-user-${i}` })));
    await setup.close();

    const first = await startServerProcess(dataFile);
    const client = new OrgAdminClient({
      baseUrl: first.url,
      realm: 'acme',
      tokenSource: new ClientCredentialsTokenSource({ baseUrl: first.url, clientId: key.clientId, clientSecret: key.clientSecret, maxRetries: 0 }),
      maxRetries: 0,
    });
    const answered: string[] = [];
    const added: Array<{ orgId: string; userId: string }> = [];
    let finished = 0;
    // Kill once some writes were answered and many are still in flight: at the 20th answer.
    let killed!: () => void;
    const killedAfterTwentyAnswers = new Promise<void>((resolveKill) => (killed = resolveKill));
    const writes = Array.from({ length: 200 }, async (_, i) => {
      try {
        const orgId = await client.createOrganization({ name: `crash-org-${i}` });
        answered.push(orgId);
        if (answered.length === 20) {
          first.child.kill('SIGKILL');
          killed();
        }
        const userId = users[i % users.length]!.id;
        await client.addMember(orgId, userId);
        added.push({ orgId, userId });
      } catch {
        // Cut off by the kill: whatever happened must be whole or absent.
      } finally {
        finished += 1;
      }
    });
    await killedAfterTwentyAnswers;
    await Promise.all(writes);
    await client.close();
    expect(finished).toBe(200);
    expect(answered.length).toBeLessThan(200);

    // SQLite itself: no corruption.
    const db = new Database(dataFile, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }

    // Restarted, the service has every answered write, and every organization is whole.
    const second = await startServerProcess(dataFile);
    const after = new OrgAdminClient({
      baseUrl: second.url,
      realm: 'acme',
      tokenSource: new ClientCredentialsTokenSource({ baseUrl: second.url, clientId: key.clientId, clientSecret: key.clientSecret }),
    });
    try {
      const orgs = await after.listAllOrganizations({ search: 'crash-org-' });
      const ids = new Set(orgs.map((org) => org.id));
      for (const id of answered) expect(ids.has(id)).toBe(true);
      for (const org of orgs) {
        const members = await after.listAllMembers(org.id);
        expect(members.map((member) => member.username)).toContain(orgAdminUsername(org.id));
      }
      for (const { orgId, userId } of added) expect(await after.isMember(orgId, userId)).toBe(true);
    } finally {
      await after.close();
      second.child.kill('SIGTERM');
    }
  });
});
