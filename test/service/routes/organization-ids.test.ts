/**
 * Organization ids are per realm (issue 27, finding 8): a key of one realm can neither detect nor
 * squat an id another realm uses. Two realms each create an organization with one chosen id (both
 * 201) and each sees only its own, with its own members (also through the membership check's fast
 * path, which this service runs); the import takes an id another realm uses; deleting one leaves
 * the other.
 */
import { memberPath, membersPath, orgPath, orgsPath } from '../../../src/api';
import { createTestRealm, getToken, startTestService, type TestService } from '../../helpers/service';
import { call } from '../support';

describe('organization ids are per realm', () => {
  let svc: TestService;
  let acme: string;
  let beta: string;

  beforeAll(async () => {
    svc = await startTestService({ app: { memberCheckFastPath: true } });
    const acmeKey = await createTestRealm(svc, 'acme');
    const betaKey = await createTestRealm(svc, 'beta');
    acme = await getToken(svc, 'acme', acmeKey.clientId, acmeKey.clientSecret);
    beta = await getToken(svc, 'beta', betaKey.clientId, betaKey.clientSecret);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('lets two realms create an organization of one id, each seeing only its own, and delete one without the other', async () => {
    const created = await call(svc, { method: 'POST', url: orgsPath('acme'), token: acme, payload: { id: 'shared', name: 'Acme shared' } });
    expect(created.status).toBe(201);
    // Nothing tells beta that acme uses the id.
    const theirs = await call(svc, { method: 'POST', url: orgsPath('beta'), token: beta, payload: { id: 'shared', name: 'Beta shared' } });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.location).toBe(`${svc.baseUrl}${orgPath('beta', 'shared')}`);
    expect((await call(svc, { method: 'GET', url: orgPath('acme', 'shared'), token: acme })).json).toMatchObject({ id: 'shared', name: 'Acme shared', realm: 'acme' });
    expect((await call(svc, { method: 'GET', url: orgPath('beta', 'shared'), token: beta })).json).toMatchObject({ id: 'shared', name: 'Beta shared', realm: 'beta' });
    expect((await call(svc, { method: 'GET', url: orgsPath('beta'), token: beta })).json.map((org: { name: string }) => org.name)).toEqual(['Beta shared']);

    // Within a realm the id stays taken.
    const again = await call(svc, { method: 'POST', url: orgsPath('beta'), token: beta, payload: { id: 'shared', name: 'Beta again' } });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ error: 'conflict', error_description: 'An organization with id "shared" already exists in this realm.' });

    // Members are each organization's own; the membership check answers per realm.
    const bob = await svc.admin.createUser('beta', { username: 'bob' });
    expect((await call(svc, { method: 'PUT', url: memberPath('beta', 'shared', bob.id), token: beta })).status).toBe(201);
    expect((await call(svc, { method: 'GET', url: memberPath('beta', 'shared', bob.id), token: beta })).status).toBe(204);
    expect((await call(svc, { method: 'GET', url: memberPath('acme', 'shared', bob.id), token: acme })).status).toBe(404);
    const acmeMembers = await call(svc, { method: 'GET', url: membersPath('acme', 'shared'), token: acme });
    expect(acmeMembers.json.map((member: { username: string }) => member.username)).toEqual(['org-admin-shared']);
    const betaMembers = await call(svc, { method: 'GET', url: membersPath('beta', 'shared'), token: beta });
    expect(betaMembers.json.map((member: { username: string }) => member.username)).toEqual(['org-admin-shared', 'bob']);

    expect((await call(svc, { method: 'DELETE', url: orgPath('acme', 'shared'), token: acme })).status).toBe(204);
    expect((await call(svc, { method: 'GET', url: orgPath('acme', 'shared'), token: acme })).status).toBe(404);
    expect((await call(svc, { method: 'GET', url: orgPath('beta', 'shared'), token: beta })).json).toMatchObject({ name: 'Beta shared' });
    expect((await call(svc, { method: 'GET', url: memberPath('beta', 'shared', bob.id), token: beta })).status).toBe(204);
  });

  it('imports an organization whose id another realm uses', async () => {
    expect((await call(svc, { method: 'POST', url: orgsPath('acme'), token: acme, payload: { id: 'moving', name: 'Moving' } })).status).toBe(201);
    const exported = await call(svc, { method: 'GET', url: `${orgsPath('acme')}/export`, token: acme });
    expect(exported.status).toBe(200);
    const moving = exported.json.organizations.filter((org: { id: string }) => org.id === 'moving');
    expect(moving).toHaveLength(1);
    const imported = await call(svc, { method: 'POST', url: `${orgsPath('beta')}/import`, token: beta, payload: { organizations: moving } });
    expect(imported.status).toBe(200);
    expect(imported.json).toMatchObject({ imported: 1, updated: 0, errors: [] });
    expect((await call(svc, { method: 'GET', url: orgPath('beta', 'moving'), token: beta })).json).toMatchObject({ id: 'moving', name: 'Moving', realm: 'beta' });
    expect((await call(svc, { method: 'GET', url: orgPath('acme', 'moving'), token: acme })).json).toMatchObject({ id: 'moving', realm: 'acme' });
  });
});
