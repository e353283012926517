import { usersPath } from '../../../src/api';
import { createTestRealm, getToken, type TestService } from '../../helpers/service';
import { call, startServiceWithToken } from '../support';

describe('GET /admin/realms/{realm}/users', () => {
  let svc: TestService;
  let token: string;

  beforeAll(async () => {
    ({ svc, token } = await startServiceWithToken());
    await svc.admin.createUser('acme', { username: 'alice', email: 'alice@example.com', firstName: 'Alice' });
    await svc.admin.createUser('acme', { username: 'alicia', email: 'alicia@example.org' });
    await svc.admin.createUser('acme', { username: 'bob', email: 'bob@example.com', lastName: 'Builder' });
  });
  afterAll(async () => {
    await svc.close();
  });
  const usernames = (body: Array<{ username: string }>): string[] => body.map((u) => u.username);

  it('lists the realm users ordered by username, without service accounts', async () => {
    const res = await call(svc, { method: 'GET', url: usersPath('acme'), token });
    expect(res.status).toBe(200);
    expect(usernames(res.json)).toEqual(['alice', 'alicia', 'bob']);
    expect(res.json[0]).toEqual({
      id: expect.any(String),
      username: 'alice',
      email: 'alice@example.com',
      firstName: 'Alice',
      emailVerified: false,
      enabled: true,
      createdTimestamp: expect.any(Number),
    });
  });

  it('matches username as a substring, or exactly with exact=true', async () => {
    const loose = await call(svc, { method: 'GET', url: `${usersPath('acme')}?username=ali`, token });
    expect(usernames(loose.json)).toEqual(['alice', 'alicia']);
    const exact = await call(svc, { method: 'GET', url: `${usersPath('acme')}?username=ALICE&exact=true`, token });
    expect(usernames(exact.json)).toEqual(['alice']);
  });

  it('finds a user by exact email', async () => {
    const res = await call(svc, { method: 'GET', url: `${usersPath('acme')}?email=${encodeURIComponent('bob@example.com')}&exact=true`, token });
    expect(usernames(res.json)).toEqual(['bob']);
  });

  it('searches username, email, first and last name', async () => {
    const res = await call(svc, { method: 'GET', url: `${usersPath('acme')}?search=builder`, token });
    expect(usernames(res.json)).toEqual(['bob']);
  });

  it('pages with first and max and refuses bad values', async () => {
    const res = await call(svc, { method: 'GET', url: `${usersPath('acme')}?first=1&max=1`, token });
    expect(usernames(res.json)).toEqual(['alicia']);
    const bad = await call(svc, { method: 'GET', url: `${usersPath('acme')}?max=-5`, token });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe('invalid_query');
  });

  it('answers 403 insufficient_scope without view-users', async () => {
    const viewer = await createTestRealm(svc, 'acme', { permissions: ['view-organizations', 'manage-organizations'] });
    const viewerToken = await getToken(svc, 'acme', viewer.clientId, viewer.clientSecret);
    const res = await call(svc, { method: 'GET', url: usersPath('acme'), token: viewerToken });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('insufficient_scope');
  });

  it('answers 404 realm_not_found for an unknown realm', async () => {
    const res = await call(svc, { method: 'GET', url: usersPath('nowhere'), token });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('realm_not_found');
  });
});
