/**
 * Health probes and metrics of a running service (startServer, real SQLite file, real HTTP): the
 * counts a scripted session leaves in the Prometheus exposition, labels without ids or names, and
 * the management port that moves the probes and the scrape off the API's port.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memberPath, orgsPath, tokenPath } from '../../../src/api';
import { Admin } from '../../../src/service/admin';
import { startServer, type RunningServer } from '../../../src/service/server';

let dir: string;
const servers: RunningServer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orgadmin-ops-metrics-'));
});

afterAll(async () => {
  for (const server of servers) await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** The value of one sample line `name{labels} value` (or `name value`) of an exposition, or undefined when absent. */
function sample(exposition: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of exposition.split('\n')) {
    if (wanted.length === 0 && line.startsWith(`${name} `)) return Number(line.slice(name.length + 1));
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.lastIndexOf('}'));
    const parts = inner.split(',');
    if (wanted.every((label) => parts.includes(label)) && parts.length === wanted.length) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('metrics of a running service', () => {
  it('counts requests by route template, method and status, tokens by grant, 429s and store calls, with no id in any label', async () => {
    const dataFile = join(dir, 'session.db');
    const server = await startServer({ dataFile, port: 0, metrics: true, rateLimit: { requests: 7, windowSeconds: 3600 } });
    servers.push(server);
    const admin = new Admin(server.store);
    await admin.createRealm('acme');
    const key = await admin.createApiKey('acme', { name: 'ops', permissions: ['view-organizations', 'manage-organizations', 'create-organization'] });
    const alice = await admin.createUser('acme', { username: 'alice-secretive-name' });

    // The session: one token, one organization created, one member added, three checks (the
    // first through fastify, the next through the fast path), one unknown organization: the
    // client's 7 requests of the rate limit; then two more.
    const token = await fetch(`${server.url}${tokenPath('acme')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }),
    });
    expect(token.status).toBe(200);
    const authorization = `Bearer ${((await token.json()) as { access_token: string }).access_token}`;
    const created = await fetch(`${server.url}${orgsPath('acme')}`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'org-name-in-no-label' }) });
    expect(created.status).toBe(201);
    const orgId = created.headers.get('location')!.split('/').pop()!;
    expect((await fetch(`${server.url}${memberPath('acme', orgId, alice.id)}`, { method: 'PUT', headers: { authorization } })).status).toBe(201);
    for (let i = 0; i < 3; i += 1) expect((await fetch(`${server.url}${memberPath('acme', orgId, alice.id)}`, { headers: { authorization } })).status).toBe(204);
    expect((await fetch(`${server.url}${orgsPath('acme')}/no-such-org`, { headers: { authorization } })).status).toBe(404);
    for (let i = 0; i < 2; i += 1) expect((await fetch(`${server.url}${orgsPath('acme')}`, { headers: { authorization } })).status).toBe(429);

    const scrape = await fetch(`${server.url}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await scrape.text();
    const count = (method: string, route: string, status: string) => sample(text, 'orgadmin_http_request_duration_seconds_count', { method, route, status });
    expect(count('POST', '/realms/:realm/protocol/openid-connect/token', '200')).toBe(1);
    expect(count('POST', '/realms/:realm/orgs', '201')).toBe(1);
    expect(count('PUT', '/realms/:realm/orgs/:orgId/members/:userId', '201')).toBe(1);
    expect(count('GET', '/realms/:realm/orgs/:orgId/members/:userId', '204')).toBe(3);
    expect(count('GET', '/realms/:realm/orgs/:orgId', '404')).toBe(1);
    expect(count('GET', '/realms/:realm/orgs', '429')).toBe(2);
    expect(sample(text, 'orgadmin_tokens_issued_total', { grant: 'client_credentials' })).toBe(1);
    expect(sample(text, 'orgadmin_throttled_requests_total', { route: '/realms/:realm/orgs' })).toBe(2);
    expect(sample(text, 'orgadmin_store_query_duration_seconds_count', { operation: 'createOrganization' })).toBe(1);
    expect(sample(text, 'orgadmin_store_query_duration_seconds_count', { operation: 'isMember' })).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'orgadmin_webhook_outbox_depth', {})).toBe(0);
    expect(text).toContain('orgadmin_process_cpu_seconds_total');
    for (const secret of [orgId, alice.id, 'alice-secretive-name', 'org-name-in-no-label', key.clientId, key.clientSecret, 'acme']) expect(text).not.toContain(secret);
  });

  it('reports webhook outbox depth and delivery results through the hook webhook delivery fills', async () => {
    const server = await startServer({ dataFile: join(dir, 'hooks.db'), port: 0, metrics: true });
    servers.push(server);
    server.metrics!.observeWebhookOutbox(async () => 7);
    server.metrics!.webhookDelivered('delivered');
    server.metrics!.webhookDelivered('failed');
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(sample(text, 'orgadmin_webhook_outbox_depth', {})).toBe(7);
    expect(sample(text, 'orgadmin_webhook_deliveries_total', { result: 'delivered' })).toBe(1);
    expect(sample(text, 'orgadmin_webhook_deliveries_total', { result: 'failed' })).toBe(1);
  });
});

describe('health probes', () => {
  it('answers live and ready on the API port, and ready goes down once a shutdown begins', async () => {
    const server = await startServer({ dataFile: join(dir, 'health.db'), port: 0 });
    const live = await fetch(`${server.url}/health/live`);
    expect([live.status, await live.json()]).toEqual([200, { status: 'UP', checks: [] }]);
    const ready = await fetch(`${server.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'UP',
      checks: [{ name: 'store', status: 'UP', data: { responseTimeMs: expect.any(Number) } }, { name: 'migrations', status: 'UP' }],
    });
    // No metrics unless asked for.
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    server.app.operations.readiness.markShuttingDown();
    const down = await fetch(`${server.url}/health/ready`);
    expect(down.status).toBe(503);
    expect(((await down.json()) as { checks: unknown[] }).checks[0]).toEqual({ name: 'shutdown', status: 'DOWN', data: { reason: 'the service is shutting down' } });
    await server.close();
  });

  it('reports pending migrations as not ready', async () => {
    const server = await startServer({ dataFile: join(dir, 'pending.db'), port: 0 });
    servers.push(server);
    // The schema as an older build left it: the newest migration not recorded.
    const [latest] = (await server.store.appliedMigrations()).slice(-1);
    (server.store as unknown as { db: { prepare(sql: string): { run(v: number): void } } }).db.prepare('DELETE FROM schema_migrations WHERE version = ?').run(latest!.version);
    const ready = await fetch(`${server.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: unknown[] }).checks[1]).toEqual({ name: 'migrations', status: 'DOWN', data: { pending: String(latest!.version).padStart(3, '0') } });
  });

  it('serves probes and metrics on the management port only, leaving the API port to the API', async () => {
    const server = await startServer({ dataFile: join(dir, 'management.db'), port: 0, managementPort: 0, metrics: true });
    servers.push(server);
    expect(server.managementUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.managementUrl).not.toBe(server.url);
    expect((await fetch(`${server.managementUrl}/health/ready`)).status).toBe(200);
    expect((await fetch(`${server.managementUrl}/metrics`)).status).toBe(200);
    for (const path of ['/health/live', '/health/ready', '/metrics']) expect((await fetch(`${server.url}${path}`)).status).toBe(404);
    expect((await fetch(`${server.url}/realms/acme/.well-known/openid-configuration`)).status).toBe(404);
  });
});
