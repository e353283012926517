import {
  DEFAULT_ORGANIZATION_ROLES,
  DEFAULT_ORGANIZATION_ROLE_NAMES,
  memberPath,
  memberRolesPath,
  membersPath,
  orgsMePath,
  orgsPath,
  rolePath,
  rolesPath,
  roleUserPath,
  roleUsersPath,
  tokenPath,
  userOrganizationsPath,
} from '../../../src/api';
import { createTestRealm, getToken, type TestService } from '../../helpers/service';
import { call, postForm, startServiceWithToken } from '../support';

describe('organization roles', () => {
  let svc: TestService;
  let token: string;
  let alice: string;
  let bob: string;
  let carol: string;

  async function createOrg(name: string): Promise<string> {
    const res = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: { name } });
    expect(res.status).toBe(201);
    return decodeURIComponent(String(res.headers.location).split('/').pop()!);
  }
  async function addMember(org: string, userId: string): Promise<void> {
    expect((await call(svc, { method: 'PUT', url: memberPath('acme', org, userId), token })).status).toBe(201);
  }
  async function userToken(username: string): Promise<string> {
    const res = await postForm(svc, tokenPath('acme'), { grant_type: 'password', client_id: 'admin-cli', username, password: `pw-${username}` });
    expect(res.status).toBe(200);
    return res.json.access_token;
  }
  const names = (roles: Array<{ name: string }>): string[] => roles.map((role) => role.name);
  const sortedDefaults = [...DEFAULT_ORGANIZATION_ROLE_NAMES].sort();

  beforeAll(async () => {
    ({ svc, token } = await startServiceWithToken());
    alice = (await svc.admin.createUser('acme', { username: 'alice', email: 'alice@example.com', password: 'pw-alice' })).id;
    bob = (await svc.admin.createUser('acme', { username: 'bob', password: 'pw-bob' })).id;
    carol = (await svc.admin.createUser('acme', { username: 'carol', password: 'pw-carol' })).id;
  });
  afterAll(async () => {
    await svc.close();
  });

  describe('GET /realms/{realm}/orgs/{orgId}/roles', () => {
    it('lists a new organization\'s default roles by name, with the hosted service\'s descriptions', async () => {
      const org = await createOrg('defaults');
      const res = await call(svc, { method: 'GET', url: rolesPath('acme', org), token });
      expect(res.status).toBe(200);
      expect(names(res.json)).toEqual(sortedDefaults);
      for (const role of res.json) {
        expect(Object.keys(role).sort()).toEqual(['description', 'id', 'name']);
        expect(role.description).toBe(DEFAULT_ORGANIZATION_ROLES.find((d) => d.name === role.name)!.description);
      }
    });

    it('answers 404 for an unknown organization', async () => {
      const res = await call(svc, { method: 'GET', url: rolesPath('acme', 'ghost'), token });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: 'not_found', error_description: 'Organization ghost does not exist.' });
    });
  });

  describe('POST /realms/{realm}/orgs/{orgId}/roles', () => {
    it('creates a role: 201, empty body, Location = the role URL; the description is left out when none', async () => {
      const org = await createOrg('create-one');
      const res = await call(svc, { method: 'POST', url: rolesPath('acme', org), token, payload: { name: 'billing admin', description: 'Pays' } });
      expect(res.status).toBe(201);
      expect(res.text).toBe('');
      expect(res.headers.location).toBe(`${svc.baseUrl}${rolePath('acme', org, 'billing admin')}`);
      const read = await call(svc, { method: 'GET', url: rolePath('acme', org, 'billing admin'), token });
      expect(read.json).toEqual({ id: expect.any(String), name: 'billing admin', description: 'Pays' });
      await call(svc, { method: 'POST', url: rolesPath('acme', org), token, payload: { name: 'plain', description: null } });
      expect((await call(svc, { method: 'GET', url: rolePath('acme', org, 'plain'), token })).json).toEqual({ id: expect.any(String), name: 'plain' });
    });

    it('answers 409 for a name the organization has (a default role too), 400 for a missing or blank name, 404 for an unknown organization', async () => {
      const org = await createOrg('create-bad');
      await call(svc, { method: 'POST', url: rolesPath('acme', org), token, payload: { name: 'editor' } });
      const again = await call(svc, { method: 'POST', url: rolesPath('acme', org), token, payload: { name: 'editor' } });
      expect(again.status).toBe(409);
      expect(again.json).toEqual({ error: 'conflict', error_description: `Role "editor" already exists in organization ${org}.` });
      expect((await call(svc, { method: 'POST', url: rolesPath('acme', org), token, payload: { name: 'view-roles' } })).status).toBe(409);
      const missing = await call(svc, { method: 'POST', url: rolesPath('acme', org), token, payload: { description: 'x' } });
      expect(missing.status).toBe(400);
      expect(missing.json).toEqual({ error: 'invalid_body', error_description: 'name is required.' });
      expect((await call(svc, { method: 'POST', url: rolesPath('acme', org), token, payload: { name: '  ' } })).json.error_description).toBe('name must not be empty.');
      expect((await call(svc, { method: 'POST', url: rolesPath('acme', org), token, payload: { name: 'x', description: 5 } })).status).toBe(400);
      expect((await call(svc, { method: 'POST', url: rolesPath('acme', 'ghost'), token, payload: { name: 'x' } })).status).toBe(404);
    });
  });

  describe('PUT and PATCH /realms/{realm}/orgs/{orgId}/roles (create and delete many)', () => {
    it('creates many: 207 with one entry per role, in order; existing and blank names are refused in their entry', async () => {
      const org = await createOrg('create-many');
      const res = await call(svc, {
        method: 'PUT',
        url: rolesPath('acme', org),
        token,
        payload: [{ name: 'eat-apples', description: 'Apples' }, { name: 'view-roles' }, { name: ' ' }, { name: 'bake-pies' }, { name: 'eat-apples' }],
      });
      expect(res.status).toBe(207);
      expect(res.headers.location).toBe(`${svc.baseUrl}${rolesPath('acme', org)}`);
      expect(res.json).toEqual([
        { status: 201, item: { id: expect.any(String), name: 'eat-apples', description: 'Apples' } },
        { status: 400, error: `Role "view-roles" already exists in organization ${org}.` },
        { status: 400, error: 'name must not be empty.' },
        { status: 201, item: { id: expect.any(String), name: 'bake-pies' } },
        { status: 400, error: `Role "eat-apples" already exists in organization ${org}.` },
      ]);
      expect(names((await call(svc, { method: 'GET', url: rolesPath('acme', org), token })).json)).toEqual(
        [...sortedDefaults, 'bake-pies', 'eat-apples'].sort(),
      );
    });

    it('deletes many: 207; a default role is refused, a role that is not there counts as deleted', async () => {
      const org = await createOrg('delete-many');
      await call(svc, { method: 'PUT', url: rolesPath('acme', org), token, payload: [{ name: 'a' }, { name: 'b' }] });
      const res = await call(svc, { method: 'PATCH', url: rolesPath('acme', org), token, payload: [{ name: 'a' }, { name: 'manage-roles' }, { name: 'never' }] });
      expect(res.status).toBe(207);
      expect(res.json).toEqual([
        { status: 204, item: { id: expect.any(String), name: 'a' } },
        { status: 400, error: 'Default organization role manage-roles cannot be deleted.' },
        { status: 204, item: { name: 'never' } },
      ]);
      expect(names((await call(svc, { method: 'GET', url: rolesPath('acme', org), token })).json)).toContain('b');
      expect(names((await call(svc, { method: 'GET', url: rolesPath('acme', org), token })).json)).not.toContain('a');
    });

    it('answers 404 for an unknown organization and 400 for a body that is not an array of roles', async () => {
      expect((await call(svc, { method: 'PUT', url: rolesPath('acme', 'ghost'), token, payload: [{ name: 'x' }] })).status).toBe(404);
      expect((await call(svc, { method: 'PATCH', url: rolesPath('acme', 'ghost'), token, payload: [] })).status).toBe(404);
      const org = await createOrg('bulk-bad');
      for (const payload of [{ name: 'x' }, [{ description: 'no name' }], ['x'], [{ name: 5 }]]) {
        const res = await call(svc, { method: 'PUT', url: rolesPath('acme', org), token, payload });
        expect(res.status).toBe(400);
        expect(res.json.error).toBe('invalid_body');
      }
      expect((await call(svc, { method: 'PUT', url: rolesPath('acme', org), token, payload: [] })).json).toEqual([]);
    });
  });

  describe('GET, PUT and DELETE /realms/{realm}/orgs/{orgId}/roles/{name}', () => {
    it('updates the description only (absent clears it; name and id in the body are ignored)', async () => {
      const org = await createOrg('update');
      await call(svc, { method: 'POST', url: rolesPath('acme', org), token, payload: { name: 'editor', description: 'old' } });
      const { id } = (await call(svc, { method: 'GET', url: rolePath('acme', org, 'editor'), token })).json;
      const res = await call(svc, { method: 'PUT', url: rolePath('acme', org, 'editor'), token, payload: { id: 'other', name: 'renamed', description: 'new' } });
      expect(res.status).toBe(204);
      expect((await call(svc, { method: 'GET', url: rolePath('acme', org, 'editor'), token })).json).toEqual({ id, name: 'editor', description: 'new' });
      await call(svc, { method: 'PUT', url: rolePath('acme', org, 'editor'), token, payload: {} });
      expect((await call(svc, { method: 'GET', url: rolePath('acme', org, 'editor'), token })).json).toEqual({ id, name: 'editor' });
      // A default role's description can change too.
      expect((await call(svc, { method: 'PUT', url: rolePath('acme', org, 'view-roles'), token, payload: { description: 'Ours' } })).status).toBe(204);
      expect((await call(svc, { method: 'PUT', url: rolePath('acme', org, 'ghost'), token, payload: {} })).json).toEqual({
        error: 'not_found',
        error_description: `Organization ${org} has no role ghost.`,
      });
    });

    it('deletes a role with its grants; a default role is 400, a missing one 404', async () => {
      const org = await createOrg('delete-one');
      await addMember(org, alice);
      await call(svc, { method: 'POST', url: rolesPath('acme', org), token, payload: { name: 'editor' } });
      await call(svc, { method: 'PUT', url: roleUserPath('acme', org, 'editor', alice), token });
      expect((await call(svc, { method: 'DELETE', url: rolePath('acme', org, 'editor'), token })).status).toBe(204);
      expect((await call(svc, { method: 'GET', url: rolePath('acme', org, 'editor'), token })).status).toBe(404);
      expect((await call(svc, { method: 'GET', url: memberRolesPath('acme', alice, org), token })).json).toEqual([]);
      const kept = await call(svc, { method: 'DELETE', url: rolePath('acme', org, 'delete-organization'), token });
      expect(kept.status).toBe(400);
      expect(kept.json).toEqual({ error: 'invalid_request', error_description: 'Default organization role delete-organization cannot be deleted.' });
      expect((await call(svc, { method: 'DELETE', url: rolePath('acme', org, 'editor'), token })).status).toBe(404);
      expect((await call(svc, { method: 'DELETE', url: rolePath('acme', 'ghost', 'view-roles'), token })).json.error_description).toBe(
        'Organization ghost does not exist.',
      );
    });

    it('reads a role whose name holds a slash or spaces as one path segment', async () => {
      const org = await createOrg('odd-names');
      await call(svc, { method: 'POST', url: rolesPath('acme', org), token, payload: { name: 'a/b c' } });
      expect((await call(svc, { method: 'GET', url: rolePath('acme', org, 'a/b c'), token })).json.name).toBe('a/b c');
    });
  });

  describe('grants: …/roles/{name}/users and …/roles/{name}/users/{userId}', () => {
    it('grants (201, idempotent), checks (204/404), lists in grant order and revokes (204, then 404)', async () => {
      const org = await createOrg('grants');
      await addMember(org, alice);
      await addMember(org, bob);
      const url = roleUserPath('acme', org, 'view-members', bob);
      const granted = await call(svc, { method: 'PUT', url, token });
      expect(granted.status).toBe(201);
      expect(granted.text).toBe('');
      expect(granted.headers.location).toBe(`${svc.baseUrl}${url}`);
      expect((await call(svc, { method: 'PUT', url, token })).status).toBe(201);
      await call(svc, { method: 'PUT', url: roleUserPath('acme', org, 'view-members', alice), token });
      expect((await call(svc, { method: 'GET', url, token })).status).toBe(204);
      const users = await call(svc, { method: 'GET', url: roleUsersPath('acme', org, 'view-members'), token });
      expect(users.json.map((u: { username: string }) => u.username)).toEqual([`org-admin-${org}`, 'bob', 'alice']);
      const withoutAdmins = await call(svc, { method: 'GET', url: `${roleUsersPath('acme', org, 'view-members')}?excludeAdminAccounts=true`, token });
      expect(withoutAdmins.json.map((u: { id: string }) => u.id)).toEqual([bob, alice]);
      expect((await call(svc, { method: 'DELETE', url, token })).status).toBe(204);
      const gone = await call(svc, { method: 'GET', url, token });
      expect(gone.status).toBe(404);
      expect(gone.json.error_description).toBe(`User ${bob} does not have role view-members.`);
      expect((await call(svc, { method: 'DELETE', url, token })).status).toBe(404);
    });

    it('refuses a grant to a user who is not a member: 400 not_member; unknown user, role or organization: 404', async () => {
      const org = await createOrg('grant-refusals');
      const refused = await call(svc, { method: 'PUT', url: roleUserPath('acme', org, 'view-roles', carol), token });
      expect(refused.status).toBe(400);
      expect(refused.json).toEqual({ error: 'not_member', error_description: `User ${carol} must be a member of organization ${org} to be granted a role.` });
      expect((await call(svc, { method: 'GET', url: roleUserPath('acme', org, 'view-roles', carol), token })).status).toBe(404);
      expect((await call(svc, { method: 'PUT', url: roleUserPath('acme', org, 'view-roles', 'ghost'), token })).json.error_description).toBe('User ghost does not exist.');
      await addMember(org, carol);
      expect((await call(svc, { method: 'PUT', url: roleUserPath('acme', org, 'ghost-role', carol), token })).json.error_description).toBe(`Organization ${org} has no role ghost-role.`);
      expect((await call(svc, { method: 'PUT', url: roleUserPath('acme', 'ghost', 'view-roles', carol), token })).status).toBe(404);
      expect((await call(svc, { method: 'GET', url: roleUsersPath('acme', org, 'ghost-role'), token })).status).toBe(404);
    });

    it('removes a member\'s grants with the membership', async () => {
      const org = await createOrg('member-removed');
      await addMember(org, alice);
      await call(svc, { method: 'PUT', url: roleUserPath('acme', org, 'manage-members', alice), token });
      expect((await call(svc, { method: 'DELETE', url: memberPath('acme', org, alice), token })).status).toBe(204);
      await addMember(org, alice);
      expect((await call(svc, { method: 'GET', url: roleUserPath('acme', org, 'manage-members', alice), token })).status).toBe(404);
    });
  });

  describe('a member\'s roles: /realms/{realm}/users/{userId}/orgs/{orgId}/roles', () => {
    it('grants many (201 entries), lists them by name, revokes many (204 entries); unknown roles are refused in their entry', async () => {
      const org = await createOrg('member-roles');
      await addMember(org, alice);
      await call(svc, { method: 'POST', url: rolesPath('acme', org), token, payload: { name: 'editor' } });
      const url = memberRolesPath('acme', alice, org);
      const granted = await call(svc, { method: 'PUT', url, token, payload: [{ name: 'view-roles' }, { name: 'ghost' }, { name: 'editor' }] });
      expect(granted.status).toBe(207);
      expect(granted.json).toEqual([
        { status: 201, item: { id: expect.any(String), name: 'view-roles', description: 'View roles of this organization' } },
        { status: 400, error: `Organization ${org} has no role ghost.` },
        { status: 201, item: { id: expect.any(String), name: 'editor' } },
      ]);
      expect(names((await call(svc, { method: 'GET', url, token })).json)).toEqual(['editor', 'view-roles']);
      const revoked = await call(svc, { method: 'PATCH', url, token, payload: [{ name: 'editor' }, { name: 'manage-roles' }] });
      expect(revoked.json).toEqual([
        { status: 204, item: { id: expect.any(String), name: 'editor' } },
        { status: 204, item: expect.objectContaining({ name: 'manage-roles' }) },
      ]);
      expect(names((await call(svc, { method: 'GET', url, token })).json)).toEqual(['view-roles']);
    });

    it('answers 400 not_member for a non-member and 404 for an unknown user or organization', async () => {
      const org = await createOrg('member-roles-refused');
      const get = await call(svc, { method: 'GET', url: memberRolesPath('acme', carol, org), token });
      expect(get.status).toBe(404);
      expect(get.json.error_description).toBe(`User ${carol} is not a member of organization ${org}.`);
      const put = await call(svc, { method: 'PUT', url: memberRolesPath('acme', carol, org), token, payload: [{ name: 'view-roles' }] });
      expect(put.json).toEqual({ error: 'not_member', error_description: `User ${carol} must be a member of organization ${org} to be granted roles.` });
      const patch = await call(svc, { method: 'PATCH', url: memberRolesPath('acme', carol, org), token, payload: [] });
      expect(patch.json.error).toBe('not_member');
      expect((await call(svc, { method: 'PUT', url: memberRolesPath('acme', 'ghost', org), token, payload: [] })).json.error_description).toBe('User ghost does not exist.');
      expect((await call(svc, { method: 'GET', url: memberRolesPath('acme', carol, 'ghost'), token })).json.error_description).toBe('Organization ghost does not exist.');
    });
  });

  describe('GET /realms/{realm}/users/{userId}/orgs', () => {
    it('lists the user\'s organizations by name; 404 for an unknown user', async () => {
      const one = await createOrg('user-orgs-b');
      const two = await createOrg('user-orgs-a');
      const dave = (await svc.admin.createUser('acme', { username: 'dave' })).id;
      await addMember(one, dave);
      await addMember(two, dave);
      const res = await call(svc, { method: 'GET', url: userOrganizationsPath('acme', dave), token });
      expect(res.status).toBe(200);
      expect(res.json.map((o: { name: string }) => o.name)).toEqual(['user-orgs-a', 'user-orgs-b']);
      expect((await call(svc, { method: 'GET', url: userOrganizationsPath('acme', 'ghost'), token })).status).toBe(404);
    });

    it('shows a caller without view-organizations only the organizations they share', async () => {
      const shared = await createOrg('shared-org');
      const other = await createOrg('not-shared-org');
      const erin = (await svc.admin.createUser('acme', { username: 'erin', password: 'pw-erin' })).id;
      const frank = (await svc.admin.createUser('acme', { username: 'frank' })).id;
      for (const org of [shared, other]) await addMember(org, frank);
      await addMember(shared, erin);
      const res = await call(svc, { method: 'GET', url: userOrganizationsPath('acme', frank), token: await userToken('erin') });
      expect(res.json.map((o: { id: string }) => o.id)).toEqual([shared]);
    });
  });

  describe('roles elsewhere: get member info, includeOrgs', () => {
    it('fills roles in /orgs/me and in the members\' organizations with includeOrgs=true', async () => {
      const org = await createOrg('roles-elsewhere');
      await addMember(org, bob);
      await call(svc, { method: 'PUT', url: memberRolesPath('acme', bob, org), token, payload: [{ name: 'view-members' }, { name: 'view-roles' }] });
      const me = await call(svc, { method: 'GET', url: orgsMePath('acme'), token: await userToken('bob') });
      expect(me.json[org].roles).toEqual(['view-members', 'view-roles']);
      const members = await call(svc, { method: 'GET', url: `${membersPath('acme', org)}?includeOrgs=true&excludeAdminAccounts=true`, token });
      expect(members.json[0].organizations[org]).toEqual([
        { id: expect.any(String), name: 'view-members', description: 'View members of this organization' },
        { id: expect.any(String), name: 'view-roles', description: 'View roles of this organization' },
      ]);
    });
  });

  describe('who may: permissions and organization roles', () => {
    it('lets view-organizations read and refuses it every change with 403 insufficient_scope', async () => {
      const org = await createOrg('view-only');
      await addMember(org, alice);
      const key = await createTestRealm(svc, 'acme', { permissions: ['view-organizations'] });
      const viewer = await getToken(svc, 'acme', key.clientId, key.clientSecret);
      expect((await call(svc, { method: 'GET', url: rolesPath('acme', org), token: viewer })).status).toBe(200);
      expect((await call(svc, { method: 'GET', url: memberRolesPath('acme', alice, org), token: viewer })).status).toBe(200);
      for (const [method, url, payload] of [
        ['POST', rolesPath('acme', org), { name: 'x' }],
        ['PUT', rolesPath('acme', org), []],
        ['PATCH', rolesPath('acme', org), []],
        ['PUT', rolePath('acme', org, 'view-roles'), {}],
        ['DELETE', rolePath('acme', org, 'x'), undefined],
        ['PUT', roleUserPath('acme', org, 'view-roles', alice), undefined],
        ['DELETE', roleUserPath('acme', org, 'view-roles', alice), undefined],
        ['PUT', memberRolesPath('acme', alice, org), []],
        ['PATCH', memberRolesPath('acme', alice, org), []],
      ] as const) {
        const res = await call(svc, { method, url, token: viewer, payload });
        expect([method, url, res.status, res.json.error]).toEqual([method, url, 403, 'insufficient_scope']);
      }
      const none = await createTestRealm(svc, 'acme', { permissions: ['view-users'] });
      const noView = await getToken(svc, 'acme', none.clientId, none.clientSecret);
      expect((await call(svc, { method: 'GET', url: rolesPath('acme', org), token: noView })).status).toBe(403);
    });

    it('lets a member read with the organization\'s view-roles role and change with view-roles and manage-roles, there only', async () => {
      const org = await createOrg('org-role-admins');
      const elsewhere = await createOrg('org-role-elsewhere');
      for (const o of [org, elsewhere]) await addMember(o, alice);
      await addMember(org, bob);
      const aliceToken = await userToken('alice');
      expect((await call(svc, { method: 'GET', url: rolesPath('acme', org), token: aliceToken })).status).toBe(403);
      await call(svc, { method: 'PUT', url: roleUserPath('acme', org, 'view-roles', alice), token });
      expect((await call(svc, { method: 'GET', url: rolesPath('acme', org), token: aliceToken })).status).toBe(200);
      expect((await call(svc, { method: 'GET', url: rolesPath('acme', elsewhere), token: aliceToken })).status).toBe(403);
      expect((await call(svc, { method: 'PUT', url: roleUserPath('acme', org, 'view-members', bob), token: aliceToken })).status).toBe(403);
      await call(svc, { method: 'PUT', url: roleUserPath('acme', org, 'manage-roles', alice), token });
      expect((await call(svc, { method: 'PUT', url: roleUserPath('acme', org, 'view-members', bob), token: aliceToken })).status).toBe(201);
      expect((await call(svc, { method: 'POST', url: rolesPath('acme', org), token: aliceToken, payload: { name: 'made-by-alice' } })).status).toBe(201);
      expect((await call(svc, { method: 'POST', url: rolesPath('acme', elsewhere), token: aliceToken, payload: { name: 'x' } })).status).toBe(403);
      // Her rights end with her membership.
      await call(svc, { method: 'DELETE', url: memberPath('acme', org, alice), token });
      expect((await call(svc, { method: 'GET', url: rolesPath('acme', org), token: aliceToken })).status).toBe(403);
    });
  });

  it('answers 405 with Allow for a method a role path does not have, and no longer operation_not_supported', async () => {
    const org = await createOrg('methods');
    const res = await call(svc, { method: 'POST', url: rolePath('acme', org, 'view-roles'), token, payload: {} });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, PUT, DELETE');
    expect((await call(svc, { method: 'PATCH', url: roleUsersPath('acme', org, 'view-roles'), token })).status).toBe(405);
  });
});
