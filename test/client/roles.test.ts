/**
 * The SDK's role methods at the HTTP boundary (undici MockAgent): paths, methods, bodies, how
 * answers are read (bulk answers matched to the names asked, the hosted service's null fields
 * tolerated, a partial answer refused), and the retry policy for the new methods: PUT and the
 * repeatable PATCH are retried, the POST create is not.
 */
import {
  memberRolesPath,
  rolePath,
  rolesPath,
  roleUserPath,
  roleUsersPath,
  userOrganizationsPath,
} from '../../src/api';
import { BadRequestError, NetworkError, ServerError, UnexpectedResponseError } from '../../src/client';
import { errorBody, JSON_HEADERS, member, mockSetup, org, replyToken, systemError, type MockSetup } from './support';

let setup: MockSetup;
beforeEach(() => {
  setup = mockSetup();
  replyToken(setup.pool, 'tok');
});
afterEach(async () => {
  await setup.close();
});
const bodyOf = (index = -1): unknown => JSON.parse(String(setup.apiCalls().at(index)!.body));
const role = (name: string, description?: string) => ({ id: `id-${name}`, name, ...(description ? { description } : {}) });

describe('OrgAdminClient role methods', () => {
  it('lists and gets roles, a role without a description read as null', async () => {
    setup.pool.intercept({ path: rolesPath('acme', 'o1') }).reply(200, [role('editor', 'Edits'), role('viewer')], JSON_HEADERS);
    setup.pool.intercept({ path: rolePath('acme', 'o1', 'a/b') }).reply(200, { ...role('a/b'), description: null }, JSON_HEADERS);
    await expect(setup.client.listRoles('o1')).resolves.toEqual([
      { id: 'id-editor', name: 'editor', description: 'Edits' },
      { id: 'id-viewer', name: 'viewer', description: null },
    ]);
    await expect(setup.client.getRole('o1', 'a/b')).resolves.toEqual({ id: 'id-a/b', name: 'a/b', description: null });
    expect(setup.apiCalls().at(-1)!.path).toBe('/realms/acme/orgs/o1/roles/a%2Fb');
  });

  it('creates one role with POST and updates one with PUT, leaving out a description not given', async () => {
    setup.pool.intercept({ path: rolesPath('acme', 'o1'), method: 'POST' }).reply(201, '');
    setup.pool.intercept({ path: rolePath('acme', 'o1', 'editor'), method: 'PUT' }).reply(204, '');
    setup.pool.intercept({ path: rolePath('acme', 'o1', 'editor'), method: 'DELETE' }).reply(204, '');
    await setup.client.createRole('o1', { name: 'editor' });
    expect(bodyOf()).toEqual({ name: 'editor' });
    await setup.client.updateRole('o1', 'editor', { description: 'Edits' });
    expect(bodyOf()).toEqual({ name: 'editor', description: 'Edits' });
    await setup.client.deleteRole('o1', 'editor');
    expect(setup.apiCalls().map((c) => c.method)).toEqual(['POST', 'PUT', 'DELETE']);
  });

  it('creates, deletes, grants and revokes many, one result per name in order, with the hosted service\'s null fields', async () => {
    setup.pool.intercept({ path: rolesPath('acme', 'o1'), method: 'PUT' }).reply(
      207,
      [
        { status: 201, error: null, item: role('a') },
        { status: 400, error: 'Role "b" already exists in organization o1.', item: null },
      ],
      JSON_HEADERS,
    );
    await expect(setup.client.createRoles('o1', [{ name: 'a', description: null }, { name: 'b', description: 'Bee' }])).resolves.toEqual([
      { name: 'a', status: 201, ok: true, error: null, role: { id: 'id-a', name: 'a', description: null } },
      { name: 'b', status: 400, ok: false, error: 'Role "b" already exists in organization o1.', role: null },
    ]);
    expect(bodyOf()).toEqual([{ name: 'a' }, { name: 'b', description: 'Bee' }]);

    setup.pool.intercept({ path: rolesPath('acme', 'o1'), method: 'PATCH' }).reply(207, [{ status: 204, item: { name: 'gone' } }], JSON_HEADERS);
    await expect(setup.client.deleteRoles('o1', ['gone'])).resolves.toEqual([{ name: 'gone', status: 204, ok: true, error: null, role: null }]);

    setup.pool.intercept({ path: memberRolesPath('acme', 'u1', 'o1'), method: 'PUT' }).reply(207, [{ status: 201, item: role('a', 'A') }], JSON_HEADERS);
    await expect(setup.client.grantRoles('o1', 'u1', ['a'])).resolves.toEqual([{ name: 'a', status: 201, ok: true, error: null, role: { id: 'id-a', name: 'a', description: 'A' } }]);
    expect(bodyOf()).toEqual([{ name: 'a' }]);

    setup.pool.intercept({ path: memberRolesPath('acme', 'u1', 'o1'), method: 'PATCH' }).reply(207, [{ status: 400, error: 'Organization o1 has no role x.' }], JSON_HEADERS);
    await expect(setup.client.revokeRoles('o1', 'u1', ['x'])).resolves.toEqual([{ name: 'x', status: 400, ok: false, error: 'Organization o1 has no role x.', role: null }]);
  });

  it('refuses a bulk answer whose entries cannot be matched to the names asked', async () => {
    setup.pool.intercept({ path: memberRolesPath('acme', 'u1', 'o1'), method: 'PUT' }).reply(207, [{ status: 201, item: role('a') }], JSON_HEADERS);
    const error = await setup.client.grantRoles('o1', 'u1', ['a', 'b']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(String(error)).toMatch(/1 entries for 2 roles asked/);
    setup.pool.intercept({ path: memberRolesPath('acme', 'u1', 'o1'), method: 'PUT' }).reply(207, { status: 201 }, JSON_HEADERS);
    await expect(setup.client.grantRoles('o1', 'u1', ['a'])).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it('reads the users of a role, checks, grants and revokes one grant', async () => {
    setup.pool.intercept({ path: roleUsersPath('acme', 'o1', 'editor'), query: { excludeAdminAccounts: 'true' } }).reply(200, [member('u1')], JSON_HEADERS);
    await expect(setup.client.listRoleUsers('o1', 'editor', { excludeAdminAccounts: true })).resolves.toEqual([member('u1')]);
    setup.pool.intercept({ path: roleUserPath('acme', 'o1', 'editor', 'u1') }).reply(204, '');
    setup.pool.intercept({ path: roleUserPath('acme', 'o1', 'editor', 'u2') }).reply(404, errorBody('not_found', 'User u2 does not have role editor.'));
    await expect(setup.client.hasRole('o1', 'editor', 'u1')).resolves.toBe(true);
    await expect(setup.client.hasRole('o1', 'editor', 'u2')).resolves.toBe(false);
    setup.pool.intercept({ path: roleUserPath('acme', 'o1', 'editor', 'u1'), method: 'PUT' }).reply(201, '');
    setup.pool.intercept({ path: roleUserPath('acme', 'o1', 'editor', 'u1'), method: 'DELETE' }).reply(204, '');
    await setup.client.grantRole('o1', 'editor', 'u1');
    await setup.client.revokeRole('o1', 'editor', 'u1');
  });

  it('reads a user\'s organizations and a member\'s roles', async () => {
    setup.pool.intercept({ path: userOrganizationsPath('acme', 'u1') }).reply(200, [org('o1')], JSON_HEADERS);
    setup.pool.intercept({ path: memberRolesPath('acme', 'u1', 'o1') }).reply(200, [role('view-roles', 'View')], JSON_HEADERS);
    await expect(setup.client.listUserOrganizations('u1')).resolves.toEqual([org('o1')]);
    await expect(setup.client.listMemberRoles('o1', 'u1')).resolves.toEqual([{ id: 'id-view-roles', name: 'view-roles', description: 'View' }]);
  });

  it('throws BadRequestError with error not_member for a grant to a non-member', async () => {
    setup.pool.intercept({ path: roleUserPath('acme', 'o1', 'editor', 'u9'), method: 'PUT' }).reply(400, errorBody('not_member', 'User u9 must be a member of organization o1 to be granted a role.'));
    const error = await setup.client.grantRole('o1', 'editor', 'u9').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, error: 'not_member' });
  });

  it('refuses empty ids, names and bad role inputs before sending anything', async () => {
    await expect(setup.client.getRole('o1', '')).rejects.toThrow('name must be a non-empty string');
    await expect(setup.client.grantRoles('o1', 'u1', ['ok', ''])).rejects.toThrow('names[1] must be a non-empty string');
    await expect(setup.client.createRoles('o1', [{ name: 'a', description: 5 as unknown as string }])).rejects.toThrow('description must be a string or null');
    await expect(setup.client.revokeRoles('o1', 'u1', 'a' as unknown as string[])).rejects.toThrow('revokeRoles: names must be an array');
    expect(setup.calls()).toHaveLength(0);
  });
});

describe('the retry policy for role methods', () => {
  it('retries a bulk grant (PUT) and a bulk revoke (PATCH, repeatable) after 503', async () => {
    for (const method of ['PUT', 'PATCH'] as const) {
      setup.pool.intercept({ path: memberRolesPath('acme', 'u1', 'o1'), method }).reply(503, '');
      setup.pool.intercept({ path: memberRolesPath('acme', 'u1', 'o1'), method }).reply(207, [{ status: method === 'PUT' ? 201 : 204, item: role('a') }], JSON_HEADERS);
    }
    await expect(setup.client.grantRoles('o1', 'u1', ['a'])).resolves.toMatchObject([{ ok: true }]);
    await expect(setup.client.revokeRoles('o1', 'u1', ['a'])).resolves.toMatchObject([{ ok: true }]);
    expect(setup.apiCalls().map((c) => c.method)).toEqual(['PUT', 'PUT', 'PATCH', 'PATCH']);
  });

  it('retries a bulk delete (PATCH) after a dropped connection', async () => {
    setup.pool.intercept({ path: rolesPath('acme', 'o1'), method: 'PATCH' }).replyWithError(systemError('ECONNRESET'));
    setup.pool.intercept({ path: rolesPath('acme', 'o1'), method: 'PATCH' }).reply(207, [{ status: 204, item: { name: 'x' } }], JSON_HEADERS);
    await expect(setup.client.deleteRoles('o1', ['x'])).resolves.toMatchObject([{ ok: true }]);
  });

  it('never retries a role create (POST) after 503 or a reset connection: it may have created the role', async () => {
    setup.pool.intercept({ path: rolesPath('acme', 'o1'), method: 'POST' }).reply(503, errorBody('internal_error', 'Oops'));
    await expect(setup.client.createRole('o1', { name: 'x' })).rejects.toBeInstanceOf(ServerError);
    setup.pool.intercept({ path: rolesPath('acme', 'o1'), method: 'POST' }).replyWithError(systemError('ECONNRESET'));
    await expect(setup.client.createRole('o1', { name: 'x' })).rejects.toBeInstanceOf(NetworkError);
    expect(setup.apiCalls()).toHaveLength(2);
  });
});
