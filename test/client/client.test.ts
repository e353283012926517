import { MockAgent } from 'undici';
import {
  memberPath,
  membersCountPath,
  membersPath,
  orgPath,
  orgsCountPath,
  orgsMePath,
  orgsPath,
  portalLinkPath,
  tokenPath,
  usersPath,
} from '../../src/api';
import {
  ClientCredentialsTokenSource,
  formatAttributeQuery,
  NotFoundError,
  OrgAdminClient,
  StaticTokenSource,
  UnexpectedResponseError,
} from '../../src/client';
import { BASE_URL, errorBody, JSON_HEADERS, member, mockSetup, org, replyToken, type MockSetup } from './support';

describe('OrgAdminClient construction', () => {
  const tokens = new StaticTokenSource('t');

  it('takes the realm from the first DNS label of the base address', () => {
    const client = new OrgAdminClient({ baseUrl: 'https://acme.example.com/', tokenSource: tokens, dispatcher: new MockAgent() });
    expect(client.realm).toBe('acme');
    expect(client.baseUrl).toBe('https://acme.example.com');
  });

  it('prefers an explicit realm', () => {
    const client = new OrgAdminClient({ baseUrl: BASE_URL, realm: 'globex', tokenSource: tokens, dispatcher: new MockAgent() });
    expect(client.realm).toBe('globex');
  });

  it('refuses an IP address or localhost base address without a realm, saying what to do', () => {
    expect(() => new OrgAdminClient({ baseUrl: 'http://127.0.0.1:8080', tokenSource: tokens })).toThrow(/pass options\.realm/);
    expect(() => new OrgAdminClient({ baseUrl: 'http://localhost:8080', tokenSource: tokens })).toThrow(/no realm/);
  });

  it('refuses a base address that is not an http(s) URL, and bad numeric options', () => {
    expect(() => new OrgAdminClient({ baseUrl: 'acme.example.com', tokenSource: tokens })).toThrow(/is not a URL/);
    expect(() => new OrgAdminClient({ baseUrl: 'ftp://acme.example.com', tokenSource: tokens })).toThrow(/http or https/);
    expect(() => new OrgAdminClient({ baseUrl: BASE_URL, tokenSource: tokens, maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => new OrgAdminClient({ baseUrl: BASE_URL, tokenSource: tokens, timeoutMs: 0 })).toThrow(/timeoutMs/);
  });

  it('closes its own agent on close() and can be closed twice', async () => {
    const client = new OrgAdminClient({ baseUrl: BASE_URL, tokenSource: tokens });
    await client.close();
    await expect(client.close()).resolves.toBeUndefined();
  });

  it('leaves a dispatcher passed in open on close()', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get(BASE_URL).intercept({ path: orgsCountPath('acme') }).reply(200, '3');
    const client = new OrgAdminClient({ baseUrl: BASE_URL, tokenSource: tokens, dispatcher: agent });

    await client.close();

    // The agent still answers: the client did not close what it does not own.
    await expect(new OrgAdminClient({ baseUrl: BASE_URL, tokenSource: tokens, dispatcher: agent }).countOrganizations()).resolves.toBe(3);
    await agent.close();
  });
});

describe('OrgAdminClient methods', () => {
  let setup: MockSetup;
  beforeEach(() => {
    setup = mockSetup();
    replyToken(setup.pool, 'tok');
  });
  afterEach(async () => {
    await setup.close();
  });
  const lastApiCall = () => setup.apiCalls().at(-1)!;

  it('sends the bearer token, JSON accept and the user agent', async () => {
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(200, org('o1'), JSON_HEADERS);

    await setup.client.getOrganization('o1');

    expect(lastApiCall().headers).toMatchObject({
      authorization: 'Bearer tok',
      accept: 'application/json',
      'user-agent': expect.stringMatching(/^orgadmin-client/),
    });
  });

  it('lists organizations with search, first and max as query parameters', async () => {
    setup.pool.intercept({ path: orgsPath('acme'), query: { search: 'glo bex', first: '10', max: '5' } }).reply(200, [org('o1')], JSON_HEADERS);

    await expect(setup.client.listOrganizations({ search: 'glo bex', first: 10, max: 5 })).resolves.toEqual([org('o1')]);
    expect(lastApiCall().fullUrl).toBe(`${BASE_URL}/realms/acme/orgs?search=glo%20bex&first=10&max=5`);
  });

  it('renders q given as an object as key:value pairs, quoting values with spaces', async () => {
    setup.pool.intercept({ path: orgsPath('acme'), query: { q: 'tier:"gold plus" region:eu' } }).reply(200, [], JSON_HEADERS);

    await setup.client.listOrganizations({ q: { tier: 'gold plus', region: 'eu' } });

    expect(lastApiCall().searchParams).toEqual({ q: 'tier:"gold plus" region:eu' });
  });

  it('sends q given as a string unchanged', async () => {
    setup.pool.intercept({ path: orgsCountPath('acme'), query: { q: 'a:b c:d' } }).reply(200, '2', JSON_HEADERS);

    await expect(setup.client.countOrganizations({ q: 'a:b c:d' })).resolves.toBe(2);
  });

  it('fetches every page: 250 organizations in pages of 100', async () => {
    const all = Array.from({ length: 250 }, (_, i) => org(`o${String(i).padStart(3, '0')}`));
    for (const first of [0, 100, 200]) {
      setup.pool
        .intercept({ path: orgsPath('acme'), query: { search: 'o', first: String(first), max: '100' } })
        .reply(200, all.slice(first, first + 100), JSON_HEADERS);
    }

    const result = await setup.client.listAllOrganizations({ search: 'o' });

    expect(result).toEqual(all);
    expect(setup.apiCalls()).toHaveLength(3);
  });

  it('asks once more after a full last page and stops at the empty page', async () => {
    const all = Array.from({ length: 200 }, (_, i) => org(`o${i}`));
    for (const first of [0, 100, 200]) {
      setup.pool
        .intercept({ path: orgsPath('acme'), query: { first: String(first), max: '100' } })
        .reply(200, all.slice(first, first + 100), JSON_HEADERS);
    }

    await expect(setup.client.listAllOrganizations()).resolves.toHaveLength(200);
    expect(setup.apiCalls()).toHaveLength(3);
  });

  it('stops with an error instead of looping when the service ignores first', async () => {
    const page = Array.from({ length: 100 }, (_, i) => org(`o${i}`));
    setup.pool.intercept({ path: (p) => p.startsWith(orgsPath('acme')) }).reply(200, page, JSON_HEADERS).times(2);

    await expect(setup.client.listAllOrganizations()).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it('counts organizations', async () => {
    setup.pool.intercept({ path: orgsCountPath('acme'), query: { search: 'x' } }).reply(200, '42', JSON_HEADERS);
    await expect(setup.client.countOrganizations({ search: 'x' })).resolves.toBe(42);
  });

  it('creates an organization with a JSON body and returns the id from Location', async () => {
    setup.pool
      .intercept({ path: orgsPath('acme'), method: 'POST' })
      .reply(201, '', { headers: { location: `${BASE_URL}/realms/acme/orgs/5b0c7e1a-0000-4000-8000-000000000001` } });

    const id = await setup.client.createOrganization({ name: 'globex', domains: ['globex.com'] });

    expect(id).toBe('5b0c7e1a-0000-4000-8000-000000000001');
    expect(lastApiCall().headers).toMatchObject({ 'content-type': 'application/json' });
    expect(JSON.parse(String(lastApiCall().body))).toEqual({ name: 'globex', domains: ['globex.com'] });
  });

  it('decodes a percent-encoded id in Location', async () => {
    setup.pool
      .intercept({ path: orgsPath('acme'), method: 'POST' })
      .reply(201, '', { headers: { location: '/realms/acme/orgs/my%20org%2F1' } });

    await expect(setup.client.createOrganization({ id: 'my org/1', name: 'n' })).resolves.toBe('my org/1');
  });

  it('throws UnexpectedResponseError when a create answer has no Location', async () => {
    setup.pool.intercept({ path: orgsPath('acme'), method: 'POST' }).reply(201, '');

    await expect(setup.client.createOrganization({ name: 'n' })).rejects.toMatchObject({
      code: 'ORGADMIN_UNEXPECTED_RESPONSE',
      message: expect.stringContaining('no Location header'),
    });
  });

  it('gets an organization, and throws NotFoundError for a missing one', async () => {
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(200, org('o1'), JSON_HEADERS);
    setup.pool.intercept({ path: orgPath('acme', 'nope') }).reply(404, errorBody('not_found', 'Organization not found'), JSON_HEADERS);

    await expect(setup.client.getOrganization('o1')).resolves.toEqual(org('o1'));
    await expect(setup.client.getOrganization('nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('percent-encodes ids so an id with a slash stays one path segment', async () => {
    setup.pool.intercept({ path: '/realms/acme/orgs/a%2Fb' }).reply(200, org('a/b'), JSON_HEADERS);

    await expect(setup.client.getOrganization('a/b')).resolves.toMatchObject({ id: 'a/b' });
  });

  it('updates an organization with PUT and a JSON body', async () => {
    setup.pool.intercept({ path: orgPath('acme', 'o1'), method: 'PUT' }).reply(204, '');

    await expect(setup.client.updateOrganization('o1', { name: 'renamed', attributes: { tier: ['gold'] } })).resolves.toBeUndefined();
    expect(JSON.parse(String(lastApiCall().body))).toEqual({ name: 'renamed', attributes: { tier: ['gold'] } });
  });

  it('deletes an organization with DELETE', async () => {
    setup.pool.intercept({ path: orgPath('acme', 'o1'), method: 'DELETE' }).reply(204, '');

    await expect(setup.client.deleteOrganization('o1')).resolves.toBeUndefined();
    expect(lastApiCall().method).toBe('DELETE');
  });

  it('creates a portal link with form fields, leaving out the ones not given', async () => {
    const link = { user: 'u1', link: 'https://acme.example.com/portal/x', redirect: 'https://app.example.com' };
    setup.pool.intercept({ path: portalLinkPath('acme', 'o1'), method: 'POST' }).reply(200, link, JSON_HEADERS);
    setup.pool.intercept({ path: portalLinkPath('acme', 'o1'), method: 'POST' }).reply(200, link, JSON_HEADERS);

    await expect(setup.client.createPortalLink('o1', { userId: 'u1', baseUri: 'https://app.example.com' })).resolves.toEqual(link);
    expect(lastApiCall().headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded' });
    expect(String(lastApiCall().body)).toBe('userId=u1&baseUri=https%3A%2F%2Fapp.example.com');

    await setup.client.createPortalLink('o1');
    expect(String(lastApiCall().body)).toBe('');
  });

  it('gets the member info of the caller', async () => {
    const info = { o1: { name: 'globex', attributes: {}, roles: ['view-organization'] } };
    setup.pool.intercept({ path: orgsMePath('acme') }).reply(200, info, JSON_HEADERS);

    await expect(setup.client.getMemberInfo()).resolves.toEqual(info);
  });

  it('lists members with the boolean flags as query parameters', async () => {
    setup.pool
      .intercept({
        path: membersPath('acme', 'o1'),
        query: { search: 'ann,bob', first: '0', max: '50', excludeAdminAccounts: 'true', includeOrgs: 'false' },
      })
      .reply(200, [member('u1')], JSON_HEADERS);

    await expect(
      setup.client.listMembers('o1', { search: 'ann,bob', first: 0, max: 50, excludeAdminAccounts: true, includeOrgs: false }),
    ).resolves.toEqual([member('u1')]);
  });

  it('fetches every member page with the page size asked for', async () => {
    const all = Array.from({ length: 5 }, (_, i) => member(`u${i}`));
    for (const first of [0, 2, 4]) {
      setup.pool
        .intercept({ path: membersPath('acme', 'o1'), query: { first: String(first), max: '2', excludeAdminAccounts: 'true' } })
        .reply(200, all.slice(first, first + 2), JSON_HEADERS);
    }

    await expect(setup.client.listAllMembers('o1', { pageSize: 2, excludeAdminAccounts: true })).resolves.toEqual(all);
  });

  it('counts members', async () => {
    setup.pool.intercept({ path: membersCountPath('acme', 'o1'), query: { excludeAdminAccounts: 'true' } }).reply(200, '7');

    await expect(setup.client.countMembers('o1', { excludeAdminAccounts: true })).resolves.toBe(7);
  });

  it('answers isMember true on 204 and false on 404', async () => {
    setup.pool.intercept({ path: memberPath('acme', 'o1', 'u1') }).reply(204, '');
    setup.pool.intercept({ path: memberPath('acme', 'o1', 'u2') }).reply(404, errorBody('not_found', 'Not a member'));

    await expect(setup.client.isMember('o1', 'u1')).resolves.toBe(true);
    await expect(setup.client.isMember('o1', 'u2')).resolves.toBe(false);
  });

  it('still throws from isMember when the realm does not exist', async () => {
    setup.pool.intercept({ path: memberPath('acme', 'o1', 'u1') }).reply(404, errorBody('realm_not_found', 'Realm does not exist'));

    await expect(setup.client.isMember('o1', 'u1')).rejects.toMatchObject({ error: 'realm_not_found' });
  });

  it('adds a member with PUT and removes one with DELETE', async () => {
    setup.pool.intercept({ path: memberPath('acme', 'o1', 'u1'), method: 'PUT' }).reply(201, '');
    setup.pool.intercept({ path: memberPath('acme', 'o1', 'u1'), method: 'DELETE' }).reply(204, '');

    await setup.client.addMember('o1', 'u1');
    await setup.client.removeMember('o1', 'u1');

    expect(setup.apiCalls().map((c) => `${c.method} ${c.path}`)).toEqual([
      `PUT ${memberPath('acme', 'o1', 'u1')}`,
      `DELETE ${memberPath('acme', 'o1', 'u1')}`,
    ]);
  });

  it('looks users up by exact email', async () => {
    setup.pool
      .intercept({ path: usersPath('acme'), query: { email: 'ann@example.com', exact: 'true' } })
      .reply(200, [member('u1')], JSON_HEADERS);

    await expect(setup.client.findUsers({ email: 'ann@example.com', exact: true })).resolves.toEqual([member('u1')]);
  });

  it('uses the realm of the call options, with that realm’s token', async () => {
    replyToken(setup.pool, 'globex-token', { realm: 'globex' });
    setup.pool
      .intercept({ path: orgsPath('globex'), headers: { authorization: 'Bearer globex-token' } })
      .reply(200, [], JSON_HEADERS);

    await expect(setup.client.listOrganizations({}, { realm: 'globex' })).resolves.toEqual([]);
    expect(setup.calls().map((c) => c.path)).toContain(tokenPath('globex'));
  });

  it('refuses empty ids and bad paging values before sending anything', async () => {
    await expect(setup.client.getOrganization('')).rejects.toThrow(TypeError);
    await expect(setup.client.deleteOrganization(undefined as unknown as string)).rejects.toThrow('orgId must be a non-empty string');
    await expect(setup.client.isMember('o1', '')).rejects.toThrow('userId must be a non-empty string');
    await expect(setup.client.listOrganizations({ max: -1 })).rejects.toThrow('max must be an integer >= 0');
    await expect(setup.client.listAllMembers('o1', { pageSize: 0 })).rejects.toThrow('pageSize must be an integer >= 1');
    expect(setup.calls()).toHaveLength(0);
  });

  it('throws UnexpectedResponseError when a count is not a number', async () => {
    setup.pool.intercept({ path: orgsCountPath('acme') }).reply(200, '"many"', JSON_HEADERS);

    await expect(setup.client.countOrganizations()).rejects.toBeInstanceOf(UnexpectedResponseError);
  });
});

describe('base address with a path prefix', () => {
  it('keeps the prefix in front of every path, token endpoint included', async () => {
    const setup = mockSetup();
    const tokens = new ClientCredentialsTokenSource({
      baseUrl: `${BASE_URL}/auth`,
      clientId: 'c',
      clientSecret: 's',
      dispatcher: setup.agent,
    });
    const client = new OrgAdminClient({ baseUrl: `${BASE_URL}/auth/`, tokenSource: tokens, dispatcher: setup.agent });
    setup.pool.intercept({ path: `/auth${tokenPath('acme')}`, method: 'POST' }).reply(200, { access_token: 't', expires_in: 60 }, JSON_HEADERS);
    setup.pool.intercept({ path: `/auth${orgsCountPath('acme')}` }).reply(200, '1', JSON_HEADERS);

    await expect(client.countOrganizations()).resolves.toBe(1);
    await setup.close();
  });
});

describe('formatAttributeQuery', () => {
  it('joins pairs with spaces and quotes only where needed', () => {
    expect(formatAttributeQuery({ tier: 'gold', region: 'eu west' })).toBe('tier:gold region:"eu west"');
  });

  it('quotes keys that contain a colon or spaces, and leaves other characters as they are', () => {
    expect(formatAttributeQuery({ 'a:b': 'x', 'cost center': 'north east', path: 'c:\\tmp' })).toBe(
      '"a:b":x "cost center":"north east" path:c:\\tmp',
    );
  });

  it('refuses a double quote in a name or value, which q cannot express', () => {
    expect(() => formatAttributeQuery({ motto: 'say "hi"' })).toThrow(/contains a double quote/);
    expect(() => formatAttributeQuery({ 'a"b': 'x' })).toThrow(/contains a double quote/);
  });

  it('refuses empty names and values, which the syntax cannot express', () => {
    expect(() => formatAttributeQuery({ tier: '' })).toThrow(/must not be empty/);
    expect(() => formatAttributeQuery({ '': 'x' })).toThrow(/must not be empty/);
  });
});
