/**
 * Two service instances on one PostgreSQL database, both delivering webhooks: writes arrive at
 * either instance, and the receiver gets each event exactly once (the outbox and the webhook are
 * claimed with FOR UPDATE SKIP LOCKED, so the instances never race for the same delivery), all of
 * them, one resource's changes in order.
 */
import { Admin } from '../../src/service/admin';
import { startServer, type RunningServer } from '../../src/service/server';
import { PostgresStore } from '../../src/service/store/postgres-store';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { ClientCredentialsTokenSource, OrgAdminClient } from '../../src/client';

jest.setTimeout(120_000);

describe('webhooks on two instances sharing PostgreSQL', () => {
  let postgres: TestPostgres;
  let url: string;
  let servers: RunningServer[] = [];
  let receiver: Receiver;

  beforeAll(async () => {
    postgres = await startPostgres();
    url = await postgres.createSchema();
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await receiver?.close();
    await postgres.stop();
  });

  it('delivers each event once, whichever instance recorded it', async () => {
    const setup = await PostgresStore.open(url);
    let key: { clientId: string; clientSecret: string };
    try {
      const admin = new Admin(setup);
      await admin.createRealm('acme');
      key = await admin.createApiKey('acme', { name: 'two', permissions: ['view-organizations', 'manage-organizations', 'create-organization', 'view-users', 'view-events', 'manage-events'] });
    } finally {
      await setup.close();
    }
    servers = await Promise.all(['one', 'two'].map((instanceName) => startServer({ dataFile: url, port: 0, allowPrivateWebhooks: true, instanceName, webhookPollMs: 50 })));
    receiver = await startReceiver();
    const clients = servers.map(
      (server) =>
        new OrgAdminClient({ baseUrl: server.url, realm: 'acme', tokenSource: new ClientCredentialsTokenSource({ baseUrl: server.url, clientId: key.clientId, clientSecret: key.clientSecret }) }),
    );
    await new Admin(servers[0]!.store, { allowPrivateWebhooks: true }).webhooks.create('acme', { url: receiver.url, eventTypes: ['admin.ORGANIZATION-*'] });

    // 40 organizations created and renamed, alternately through each instance, all at once.
    const ids = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const client = clients[i % 2]!;
        const id = await client.createOrganization({ name: `twin-${i}` });
        await clients[(i + 1) % 2]!.updateOrganization(id, { name: `twin-${i}-renamed` });
        return id;
      }),
    );
    await receiver.until((deliveries) => deliveries.length >= 80);
    // Let both workers finish whatever they still had, then look for duplicates.
    for (const server of servers) server.webhooks.wake();
    await Promise.all(servers.map((server) => server.webhooks.idle()));
    await Promise.all(servers.map((server) => server.webhooks.runOnce()));
    const deliveries = receiver.deliveries.map((delivery) => delivery.event);
    expect(deliveries).toHaveLength(80);
    expect(new Set(deliveries.map((event) => event.id)).size).toBe(80);
    for (const id of ids) {
      expect(deliveries.filter((event) => event.resourcePath === `orgs/${id}`).map((event) => event.operationType)).toEqual(['CREATE', 'UPDATE']);
    }
    // The two workers' counts add up to the whole: no attempt was made twice.
    const stats = servers.map((server) => server.webhooks.stats());
    expect(stats[0]!.delivered + stats[1]!.delivered).toBe(80);
    const metrics = await servers[0]!.webhooks.metrics();
    expect(metrics).toMatchObject({ outbox: 0, pending: 0, delivered: 80, failed: 0 });
    await Promise.all(clients.map((client) => client.close()));
  });
});
