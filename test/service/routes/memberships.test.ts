import { MAX_QUERY_TERMS, memberPath, membersCountPath, membersPath, orgPath, orgsMePath, orgsPath, tokenPath } from '../../../src/api';
import { getToken, type TestService } from '../../helpers/service';
import { call, postForm, startServiceWithToken } from '../support';

describe('memberships', () => {
  let svc: TestService;
  let token: string;
  let alice: string;
  let bob: string;
  let carol: string;

  async function createOrg(name: string, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: { name, ...extra } });
    expect(res.status).toBe(201);
    return decodeURIComponent(String(res.headers.location).split('/').pop()!);
  }

  beforeAll(async () => {
    ({ svc, token } = await startServiceWithToken());
    alice = (await svc.admin.createUser('acme', { username: 'alice', email: 'alice@example.com', firstName: 'Alice', lastName: 'Liddell', password: 'pw-alice' })).id;
    bob = (await svc.admin.createUser('acme', { username: 'bob', email: 'bob@example.org', firstName: 'Robert', lastName: 'Builder' })).id;
    carol = (await svc.admin.createUser('acme', { username: 'carol', email: 'carol@example.net' })).id;
  });
  afterAll(async () => {
    await svc.close();
  });

  describe('PUT /realms/{realm}/orgs/{orgId}/members/{userId}', () => {
    it('answers 201 with an empty body and Location = the member URL', async () => {
      const org = await createOrg('add-one');
      const res = await call(svc, { method: 'PUT', url: memberPath('acme', org, alice), token });
      expect(res.status).toBe(201);
      expect(res.text).toBe('');
      expect(res.headers.location).toBe(`${svc.baseUrl}${memberPath('acme', org, alice)}`);
    });

    it('is idempotent: adding an existing member answers 201 and keeps one membership', async () => {
      const org = await createOrg('add-twice');
      expect((await call(svc, { method: 'PUT', url: memberPath('acme', org, bob), token })).status).toBe(201);
      expect((await call(svc, { method: 'PUT', url: memberPath('acme', org, bob), token })).status).toBe(201);
      const count = await call(svc, { method: 'GET', url: `${membersCountPath('acme', org)}?excludeAdminAccounts=true`, token });
      expect(count.json).toBe(1);
    });

    it('answers 404 for an unknown user or organization', async () => {
      const org = await createOrg('add-missing');
      const noUser = await call(svc, { method: 'PUT', url: memberPath('acme', org, 'ghost'), token });
      expect(noUser.status).toBe(404);
      expect(noUser.json.error).toBe('not_found');
      const noOrg = await call(svc, { method: 'PUT', url: memberPath('acme', 'ghost-org', alice), token });
      expect(noOrg.status).toBe(404);
    });

    it('answers 404 for a user of another realm', async () => {
      await svc.admin.createRealm('elsewhere');
      const stranger = await svc.admin.createUser('elsewhere', { username: 'stranger' });
      const org = await createOrg('add-stranger');
      const res = await call(svc, { method: 'PUT', url: memberPath('acme', org, stranger.id), token });
      expect(res.status).toBe(404);
    });
  });

  describe('GET /realms/{realm}/orgs/{orgId}/members/{userId}', () => {
    it('answers 204 with an empty body for a member and 404 otherwise', async () => {
      const org = await createOrg('check');
      await call(svc, { method: 'PUT', url: memberPath('acme', org, alice), token });
      const member = await call(svc, { method: 'GET', url: memberPath('acme', org, alice), token });
      expect(member.status).toBe(204);
      expect(member.text).toBe('');
      const notMember = await call(svc, { method: 'GET', url: memberPath('acme', org, bob), token });
      expect(notMember.status).toBe(404);
      expect(notMember.json.error).toBe('not_found');
      expect((await call(svc, { method: 'GET', url: memberPath('acme', org, 'ghost'), token })).status).toBe(404);
      expect((await call(svc, { method: 'GET', url: memberPath('acme', 'ghost-org', alice), token })).status).toBe(404);
    });
  });

  describe('DELETE /realms/{realm}/orgs/{orgId}/members/{userId}', () => {
    it('answers 204 and removes the membership', async () => {
      const org = await createOrg('remove');
      await call(svc, { method: 'PUT', url: memberPath('acme', org, alice), token });
      const res = await call(svc, { method: 'DELETE', url: memberPath('acme', org, alice), token });
      expect(res.status).toBe(204);
      expect((await call(svc, { method: 'GET', url: memberPath('acme', org, alice), token })).status).toBe(404);
    });

    it('answers 404 for a non-member or an unknown user', async () => {
      const org = await createOrg('remove-missing');
      expect((await call(svc, { method: 'DELETE', url: memberPath('acme', org, bob), token })).status).toBe(404);
      expect((await call(svc, { method: 'DELETE', url: memberPath('acme', org, 'ghost'), token })).status).toBe(404);
    });

    it('answers 403 for the default organization user and keeps it', async () => {
      const org = await createOrg('keep-admin');
      const admin = await svc.admin.findUserByUsername('acme', `org-admin-${org}`);
      const res = await call(svc, { method: 'DELETE', url: memberPath('acme', org, admin!.id), token });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ error: 'forbidden', error_description: 'Cannot remove default organization user.' });
      expect((await call(svc, { method: 'GET', url: memberPath('acme', org, admin!.id), token })).status).toBe(204);
    });
  });

  describe('GET /realms/{realm}/orgs/{orgId}/members', () => {
    let org: string;
    beforeAll(async () => {
      org = await createOrg('listed');
      // Added in this order on purpose: the list follows membership creation, not names.
      for (const user of [carol, alice, bob]) await call(svc, { method: 'PUT', url: memberPath('acme', org, user), token });
    });
    const usernames = (body: Array<{ username: string }>): string[] => body.map((m) => m.username);

    it('lists members in membership order with the member representation', async () => {
      const res = await call(svc, { method: 'GET', url: membersPath('acme', org), token });
      expect(res.status).toBe(200);
      expect(usernames(res.json)).toEqual([`org-admin-${org}`, 'carol', 'alice', 'bob']);
      expect(res.json[2]).toEqual({
        id: alice,
        username: 'alice',
        email: 'alice@example.com',
        firstName: 'Alice',
        lastName: 'Liddell',
        emailVerified: false,
        enabled: true,
        createdTimestamp: expect.any(Number),
      });
    });

    it('leaves out admin accounts with excludeAdminAccounts=true', async () => {
      const res = await call(svc, { method: 'GET', url: `${membersPath('acme', org)}?excludeAdminAccounts=true`, token });
      expect(usernames(res.json)).toEqual(['carol', 'alice', 'bob']);
    });

    it('matches any of comma-separated search terms on username, email, first or last name', async () => {
      const res = await call(svc, { method: 'GET', url: `${membersPath('acme', org)}?search=${encodeURIComponent('LIDDELL,example.org')}`, token });
      expect(usernames(res.json)).toEqual(['alice', 'bob']);
      const byFirst = await call(svc, { method: 'GET', url: `${membersPath('acme', org)}?search=robert`, token });
      expect(usernames(byFirst.json)).toEqual(['bob']);
    });

    it('answers a search of 100 terms, and 400 invalid_query naming the limit for more (never the database’s expression limit)', async () => {
      const terms = (count: number) => encodeURIComponent(Array.from({ length: count }, (_, i) => `term${i}`).join(','));
      const atCap = await call(svc, { method: 'GET', url: `${membersPath('acme', org)}?search=${terms(MAX_QUERY_TERMS)}`, token });
      expect(atCap.status).toBe(200);
      const res = await call(svc, { method: 'GET', url: `${membersPath('acme', org)}?search=${terms(990)}`, token });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'invalid_query', error_description: 'search has 990 terms; at most 100 are allowed.' });
    });

    it('fills organizations only with includeOrgs=true', async () => {
      const other = await createOrg('second-home');
      await call(svc, { method: 'PUT', url: memberPath('acme', other, carol), token });
      const plain = await call(svc, { method: 'GET', url: `${membersPath('acme', org)}?search=carol`, token });
      expect(plain.json[0].organizations).toBeUndefined();
      const withOrgs = await call(svc, { method: 'GET', url: `${membersPath('acme', org)}?search=carol&includeOrgs=true`, token });
      // Organization id → the member's roles there (none: the service has no organization roles).
      expect(withOrgs.json[0].organizations).toEqual({ [org]: [], [other]: [] });
    });

    it('pages with first and max', async () => {
      const res = await call(svc, { method: 'GET', url: `${membersPath('acme', org)}?first=1&max=2`, token });
      expect(usernames(res.json)).toEqual(['carol', 'alice']);
    });

    it.each(['max=-1', 'first=abc', 'excludeAdminAccounts=maybe'])('answers 400 invalid_query for %s', async (query) => {
      const res = await call(svc, { method: 'GET', url: `${membersPath('acme', org)}?${query}`, token });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_query');
    });

    it('answers 404 for an unknown organization', async () => {
      const res = await call(svc, { method: 'GET', url: membersPath('acme', 'ghost-org'), token });
      expect(res.status).toBe(404);
    });

    it('caps max at 1000', async () => {
      await svc.admin.createRealm('crowd', { createAdminUser: false });
      const key = await svc.admin.createApiKey('crowd', { name: 'k', permissions: ['view-organizations'] });
      const crowdToken = await getToken(svc, 'crowd', key.clientId, key.clientSecret);
      await svc.store.createOrganization({ id: 'big', name: 'big', displayName: null, url: null, domains: [], attributes: {}, realm: 'crowd' });
      for (let i = 0; i < 1003; i += 1) {
        const id = `u${i}`;
        await svc.store.createUser({
          id,
          realm: 'crowd',
          username: id,
          email: null,
          firstName: null,
          lastName: null,
          emailVerified: false,
          enabled: true,
          createdTimestamp: Date.now(),
          kind: 'user',
          adminOfOrganization: null,
          passwordHash: null,
        });
        await svc.store.addMember('crowd', 'big', id, Date.now());
      }
      const byDefault = await call(svc, { method: 'GET', url: membersPath('crowd', 'big'), token: crowdToken });
      expect(byDefault.json).toHaveLength(100);
      const capped = await call(svc, { method: 'GET', url: `${membersPath('crowd', 'big')}?max=5000`, token: crowdToken });
      expect(capped.json).toHaveLength(1000);
      const count = await call(svc, { method: 'GET', url: membersCountPath('crowd', 'big'), token: crowdToken });
      expect(count.json).toBe(1003);
    });
  });

  describe('paging a large organization with the largest page', () => {
    it('walks every member once, and a member leaving between pages moves the later ones up', async () => {
      await svc.admin.createRealm('walk', { createAdminUser: false });
      const key = await svc.admin.createApiKey('walk', { name: 'k', permissions: ['view-organizations', 'manage-organizations'] });
      const walkToken = await getToken(svc, 'walk', key.clientId, key.clientSecret);
      await svc.store.createOrganization({ id: 'walked', name: 'walked', displayName: null, url: null, domains: [], attributes: {}, realm: 'walk' });
      const ids = Array.from({ length: 2500 }, (_, i) => `w${i}`);
      for (const [i, id] of ids.entries()) {
        await svc.store.createUser({
          id, realm: 'walk', username: id, email: null, firstName: null, lastName: null, emailVerified: false, enabled: true,
          createdTimestamp: 1, kind: 'user', adminOfOrganization: null, passwordHash: null,
        });
        await svc.store.addMember('walk', 'walked', id, i);
      }
      const page = async (first: number): Promise<string[]> => {
        const res = await call(svc, { method: 'GET', url: `${membersPath('walk', 'walked')}?first=${first}&max=1000`, token: walkToken });
        expect(res.status).toBe(200);
        return (res.json as Array<{ id: string }>).map((member) => member.id);
      };
      expect([...(await page(0)), ...(await page(1000)), ...(await page(2000))]).toEqual(ids);
      // Walk again; w10 (already read) leaves before the second page.
      expect(await page(0)).toEqual(ids.slice(0, 1000));
      expect((await call(svc, { method: 'DELETE', url: memberPath('walk', 'walked', 'w10'), token: walkToken })).status).toBe(204);
      const rest = ids.filter((id) => id !== 'w10');
      expect(await page(1000)).toEqual(rest.slice(1000, 2000));
      expect(await page(2000)).toEqual(rest.slice(2000));

      // A large page is written a part at a time (response-check.ts): the same text and headers as
      // the small pages that make it up, written in one go.
      const get = (query: string) => call(svc, { method: 'GET', url: `${membersPath('walk', 'walked')}?${query}`, token: walkToken });
      const large = await get('first=0&max=1000');
      const small = [];
      for (let first = 0; first < 1000; first += 100) small.push(await get(`first=${first}&max=100`));
      expect(large.text).toBe(JSON.stringify(small.flatMap((res) => res.json as unknown[])));
      expect(large.text).toBe(`[${small.map((res) => res.text.slice(1, -1)).join(',')}]`);
      expect(large.headers['content-type']).toBe(small[0]!.headers['content-type']);
    });
  });

  describe('GET /realms/{realm}/orgs/{orgId}/members/count', () => {
    it('answers a bare integer that counts the default admin user unless excluded', async () => {
      const org = await createOrg('counting');
      await call(svc, { method: 'PUT', url: memberPath('acme', org, alice), token });
      const all = await call(svc, { method: 'GET', url: membersCountPath('acme', org), token });
      expect(all.status).toBe(200);
      expect(all.text).toBe('2');
      const people = await call(svc, { method: 'GET', url: `${membersCountPath('acme', org)}?excludeAdminAccounts=true`, token });
      expect(people.json).toBe(1);
    });

    it('answers 404 for an unknown organization', async () => {
      expect((await call(svc, { method: 'GET', url: membersCountPath('acme', 'ghost-org'), token })).status).toBe(404);
    });
  });

  describe('GET /realms/{realm}/orgs/me', () => {
    it('lists the organizations of the token subject, and a user without permissions may call it', async () => {
      const org = await createOrg('mine', { displayName: 'Mine Inc', url: 'https://mine.example.com', attributes: { k: ['v'] } });
      const plain = await createOrg('mine-plain');
      await call(svc, { method: 'PUT', url: memberPath('acme', org, alice), token });
      await call(svc, { method: 'PUT', url: memberPath('acme', plain, alice), token });
      const login = await postForm(svc, tokenPath('acme'), { grant_type: 'password', client_id: 'admin-cli', username: 'alice', password: 'pw-alice' });
      const userToken = login.json.access_token;
      const res = await call(svc, { method: 'GET', url: orgsMePath('acme'), token: userToken });
      expect(res.status).toBe(200);
      expect(res.json[org]).toEqual({ name: 'mine', displayName: 'Mine Inc', url: 'https://mine.example.com', attributes: { k: ['v'] }, roles: [] });
      expect(res.json[plain]).toEqual({ name: 'mine-plain', attributes: {}, roles: [] });
    });

    it('answers {} when the subject belongs to no organization', async () => {
      const res = await call(svc, { method: 'GET', url: orgsMePath('acme'), token });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({});
    });

    it('answers 401 without a token', async () => {
      const res = await call(svc, { method: 'GET', url: orgsMePath('acme') });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="acme", error="invalid_token"');
    });

    it('lets a user read an organization it belongs to, but not others, nor the list', async () => {
      const org = await createOrg('readable');
      const hidden = await createOrg('hidden');
      await call(svc, { method: 'PUT', url: memberPath('acme', org, alice), token });
      const login = await postForm(svc, tokenPath('acme'), { grant_type: 'password', client_id: 'admin-cli', username: 'alice', password: 'pw-alice' });
      const userToken = login.json.access_token;
      expect((await call(svc, { method: 'GET', url: orgPath('acme', org), token: userToken })).json.name).toBe('readable');
      const denied = await call(svc, { method: 'GET', url: orgPath('acme', hidden), token: userToken });
      expect(denied.status).toBe(403);
      expect(denied.json.error).toBe('insufficient_scope');
      expect((await call(svc, { method: 'GET', url: orgsPath('acme'), token: userToken })).status).toBe(403);
    });
  });
});
