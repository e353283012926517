/**
 * The audit log (`GET /admin/realms/{realm}/events`) on a real service: every filter (type, exact and
 * with `*`; resource path prefix; actor by client id or user id; time range by milliseconds or
 * date), paging newest first, clear 400s for bad filters; and retention: pruning deletes what is
 * older than the realm's setting, in batches, and keeps what a webhook still has to deliver.
 */
import type { EventRepresentation } from '../../src/api';
import { AuditLog } from '../../src/service/admin/audit-log';
import { accessEvent, UNKNOWN_ORIGIN } from '../../src/service/events/event';
import { createTestRealm, getToken, startTestService, type TestService } from '../helpers/service';
import { call } from './support';

const DAY = 24 * 60 * 60 * 1000;

describe('audit log', () => {
  let svc: TestService;
  let token: string;
  let clientId: string;
  /** The store's clock of event times, stepped by the test. */
  let now = Date.parse('2026-03-01T12:00:00Z');
  const orgIds: string[] = [];
  let userId: string;

  beforeAll(async () => {
    svc = await startTestService({ clock: () => now, now: () => now });
    const key = await createTestRealm(svc, 'acme');
    clientId = key.clientId;
    token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
    userId = (await svc.admin.createUser('acme', { username: 'audited' })).id;
    // One organization a day for three days, then a membership on the last one.
    for (const name of ['first', 'second', 'third']) {
      now += DAY;
      token = await getToken(svc, 'acme', key.clientId, key.clientSecret);
      const created = await call(svc, { method: 'POST', url: '/realms/acme/orgs', token, payload: { name } });
      orgIds.push(String(created.headers.location).split('/').pop()!);
    }
    await call(svc, { method: 'PUT', url: `/realms/acme/orgs/${orgIds[2]}/members/${userId}`, token });
  });
  afterAll(async () => {
    await svc.close();
  });

  async function events(query: string): Promise<EventRepresentation[]> {
    const answer = await call(svc, { method: 'GET', url: `/admin/realms/acme/events?${query}`, token });
    expect(answer.status).toBe(200);
    return answer.json as EventRepresentation[];
  }

  it('answers newest first, in pages', async () => {
    const all = await events('max=1000');
    expect(all.map((event) => event.time)).toEqual([...all.map((event) => event.time)].sort((a, b) => b - a));
    expect(all[0]).toMatchObject({ type: 'admin.ORGANIZATION_MEMBERSHIP-CREATE', resourcePath: `orgs/${orgIds[2]}/members/${userId}`, representation: JSON.stringify(userId) });
    const pages = [...(await events('first=0&max=2')), ...(await events('first=2&max=2'))];
    expect(pages.map((event) => event.id)).toEqual(all.slice(0, 4).map((event) => event.id));
  });

  it('filters by type, exactly or with *', async () => {
    expect((await events('type=admin.ORGANIZATION-CREATE')).map((event) => event.resourcePath)).toEqual([...orgIds].reverse().map((id) => `orgs/${id}`));
    expect((await events('type=admin.ORGANIZATION*')).map((event) => event.type)).toEqual(['admin.ORGANIZATION_MEMBERSHIP-CREATE', ...orgIds.map(() => 'admin.ORGANIZATION-CREATE')]);
    const mixed = await events('type=admin.USER-CREATE,access.*');
    expect(new Set(mixed.map((event) => event.type))).toEqual(new Set(['admin.USER-CREATE', 'access.CLIENT_LOGIN']));
    expect(await events('type=admin.ORGANIZATION-create')).toEqual([]);
  });

  it('filters by resource path prefix', async () => {
    expect((await events(`resourcePath=orgs/${orgIds[2]}`)).map((event) => event.type)).toEqual(['admin.ORGANIZATION_MEMBERSHIP-CREATE', 'admin.ORGANIZATION-CREATE']);
    expect((await events(`resourcePath=orgs/${orgIds[2]}/members`)).map((event) => event.type)).toEqual(['admin.ORGANIZATION_MEMBERSHIP-CREATE']);
    // A path with LIKE or GLOB wildcards means those characters.
    expect(await events('resourcePath=orgs/%25')).toEqual([]);
    expect(await events('resourcePath=orgs/*')).toEqual([]);
  });

  it('filters by actor: the client id or the user id', async () => {
    const byClient = await events(`actor=${clientId}`);
    expect(byClient.length).toBeGreaterThanOrEqual(5);
    for (const event of byClient) expect(event.authDetails.clientId).toBe(clientId);
    const serviceAccount = byClient[0]!.authDetails.userId!;
    expect((await events(`actor=${serviceAccount}`)).map((event) => event.id)).toEqual(byClient.map((event) => event.id));
    // The user made with the command line's Admin has no actor.
    expect((await events('actor=nobody')).length).toBe(0);
  });

  it('filters by time range, in milliseconds or dates', async () => {
    const created = (await events('type=admin.ORGANIZATION-CREATE')).reverse();
    expect((await events(`type=admin.ORGANIZATION-CREATE&dateFrom=${created[1]!.time}&dateTo=${created[2]!.time}`)).map((e) => e.id)).toEqual([created[1]!.id]);
    const secondDay = new Date(created[1]!.time).toISOString().slice(0, 10);
    expect((await events(`type=admin.ORGANIZATION-CREATE&dateFrom=${secondDay}&dateTo=${secondDay}`)).map((e) => e.id)).toEqual([created[1]!.id]);
    expect((await events(`type=admin.ORGANIZATION-CREATE&dateFrom=${new Date(created[2]!.time).toISOString()}`)).map((e) => e.id)).toEqual([created[2]!.id]);
  });

  it('answers 400 for filters it cannot read', async () => {
    for (const [query, message] of [
      ['type=admin.(x)', /type "admin.\(x\)"/],
      ['dateFrom=yesterday', /dateFrom "yesterday"/],
      ['dateTo=2026-13-45', /dateTo/],
    ] as const) {
      const answer = await call(svc, { method: 'GET', url: `/admin/realms/acme/events?${query}`, token });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ error: 'invalid_query', error_description: expect.stringMatching(message) });
    }
    expect((await call(svc, { method: 'GET', url: '/admin/realms/acme/events?max=-1', token })).status).toBe(400);
  });

  it('prunes events older than the realm keeps them, in batches, recording the setting', async () => {
    const before = await events('max=1000');
    await svc.admin.updateRealm('acme', { eventRetentionDays: 2 });
    expect(await svc.admin.realms.eventRetentionDays('acme')).toBe(2);
    const setting = (await events('type=admin.REALM-UPDATE'))[0]!;
    expect(JSON.parse(setting.representation!)).toMatchObject({ realm: 'acme', eventRetentionDays: 2 });
    const log = new AuditLog(svc.store, () => now);
    // Two days back from the last organization's day: the first day's events go.
    const cutoff = now - 2 * DAY;
    const old = before.filter((event) => event.time < cutoff);
    expect(old.length).toBeGreaterThanOrEqual(3);
    // An old event a webhook has still to get stays until it is delivered.
    await svc.store.events.createWebhook({ id: 'keeper', realm: 'acme', url: 'http://127.0.0.1:9/', secret: 's', enabled: true, eventTypes: ['*'], createdBy: null, createdTimestamp: 0 });
    const undelivered = accessEvent('acme', { type: 'LOGIN' }, UNKNOWN_ORIGIN, cutoff - DAY);
    await svc.store.events.record(undelivered);
    expect(await log.prune('acme', 1)).toBe(old.length);
    const after = await events('max=1000');
    const kept = [setting, ...before].filter((event) => event.time >= cutoff).map((event) => event.id);
    expect(after.filter((event) => event.time >= cutoff && event.type !== 'admin.WEBHOOK-CREATE').map((event) => event.id)).toEqual(kept);
    expect(after.map((event) => event.id)).toContain(undelivered.id);
    expect(after.filter((event) => event.time < cutoff).map((event) => event.id)).toEqual([undelivered.id]);
    await svc.store.events.deleteWebhook('acme', 'keeper');
    await expect(svc.admin.updateRealm('acme', { eventRetentionDays: 0 })).rejects.toThrow(/between 1 and 3650/);
    await svc.admin.updateRealm('acme', { eventRetentionDays: null });
    expect(await log.prune('acme')).toBe(0);
  });
});
