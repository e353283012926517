/**
 * Webhooks end to end on a real service and a real receiver: the vendor's paths and shapes, every
 * event of a scripted session delivered (no gaps, one resource's changes in order), signatures,
 * a receiver that is down for a while, retries given up and resent, event-type filters, disabled
 * webhooks, refused private addresses. The delivery worker runs with a clock the test steps, so
 * no test waits for a backoff.
 */
import { ServiceError } from '../../src/service/errors';
import { PERMISSIONS, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER, type EventRepresentation } from '../../src/api';
import { httpDeliver } from '../../src/service/events/delivery';
import { WebhookDispatcher } from '../../src/service/events/webhook-dispatcher';
import { WebhookAdmin } from '../../src/service/admin/webhooks';
import { UNKNOWN_ORIGIN } from '../../src/service/events/event';
import { createTestRealm, getToken, startTestService, type TestService } from '../helpers/service';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { call } from './support';

const SECRET = 'webhook-test-secret';

describe('webhooks', () => {
  let svc: TestService;
  let token: string;
  let receiver: Receiver;
  /** The worker's clock: stepped by the tests, never by real time. */
  let now = Date.now();
  const clock = (): number => now;
  let delivery: ReturnType<typeof httpDeliver>;
  let dispatcher: WebhookDispatcher;
  let key: { clientId: string; clientSecret: string };

  beforeAll(async () => {
    svc = await startTestService({ app: { allowPrivateWebhooks: true } });
    key = await createTestRealm(svc, 'acme');
    token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
    delivery = httpDeliver(true);
    dispatcher = new WebhookDispatcher(svc.store.events, { owner: 'test', deliver: delivery.deliver, now: clock, random: () => 0.5 });
  });
  afterAll(async () => {
    await delivery.close();
    await svc.close();
  });
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    // Webhooks of one test must not receive the next test's events.
    const list = await call(svc, { method: 'GET', url: '/realms/acme/webhooks', token });
    for (const webhook of list.json as Array<{ id: string }>) await call(svc, { method: 'DELETE', url: `/realms/acme/webhooks/${webhook.id}`, token });
    await receiver.close();
  });

  /** Runs the worker until a run hands out nothing and attempts nothing. */
  async function deliverAll(): Promise<void> {
    for (let run = 0; run < 100; run += 1) {
      const { handedOut, attempts } = await dispatcher.runOnce();
      if (handedOut === 0 && attempts === 0) return;
    }
    throw new Error('delivery did not settle within 100 runs');
  }

  async function createWebhook(body: Record<string, unknown>): Promise<string> {
    const created = await call(svc, { method: 'POST', url: '/realms/acme/webhooks', token, payload: { url: receiver.url, secret: SECRET, ...body } });
    expect(created.status).toBe(201);
    expect(created.text).toBe('');
    const location = String(created.headers.location);
    expect(location).toMatch(/\/realms\/acme\/webhooks\/[0-9a-f-]{36}$/);
    return location.split('/').pop()!;
  }

  async function auditLog(query = ''): Promise<EventRepresentation[]> {
    const answer = await call(svc, { method: 'GET', url: `/admin/realms/acme/events?max=1000${query}`, token });
    expect(answer.status).toBe(200);
    return answer.json as EventRepresentation[];
  }

  it('delivers every event of a scripted session once, signed, with one resource changes in order', async () => {
    const webhookId = await createWebhook({ eventTypes: ['*'] });
    const user = await svc.admin.createUser('acme', { username: `scripted-${Date.now()}` });
    const orgA = await call(svc, { method: 'POST', url: '/realms/acme/orgs', token, payload: { name: 'scripted-a' } });
    const a = String(orgA.headers.location).split('/').pop()!;
    expect((await call(svc, { method: 'PUT', url: `/realms/acme/orgs/${a}`, token, payload: { name: 'scripted-a', displayName: 'A' } })).status).toBe(204);
    expect((await call(svc, { method: 'PUT', url: `/realms/acme/orgs/${a}/members/${user.id}`, token })).status).toBe(201);
    // Adding a member again changes nothing and records nothing.
    expect((await call(svc, { method: 'PUT', url: `/realms/acme/orgs/${a}/members/${user.id}`, token })).status).toBe(201);
    expect((await call(svc, { method: 'DELETE', url: `/realms/acme/orgs/${a}/members/${user.id}`, token })).status).toBe(204);
    const orgB = await call(svc, { method: 'POST', url: '/realms/acme/orgs', token, payload: { name: 'scripted-b' } });
    expect(orgB.status).toBe(201);
    expect((await call(svc, { method: 'DELETE', url: `/realms/acme/orgs/${a}`, token })).status).toBe(204);
    const refused = await call(svc, {
      method: 'POST',
      url: '/realms/acme/protocol/openid-connect/token',
      payload: `grant_type=client_credentials&client_id=${key.clientId}&client_secret=wrong`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(refused.status).toBe(401);
    await getToken(svc, 'acme', key.clientId, key.clientSecret);

    await deliverAll();

    const created = (await auditLog('&type=admin.WEBHOOK-CREATE')).find((event) => event.resourcePath === `webhooks/${webhookId}`)!;
    const logged = (await auditLog()).filter((event) => event.time >= created.time).reverse();
    const types = logged.map((event) => event.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'admin.WEBHOOK-CREATE',
        'admin.USER-CREATE',
        'admin.ORGANIZATION-CREATE',
        'admin.ORGANIZATION-UPDATE',
        'admin.ORGANIZATION_MEMBERSHIP-CREATE',
        'admin.ORGANIZATION_MEMBERSHIP-DELETE',
        'admin.ORGANIZATION-DELETE',
        'access.CLIENT_LOGIN_ERROR',
        'access.CLIENT_LOGIN',
      ]),
    );
    expect(types.filter((type) => type === 'admin.ORGANIZATION_MEMBERSHIP-CREATE')).toHaveLength(1);
    // No gaps: every event of the log arrived, and nothing else did.
    const received = receiver.deliveries.map((delivery) => delivery.event.id);
    expect(new Set(received)).toEqual(new Set(logged.map((event) => event.id)));
    expect(received).toHaveLength(new Set(received).size);
    // The payload is the audit log's event plus the send's uid.
    for (const delivery of receiver.deliveries) {
      const { uid, ...event } = delivery.event;
      expect(uid).toMatch(/^[0-9a-f-]{36}$/);
      expect(event).toEqual(logged.find((entry) => entry.id === event.id));
      expect(verifyWebhookSignature(SECRET, delivery.body, delivery.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()])).toBe(true);
      expect(delivery.headers['content-type']).toBe('application/json');
    }
    // One resource's changes in the order they happened.
    const ofA = receiver.deliveries.filter((delivery) => delivery.event.resourcePath === `orgs/${a}`).map((delivery) => delivery.event.operationType);
    expect(ofA).toEqual(['CREATE', 'UPDATE', 'DELETE']);
    // Who and from where; the representation after the change; the failed grant's error.
    const update = logged.find((event) => event.type === 'admin.ORGANIZATION-UPDATE')!;
    expect(update.authDetails).toEqual({ realmId: 'acme', clientId: key.clientId, userId: expect.any(String), ipAddress: '127.0.0.1' });
    expect(JSON.parse(update.representation!)).toMatchObject({ id: a, name: 'scripted-a', displayName: 'A', realm: 'acme' });
    const failed = logged.find((event) => event.type === 'access.CLIENT_LOGIN_ERROR')!;
    expect(failed).toMatchObject({ error: 'invalid_client', authDetails: { clientId: key.clientId, ipAddress: '127.0.0.1' }, details: { grant_type: 'client_credentials' } });

    // The delivery log at the vendor's paths.
    const sends = await call(svc, { method: 'GET', url: `/realms/acme/webhooks/${webhookId}/sends?max=100`, token });
    expect(sends.status).toBe(200);
    expect(sends.json).toHaveLength(logged.length);
    for (const send of sends.json) {
      expect(send).toMatchObject({ status: 200, status_message: 'HTTP 200 OK', retries: 1, state: 'delivered', webhook: { id: webhookId, enabled: true, url: receiver.url } });
      expect(send.payload).toBeUndefined();
    }
    const one = await call(svc, { method: 'GET', url: `/realms/acme/webhooks/${webhookId}/sends/${sends.json[0].id}`, token });
    expect(JSON.parse(one.json.payload)).toMatchObject({ id: sends.json[0].event_id, uid: sends.json[0].id });
  });

  it('keeps trying while the receiver is down, then delivers everything in order with the same ids', async () => {
    const webhookId = await createWebhook({ eventTypes: ['admin.ORGANIZATION-*'] });
    receiver.answerWith(503);
    const ids: string[] = [];
    for (const name of ['down-1', 'down-2', 'down-3']) {
      const created = await call(svc, { method: 'POST', url: '/realms/acme/orgs', token, payload: { name } });
      ids.push(String(created.headers.location).split('/').pop()!);
    }
    await deliverAll();
    // Only the first send was tried: the later ones wait behind it, so order is kept.
    expect(receiver.deliveries.map((d) => d.event.resourcePath)).toEqual([`orgs/${ids[0]}`]);
    const waiting = await call(svc, { method: 'GET', url: `/realms/acme/webhooks/${webhookId}/sends`, token });
    const first = waiting.json.find((send: { state: string; retries: number }) => send.retries === 1);
    expect(first).toMatchObject({ state: 'pending', status: 503, status_message: 'HTTP 503 Service Unavailable' });
    // Backoff: 1 s, 2 s, 4 s, ... (no jitter with random 0.5): still down for four more tries.
    for (const wait of [1000, 2000, 4000, 8000]) {
      now += wait - 1;
      await deliverAll();
      now += 1;
      const before = receiver.deliveries.length;
      await deliverAll();
      expect(receiver.deliveries.length).toBe(before + 1);
    }
    receiver.answerWith(200);
    now += 16_000;
    await deliverAll();
    const arrived = receiver.deliveries.map((d) => d.event);
    const firstEventId = arrived[0]!.id;
    expect(arrived.filter((event) => event.id === firstEventId)).toHaveLength(6);
    expect(new Set(arrived.filter((event) => event.id === firstEventId).map((event) => event.uid)).size).toBe(1);
    const delivered = arrived.slice(5);
    expect(delivered.map((event) => event.resourcePath)).toEqual(ids.map((id) => `orgs/${id}`));
  });

  it('gives up after the retry period, and a resend delivers the same event again', async () => {
    const webhookId = await createWebhook({ eventTypes: ['admin.ORGANIZATION-CREATE'] });
    receiver.answerWith(500);
    await call(svc, { method: 'POST', url: '/realms/acme/orgs', token, payload: { name: 'given-up' } });
    await deliverAll();
    now += 24 * 60 * 60 * 1000;
    await deliverAll();
    const sends = await call(svc, { method: 'GET', url: `/realms/acme/webhooks/${webhookId}/sends`, token });
    expect(sends.json).toHaveLength(1);
    expect(sends.json[0]).toMatchObject({ state: 'failed', retries: 2, status: 500 });
    receiver.answerWith(200);
    const resend = await call(svc, { method: 'POST', url: `/realms/acme/webhooks/${webhookId}/sends/${sends.json[0].id}/resend`, token });
    expect(resend.status).toBe(202);
    await deliverAll();
    expect(receiver.deliveries).toHaveLength(3);
    expect(receiver.deliveries[2]!.event).toEqual(receiver.deliveries[0]!.event);
    const after = await call(svc, { method: 'GET', url: `/realms/acme/webhooks/${webhookId}/sends/${sends.json[0].id}`, token });
    expect(after.json).toMatchObject({ state: 'delivered', retries: 3, status: 200 });
    expect((await call(svc, { method: 'POST', url: `/realms/acme/webhooks/${webhookId}/sends/nope/resend`, token })).status).toBe(404);
  });

  it('sends a webhook only the event types its filters match, and nothing while disabled', async () => {
    const webhookId = await createWebhook({ eventTypes: ['admin.ORGANIZATION_MEMBERSHIP-*', 'access.*_ERROR'] });
    const user = await svc.admin.createUser('acme', { username: `filtered-${Date.now()}` });
    const org = await call(svc, { method: 'POST', url: '/realms/acme/orgs', token, payload: { name: 'filtered' } });
    const orgId = String(org.headers.location).split('/').pop()!;
    await call(svc, { method: 'PUT', url: `/realms/acme/orgs/${orgId}/members/${user.id}`, token });
    await getToken(svc, 'acme', key.clientId, key.clientSecret);
    await deliverAll();
    expect(receiver.deliveries.map((d) => d.event.type)).toEqual(['admin.ORGANIZATION_MEMBERSHIP-CREATE']);

    expect((await call(svc, { method: 'PUT', url: `/realms/acme/webhooks/${webhookId}`, token, payload: { url: receiver.url, enabled: 'false' } })).status).toBe(204);
    await call(svc, { method: 'DELETE', url: `/realms/acme/orgs/${orgId}/members/${user.id}`, token });
    await deliverAll();
    expect(receiver.deliveries).toHaveLength(1);
    const read = await call(svc, { method: 'GET', url: `/realms/acme/webhooks/${webhookId}`, token });
    // The update kept the filters and the secret it did not name.
    expect(read.json).toEqual({
      id: webhookId,
      enabled: false,
      url: receiver.url,
      eventTypes: ['admin.ORGANIZATION_MEMBERSHIP-*', 'access.*_ERROR'],
      createdBy: expect.any(String),
      createdAt: expect.any(Number),
      realm: 'acme',
    });
  });

  it('keeps the secret out of every answer but /secret, which needs manage-events', async () => {
    const webhookId = await createWebhook({});
    const list = await call(svc, { method: 'GET', url: '/realms/acme/webhooks', token });
    expect(list.text).not.toContain(SECRET);
    expect((await call(svc, { method: 'GET', url: '/realms/acme/webhooks/count', token })).json).toBe(1);
    const secret = await call(svc, { method: 'GET', url: `/realms/acme/webhooks/${webhookId}/secret`, token });
    expect(secret.json).toEqual({ type: 'secret', value: SECRET });
    expect(secret.headers['cache-control']).toBe('no-store');
    const events = await auditLog(`&resourcePath=webhooks/${webhookId}`);
    expect(JSON.stringify(events)).not.toContain(SECRET);

    const viewer = await createTestRealm(svc, 'acme', { permissions: ['view-events'] });
    const viewerToken = await getToken(svc, 'acme', viewer.clientId, viewer.clientSecret);
    expect((await call(svc, { method: 'GET', url: `/realms/acme/webhooks/${webhookId}`, token: viewerToken })).status).toBe(200);
    expect((await call(svc, { method: 'GET', url: `/realms/acme/webhooks/${webhookId}/secret`, token: viewerToken })).status).toBe(403);
    expect((await call(svc, { method: 'POST', url: '/realms/acme/webhooks', token: viewerToken, payload: { url: receiver.url } })).status).toBe(403);
    const outsider = await createTestRealm(svc, 'acme', { permissions: PERMISSIONS.filter((p) => !p.endsWith('-events')) });
    const outsiderToken = await getToken(svc, 'acme', outsider.clientId, outsider.clientSecret);
    expect((await call(svc, { method: 'GET', url: '/realms/acme/webhooks', token: outsiderToken })).status).toBe(403);
    expect((await call(svc, { method: 'GET', url: '/admin/realms/acme/events', token: outsiderToken })).status).toBe(403);
  });

  it('generates a secret when none is given, readable through /secret', async () => {
    const created = await call(svc, { method: 'POST', url: '/realms/acme/webhooks', token, payload: { url: receiver.url } });
    const id = String(created.headers.location).split('/').pop()!;
    const secret = await call(svc, { method: 'GET', url: `/realms/acme/webhooks/${id}/secret`, token });
    expect(secret.json.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const read = await call(svc, { method: 'GET', url: `/realms/acme/webhooks/${id}`, token });
    expect(read.json).toMatchObject({ enabled: true, eventTypes: ['*'] });
  });

  it('refuses bad webhooks with a 400 that says why, and changes nothing', async () => {
    const before = (await call(svc, { method: 'GET', url: '/realms/acme/webhooks/count', token })).json;
    for (const [payload, message] of [
      [{ url: 'ftp://example.com/x' }, /http or https/],
      [{ url: 'not a url' }, /absolute URL/],
      [{ url: 'https://user:pw@example.com/x' }, /user name or password/],
      [{ url: receiver.url, eventTypes: ['admin.(ORG|USER)'] }, /eventTypes entry/],
      [{ url: receiver.url, eventTypes: [''] }, /is empty/],
    ] as const) {
      const answer = await call(svc, { method: 'POST', url: '/realms/acme/webhooks', token, payload });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toBe('invalid_body');
      expect(answer.json.error_description).toMatch(message);
    }
    expect((await call(svc, { method: 'PUT', url: '/realms/acme/webhooks/missing', token, payload: { url: receiver.url } })).status).toBe(404);
    expect((await call(svc, { method: 'GET', url: '/realms/acme/webhooks/count', token })).json).toBe(before);
  });

  it('refuses loopback, link-local and private addresses unless they are allowed', async () => {
    const strict = new WebhookAdmin(svc.store, {
      now: clock,
      origin: UNKNOWN_ORIGIN,
      allowPrivateAddresses: false,
      resolveAll: async (host) => (host === 'inside.example' ? ['10.1.2.3'] : host === 'mixed.example' ? ['93.184.216.34', '::1'] : ['93.184.216.34']),
    });
    for (const url of ['http://127.0.0.1:8080/x', 'http://[::1]/x', 'http://169.254.169.254/latest', 'http://192.168.1.1/', 'http://[::ffff:10.0.0.1]/', 'https://inside.example/hook', 'https://mixed.example/hook']) {
      const error = await strict.create('acme', { url }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).message).toMatch(/--allow-private-webhooks/);
    }
    const { webhook } = await strict.create('acme', { url: 'https://public.example/hook' });
    expect(webhook.url).toBe('https://public.example/hook');
    // At delivery, a name that now points inwards is refused too.
    const guarded = httpDeliver(false);
    try {
      expect(await guarded.deliver('http://localhost:9/hook', '{}', 'x')).toEqual({ error: expect.stringMatching(/loopback, link-local or private/) });
      expect(await guarded.deliver('http://127.0.0.1:9/hook', '{}', 'x')).toEqual({ error: expect.stringMatching(/loopback, link-local or private/) });
    } finally {
      await guarded.close();
    }
  });
});

describe('webhook signatures', () => {
  it('verify the exact body under the secret, and nothing else', () => {
    const body = '{"id":"e1","type":"admin.ORGANIZATION-CREATE"}';
    const signature = require('node:crypto').createHmac('sha256', 'k').update(body).digest('hex') as string;
    expect(verifyWebhookSignature('k', body, signature)).toBe(true);
    expect(verifyWebhookSignature('k', Buffer.from(body), signature.toUpperCase())).toBe(true);
    expect(verifyWebhookSignature('k', `${body} `, signature)).toBe(false);
    expect(verifyWebhookSignature('other', body, signature)).toBe(false);
    expect(verifyWebhookSignature('k', body, undefined)).toBe(false);
    expect(verifyWebhookSignature('k', body, [signature])).toBe(false);
    expect(verifyWebhookSignature('k', body, 'zz')).toBe(false);
  });
});
