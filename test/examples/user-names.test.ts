/**
 * Naming users in the drift summary through the SDK's user lookup, against a real service: by
 * email (or username) with `view-users`, by id with a note when the key may not look users up.
 */
import { ClientCredentialsTokenSource, OrgAdminClient } from '../../src/client';
import { lookupUserNames, userLookupFromEnvironment, type FindUsersPage } from '../../examples/gitops/user-names';
import { createTestRealm, startTestService, type TestService } from '../helpers/service';

let svc: TestService;
const clients: OrgAdminClient[] = [];
let ids: { alice: string; bob: string; nomail: string; other: string };

beforeAll(async () => {
  svc = await startTestService();
  await createTestRealm(svc, 'acme');
  await createTestRealm(svc, 'other');
  const alice = await svc.admin.createUser('acme', { username: 'alice', email: 'alice@example.com' });
  const bob = await svc.admin.createUser('acme', { username: 'bob', email: 'bob@example.com' });
  const nomail = await svc.admin.createUser('acme', { username: 'nomail' });
  const other = await svc.admin.createUser('other', { username: 'olga', email: 'olga@example.org' });
  ids = { alice: alice.id, bob: bob.id, nomail: nomail.id, other: other.id };
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await svc?.close();
});

/** A page reader through the SDK with a key of `realm` holding `permissions`. */
async function findPageWith(permissions: string[], realm = 'acme'): Promise<{ findPage: FindUsersPage; pages: Array<[string, number]> }> {
  const key = await createTestRealm(svc, realm, { permissions });
  const client = new OrgAdminClient({
    baseUrl: svc.baseUrl,
    realm,
    tokenSource: new ClientCredentialsTokenSource({ baseUrl: svc.baseUrl, clientId: key.clientId, clientSecret: key.clientSecret }),
  });
  clients.push(client);
  const pages: Array<[string, number]> = [];
  return {
    pages,
    findPage: (r, first, max) => {
      pages.push([r, first]);
      return client.findUsers({ first, max }, { realm: r });
    },
  };
}

describe('lookupUserNames', () => {
  it('names users by email, by username when they have no email, and leaves unknown ids out', async () => {
    const { findPage } = await findPageWith(['view-users']);
    const result = await lookupUserNames(new Map([['acme', new Set([ids.alice, ids.nomail, 'no-such-user'])]]), findPage);
    expect(result.note).toBeUndefined();
    expect([...result.names].sort()).toEqual(
      [
        [ids.alice, 'alice@example.com'],
        [ids.nomail, 'nomail'],
      ].sort(),
    );
  });

  it('reads pages only until every id is found', async () => {
    const { findPage, pages } = await findPageWith(['view-users']);
    // The lookup lists users in the service's order; find where alice is and ask for her alone.
    const order = (await findPage('acme', 0, 100)).map((user) => user.id);
    pages.length = 0;
    const result = await lookupUserNames(new Map([['acme', new Set([ids.alice])]]), findPage, 1);
    expect(result.names.get(ids.alice)).toBe('alice@example.com');
    expect(pages).toEqual(order.slice(0, order.indexOf(ids.alice) + 1).map((_, index) => ['acme', index]));
  });

  it('looks each realm up in that realm', async () => {
    const { findPage, pages } = await findPageWith(['view-users']);
    const result = await lookupUserNames(
      new Map([
        ['acme', new Set([ids.bob])],
        ['other', new Set([ids.other])],
      ]),
      findPage,
    );
    expect(result.names.get(ids.bob)).toBe('bob@example.com');
    // The acme key holds no permission in realm other: that realm's users stay ids, with the note.
    expect(result.names.has(ids.other)).toBe(false);
    expect(result.note).toMatch(/^Users are named by id: /);
    expect(pages.map(([realm]) => realm)).toEqual(['acme', 'other']);
  });

  it('keeps ids and says why when the key lacks view-users', async () => {
    const { findPage } = await findPageWith(['view-organizations']);
    const result = await lookupUserNames(new Map([['acme', new Set([ids.alice])]]), findPage);
    expect(result).toEqual({
      names: new Map(),
      note: 'Users are named by id: the credentials may not look users up (that needs the view-users permission).',
    });
  });

  it('keeps ids and says why when the service cannot be reached', async () => {
    const failing: FindUsersPage = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9'));
    const result = await lookupUserNames(new Map([['acme', new Set([ids.alice])]]), failing);
    expect(result).toEqual({ names: new Map(), note: 'Users are named by id: looking them up failed (connect ECONNREFUSED 127.0.0.1:9).' });
  });
});

describe('userLookupFromEnvironment', () => {
  it('uses the provider settings from the environment', async () => {
    const key = await createTestRealm(svc, 'acme', { permissions: ['view-users'] });
    const lookup = userLookupFromEnvironment({
      ORGADMIN_BASE_URL: svc.baseUrl,
      ORGADMIN_REALM: 'acme',
      ORGADMIN_CLIENT_ID: key.clientId,
      ORGADMIN_CLIENT_SECRET: key.clientSecret,
    });
    expect(lookup?.defaultRealm).toBe('acme');
    try {
      const result = await lookupUserNames(new Map([['acme', new Set([ids.bob])]]), lookup!.findPage);
      expect(result.names.get(ids.bob)).toBe('bob@example.com');
    } finally {
      await lookup?.close();
    }
  });

  it.each([
    [{}],
    [{ ORGADMIN_BASE_URL: 'http://127.0.0.1:1', ORGADMIN_CLIENT_ID: 'c', ORGADMIN_CLIENT_SECRET: 's' }],
    [{ ORGADMIN_BASE_URL: 'http://127.0.0.1:1', ORGADMIN_REALM: 'acme' }],
  ])('gives no lookup when the environment lacks the base URL, the realm or credentials (%j)', (env) => {
    expect(userLookupFromEnvironment(env)).toBeUndefined();
  });
});
