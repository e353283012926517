import { MAX_QUERY_TERMS, orgPath, orgsCountPath, orgsPath } from '../../../src/api';
import { attributeMatchesOf } from '../../../src/service/admin/organizations';
import { normalizeDomains } from '../../../src/service/routes/organizations';
import { createTestRealm, getToken, type TestService } from '../../helpers/service';
import { call, startServiceWithToken } from '../support';

describe('organizations', () => {
  let svc: TestService;
  let token: string;
  const orgs = orgsPath('acme');

  /** Creates an organization and returns its id (from the Location header). */
  async function create(body: Record<string, unknown>): Promise<string> {
    const res = await call(svc, { method: 'POST', url: orgs, token, payload: body });
    expect(res.status).toBe(201);
    return decodeURIComponent(String(res.headers.location).split('/').pop()!);
  }

  beforeAll(async () => {
    ({ svc, token } = await startServiceWithToken());
  });
  afterAll(async () => {
    await svc.close();
  });

  describe('POST /realms/{realm}/orgs', () => {
    it('answers 201 with an empty body and Location = request URL + id', async () => {
      const res = await call(svc, { method: 'POST', url: orgs, token, payload: { name: 'create-me' } });
      expect(res.status).toBe(201);
      expect(res.text).toBe('');
      expect(res.headers.location).toMatch(new RegExp(`^${svc.baseUrl}/realms/acme/orgs/[0-9a-f-]{36}$`));
    });

    it('stores the representation with lowercase, deduplicated domains', async () => {
      const id = await create({
        name: 'full',
        displayName: 'Full Org',
        url: 'https://full.example.com/home',
        domains: ['Full.Example.com', 'full.example.com', 'other.org'],
        attributes: { tier: ['gold'], region: ['eu', 'us'] },
      });
      const res = await call(svc, { method: 'GET', url: orgPath('acme', id), token });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        id,
        name: 'full',
        displayName: 'Full Org',
        url: 'https://full.example.com/home',
        domains: ['full.example.com', 'other.org'],
        attributes: { tier: ['gold'], region: ['eu', 'us'] },
        realm: 'acme',
      });
    });

    it('honours a given id and ignores realm in the body', async () => {
      const res = await call(svc, { method: 'POST', url: orgs, token, payload: { id: 'my id/1', name: 'given-id', realm: 'elsewhere' } });
      expect(res.status).toBe(201);
      expect(res.headers.location).toBe(`${svc.baseUrl}/realms/acme/orgs/my%20id%2F1`);
      const got = await call(svc, { method: 'GET', url: orgPath('acme', 'my id/1'), token });
      expect(got.json).toMatchObject({ id: 'my id/1', realm: 'acme' });
    });

    it('creates the default admin user as the only member', async () => {
      const id = await create({ name: 'with-admin' });
      const members = await call(svc, { method: 'GET', url: `${orgPath('acme', id)}/members`, token });
      expect(members.json.map((m: { username: string }) => m.username)).toEqual([`org-admin-${id}`]);
    });

    it('skips the default admin user when the realm is configured so', async () => {
      await svc.admin.createRealm('bare', { createAdminUser: false });
      const key = await svc.admin.createApiKey('bare', { name: 'k', permissions: ['create-organization', 'view-organizations'] });
      const bareToken = await getToken(svc, 'bare', key.clientId, key.clientSecret);
      const res = await call(svc, { method: 'POST', url: orgsPath('bare'), token: bareToken, payload: { name: 'lonely' } });
      expect(res.status).toBe(201);
      const id = String(res.headers.location).split('/').pop()!;
      const count = await call(svc, { method: 'GET', url: `${orgPath('bare', id)}/members/count`, token: bareToken });
      expect(count.json).toBe(0);
    });

    it('answers 409 when the name is taken', async () => {
      await create({ name: 'taken' });
      const res = await call(svc, { method: 'POST', url: orgs, token, payload: { name: 'taken' } });
      expect(res.status).toBe(409);
      expect(res.json).toEqual({ error: 'conflict', error_description: expect.stringContaining('taken') });
    });

    it('answers 409 when the id is taken, and creates nothing', async () => {
      const id = await create({ name: 'id-owner' });
      const before = await call(svc, { method: 'GET', url: orgsCountPath('acme'), token });
      const res = await call(svc, { method: 'POST', url: orgs, token, payload: { id, name: 'id-thief' } });
      expect(res.status).toBe(409);
      const after = await call(svc, { method: 'GET', url: orgsCountPath('acme'), token });
      expect(after.json).toBe(before.json);
    });

    it('answers 409 naming the reason for an id that differs from another only in case, and creates nothing (issue 27, finding 8)', async () => {
      await create({ id: 'CaseOrg', name: 'case-upper' });
      const before = await call(svc, { method: 'GET', url: orgsCountPath('acme'), token });
      const res = await call(svc, { method: 'POST', url: orgs, token, payload: { id: 'caseorg', name: 'case-lower' } });
      expect(res.status).toBe(409);
      expect(res.json).toEqual({
        error: 'conflict',
        error_description:
          'Organization id "caseorg" differs only in case from another organization\'s id in this realm; their default admin users (org-admin-caseorg) would share one username, and usernames are compared without case.',
      });
      expect((await call(svc, { method: 'GET', url: orgsCountPath('acme'), token })).json).toBe(before.json);
      expect((await call(svc, { method: 'GET', url: orgPath('acme', 'caseorg'), token })).status).toBe(404);
    });

    it.each([
      ['no name', {}],
      ['an empty name', { name: '' }],
      ['a name of the wrong type', { name: 5 }],
      ['a name over 255 characters', { name: 'x'.repeat(256) }],
      ['a relative url', { name: 'u1', url: '/relative' }],
      ['an ftp url', { name: 'u2', url: 'ftp://example.com' }],
      ['an invalid domain', { name: 'd1', domains: ['not a domain'] }],
      ['domains of the wrong type', { name: 'd2', domains: 'example.com' }],
      ['attributes that are not lists of strings', { name: 'a1', attributes: { k: 'v' } }],
    ])('answers 400 invalid_body for %s', async (_what, body) => {
      const res = await call(svc, { method: 'POST', url: orgs, token, payload: body });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'invalid_body', error_description: expect.any(String) });
    });

    it('answers 400 for malformed JSON', async () => {
      const res = await call(svc, { method: 'POST', url: orgs, token, payload: '{"name":', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_body');
    });

    // me and count are this service's operations; export, import and config the real service's.
    it.each(['me', 'count', 'export', 'import', 'config'])('refuses the reserved id %j with 400 invalid_body saying why, and creates nothing', async (id) => {
      const before = await svc.store.countOrganizations('acme', {});
      const res = await call(svc, { method: 'POST', url: orgs, token, payload: { id, name: `reserved-${id}` } });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        error: 'invalid_body',
        error_description: `id "${id}" is reserved: GET /realms/acme/orgs/${id} is another operation, so the organization could never be read.`,
      });
      expect(await svc.store.countOrganizations('acme', {})).toBe(before);
    });

    it.each([
      ['name', { name: 'nul\u0000name' }, 'name'],
      ['id', { id: 'id\u0000', name: 'c-id' }, 'id'],
      ['displayName (a tab)', { name: 'c-dn', displayName: 'Tab\there' }, 'displayName'],
      ['url', { name: 'c-url', url: 'https://example.com/\u0000' }, 'url'],
      ['a domain', { name: 'c-dom', domains: ['ok.example.com', 'bad\u0001.example.com'] }, 'domains[1]'],
      ['an attribute value', { name: 'c-av', attributes: { tier: ['gold', 'line\nbreak'] } }, 'attributes.tier[1]'],
    ])('refuses a control character in %s with 400 invalid_body naming the field, and creates nothing', async (_what, body, field) => {
      const before = await svc.store.countOrganizations('acme', {});
      const res = await call(svc, { method: 'POST', url: orgs, token, payload: body });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        error: 'invalid_body',
        error_description: `${field} must not contain control characters (U+0000 to U+001F).`,
      });
      expect(await svc.store.countOrganizations('acme', {})).toBe(before);
    });

    it('refuses a control character in an attribute key with 400 invalid_body', async () => {
      const res = await call(svc, { method: 'POST', url: orgs, token, payload: { name: 'c-ak', attributes: { 'k\u0000': ['v'] } } });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        error: 'invalid_body',
        error_description: 'The key "k\\u0000" at attributes must not contain control characters (U+0000 to U+001F).',
      });
    });

    it('answers 400 unsupported_media_type for a form body', async () => {
      const res = await call(svc, {
        method: 'POST',
        url: orgs,
        token,
        payload: 'name=formed',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('unsupported_media_type');
    });
  });

  describe('GET /realms/{realm}/orgs', () => {
    let listToken: string;
    beforeAll(async () => {
      await svc.admin.createRealm('list');
      const key = await svc.admin.createApiKey('list', { name: 'k', permissions: ['create-organization', 'view-organizations'] });
      listToken = await getToken(svc, 'list', key.clientId, key.clientSecret);
      for (const body of [
        { name: 'charlie', displayName: 'Third Co', attributes: { tier: ['gold'], city: ['New York'] } },
        { name: 'alpha', displayName: 'First Co', attributes: { tier: ['silver'] } },
        { name: 'bravo', displayName: 'Second Gold', attributes: { tier: ['gold', 'vip'], city: ['Paris'] } },
      ]) {
        const res = await call(svc, { method: 'POST', url: orgsPath('list'), token: listToken, payload: body });
        expect(res.status).toBe(201);
      }
    });
    const names = (body: Array<{ name: string }>): string[] => body.map((o) => o.name);

    it('returns all organizations sorted by name', async () => {
      const res = await call(svc, { method: 'GET', url: orgsPath('list'), token: listToken });
      expect(res.status).toBe(200);
      expect(names(res.json)).toEqual(['alpha', 'bravo', 'charlie']);
    });

    it('filters by case-insensitive substring of name or displayName', async () => {
      const byName = await call(svc, { method: 'GET', url: `${orgsPath('list')}?search=ALP`, token: listToken });
      expect(names(byName.json)).toEqual(['alpha']);
      const byDisplay = await call(svc, { method: 'GET', url: `${orgsPath('list')}?search=gold`, token: listToken });
      expect(names(byDisplay.json)).toEqual(['bravo']);
    });

    it('filters by q attribute pairs, all of which must hold, with quoted values', async () => {
      const gold = await call(svc, { method: 'GET', url: `${orgsPath('list')}?q=${encodeURIComponent('tier:gold')}`, token: listToken });
      expect(names(gold.json)).toEqual(['bravo', 'charlie']);
      const both = await call(svc, { method: 'GET', url: `${orgsPath('list')}?q=${encodeURIComponent('tier:gold city:Paris')}`, token: listToken });
      expect(names(both.json)).toEqual(['bravo']);
      const quoted = await call(svc, { method: 'GET', url: `${orgsPath('list')}?q=${encodeURIComponent('city:"New York"')}`, token: listToken });
      expect(names(quoted.json)).toEqual(['charlie']);
    });

    it('answers a q of 100 pairs, and 400 invalid_query naming the limit for more (never the database’s expression limit)', async () => {
      const pairs = (count: number) => encodeURIComponent(Array.from({ length: count }, () => 'tier:gold').join(' '));
      const atCap = await call(svc, { method: 'GET', url: `${orgsPath('list')}?q=${pairs(MAX_QUERY_TERMS)}`, token: listToken });
      expect(atCap.status).toBe(200);
      for (const url of [`${orgsPath('list')}?q=${pairs(990)}`, `${orgsCountPath('list')}?q=${pairs(MAX_QUERY_TERMS + 1)}`]) {
        const res = await call(svc, { method: 'GET', url, token: listToken });
        expect(res.status).toBe(400);
        expect(res.json).toEqual({ error: 'invalid_query', error_description: expect.stringMatching(/^q has \d+ terms; at most 100 are allowed\.$/) });
      }
    });

    it('answers 400 invalid_query for a malformed q', async () => {
      const res = await call(svc, { method: 'GET', url: `${orgsPath('list')}?q=${encodeURIComponent('novalue')}`, token: listToken });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_query');
    });

    it('pages with first and max', async () => {
      const res = await call(svc, { method: 'GET', url: `${orgsPath('list')}?first=1&max=1`, token: listToken });
      expect(names(res.json)).toEqual(['bravo']);
    });

    it.each(['max=-1', 'first=abc', 'first=-3', 'max=1.5'])('answers 400 invalid_query for %s', async (query) => {
      const res = await call(svc, { method: 'GET', url: `${orgsPath('list')}?${query}`, token: listToken });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'invalid_query', error_description: expect.any(String) });
    });

    it('defaults max to 100 and cuts values above 100 to 100', async () => {
      await svc.admin.createRealm('many', { createAdminUser: false });
      const key = await svc.admin.createApiKey('many', { name: 'k', permissions: ['create-organization', 'view-organizations'] });
      const manyToken = await getToken(svc, 'many', key.clientId, key.clientSecret);
      for (let i = 0; i < 105; i += 1) {
        await svc.store.createOrganization({
          id: `org-${i}`,
          name: `org-${String(i).padStart(3, '0')}`,
          displayName: null,
          url: null,
          domains: [],
          attributes: {},
          realm: 'many',
        });
      }
      const byDefault = await call(svc, { method: 'GET', url: orgsPath('many'), token: manyToken });
      expect(byDefault.json).toHaveLength(100);
      const capped = await call(svc, { method: 'GET', url: `${orgsPath('many')}?max=500`, token: manyToken });
      expect(capped.json).toHaveLength(100);
      const rest = await call(svc, { method: 'GET', url: `${orgsPath('many')}?first=100&max=100`, token: manyToken });
      expect(rest.json).toHaveLength(5);
    });
  });

  describe('GET /realms/{realm}/orgs/count', () => {
    it('answers a bare integer, honouring search and q', async () => {
      await svc.admin.createRealm('counted');
      const key = await svc.admin.createApiKey('counted', { name: 'k', permissions: ['create-organization', 'view-organizations'] });
      const t = await getToken(svc, 'counted', key.clientId, key.clientSecret);
      for (const name of ['one', 'two', 'three']) {
        await call(svc, { method: 'POST', url: orgsPath('counted'), token: t, payload: { name, attributes: { n: [name] } } });
      }
      const all = await call(svc, { method: 'GET', url: orgsCountPath('counted'), token: t });
      expect(all.status).toBe(200);
      expect(all.text).toBe('3');
      expect(all.headers['content-type']).toMatch(/^application\/json/);
      const searched = await call(svc, { method: 'GET', url: `${orgsCountPath('counted')}?search=t`, token: t });
      expect(searched.json).toBe(2);
      const attr = await call(svc, { method: 'GET', url: `${orgsCountPath('counted')}?q=n:one`, token: t });
      expect(attr.json).toBe(1);
    });
  });

  describe('GET /realms/{realm}/orgs/{orgId}', () => {
    it('answers 404 not_found for an unknown organization', async () => {
      const res = await call(svc, { method: 'GET', url: orgPath('acme', 'missing'), token });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: 'not_found', error_description: expect.any(String) });
    });

    it('does not show an organization of another realm', async () => {
      const id = await create({ name: 'acme-only' });
      const other = await createTestRealm(svc, 'other');
      const otherToken = await getToken(svc, 'other', other.clientId, other.clientSecret);
      const res = await call(svc, { method: 'GET', url: orgPath('other', id), token: otherToken });
      expect(res.status).toBe(404);
    });

    it('answers 400 for a path parameter over 255 characters', async () => {
      const res = await call(svc, { method: 'GET', url: orgPath('acme', 'x'.repeat(256)), token });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_request');
    });

    it.each(['%00', 'a%00b', 'x%0Ay'])('answers 400 invalid_request for a path parameter with a control character (%s)', async (raw) => {
      const res = await call(svc, { method: 'GET', url: `${orgs}/${raw}`, token });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        error: 'invalid_request',
        error_description: 'Path parameter orgId must not contain control characters (U+0000 to U+001F).',
      });
    });

    it('answers 400 invalid_query for a query value with a control character', async () => {
      const res = await call(svc, { method: 'GET', url: `${orgs}?search=a%00b`, token });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        error: 'invalid_query',
        error_description: 'Query parameter search must not contain control characters (U+0000 to U+001F).',
      });
    });

    it('accepts a path parameter of exactly 255 characters', async () => {
      const res = await call(svc, { method: 'GET', url: orgPath('acme', 'x'.repeat(255)), token });
      expect(res.status).toBe(404);
    });
  });

  describe('PUT /realms/{realm}/orgs/{orgId}', () => {
    it('replaces name, displayName, url and attributes, keeps domains when absent', async () => {
      const id = await create({
        name: 'before',
        displayName: 'Before',
        url: 'https://before.example.com',
        domains: ['before.example.com'],
        attributes: { a: ['1'] },
      });
      const res = await call(svc, { method: 'PUT', url: orgPath('acme', id), token, payload: { name: 'after', id: 'ignored', realm: 'x' } });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const got = await call(svc, { method: 'GET', url: orgPath('acme', id), token });
      // displayName and url are cleared: left out of the representation, as the real service does.
      expect(got.json).toEqual({
        id,
        name: 'after',
        domains: ['before.example.com'],
        attributes: {},
        realm: 'acme',
      });
    });

    it('replaces domains when present', async () => {
      const id = await create({ name: 'dom', domains: ['a.example.com'] });
      await call(svc, { method: 'PUT', url: orgPath('acme', id), token, payload: { name: 'dom', domains: ['B.example.com'] } });
      const got = await call(svc, { method: 'GET', url: orgPath('acme', id), token });
      expect(got.json.domains).toEqual(['b.example.com']);
      await call(svc, { method: 'PUT', url: orgPath('acme', id), token, payload: { name: 'dom', domains: [] } });
      const cleared = await call(svc, { method: 'GET', url: orgPath('acme', id), token });
      expect(cleared.json.domains).toEqual([]);
    });

    it('answers 404 for an unknown organization', async () => {
      const res = await call(svc, { method: 'PUT', url: orgPath('acme', 'missing'), token, payload: { name: 'x' } });
      expect(res.status).toBe(404);
    });

    it('answers 409 when renaming onto a taken name, changing nothing', async () => {
      await create({ name: 'occupied' });
      const id = await create({ name: 'mover', displayName: 'Mover' });
      const res = await call(svc, { method: 'PUT', url: orgPath('acme', id), token, payload: { name: 'occupied' } });
      expect(res.status).toBe(409);
      const got = await call(svc, { method: 'GET', url: orgPath('acme', id), token });
      expect(got.json).toMatchObject({ name: 'mover', displayName: 'Mover' });
    });

    it('refuses a control character in an update with 400 invalid_body, changing nothing', async () => {
      const id = await create({ name: 'upd-ctl' });
      const res = await call(svc, { method: 'PUT', url: orgPath('acme', id), token, payload: { name: 'upd\u0000ctl' } });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'invalid_body', error_description: 'name must not contain control characters (U+0000 to U+001F).' });
      expect((await call(svc, { method: 'GET', url: orgPath('acme', id), token })).json.name).toBe('upd-ctl');
    });

    it('answers 400 for an invalid body', async () => {
      const id = await create({ name: 'strict' });
      const res = await call(svc, { method: 'PUT', url: orgPath('acme', id), token, payload: { name: 'strict', url: 'nope' } });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_body');
    });
  });

  describe('DELETE /realms/{realm}/orgs/{orgId}', () => {
    it('answers 204, removes the organization and its default admin user', async () => {
      const id = await create({ name: 'doomed' });
      expect(await svc.admin.findUserByUsername('acme', `org-admin-${id}`)).toBeDefined();
      const res = await call(svc, { method: 'DELETE', url: orgPath('acme', id), token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await call(svc, { method: 'GET', url: orgPath('acme', id), token })).status).toBe(404);
      expect(await svc.admin.findUserByUsername('acme', `org-admin-${id}`)).toBeUndefined();
    });

    it('answers 404 for an unknown organization', async () => {
      const res = await call(svc, { method: 'DELETE', url: orgPath('acme', 'missing'), token });
      expect(res.status).toBe(404);
      expect(res.json.error).toBe('not_found');
    });
  });
});

describe('attributeMatchesOf', () => {
  it('reads space-separated key:value pairs with quoted keys and values', () => {
    expect(attributeMatchesOf('tier:gold  "cost center":"north east" empty:')).toEqual([
      ['tier', 'gold'],
      ['cost center', 'north east'],
      ['empty', ''],
    ]);
  });

  it.each(['novalue', ':x', 'a:"open', 'a:b"c"'])('refuses %j with 400 invalid_query', (q) => {
    expect(() => attributeMatchesOf(q)).toThrow(expect.objectContaining({ statusCode: 400, code: 'invalid_query' }));
  });
});

describe('normalizeDomains', () => {
  it('says why a domain is refused in the words the provider and the constructs use (src/api/validation.ts)', () => {
    expect(() => normalizeDomains(['a..b'])).toThrow('Domain "a..b" is not a valid DNS name: it has an empty label (two dots in a row, or a leading dot).');
  });

  it('lowercases, trims a trailing dot and drops duplicates in order', () => {
    expect(normalizeDomains(['B.example.com', 'a.example.com.', 'b.EXAMPLE.com'])).toEqual(['b.example.com', 'a.example.com']);
  });

  it.each(['-bad.com', 'a..b', 'under_score.com', 'x'.repeat(64) + '.com', 'http://x.com'])('refuses %j', (domain) => {
    expect(() => normalizeDomains([domain])).toThrow(expect.objectContaining({ statusCode: 400, code: 'invalid_body' }));
  });
});
