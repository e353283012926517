/**
 * Organization roles record their events (issue 26's roles under issue 30's audit log), on SQLite
 * and on PostgreSQL, through the real service's role routes: a role created, its description
 * changed, granted, revoked and deleted each record one event in the change's transaction, naming
 * the API key that made it and its address; a grant of a role already held, or a revoke of one not
 * held, changes nothing and records nothing. An import (`POST /orgs/import`) records the events of
 * what it creates under the importing key, too.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventRepresentation } from '../../src/api';
import { Admin } from '../../src/service/admin';
import { startServer, type RunningServer } from '../../src/service/server';
import { startPostgres, type TestPostgres } from '../helpers/postgres';

jest.setTimeout(120_000);

let postgres: TestPostgres;
let dir: string;

beforeAll(async () => {
  postgres = await startPostgres();
  dir = await mkdtemp(join(tmpdir(), 'orgadmin-role-events-'));
});
afterAll(async () => {
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
});

describe.each(['sqlite', 'postgres'] as const)('role events on %s', (kind) => {
  let server: RunningServer;
  let token: string;
  let clientId: string;
  let userId: string;

  const call = async (method: string, path: string, body?: unknown): Promise<Response> =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const roleEvents = async (): Promise<EventRepresentation[]> =>
    ((await (await call('GET', '/admin/realms/acme/events?type=admin.ORGANIZATION_ROLE*&max=1000')).json()) as EventRepresentation[]).reverse();

  beforeAll(async () => {
    server = await startServer({ dataFile: kind === 'sqlite' ? join(dir, 'roles.db') : await postgres.createSchema(), port: 0, host: '127.0.0.1', logger: false });
    const admin = new Admin(server.store);
    await admin.createRealm('acme');
    const key = await admin.createApiKey('acme', { name: 'roles', permissions: ['view-organizations', 'manage-organizations', 'create-organization', 'view-users', 'view-events'] });
    clientId = key.clientId;
    userId = (await admin.createUser('acme', { username: 'holder' })).id;
    const answer = await fetch(`${server.url}/realms/acme/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }).toString(),
    });
    token = ((await answer.json()) as { access_token: string }).access_token;
  });
  afterAll(async () => {
    await server.close();
  });

  it('records one event per role change, with the actor, and none for a change that changes nothing', async () => {
    const created = await call('POST', '/realms/acme/orgs', { name: `roles-${kind}` });
    const orgId = created.headers.get('location')!.split('/').pop()!;
    expect((await call('PUT', `/realms/acme/orgs/${orgId}/members/${userId}`)).status).toBe(201);
    // Default roles come with the organization's creation, in its event; only what follows is listed.
    const before = (await roleEvents()).length;

    expect((await call('POST', `/realms/acme/orgs/${orgId}/roles`, { name: 'auditor', description: 'reads' })).status).toBe(201);
    expect((await call('PUT', `/realms/acme/orgs/${orgId}/roles/auditor`, { name: 'auditor', description: 'reads everything' })).status).toBe(204);
    expect((await call('PUT', `/realms/acme/orgs/${orgId}/roles/auditor/users/${userId}`)).status).toBe(201);
    expect((await call('PUT', `/realms/acme/orgs/${orgId}/roles/auditor/users/${userId}`)).status).toBe(201); // held already
    expect((await call('DELETE', `/realms/acme/orgs/${orgId}/roles/auditor/users/${userId}`)).status).toBe(204);
    expect((await call('DELETE', `/realms/acme/orgs/${orgId}/roles/auditor`)).status).toBe(204);

    const events = (await roleEvents()).slice(before);
    const rolePath = `orgs/${orgId}/roles/auditor`;
    expect(events.map((event) => [event.type, event.resourcePath])).toEqual([
      ['admin.ORGANIZATION_ROLE-CREATE', rolePath],
      ['admin.ORGANIZATION_ROLE-UPDATE', rolePath],
      ['admin.ORGANIZATION_ROLE_MAPPING-CREATE', `${rolePath}/users/${userId}`],
      ['admin.ORGANIZATION_ROLE_MAPPING-DELETE', `${rolePath}/users/${userId}`],
      ['admin.ORGANIZATION_ROLE-DELETE', rolePath],
    ]);
    expect(JSON.parse(events[1]!.representation!)).toEqual({ id: expect.any(String), name: 'auditor', description: 'reads everything' });
    expect(JSON.parse(events[2]!.representation!)).toEqual([{ id: expect.any(String), name: 'auditor', description: 'reads everything' }]);
    expect(events[4]!.representation).toBe('"auditor"');
    for (const event of events) expect(event.authDetails).toMatchObject({ clientId, ipAddress: '127.0.0.1' });
  });

  it('records what an import creates under the importing key', async () => {
    const imported = await call('POST', '/realms/acme/orgs/import?importMembers=true', {
      organizations: [{ name: `imported-${kind}`, roles: [{ name: 'reviewer' }], members: [{ userId, roles: ['reviewer'] }] }],
    });
    expect(imported.status).toBe(200);
    expect(await imported.json()).toMatchObject({ imported: 1, errors: [] });
    const events = (await (await call('GET', '/admin/realms/acme/events?max=1000')).json()) as EventRepresentation[];
    const orgEvent = events.find((event) => event.type === 'admin.ORGANIZATION-CREATE' && JSON.parse(event.representation!).name === `imported-${kind}`)!;
    const orgPath = orgEvent.resourcePath!;
    const ofImport = events.filter((event) => event.resourcePath?.startsWith(orgPath)).reverse();
    expect(ofImport.map((event) => event.type)).toEqual([
      'admin.ORGANIZATION-CREATE',
      'admin.ORGANIZATION_ROLE-CREATE',
      'admin.ORGANIZATION_MEMBERSHIP-CREATE',
      'admin.ORGANIZATION_ROLE_MAPPING-CREATE',
    ]);
    for (const event of ofImport) expect(event.authDetails).toMatchObject({ clientId, ipAddress: '127.0.0.1' });
  });
});
