/**
 * The SDK's webhook and audit-log methods against the real service (fastify + SQLite on port 0)
 * and a real receiver: create, read, count, list, update, delete, the secret, the delivery log, one
 * send and resend; the audit log's filters; the signature checked with the SDK's own
 * `verifyWebhookSignature`. The delivery worker runs in the test, called when the test wants the
 * deliveries made (every attempt succeeds, so no backoff is ever waited for), never polling.
 */
import { httpDeliver } from '../../src/service/events/delivery';
import { WebhookDispatcher } from '../../src/service/events/webhook-dispatcher';
import {
  BadRequestError,
  ClientCredentialsTokenSource,
  ForbiddenError,
  NotFoundError,
  OrgAdminClient,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
} from '../../src/client';
import { createTestRealm, startTestService, type TestService } from '../helpers/service';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';

let svc: TestService;
let receiver: Receiver;
let client: OrgAdminClient;
let key: { clientId: string; clientSecret: string };
let delivery: ReturnType<typeof httpDeliver>;
let dispatcher: WebhookDispatcher;

/** A client of the realm for an API key. */
const clientFor = (credentials: { clientId: string; clientSecret: string }): OrgAdminClient =>
  new OrgAdminClient({
    baseUrl: svc.baseUrl,
    realm: 'acme',
    maxRetries: 0,
    tokenSource: new ClientCredentialsTokenSource({ baseUrl: svc.baseUrl, clientId: credentials.clientId, clientSecret: credentials.clientSecret }),
  });

/** Runs the worker until a run hands out nothing and attempts nothing. */
async function deliverAll(): Promise<void> {
  for (let run = 0; run < 100; run += 1) {
    const { handedOut, attempts } = await dispatcher.runOnce();
    if (handedOut === 0 && attempts === 0) return;
  }
  throw new Error('delivery did not settle within 100 runs');
}

beforeAll(async () => {
  svc = await startTestService({ app: { allowPrivateWebhooks: true } });
  key = await createTestRealm(svc, 'acme');
  client = clientFor(key);
  receiver = await startReceiver();
  delivery = httpDeliver(true);
  dispatcher = new WebhookDispatcher(svc.store.events, { owner: 'sdk-test', deliver: delivery.deliver, now: Date.now, random: () => 0.5 });
});
afterAll(async () => {
  await client.close();
  await delivery.close();
  await receiver.close();
  await svc.close();
});

describe('webhooks through the SDK', () => {
  let webhookId: string;

  it('creates a webhook and reads it back, its secret only through getWebhookSecret', async () => {
    webhookId = await client.createWebhook({ url: receiver.url, eventTypes: ['admin.ORGANIZATION-*'] });
    const webhook = await client.getWebhook(webhookId);
    expect(webhook).toMatchObject({ id: webhookId, url: receiver.url, enabled: true, eventTypes: ['admin.ORGANIZATION-*'], realm: 'acme' });
    expect(Object.keys(webhook)).not.toContain('secret');
    expect(await client.countWebhooks()).toBe(1);
    expect((await client.listWebhooks()).map((listed) => listed.id)).toEqual([webhookId]);
    expect(await client.getWebhookSecret(webhookId)).toMatch(/^.{16,}$/);
  });

  it('delivers a change signed with the secret; the send is in the log with its payload, and resend delivers the same event and uid', async () => {
    const secret = await client.getWebhookSecret(webhookId);
    const orgId = await client.createOrganization({ name: 'sdk-hooked' });
    await client.addMember(orgId, (await svc.admin.createUser('acme', { username: 'not-delivered' })).id);
    await deliverAll();
    expect(receiver.deliveries).toHaveLength(1);
    const [first] = receiver.deliveries;
    expect(first!.event).toMatchObject({ type: 'admin.ORGANIZATION-CREATE', resourcePath: `orgs/${orgId}` });
    expect(verifyWebhookSignature(secret, first!.body, first!.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()])).toBe(true);
    expect(verifyWebhookSignature('another secret', first!.body, first!.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()])).toBe(false);

    const sends = await client.listWebhookSends(webhookId);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ id: first!.event.uid, event_id: first!.event.id, state: 'delivered', status: 200, type: 'admin.ORGANIZATION-CREATE' });
    const send = await client.getWebhookSend(webhookId, sends[0]!.id);
    expect(JSON.parse(send.payload!)).toEqual(first!.event);

    await client.resendWebhookSend(webhookId, send.id);
    await deliverAll();
    expect(receiver.deliveries).toHaveLength(2);
    expect(receiver.deliveries[1]!.event).toEqual(first!.event);
  });

  it('updates filters and the enabled switch, keeping the secret; a disabled webhook gets nothing', async () => {
    const secret = await client.getWebhookSecret(webhookId);
    await client.updateWebhook(webhookId, { url: receiver.url, enabled: false, eventTypes: ['admin.*'] });
    expect(await client.getWebhook(webhookId)).toMatchObject({ enabled: false, eventTypes: ['admin.*'] });
    expect(await client.getWebhookSecret(webhookId)).toBe(secret);
    await client.createOrganization({ name: 'sdk-unheard' });
    await deliverAll();
    expect(receiver.deliveries).toHaveLength(2);
    await client.updateWebhook(webhookId, { url: receiver.url, secret: 'a new secret of the hook' });
    expect(await client.getWebhookSecret(webhookId)).toBe('a new secret of the hook');
  });

  it('answers bad input with BadRequestError, unknown ids with NotFoundError, and a key without manage-events with ForbiddenError', async () => {
    await expect(client.createWebhook({ url: 'not a url' })).rejects.toBeInstanceOf(BadRequestError);
    await expect(client.createWebhook({ url: receiver.url, eventTypes: ['admin.(x)'] })).rejects.toBeInstanceOf(BadRequestError);
    await expect(client.getWebhook('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.getWebhookSend(webhookId, '00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
    const viewer = clientFor(await createTestRealm(svc, 'acme', { permissions: ['view-events'] }));
    try {
      expect(await viewer.countWebhooks()).toBe(1);
      await expect(viewer.getWebhookSecret(webhookId)).rejects.toBeInstanceOf(ForbiddenError);
      await expect(viewer.deleteWebhook(webhookId)).rejects.toBeInstanceOf(ForbiddenError);
    } finally {
      await viewer.close();
    }
    expect(await client.countWebhooks()).toBe(1);
  });

  it('deletes a webhook', async () => {
    await client.deleteWebhook(webhookId);
    await expect(client.getWebhook(webhookId)).rejects.toBeInstanceOf(NotFoundError);
    expect(await client.countWebhooks()).toBe(0);
  });
});

describe('the audit log through the SDK', () => {
  it('answers the filters: types, resource path, actor, time range as Dates, paging', async () => {
    const all = await client.listEvents({ max: 1000 });
    const org = all.find((event) => event.type === 'admin.ORGANIZATION-CREATE')!;
    expect(org.authDetails).toMatchObject({ clientId: key.clientId, ipAddress: '127.0.0.1' });
    const ids = async (query: Parameters<OrgAdminClient['listEvents']>[0]): Promise<string[]> => (await client.listEvents(query)).map((event) => event.id);

    expect(await ids({ types: ['admin.WEBHOOK-*'] })).toEqual(all.filter((event) => event.type.startsWith('admin.WEBHOOK-')).map((event) => event.id));
    expect(await ids({ types: ['admin.WEBHOOK-DELETE', 'admin.ORGANIZATION_MEMBERSHIP-CREATE'] })).toHaveLength(2);
    expect(await ids({ resourcePath: org.resourcePath! })).toEqual(all.filter((event) => event.resourcePath?.startsWith(org.resourcePath!)).map((event) => event.id));
    expect(await ids({ actor: key.clientId, types: ['admin.ORGANIZATION-CREATE'] })).toHaveLength(2);
    expect(await ids({ from: new Date(org.time), to: new Date(org.time + 1), types: ['admin.ORGANIZATION-CREATE'] })).toEqual([org.id]);
    expect(await ids({ first: 1, max: 2 })).toEqual(all.slice(1, 3).map((event) => event.id));
    await expect(client.listEvents({ from: 'yesterday' })).rejects.toBeInstanceOf(BadRequestError);
  });
});
