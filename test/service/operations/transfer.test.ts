/**
 * Export and import on both stores: the vendor's `GET /orgs/export` → `POST /orgs/import` into
 * another realm, and `orgadmin realms export` → `realms import` into an empty instance, after which
 * every read of the realm answers as on the source (organizations, counts, members, checks, user
 * lookups, tokens of a user by password, the realm's settings with its organizations claim and
 * event retention).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { memberPath, orgsPath, tokenPath } from '../../../src/api';
import { Admin } from '../../../src/service/admin';
import { startServer, type RunningServer } from '../../../src/service/server';
import { createSandbox, type CliSandbox } from '../../cli/harness';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

let postgres: TestPostgres;
let sandbox: CliSandbox;
beforeAll(async () => {
  postgres = await startPostgres();
}, 120_000);
afterAll(async () => {
  await postgres?.stop();
});
beforeEach(() => {
  sandbox = createSandbox();
});
afterEach(() => sandbox.cleanup());

const PERMISSIONS = ['view-organizations', 'manage-organizations', 'create-organization', 'view-users'] as const;

/** A bearer header of a new API key of `realm` (with `permissions`, default all the tests use). */
async function bearer(server: RunningServer, realm: string, permissions: readonly (typeof PERMISSIONS)[number][] = PERMISSIONS): Promise<string> {
  const key = await new Admin(server.store).createApiKey(realm, { name: `reader-${randomUUID()}`, permissions: [...permissions] });
  const token = await fetch(`${server.url}${tokenPath(realm)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }),
  });
  return `Bearer ${((await token.json()) as { access_token: string }).access_token}`;
}

/** Fills realm `acme`: users (one with a password), organizations with domains, attributes and members. */
async function seed(server: RunningServer): Promise<void> {
  const admin = new Admin(server.store);
  await admin.createRealm('acme');
  await admin.updateRealm('acme', { organizationsClaim: true, eventRetentionDays: 30 });
  const alice = await admin.createUser('acme', { username: 'alice', email: 'alice@example.com', password: 'correct horse battery' });
  const bob = await admin.createUser('acme', { username: 'bob', email: 'bob@example.com' });
  const carol = await admin.createUser('acme', { username: 'carol' });
  const authorization = await bearer(server, 'acme');
  const orgs = [
    { id: 'o-1', name: 'beta', displayName: 'Beta Ltd', url: 'https://beta.example.com', domains: ['beta.example.com'], attributes: { tier: ['gold'] } },
    { id: 'o-2', name: 'alpha', domains: [], attributes: {} },
  ];
  for (const org of orgs) {
    const created = await fetch(`${server.url}${orgsPath('acme')}`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(org) });
    expect(created.status).toBe(201);
  }
  for (const [orgId, users] of [['o-1', [bob, alice]], ['o-2', [carol]]] as const) {
    for (const user of users) expect((await fetch(`${server.url}${memberPath('acme', orgId, user.id)}`, { method: 'PUT', headers: { authorization } })).status).toBe(201);
  }
  // A role of its own and grants of it and of a default role, in an order the reads show.
  const roles = `${orgsPath('acme')}/o-1/roles`;
  const role = await fetch(`${server.url}${roles}`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'billing', description: 'Pays the bills' }) });
  expect(role.status).toBe(201);
  for (const [name, user] of [['billing', alice], ['billing', bob], ['view-members', bob]] as const) {
    expect((await fetch(`${server.url}${roles}/${name}/users/${user.id}`, { method: 'PUT', headers: { authorization } })).status).toBe(201);
  }
}

/** Every read of realm `acme` a client can make, as status and body. */
async function reads(server: RunningServer, realm = 'acme'): Promise<Record<string, unknown>> {
  const authorization = await bearer(server, realm);
  const get = async (path: string): Promise<unknown> => {
    const answer = await fetch(`${server.url}${path}`, { headers: { authorization } });
    return [answer.status, answer.status === 204 ? null : await answer.json()];
  };
  const admin = new Admin(server.store);
  const { createdTimestamp: _created, ...settings } = (await admin.getRealm(realm))!;
  const out: Record<string, unknown> = {
    settings: { ...settings, eventRetentionDays: await admin.realms.eventRetentionDays(realm) },
    orgs: await get(orgsPath(realm)),
    count: await get(`${orgsPath(realm)}/count`),
  };
  for (const orgId of ['o-1', 'o-2']) {
    out[`org ${orgId}`] = await get(`${orgsPath(realm)}/${orgId}`);
    out[`members ${orgId}`] = await get(`${orgsPath(realm)}/${orgId}/members`);
    out[`member count ${orgId}`] = await get(`${orgsPath(realm)}/${orgId}/members/count`);
    for (const member of (out[`members ${orgId}`] as [number, Array<{ id: string }>])[1]) {
      out[`check ${orgId} ${member.id}`] = await get(memberPath(realm, orgId, member.id));
      out[`roles of ${orgId} ${member.id}`] = await get(`/realms/${realm}/users/${member.id}/orgs/${orgId}/roles`);
    }
    out[`roles ${orgId}`] = await get(`${orgsPath(realm)}/${orgId}/roles`);
    for (const role of (out[`roles ${orgId}`] as [number, Array<{ name: string }>])[1]) out[`role users ${orgId} ${role.name}`] = await get(`${orgsPath(realm)}/${orgId}/roles/${role.name}/users`);
  }
  out.users = await get(`/admin/realms/${realm}/users?max=100`);
  const password = await fetch(`${server.url}${tokenPath(realm)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username: 'alice', password: 'correct horse battery' }),
  });
  out['alice signs in'] = password.status;
  return out;
}

describe.each([['sqlite'], ['postgres']])('export and import on %s', (kind) => {
  const location = async (name: string): Promise<string> => (kind === 'sqlite' ? join(sandbox.dir, `${name}.db`) : postgres.createSchema());

  it('realms export then realms import into an empty instance answers every read identically', async () => {
    const sourceData = await location('source');
    const source = await startServer({ dataFile: sourceData, port: 0 });
    await seed(source);
    const before = await reads(source);
    await source.close();
    const file = join(sandbox.dir, 'acme.json');
    expect((await sandbox.runRaw(['realms', 'export', 'acme', '--out', file, '--data', sourceData])).code).toBe(0);

    const targetData = await location('target');
    const imported = await sandbox.runRaw(['realms', 'import', file, '--data', targetData, '--json']);
    expect(imported.stderr).toBe('');
    expect(JSON.parse(imported.stdout)).toEqual({ realm: 'acme', users: 5, organizations: 2, memberships: 3 });
    // The same import again: refused, nothing added or changed (the reads below are still the source's).
    const again = await sandbox.runRaw(['realms', 'import', file, '--data', targetData, '--json']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('realm acme already exists; import into a realm that does not.');
    const target = await startServer({ dataFile: targetData, port: 0 });
    try {
      const after = await reads(target);
      expect(after['alice signs in']).toBe(before['alice signs in']);
      expect(after).toEqual(before);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('GET /orgs/export then POST /orgs/import into another instance carries organizations and members', async () => {
    const origin = await startServer({ dataFile: await location('http'), port: 0 });
    const server = await startServer({ dataFile: await location('http-copy'), port: 0 });
    try {
      await seed(origin);
      const source = await bearer(origin, 'acme');
      const exported = await fetch(`${origin.url}${orgsPath('acme')}/export?includeMembers=true`, { headers: { authorization: source } });
      expect(exported.status).toBe(200);
      const body = (await exported.json()) as { organizations: Array<{ name: string; members: unknown[] }>; realm: string; version: string };
      expect(body.realm).toBe('acme');
      expect(body.organizations.map((org) => [org.name, org.members.length])).toEqual([['alpha', 1], ['beta', 2]]);
      const exportedBeta = body.organizations[1] as unknown as { roles: Array<{ name: string; description?: string }>; members: Array<{ email: string; roles: string[] }> };
      expect(exportedBeta.roles).toContainEqual({ name: 'billing', description: 'Pays the bills' });
      expect(exportedBeta.roles).toContainEqual({ name: 'view-members', description: 'View members of this organization' });
      expect(exportedBeta.members.map((member) => [member.email, member.roles])).toEqual([['bob@example.com', ['billing', 'view-members']], ['alice@example.com', ['billing']]]);
      // Only the organizations asked for, without roles; and each operation asks for its permissions.
      const narrow = await fetch(`${origin.url}${orgsPath('acme')}/export?orgIds=o-1&includeRoles=false&includeMembers=true&includeIdps=false`, { headers: { authorization: source } });
      expect(((await narrow.json()) as { organizations: unknown[] }).organizations).toEqual([
        { id: 'o-1', name: 'beta', displayName: 'Beta Ltd', url: 'https://beta.example.com', domains: ['beta.example.com'], attributes: { tier: ['gold'] }, realm: 'acme', members: [
          { userId: expect.any(String), email: 'bob@example.com' }, { userId: expect.any(String), email: 'alice@example.com' },
        ] },
      ]);
      const viewer = await bearer(origin, 'acme', ['view-organizations']);
      const refusedExport = await fetch(`${origin.url}${orgsPath('acme')}/export`, { headers: { authorization: viewer } });
      expect([refusedExport.status, ((await refusedExport.json()) as { error: string }).error]).toEqual([403, 'insufficient_scope']);
      const manager = await bearer(origin, 'acme', ['view-organizations', 'manage-organizations']);
      const refusedImport = await fetch(`${origin.url}${orgsPath('acme')}/import`, { method: 'POST', headers: { authorization: manager, 'content-type': 'application/json' }, body: JSON.stringify({ organizations: [{ name: 'new' }] }) });
      expect([refusedImport.status, ((await refusedImport.json()) as { error: string }).error]).toEqual([403, 'insufficient_scope']);
      expect(await (await fetch(`${origin.url}${orgsPath('acme')}/count`, { headers: { authorization: source } })).json()).toBe(2);
      // Another instance's realm with the same users by email only: members are matched by email there.
      const admin = new Admin(server.store);
      await admin.createRealm('copy');
      for (const username of ['alice', 'bob']) await admin.createUser('copy', { username, email: `${username}@example.com` });
      const target = await bearer(server, 'copy');
      const importOnce = async (query: string) => {
        const answer = await fetch(`${server.url}${orgsPath('copy')}/import?${query}`, { method: 'POST', headers: { authorization: target, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expect(answer.status).toBe(200);
        return answer.json();
      };
      // carol has no email and is not a user of realm copy: reported, the rest imported.
      expect(await importOnce('importMembers=true')).toEqual({
        imported: 2, updated: 0, skipped: 0,
        errors: [{ organizationName: 'alpha', error: expect.stringMatching(/^Member .* is not a user of realm copy; not added\.$/) }],
      });
      expect(await importOnce('skipExisting=true')).toEqual({ imported: 0, updated: 0, skipped: 2, errors: [] });
      expect(await importOnce('')).toEqual({ imported: 0, updated: 2, skipped: 0, errors: [] });
      const beta = (await (await fetch(`${server.url}${orgsPath('copy')}/o-1`, { headers: { authorization: target } })).json()) as Record<string, unknown>;
      expect(beta).toEqual({ id: 'o-1', name: 'beta', displayName: 'Beta Ltd', url: 'https://beta.example.com', domains: ['beta.example.com'], attributes: { tier: ['gold'] }, realm: 'copy' });
      const members = (await (await fetch(`${server.url}${orgsPath('copy')}/o-1/members?excludeAdminAccounts=true`, { headers: { authorization: target } })).json()) as Array<{ username: string }>;
      expect(members.map((member) => member.username)).toEqual(['bob', 'alice']);
      // The role of its own was created there and granted as exported.
      const billing = (await (await fetch(`${server.url}${orgsPath('copy')}/o-1/roles/billing/users?excludeAdminAccounts=true`, { headers: { authorization: target } })).json()) as Array<{ username: string }>;
      expect(billing.map((user) => user.username)).toEqual(['bob', 'alice']);
      const viewers = (await (await fetch(`${server.url}${orgsPath('copy')}/o-1/roles/view-members/users?excludeAdminAccounts=true`, { headers: { authorization: target } })).json()) as Array<{ username: string }>;
      expect(viewers.map((user) => user.username)).toEqual(['bob']);
      // A bad organization anywhere in the body changes nothing.
      const bad = await fetch(`${server.url}${orgsPath('copy')}/import`, {
        method: 'POST',
        headers: { authorization: target, 'content-type': 'application/json' },
        body: JSON.stringify({ organizations: [{ name: 'fine' }, { name: 'broken', url: 'not a url' }] }),
      });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: string }).error).toBe('invalid_body');
      expect(await (await fetch(`${server.url}${orgsPath('copy')}/count`, { headers: { authorization: target } })).json()).toBe(2);
      // Imported back into its own realm, an organization of the same id is updated (renamed).
      const clash = await fetch(`${origin.url}${orgsPath('acme')}/import`, {
        method: 'POST',
        headers: { authorization: source, 'content-type': 'application/json' },
        body: JSON.stringify({ organizations: [{ id: 'o-1', name: 'renamed' }] }),
      });
      expect(await clash.json()).toEqual({ imported: 0, updated: 1, skipped: 0, errors: [] });
    } finally {
      await server.close();
      await origin.close();
    }
  }, 60_000);
});
