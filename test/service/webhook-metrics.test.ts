/**
 * Webhook delivery in the service's Prometheus metrics (issue 32's hooks, fed by issue 30's
 * worker): a real server with metrics on and its own delivery worker, a real receiver. Deliveries
 * count as `delivered`, a refused one as `retried`, and the outbox depth counts what is still to
 * be delivered. The retry waits an hour, so nothing is attempted twice while the test looks; the
 * test waits for the worker to be idle, never for time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Admin } from '../../src/service/admin';
import { startServer, type RunningServer } from '../../src/service/server';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';

const HOUR = 60 * 60 * 1000;

let dir: string;
let server: RunningServer;
let receiver: Receiver;
let admin: Admin;

/** The value of one sample of the exposition (a metric without labels, or with exactly `labels`). */
async function sample(name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    if (wanted.length === 0 && line.startsWith(`${name} `)) return Number(line.slice(name.length + 1));
    if (!line.startsWith(`${name}{`)) continue;
    const parts = line.slice(name.length + 1, line.lastIndexOf('}')).split(',');
    if (parts.length === wanted.length && wanted.every((label) => parts.includes(label))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

/** Creates `count` users (each one event) and waits until the worker has attempted them. */
async function changes(count: number, prefix: string): Promise<void> {
  const before = receiver.deliveries.length;
  for (let i = 0; i < count; i += 1) await admin.createUser('acme', { username: `${prefix}-${i}` });
  await receiver.until((deliveries) => deliveries.length >= before + 1);
  server.webhooks.wake();
  await server.webhooks.idle();
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orgadmin-webhook-metrics-'));
  receiver = await startReceiver();
  server = await startServer({
    dataFile: join(dir, 'service.db'),
    port: 0,
    logger: false,
    metrics: true,
    allowPrivateWebhooks: true,
    webhookRetry: { initialMs: HOUR, multiplier: 2, maxIntervalMs: HOUR, giveUpAfterMs: 24 * HOUR, jitter: 0 },
  });
  admin = new Admin(server.store, { allowPrivateWebhooks: true });
  await admin.createRealm('acme');
  await admin.webhooks.create('acme', { url: receiver.url, eventTypes: ['admin.USER-*'] });
});
afterAll(async () => {
  await server.close();
  await receiver.close();
  await rm(dir, { recursive: true, force: true });
});

it('counts deliveries, retries and what is still to be delivered', async () => {
  expect(await sample('orgadmin_webhook_outbox_depth')).toBe(0);
  await changes(3, 'delivered');
  expect(receiver.deliveries).toHaveLength(3);
  expect(await sample('orgadmin_webhook_deliveries_total', { result: 'delivered' })).toBe(3);
  expect(await sample('orgadmin_webhook_outbox_depth')).toBe(0);

  // The receiver refuses: the first send is retried in an hour and holds back the two after it.
  receiver.answerWith(503);
  await changes(3, 'held');
  expect(receiver.deliveries).toHaveLength(4);
  expect(await sample('orgadmin_webhook_deliveries_total', { result: 'retried' })).toBe(1);
  expect(await sample('orgadmin_webhook_outbox_depth')).toBe(3);
});
