/**
 * The GitOps example's webhook receiver (examples/gitops/webhook-receiver.ts) fed by the real
 * service: a webhook posts signed events to it through the service's own delivery worker; the
 * receiver checks signatures, drops redeliveries and irrelevant events, and after the quiet time
 * starts the pipeline once through each trigger. The CI endpoints (a generic URL, GitHub's
 * `repository_dispatch`, GitLab's pipeline trigger) are a local server that records what it is
 * sent. The quiet time runs on a schedule the test fires itself: nothing waits.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookSignature } from '../../src/api';
import { httpDeliver } from '../../src/service/events/delivery';
import { WebhookDispatcher } from '../../src/service/events/webhook-dispatcher';
import {
  createDriftReceiver,
  genericTrigger,
  githubDispatchTrigger,
  gitlabPipelineTrigger,
  type DriftReceiver,
  type Schedule,
  type Trigger,
} from '../../examples/gitops/webhook-receiver';
import { createTestRealm, getToken, startTestService, type TestService } from '../helpers/service';
import { call } from '../service/support';

const SECRET = 'gitops-receiver-secret';

/** What the fake CI got. */
interface CiRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let svc: TestService;
let token: string;
let delivery: ReturnType<typeof httpDeliver>;
let dispatcher: WebhookDispatcher;
let ci: Server;
let ciUrl: string;
const ciRequests: CiRequest[] = [];
let ciWaiter: (() => void) | undefined;

/** A schedule the test fires: the pending run and its delay. */
const scheduled: { run?: () => void; ms?: number } = {};
const manualSchedule: Schedule = (run, ms) => {
  scheduled.run = run;
  scheduled.ms = ms;
  return () => {
    if (scheduled.run === run) scheduled.run = undefined;
  };
};

/** Runs the service's worker until a run hands out nothing and attempts nothing. */
async function deliverAll(): Promise<void> {
  for (let run = 0; run < 100; run += 1) {
    const { handedOut, attempts } = await dispatcher.runOnce();
    if (handedOut === 0 && attempts === 0) return;
  }
  throw new Error('delivery did not settle');
}

/** Starts a receiver with `trigger` on a free port and a webhook of realm acme pointing at it; returns both. */
async function receiverWith(trigger: Trigger): Promise<{ receiver: DriftReceiver; url: string; webhookId: string; close: () => Promise<void> }> {
  const receiver = createDriftReceiver({ secret: SECRET, trigger, debounceMs: 30_000, schedule: manualSchedule });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/`;
  const created = await call(svc, { method: 'POST', url: '/realms/acme/webhooks', token, payload: { url, secret: SECRET, eventTypes: ['*'] } });
  expect(created.status).toBe(201);
  const webhookId = String(created.headers.location).split('/').pop()!;
  return {
    receiver,
    url,
    webhookId,
    close: async () => {
      await call(svc, { method: 'DELETE', url: `/realms/acme/webhooks/${webhookId}`, token });
      receiver.server.closeAllConnections();
      await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
    },
  };
}

/** Fires the pending quiet-time run and waits until the CI got one more request. */
async function fireAndWaitForCi(): Promise<CiRequest> {
  const before = ciRequests.length;
  const arrived = new Promise<void>((resolve) => (ciWaiter = resolve));
  expect(scheduled.run).toBeDefined();
  scheduled.run!();
  await arrived;
  expect(ciRequests).toHaveLength(before + 1);
  return ciRequests[before]!;
}

async function createOrganization(name: string): Promise<string> {
  const created = await call(svc, { method: 'POST', url: '/realms/acme/orgs', token, payload: { name } });
  expect(created.status).toBe(201);
  return String(created.headers.location).split('/').pop()!;
}

beforeAll(async () => {
  svc = await startTestService({ app: { allowPrivateWebhooks: true } });
  const key = await createTestRealm(svc, 'acme');
  token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
  delivery = httpDeliver(true);
  dispatcher = new WebhookDispatcher(svc.store.events, { owner: 'gitops-test', deliver: delivery.deliver, random: () => 0.5 });
  ci = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      ciRequests.push({ method: request.method!, url: request.url!, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(request.url!.includes('/dispatches') ? 204 : 201).end('{}');
      ciWaiter?.();
    });
  });
  await new Promise<void>((resolve) => ci.listen(0, '127.0.0.1', resolve));
  ciUrl = `http://127.0.0.1:${(ci.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await delivery.close();
  ci.close();
  await svc.close();
});

it('starts GitHub\'s repository_dispatch once for a burst of relevant changes, after the quiet time', async () => {
  const hook = await receiverWith(githubDispatchTrigger({ repository: 'acme/org-config', token: 'gh-token', apiUrl: ciUrl }));
  try {
    const orgId = await createOrganization('burst-a');
    await call(svc, { method: 'PUT', url: `/realms/acme/orgs/${orgId}`, token, payload: { name: 'burst-a-renamed' } });
    await createOrganization('burst-b');
    // A user created is not a drift of organizations: delivered, accepted, not counted.
    await svc.admin.createUser('acme', { username: 'not-relevant' });
    await deliverAll();
    expect(hook.receiver.pending()).toBe(3);
    expect(scheduled.ms).toBe(30_000);
    expect(ciRequests).toHaveLength(0);
    const dispatched = await fireAndWaitForCi();
    expect(dispatched.method).toBe('POST');
    expect(dispatched.url).toBe('/repos/acme/org-config/dispatches');
    expect(dispatched.headers).toMatchObject({ authorization: 'Bearer gh-token', accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' });
    expect(JSON.parse(dispatched.body)).toEqual({
      event_type: 'orgadmin-drift',
      client_payload: { events: 3, types: ['admin.ORGANIZATION-CREATE', 'admin.ORGANIZATION-UPDATE'] },
    });
    expect(hook.receiver.pending()).toBe(0);

    // A redelivery of an event already seen (same id and uid) starts nothing.
    const [send] = (await call(svc, { method: 'GET', url: `/realms/acme/webhooks/${hook.webhookId}/sends`, token })).json as Array<{ id: string; type: string }>;
    expect((await call(svc, { method: 'POST', url: `/realms/acme/webhooks/${hook.webhookId}/sends/${send!.id}/resend`, token })).status).toBe(202);
    scheduled.run = undefined;
    await deliverAll();
    expect(hook.receiver.pending()).toBe(0);
    expect(scheduled.run).toBeUndefined();
  } finally {
    await hook.close();
  }
});

it('refuses deliveries without the right signature with 401, starting nothing', async () => {
  const hook = await receiverWith(genericTrigger(`${ciUrl}/hooks/generic`));
  try {
    const body = JSON.stringify({ id: 'forged-1', type: 'admin.ORGANIZATION-DELETE', time: 1, realmId: 'acme', realmName: 'acme', details: {}, authDetails: { realmId: 'acme' } });
    const post = (signature?: string) =>
      fetch(hook.url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...(signature ? { 'x-keycloak-signature': signature } : {}) } });
    expect((await post()).status).toBe(401);
    expect((await post(webhookSignature('another secret', body))).status).toBe(401);
    expect((await post(webhookSignature(SECRET, `${body} `))).status).toBe(401);
    expect(hook.receiver.pending()).toBe(0);
    // Signed right, it is taken.
    expect((await post(webhookSignature(SECRET, body))).status).toBe(202);
    expect(hook.receiver.pending()).toBe(1);
    const triggered = await fireAndWaitForCi();
    expect(triggered.url).toBe('/hooks/generic');
    expect(JSON.parse(triggered.body)).toEqual({ source: 'orgadmin', eventIds: ['forged-1'], types: ['admin.ORGANIZATION-DELETE'] });
  } finally {
    await hook.close();
  }
});

it('starts a GitLab pipeline through its trigger token', async () => {
  const hook = await receiverWith(gitlabPipelineTrigger({ project: 'acme/org-config', token: 'glptt-trigger', ref: 'main', gitlabUrl: ciUrl }));
  try {
    const orgId = await createOrganization('gitlab-org');
    const user = await svc.admin.createUser('acme', { username: 'gitlab-member' });
    expect((await call(svc, { method: 'PUT', url: `/realms/acme/orgs/${orgId}/members/${user.id}`, token })).status).toBe(201);
    await deliverAll();
    const triggered = await fireAndWaitForCi();
    expect(triggered.url).toBe('/api/v4/projects/acme%2Forg-config/trigger/pipeline');
    expect(triggered.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(triggered.body))).toEqual({ token: 'glptt-trigger', ref: 'main', 'variables[ORGADMIN_EVENTS]': '2' });
  } finally {
    await hook.close();
  }
});
