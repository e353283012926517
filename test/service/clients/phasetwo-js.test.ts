/**
 * The vendor's own TypeScript SDK (p2-inc/phasetwo-js, vendored under test/fixtures/phasetwo-js
 * since it is not on the npm registry) calls every role operation against the service, as a client
 * written for the hosted service would: its generated methods where it has them, and its runtime's
 * `BaseAPI.request` for the bulk operations its 2024 generation lacks (create and delete many
 * roles, grant and revoke many roles of a member), at the paths and with the bodies of the vendor's
 * `openapi.yaml`. The SDK's base path is `…/realms` (its paths start with `/{realm}`).
 */
import { memberPath, userOrganizationsPath } from '../../../src/api';
import type { TestService } from '../../helpers/service';
import { call, startServiceWithToken } from '../support';

// The vendor's code is not type-checked here (see test/fixtures/phasetwo-js/README.md): untyped.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const p2 = require('../../fixtures/phasetwo-js/src') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What the SDK's calls resolve to: untyped data of the vendor's generated models. */
type Untyped = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The bulk operations, through the vendor runtime's own request method (authorization as its generated methods do it). */
class BulkRolesApi extends (p2.BaseAPI as new (configuration: unknown) => { request(context: unknown): Promise<Response>; configuration: Untyped }) {
  private async send(method: 'PUT' | 'PATCH', path: string, names: string[]): Promise<Untyped> {
    const token = await this.configuration.accessToken('access_token', []);
    const response = await this.request({
      path,
      method,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: names.map((name) => p2.OrganizationRoleRepresentationToJSON({ name })),
    });
    return { status: response.status, body: await response.json() };
  }
  createRoles(realm: string, orgId: string, names: string[]) {
    return this.send('PUT', `/${realm}/orgs/${encodeURIComponent(orgId)}/roles`, names);
  }
  deleteRoles(realm: string, orgId: string, names: string[]) {
    return this.send('PATCH', `/${realm}/orgs/${encodeURIComponent(orgId)}/roles`, names);
  }
  grantUserRoles(realm: string, userId: string, orgId: string, names: string[]) {
    return this.send('PUT', `/${realm}/users/${encodeURIComponent(userId)}/orgs/${encodeURIComponent(orgId)}/roles`, names);
  }
  revokeUserRoles(realm: string, userId: string, orgId: string, names: string[]) {
    return this.send('PATCH', `/${realm}/users/${encodeURIComponent(userId)}/orgs/${encodeURIComponent(orgId)}/roles`, names);
  }
}

let svc: TestService;
let token: string;
let alice: string;
let bob: string;
let orgs: Untyped;
let members: Untyped;
let roles: Untyped;
let users: Untyped;
let bulk: BulkRolesApi;

beforeAll(async () => {
  ({ svc, token } = await startServiceWithToken());
  alice = (await svc.admin.createUser('acme', { username: 'alice', email: 'alice@example.com' })).id;
  bob = (await svc.admin.createUser('acme', { username: 'bob' })).id;
  const configuration = new p2.Configuration({ basePath: `${svc.baseUrl}/realms`, accessToken: async () => token });
  orgs = new p2.OrganizationsApi(configuration);
  members = new p2.OrganizationMembershipsApi(configuration);
  roles = new p2.OrganizationRolesApi(configuration);
  users = new p2.UsersApi(configuration);
  bulk = new BulkRolesApi(configuration);
});
afterAll(async () => {
  await svc.close();
});

/** The HTTP status of a call the SDK refused (its ResponseError carries the response). */
async function refusedWith(call: Promise<unknown>): Promise<number> {
  const error = await call.then(
    () => undefined,
    (caught: Untyped) => caught,
  );
  expect(error?.name).toBe('ResponseError');
  return error.response.status;
}

it('runs every role operation through the vendor SDK with the vendor spec\'s statuses and shapes', async () => {
  const created = await orgs.createOrganizationRaw({ realm: 'acme', organizationRepresentation: { name: 'p2-sdk' } });
  expect(created.raw.status).toBe(201);
  const orgId = decodeURIComponent(created.raw.headers.get('location').split('/').pop());
  await members.addOrganizationMember({ realm: 'acme', orgId, userId: alice });
  await members.addOrganizationMember({ realm: 'acme', orgId, userId: bob });

  // getOrganizationRoles: the default roles.
  const listed: Untyped[] = await roles.getOrganizationRoles({ realm: 'acme', orgId });
  expect(listed.map((role) => role.name)).toContain('manage-roles');

  // createOrganizationRole: 201 with Location; getOrganizationRole reads it back.
  const createdRole = await roles.createOrganizationRoleRaw({ realm: 'acme', orgId, organizationRoleRepresentation: { name: 'editor', description: 'Edits' } });
  expect(createdRole.raw.status).toBe(201);
  expect(createdRole.raw.headers.get('location')).toBe(`${svc.baseUrl}/realms/acme/orgs/${orgId}/roles/editor`);
  expect(await roles.getOrganizationRole({ realm: 'acme', orgId, name: 'editor' })).toEqual({ id: expect.any(String), name: 'editor', description: 'Edits' });
  expect(await refusedWith(roles.createOrganizationRole({ realm: 'acme', orgId, organizationRoleRepresentation: { name: 'editor' } }))).toBe(409);

  // updateOrganizationRole: 204.
  const updated = await roles.updateOrganizationRoleRaw({ realm: 'acme', orgId, name: 'editor', organizationRoleRepresentation: { name: 'editor', description: 'Edits everything' } });
  expect(updated.raw.status).toBe(204);
  expect((await roles.getOrganizationRole({ realm: 'acme', orgId, name: 'editor' })).description).toBe('Edits everything');

  // grantUserOrganizationRole (201), checkUserOrganizationRole (204 / 404), getUserOrganizationRoles (the users of a role).
  const granted = await roles.grantUserOrganizationRoleRaw({ realm: 'acme', orgId, name: 'editor', userId: alice });
  expect(granted.raw.status).toBe(201);
  const checked = await roles.checkUserOrganizationRoleRaw({ realm: 'acme', orgId, name: 'editor', userId: alice });
  expect(checked.raw.status).toBe(204);
  expect(await refusedWith(roles.checkUserOrganizationRole({ realm: 'acme', orgId, name: 'editor', userId: bob }))).toBe(404);
  const holders: Untyped[] = await roles.getUserOrganizationRoles({ realm: 'acme', orgId, name: 'editor' });
  expect(holders.map((user) => user.username)).toEqual(['alice']);

  // The users API: a user's organizations and a member's roles.
  const userOrgs: Untyped[] = await users.realmUsersUserIdOrgsGet({ realm: 'acme', userId: alice });
  expect(userOrgs.map((org) => org.id)).toEqual([orgId]);
  const aliceRoles: Untyped[] = await users.realmUsersUserIdOrgsOrgIdRolesGet({ realm: 'acme', userId: alice, orgId });
  expect(aliceRoles.map((role) => role.name)).toEqual(['editor']);

  // revokeUserOrganizationRole: 204, then the check is 404.
  const revoked = await roles.revokeUserOrganizationRoleRaw({ realm: 'acme', orgId, name: 'editor', userId: alice });
  expect(revoked.raw.status).toBe(204);
  expect(await refusedWith(roles.checkUserOrganizationRole({ realm: 'acme', orgId, name: 'editor', userId: alice }))).toBe(404);

  // The bulk operations of the spec: 207 Multi-Status with one BulkResponseItem per role.
  const createdMany = await bulk.createRoles('acme', orgId, ['eat-apples', 'bake-pies', 'editor']);
  expect(createdMany.status).toBe(207);
  expect(createdMany.body.map((item: Untyped) => item.status)).toEqual([201, 201, 400]);
  const grantedMany = await bulk.grantUserRoles('acme', bob, orgId, ['eat-apples', 'view-members', 'nope']);
  expect(grantedMany.status).toBe(207);
  expect(grantedMany.body.map((item: Untyped) => [item.status, item.item?.name])).toEqual([[201, 'eat-apples'], [201, 'view-members'], [400, undefined]]);
  const bobRoles: Untyped[] = await users.realmUsersUserIdOrgsOrgIdRolesGet({ realm: 'acme', userId: bob, orgId });
  expect(bobRoles.map((role) => role.name)).toEqual(['eat-apples', 'view-members']);
  const revokedMany = await bulk.revokeUserRoles('acme', bob, orgId, ['eat-apples']);
  expect(revokedMany.body).toEqual([{ status: 204, item: { id: expect.any(String), name: 'eat-apples' } }]);
  const deletedMany = await bulk.deleteRoles('acme', orgId, ['bake-pies', 'view-roles']);
  expect(deletedMany.body.map((item: Untyped) => item.status)).toEqual([204, 400]);

  // deleteOrganizationRole: 204, then reads are 404.
  const deleted = await roles.deleteOrganizationRoleRaw({ realm: 'acme', orgId, name: 'editor' });
  expect(deleted.raw.status).toBe(204);
  expect(await refusedWith(roles.getOrganizationRole({ realm: 'acme', orgId, name: 'editor' }))).toBe(404);

  // A grant to a non-member is refused as the vendor's source refuses it: 400.
  await members.removeOrganizationMember({ realm: 'acme', orgId, userId: bob });
  expect(await refusedWith(roles.grantUserOrganizationRole({ realm: 'acme', orgId, name: 'view-members', userId: bob }))).toBe(400);
  expect(await refusedWith(users.realmUsersUserIdOrgsOrgIdRolesGet({ realm: 'acme', userId: bob, orgId }))).toBe(404);

  // What the SDK did is what the service holds.
  expect((await call(svc, { method: 'GET', url: memberPath('acme', orgId, bob), token })).status).toBe(404);
  expect((await call(svc, { method: 'GET', url: userOrganizationsPath('acme', bob), token })).json).toEqual([]);
});
