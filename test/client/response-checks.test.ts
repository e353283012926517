/**
 * The SDK checks every answer against the response schemas of `src/api` (the ones the service
 * declares on its routes): fields the wire leaves out come back as null, and anything else than
 * the contract's shape is an UnexpectedResponseError that says what was expected and where.
 */
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { membersCountPath, membersPath, orgPath, orgsMePath, orgsPath, portalLinkPath, usersPath } from '../../src/api';
import { UnexpectedResponseError } from '../../src/client';
import { JSON_HEADERS, member, mockSetup, org, replyToken, type MockSetup } from './support';

describe('OrgAdminClient answer checks', () => {
  let setup: MockSetup;
  beforeEach(() => {
    setup = mockSetup({ maxRetries: 0 });
    replyToken(setup.pool);
  });
  afterEach(async () => {
    await setup.close();
  });

  /** The error a call rejects with (fails the test when it resolves). */
  async function failure(promise: Promise<unknown>): Promise<UnexpectedResponseError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    return error as UnexpectedResponseError;
  }

  it('returns null for the organization fields the service leaves out', async () => {
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(200, { id: 'o1', name: 'o', domains: [], attributes: {}, realm: 'acme' }, JSON_HEADERS);
    await expect(setup.client.getOrganization('o1')).resolves.toStrictEqual({
      id: 'o1',
      name: 'o',
      displayName: null,
      url: null,
      domains: [],
      attributes: {},
      realm: 'acme',
    });
  });

  it('returns null for the member fields the service leaves out, and reads organizations keyed by id', async () => {
    const wire = { id: 'u1', username: 'ann', emailVerified: false, enabled: true, createdTimestamp: 1, organizations: { o1: [], o2: [{ name: 'admin' }] } };
    setup.pool.intercept({ path: membersPath('acme', 'o1'), query: { includeOrgs: 'true' } }).reply(200, [wire], JSON_HEADERS);
    await expect(setup.client.listMembers('o1', { includeOrgs: true })).resolves.toStrictEqual([
      { ...wire, email: null, firstName: null, lastName: null },
    ]);
  });

  it('accepts fields the contract does not name (the hosted service sends more of Keycloak\'s user fields)', async () => {
    setup.pool.intercept({ path: usersPath('acme'), query: { email: 'a@example.com' } }).reply(200, [{ ...member('u1'), totp: false, requiredActions: [] }], JSON_HEADERS);
    const [user] = await setup.client.findUsers({ email: 'a@example.com' });
    expect(user!.id).toBe('u1');
  });

  it('reads an empty field sent as null like one left out (a tolerant reader of older services)', async () => {
    setup.pool.intercept({ path: orgsPath('acme') }).reply(200, [{ ...org('o2'), displayName: null, url: null }], JSON_HEADERS);
    const [read] = await setup.client.listOrganizations();
    expect(read).toMatchObject({ id: 'o2', displayName: null, url: null });
  });

  it('refuses an organization field of the wrong type, naming the field and what was expected', async () => {
    setup.pool.intercept({ path: orgsPath('acme') }).reply(200, [org('o1'), { ...org('o2'), displayName: 42 }], JSON_HEADERS);
    const error = await failure(setup.client.listOrganizations());
    expect(error.code).toBe('ORGADMIN_UNEXPECTED_RESPONSE');
    expect(error.status).toBe(200);
    expect(error.message).toBe(
      'GET /realms/acme/orgs returned 200 with an unusable answer: expected a JSON array of organizations as the contract describes it, but at /1/displayName: Expected string',
    );
  });

  it('refuses includeOrgs answered as an array of ids (the old shape)', async () => {
    setup.pool.intercept({ path: membersPath('acme', 'o1'), query: { includeOrgs: 'true' } }).reply(200, [{ ...member('u1'), organizations: ['o1'] }], JSON_HEADERS);
    const error = await failure(setup.client.listMembers('o1', { includeOrgs: true }));
    expect(error.message).toMatch(/expected a JSON array of members as the contract describes it, but at \/0\/organizations: /);
  });

  it('refuses a member without its required fields', async () => {
    const { username: _left, ...withoutUsername } = member('u1');
    setup.pool.intercept({ path: usersPath('acme'), query: { username: 'x' } }).reply(200, [withoutUsername], JSON_HEADERS);
    const error = await failure(setup.client.findUsers({ username: 'x' }));
    expect(error.message).toMatch(/at \/0\/username: Expected required property/);
  });

  it('refuses a count that is not a non-negative integer', async () => {
    setup.pool.intercept({ path: membersCountPath('acme', 'o1') }).reply(200, '"3"', JSON_HEADERS);
    const error = await failure(setup.client.countMembers('o1'));
    expect(error.message).toMatch(/expected a non-negative integer as the contract describes it, but the body: Expected integer/);
  });

  it('refuses member info sent as an array and a portal link without its link', async () => {
    setup.pool.intercept({ path: orgsMePath('acme') }).reply(200, [], JSON_HEADERS);
    expect((await failure(setup.client.getMemberInfo())).message).toMatch(/expected an object of organizations keyed by id/);
    setup.pool.intercept({ path: portalLinkPath('acme', 'o1'), method: 'POST' }).reply(200, { user: 'u', redirect: 'r' }, JSON_HEADERS);
    expect((await failure(setup.client.createPortalLink('o1'))).message).toMatch(/expected a portal link .* at \/link: Expected required property/);
  });

  it('does not repeat the offending value in the message (answers may carry personal data)', async () => {
    setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(200, { ...org('o1'), name: { secretish: 'carol@example.com' } }, JSON_HEADERS);
    const error = await failure(setup.client.getOrganization('o1'));
    expect(error.message).toMatch(/at \/name: Expected string/);
    expect(error.message).not.toContain('carol@example.com');
  });

  it('compiles each schema once per process, not once per answer', async () => {
    const compile = jest.spyOn(TypeCompiler, 'Compile');
    try {
      setup.pool.intercept({ path: orgPath('acme', 'o1') }).reply(200, org('o1'), JSON_HEADERS).times(4);
      await setup.client.getOrganization('o1');
      // The first answer may compile the schema (unless an earlier test of this file did) ...
      expect(compile.mock.calls.length).toBeLessThanOrEqual(1);
      compile.mockClear();
      // ... later answers reuse it.
      for (let i = 0; i < 3; i += 1) await expect(setup.client.getOrganization('o1')).resolves.toEqual(org('o1'));
      expect(compile).not.toHaveBeenCalled();
    } finally {
      compile.mockRestore();
    }
  });
});
