/**
 * Events survive crashes: a real service process on a real SQLite file is killed with SIGKILL
 * 1. in the middle of 200 concurrent writes: afterwards the database holds no change without its
 *    event and no event without its change (organizations and memberships against their CREATE
 *    events, read straight from the file);
 * 2. in the middle of a webhook delivery (the receiver holds its answer): after a restart under
 *    the same instance name every event arrives, the interrupted one again with the same id and uid.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ClientCredentialsTokenSource, OrgAdminClient } from '../../src/client';
import { Admin } from '../../src/service/admin';
import { SqliteStore } from '../../src/service/store/sqlite-store';
import { startReceiver } from '../helpers/webhook-receiver';
import { startServerProcess } from './fixtures/server-process';

jest.setTimeout(120_000);

const ALL = ['view-organizations', 'manage-organizations', 'create-organization', 'view-users', 'view-events', 'manage-events'];

/** A realm, an API key with every permission and five users, written before the service starts. */
async function seed(dataFile: string): Promise<{ clientId: string; clientSecret: string; userIds: string[] }> {
  const store = SqliteStore.open(dataFile);
  try {
    const admin = new Admin(store);
    await admin.createRealm('acme');
    const key = await admin.createApiKey('acme', { name: 'crash', permissions: ALL });
    const users = await Promise.all(Array.from({ length: 5 }, (_, i) => admin.createUser('acme', { username: `crash-user-${i}` })));
    return { clientId: key.clientId, clientSecret: key.clientSecret, userIds: users.map((user) => user.id) };
  } finally {
    await store.close();
  }
}

function clientOf(url: string, key: { clientId: string; clientSecret: string }): OrgAdminClient {
  return new OrgAdminClient({
    baseUrl: url,
    realm: 'acme',
    tokenSource: new ClientCredentialsTokenSource({ baseUrl: url, clientId: key.clientId, clientSecret: key.clientSecret, maxRetries: 0 }),
    maxRetries: 0,
  });
}

describe('events across a crash', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orgadmin-events-crash-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('never keeps a change without its event or an event without its change when killed mid-write', async () => {
    const dataFile = join(dir, 'service.db');
    const key = await seed(dataFile);
    const server = await startServerProcess(dataFile);
    const client = clientOf(server.url, key);
    const answered: string[] = [];
    let killed!: () => void;
    const killedAfterTwentyAnswers = new Promise<void>((resolve) => (killed = resolve));
    const writes = Array.from({ length: 200 }, async (_, i) => {
      try {
        const orgId = await client.createOrganization({ name: `crash-org-${i}` });
        answered.push(orgId);
        if (answered.length === 20) {
          server.child.kill('SIGKILL');
          killed();
        }
        await client.addMember(orgId, key.userIds[i % key.userIds.length]!);
      } catch {
        // Cut off by the kill.
      }
    });
    await killedAfterTwentyAnswers;
    await Promise.all(writes);
    await client.close();

    const db = new Database(dataFile, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const paths = (type: string): string[] =>
        (db.prepare('SELECT resource_path FROM events WHERE type = ? ORDER BY resource_path').all(type) as Array<{ resource_path: string }>).map((row) => row.resource_path);
      const organizations = (db.prepare("SELECT id FROM organizations WHERE name LIKE 'crash-org-%' ORDER BY id").all() as Array<{ id: string }>).map((row) => `orgs/${row.id}`);
      expect(organizations.length).toBeGreaterThanOrEqual(20);
      expect(paths('admin.ORGANIZATION-CREATE')).toEqual([...organizations].sort());
      for (const id of answered) expect(organizations).toContain(`orgs/${id}`);
      const memberships = (
        db.prepare("SELECT m.organization_id AS o, m.user_id AS u FROM memberships AS m JOIN users AS u ON u.id = m.user_id WHERE u.kind = 'user'").all() as Array<{ o: string; u: string }>
      ).map((row) => `orgs/${row.o}/members/${row.u}`);
      expect(paths('admin.ORGANIZATION_MEMBERSHIP-CREATE')).toEqual(memberships.sort());
    } finally {
      db.close();
    }
  });

  it('delivers every event after a restart when killed in the middle of a delivery', async () => {
    const dataFile = join(dir, 'service.db');
    const key = await seed(dataFile);
    const receiver = await startReceiver();
    const first = await startServerProcess(dataFile, 'crash-delivery');
    let second: Awaited<ReturnType<typeof startServerProcess>> | undefined;
    try {
      const tokens = new ClientCredentialsTokenSource({ baseUrl: first.url, clientId: key.clientId, clientSecret: key.clientSecret });
      const client = clientOf(first.url, key);
      const token = await tokens.getToken('acme');
      const created = await fetch(`${first.url}/realms/acme/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, secret: 'crash-secret', eventTypes: ['admin.*'] }),
      });
      expect(created.status).toBe(201);
      // The first delivery gets no answer: the service is killed while it waits.
      receiver.holdAnswers(true);
      for (let i = 0; i < 10; i += 1) await client.createOrganization({ name: `delivered-${i}` });
      await receiver.until((deliveries) => deliveries.length >= 1);
      first.child.kill('SIGKILL');
      await client.close();
      const interrupted = receiver.deliveries[0]!.event;
      receiver.holdAnswers(false);

      second = await startServerProcess(dataFile, 'crash-delivery');
      const db = new Database(dataFile, { readonly: true });
      let expected: string[];
      try {
        expected = (db.prepare("SELECT id FROM events WHERE type LIKE 'admin.%' AND seq >= (SELECT seq FROM events WHERE type = 'admin.WEBHOOK-CREATE') ORDER BY seq").all() as Array<{ id: string }>).map((row) => row.id);
      } finally {
        db.close();
      }
      expect(expected).toHaveLength(11);
      await receiver.until((deliveries) => expected.every((id) => deliveries.some((delivery) => delivery.event.id === id)));
      const again = receiver.deliveries.filter((delivery) => delivery.event.id === interrupted.id).map((delivery) => delivery.event);
      expect(again.length).toBeGreaterThanOrEqual(2);
      expect(new Set(again.map((event) => event.uid))).toEqual(new Set([interrupted.uid]));
      // After the restart, the events arrived in the order they were recorded.
      const afterRestart = receiver.deliveries.slice(1).map((delivery) => delivery.event.id);
      expect(afterRestart.filter((id, index) => afterRestart.indexOf(id) === index)).toEqual(expected);
    } finally {
      first.child.kill('SIGKILL');
      second?.child.kill('SIGTERM');
      await receiver.close();
    }
  });
});
