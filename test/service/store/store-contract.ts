/**
 * The behaviour every {@link Store} implementation shares, written once and run against each of
 * them (sqlite-contract.test.ts, postgres-contract.test.ts), so that the service behaves the same
 * whichever database it is given. Each test gets a fresh, empty store from `open`.
 */
import { DEFAULT_ORGANIZATION_ROLES, DEFAULT_ORGANIZATION_ROLE_NAMES, MAX_QUERY_TERMS, type Organization } from '../../../src/api';
import { StoreConflictError, type ApiKeyRecord, type RealmRecord, type Store, type UserRecord } from '../../../src/service/store/store';

/** A fresh, empty, migrated store and how to dispose of it. */
export interface OpenedStore {
  store: Store;
  cleanup(): Promise<void>;
  /**
   * Closes `store`, makes the database refuse every insert into `table` (a trigger) and opens the
   * store again as the new `store`, which it answers: a failure in the middle of a store's
   * transaction, for tests of its atomicity. (Reopened rather than changed under the open store,
   * so that no connection works from a schema read before the trigger.)
   */
  reopenRefusingInserts(table: string): Promise<Store>;
}

// A fixed, realistic timestamp above 2^32 ms, so 32-bit columns would fail the round trip.
const T0 = 1_764_000_000_000;

function realm(name: string, overrides: Partial<RealmRecord> = {}): RealmRecord {
  return {
    name,
    enabled: true,
    tokenLifetimeSeconds: 300,
    createAdminUser: true,
    organizationsClaim: false,
    rateLimit: null,
    createdTimestamp: T0,
    privateKeyPem: `-----BEGIN PRIVATE KEY-----\n${name}-private\n-----END PRIVATE KEY-----\n`,
    publicKeyPem: `-----BEGIN PUBLIC KEY-----\n${name}-public\n-----END PUBLIC KEY-----\n`,
    keyId: `kid-${name}`,
    ...overrides,
  };
}

function user(realmName: string, id: string, overrides: Partial<UserRecord> = {}): UserRecord {
  return {
    id,
    realm: realmName,
    username: id,
    email: null,
    firstName: null,
    lastName: null,
    emailVerified: false,
    enabled: true,
    createdTimestamp: T0,
    kind: 'user',
    adminOfOrganization: null,
    passwordHash: null,
    realmAdmin: false,
    ...overrides,
  };
}

function org(realmName: string, id: string, name: string, overrides: Partial<Organization> = {}): Organization {
  return { id, name, displayName: null, url: null, domains: [], attributes: {}, realm: realmName, ...overrides };
}

/** The default admin user the service creates with an organization. */
function adminOf(organization: Organization): UserRecord {
  return user(organization.realm, `admin-${organization.id}`, {
    username: `org-admin-${organization.id}`,
    kind: 'org-admin',
    adminOfOrganization: organization.id,
  });
}

function apiKey(realmName: string, clientId: string, name: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    clientId,
    realm: realmName,
    name,
    secretHash: `hash-of-${clientId}`,
    permissions: ['view-organizations', 'manage-organizations'],
    serviceAccountUserId: `sa-${clientId}`,
    createdTimestamp: T0,
    revokedTimestamp: null,
    lastUsedTimestamp: null,
    ...overrides,
  };
}

function serviceAccount(key: ApiKeyRecord): UserRecord {
  return user(key.realm, key.serviceAccountUserId, { username: `service-account-${key.clientId}`, kind: 'service-account' });
}

/** Awaits `promise`, expecting a {@link StoreConflictError}; returns what collided. */
async function conflictOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StoreConflictError);
  return (error as StoreConflictError).what;
}

/** A value no stored text contains. */
const nulChar = 'a\u0000b';

const ids = (items: Array<{ id: string }>): string[] => items.map((item) => item.id);

/** Registers the shared Store tests under `describe(name)`. */
export function describeStoreContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(name, () => {
    let opened: OpenedStore;
    let store: Store;

    beforeEach(async () => {
      opened = await open();
      store = opened.store;
      await store.createRealm(realm('acme'));
      await store.createRealm(realm('other'));
    });

    afterEach(async () => {
      await opened.cleanup();
    });

    describe('realms', () => {
      it('returns a created realm with every field as written', async () => {
        const written = realm('beta', { enabled: false, tokenLifetimeSeconds: 900, createAdminUser: false, createdTimestamp: T0 + 1 });
        await store.createRealm(written);
        expect(await store.getRealm('beta')).toEqual(written);
      });

      it('refuses a second realm with the same name as a realm name conflict', async () => {
        expect(await conflictOf(store.createRealm(realm('acme', { keyId: 'other-kid' })))).toBe('realm name');
        expect((await store.getRealm('acme'))?.keyId).toBe('kid-acme');
      });

      it('returns undefined for an unknown realm', async () => {
        expect(await store.getRealm('nope')).toBeUndefined();
      });

      it('lists realms ordered by name', async () => {
        await store.createRealm(realm('zulu'));
        await store.createRealm(realm('bravo'));
        expect((await store.listRealms()).map((r) => r.name)).toEqual(['acme', 'bravo', 'other', 'zulu']);
      });

      it('updates only the given fields and returns the updated realm', async () => {
        const updated = await store.updateRealm('acme', { tokenLifetimeSeconds: 60 });
        expect(updated).toEqual({ ...realm('acme'), tokenLifetimeSeconds: 60 });
        const again = await store.updateRealm('acme', { enabled: false, createAdminUser: false });
        expect(again).toEqual({ ...realm('acme'), tokenLifetimeSeconds: 60, enabled: false, createAdminUser: false });
        expect(await store.getRealm('acme')).toEqual(again);
      });

      it('stores a realm rate limit: its own limit, off, and back to the service default', async () => {
        const limited = realm('limited', { rateLimit: { requests: 1_000_000, windowSeconds: 86_400 } });
        await store.createRealm(limited);
        expect(await store.getRealm('limited')).toEqual(limited);
        expect(await store.getRealm('acme')).toMatchObject({ rateLimit: null });

        const own = await store.updateRealm('acme', { rateLimit: { requests: 5, windowSeconds: 30 } });
        expect(own).toEqual({ ...realm('acme'), rateLimit: { requests: 5, windowSeconds: 30 } });
        expect(await store.getRealm('acme')).toEqual(own);
        // Changing another field keeps the rate limit.
        expect(await store.updateRealm('acme', { tokenLifetimeSeconds: 60 })).toMatchObject({ rateLimit: { requests: 5, windowSeconds: 30 } });
        expect(await store.updateRealm('acme', { rateLimit: 'off' })).toMatchObject({ rateLimit: 'off', tokenLifetimeSeconds: 60 });
        expect((await store.getRealm('acme'))?.rateLimit).toBe('off');
        expect(await store.updateRealm('acme', { rateLimit: null })).toEqual({ ...realm('acme'), tokenLifetimeSeconds: 60 });
        expect((await store.listRealms()).map((r) => [r.name, r.rateLimit])).toEqual([
          ['acme', null],
          ['limited', { requests: 1_000_000, windowSeconds: 86_400 }],
          ['other', null],
        ]);
      });

      it('returns the realm unchanged for an empty update and undefined for an unknown realm', async () => {
        expect(await store.updateRealm('acme', {})).toEqual(realm('acme'));
        expect(await store.updateRealm('nope', { enabled: false })).toBeUndefined();
      });
    });

    describe('users', () => {
      it('returns a created user with every field as written, only in its realm', async () => {
        const written = user('acme', 'u1', {
          username: 'Alice',
          email: 'Alice@Example.com',
          firstName: 'Alice',
          lastName: 'Liddell',
          emailVerified: true,
          enabled: false,
          passwordHash: 'scrypt$hash',
          createdTimestamp: T0 + 5,
        });
        await store.createUser(written);
        expect(await store.getUser('acme', 'u1')).toEqual(written);
        expect(await store.getUser('other', 'u1')).toBeUndefined();
        expect(await store.getUser('acme', 'u2')).toBeUndefined();
      });

      it('refuses a username that differs only in case within a realm, but not in another realm', async () => {
        await store.createUser(user('acme', 'u1', { username: 'alice' }));
        expect(await conflictOf(store.createUser(user('acme', 'u2', { username: 'ALICE' })))).toBe('username');
        expect(await store.getUser('acme', 'u2')).toBeUndefined();
        await store.createUser(user('other', 'u3', { username: 'alice' }));
        expect((await store.getUser('other', 'u3'))?.username).toBe('alice');
      });

      it('refuses an email that differs only in case within a realm, and allows many users without email', async () => {
        await store.createUser(user('acme', 'u1', { email: 'a@example.com' }));
        expect(await conflictOf(store.createUser(user('acme', 'u2', { email: 'A@EXAMPLE.COM' })))).toBe('email');
        await store.createUser(user('acme', 'u3'));
        await store.createUser(user('acme', 'u4'));
        await store.createUser(user('other', 'u5', { email: 'a@example.com' }));
        expect((await store.findUsers('acme', {})).map((u) => u.id)).toEqual(['u1', 'u3', 'u4']);
      });

      it('refuses a second user with the same id as a user id conflict', async () => {
        await store.createUser(user('acme', 'u1'));
        expect(await conflictOf(store.createUser(user('other', 'u1', { username: 'someone-else' })))).toBe('user id');
      });

      it('finds a user by username case-insensitively, within the realm only', async () => {
        await store.createUser(user('acme', 'u1', { username: 'Bob.Smith' }));
        expect((await store.findUserByUsername('acme', 'bob.smith'))?.id).toBe('u1');
        expect(await store.findUserByUsername('other', 'bob.smith')).toBeUndefined();
        expect(await store.findUserByUsername('acme', 'bob')).toBeUndefined();
      });

      it('finds users ordered by username case-insensitively, leaving out service accounts', async () => {
        await store.createUser(user('acme', 'u1', { username: 'charlie' }));
        await store.createUser(user('acme', 'u2', { username: 'Bravo' }));
        await store.createUser(user('acme', 'u3', { username: 'alpha' }));
        await store.createUser(user('acme', 'sa', { username: 'service-account-x', kind: 'service-account' }));
        expect((await store.findUsers('acme', {})).map((u) => u.username)).toEqual(['alpha', 'Bravo', 'charlie']);
        expect((await store.findUsers('acme', { first: 1, max: 1 })).map((u) => u.username)).toEqual(['Bravo']);
        expect((await store.findUsers('acme', { first: 2 })).map((u) => u.username)).toEqual(['charlie']);
      });

      it('matches username and email as case-insensitive substrings, or exactly with exact', async () => {
        await store.createUser(user('acme', 'u1', { username: 'anna', email: 'Anna@example.com' }));
        await store.createUser(user('acme', 'u2', { username: 'hannah', email: 'hannah@example.org' }));
        expect(ids(await store.findUsers('acme', { username: 'ANN' }))).toEqual(['u1', 'u2']);
        expect(ids(await store.findUsers('acme', { username: 'ANNA', exact: true }))).toEqual(['u1']);
        expect(ids(await store.findUsers('acme', { email: 'example.org' }))).toEqual(['u2']);
        expect(ids(await store.findUsers('acme', { email: 'anna@EXAMPLE.com', exact: true }))).toEqual(['u1']);
        expect(ids(await store.findUsers('acme', { email: 'example', exact: true }))).toEqual([]);
        expect(ids(await store.findUsers('acme', { username: 'ann', email: '.org' }))).toEqual(['u2']);
      });

      it('looks a user up by exact email case-insensitively, never matching users without email', async () => {
        await store.createUser(user('acme', 'u1', { username: 'anna', email: 'Anna.Lee@Example.COM' }));
        await store.createUser(user('acme', 'u2', { username: 'no-mail' }));
        await store.createUser(user('other', 'x1', { username: 'anna', email: 'anna.lee@example.com' }));
        for (const email of ['anna.lee@example.com', 'ANNA.LEE@EXAMPLE.COM', 'Anna.Lee@Example.COM']) {
          expect(ids(await store.findUsers('acme', { email, exact: true }))).toEqual(['u1']);
          expect(await store.countUsers('acme', { email, exact: true })).toBe(1);
        }
        expect(ids(await store.findUsers('acme', { email: 'anna.lee@example.co', exact: true }))).toEqual([]);
        expect(ids(await store.findUsers('acme', { email: '', exact: true }))).toEqual([]);
        expect(ids(await store.findUsers('other', { email: 'Anna.Lee@example.com', exact: true }))).toEqual(['x1']);
      });

      it('searches username, email, first and last name, treating % and _ literally', async () => {
        await store.createUser(user('acme', 'u1', { username: 'u1', firstName: 'Grace', lastName: 'Hopper' }));
        await store.createUser(user('acme', 'u2', { username: 'u2', email: 'grace@navy.mil' }));
        await store.createUser(user('acme', 'u3', { username: 'u3', lastName: 'Lovelace' }));
        await store.createUser(user('acme', 'u_4', { username: 'u_4' }));
        expect(ids(await store.findUsers('acme', { search: 'GRACE' }))).toEqual(['u1', 'u2']);
        expect(ids(await store.findUsers('acme', { search: 'love' }))).toEqual(['u3']);
        expect(ids(await store.findUsers('acme', { search: '_' }))).toEqual(['u_4']);
        expect(ids(await store.findUsers('acme', { search: '%' }))).toEqual([]);
        expect(ids(await store.findUsers('acme', { search: '' }))).toEqual(['u1', 'u2', 'u3', 'u_4']);
      });
    });

    describe('API keys', () => {
      it('creates a key together with its service-account user', async () => {
        const key = apiKey('acme', 'client-1', 'ci', { permissions: ['create-organization'] });
        await store.createApiKey(key, serviceAccount(key));
        expect(await store.getApiKey('client-1')).toEqual(key);
        expect(await store.getUser('acme', 'sa-client-1')).toEqual(serviceAccount(key));
        expect(await store.getApiKey('client-2')).toBeUndefined();
      });

      it('refuses a second active key with the same name and writes nothing of it', async () => {
        const first = apiKey('acme', 'client-1', 'ci');
        await store.createApiKey(first, serviceAccount(first));
        const second = apiKey('acme', 'client-2', 'ci');
        expect(await conflictOf(store.createApiKey(second, serviceAccount(second)))).toBe('API key name');
        expect(await store.getApiKey('client-2')).toBeUndefined();
        expect(await store.getUser('acme', 'sa-client-2')).toBeUndefined();
        const elsewhere = apiKey('other', 'client-3', 'ci');
        await store.createApiKey(elsewhere, serviceAccount(elsewhere));
        expect((await store.getApiKey('client-3'))?.name).toBe('ci');
      });

      it('frees a revoked key name for a replacement', async () => {
        const first = apiKey('acme', 'client-1', 'ci');
        await store.createApiKey(first, serviceAccount(first));
        expect(await store.revokeApiKey('client-1', T0 + 10)).toBe(true);
        const replacement = apiKey('acme', 'client-2', 'ci');
        await store.createApiKey(replacement, serviceAccount(replacement));
        expect((await store.listApiKeys('acme')).map((k) => [k.clientId, k.revokedTimestamp])).toEqual([
          ['client-1', T0 + 10],
          ['client-2', null],
        ]);
      });

      it('keeps the first revocation time and reports unknown keys', async () => {
        const key = apiKey('acme', 'client-1', 'ci');
        await store.createApiKey(key, serviceAccount(key));
        expect(await store.revokeApiKey('client-1', T0 + 10)).toBe(true);
        expect(await store.revokeApiKey('client-1', T0 + 20)).toBe(true);
        expect((await store.getApiKey('client-1'))?.revokedTimestamp).toBe(T0 + 10);
        expect(await store.revokeApiKey('client-9', T0)).toBe(false);
      });

      it('lists keys by creation within a realm, and by realm then creation across realms', async () => {
        const keys = [
          apiKey('other', 'k-o1', 'o1', { createdTimestamp: T0 + 1 }),
          apiKey('acme', 'k-b', 'b', { createdTimestamp: T0 + 2 }),
          apiKey('acme', 'k-a', 'a', { createdTimestamp: T0 + 1 }),
          // Same millisecond as k-b: insertion order decides.
          apiKey('acme', 'k-c', 'c', { createdTimestamp: T0 + 2 }),
        ];
        for (const key of keys) await store.createApiKey(key, serviceAccount(key));
        expect((await store.listApiKeys('acme')).map((k) => k.clientId)).toEqual(['k-a', 'k-b', 'k-c']);
        expect((await store.listApiKeys()).map((k) => k.clientId)).toEqual(['k-a', 'k-b', 'k-c', 'k-o1']);
        expect(await store.listApiKeys('nope')).toEqual([]);
      });
    });

    describe('API-key secret hashes', () => {
      it('replaces a secret hash only while it is still the expected one (compare-and-set)', async () => {
        const key = apiKey('acme', 'client-1', 'ci');
        await store.createApiKey(key, serviceAccount(key));
        expect(await store.replaceApiKeySecretHash('client-1', 'not-the-hash', 'hmac-sha256$new')).toBe(false);
        expect((await store.getApiKey('client-1'))?.secretHash).toBe(key.secretHash);
        expect(await store.replaceApiKeySecretHash('client-1', key.secretHash, 'hmac-sha256$new')).toBe(true);
        expect((await store.getApiKey('client-1'))?.secretHash).toBe('hmac-sha256$new');
        expect(await store.replaceApiKeySecretHash('client-1', key.secretHash, 'hmac-sha256$other')).toBe(false);
        expect(await store.replaceApiKeySecretHash('client-9', key.secretHash, 'x')).toBe(false);
      });
    });

    describe('server secrets', () => {
      it('keeps the first value written for a name, also when several ask at once', async () => {
        const values = await Promise.all(['a', 'b', 'c'].map((candidate) => store.serverSecret('hmac', candidate, T0)));
        expect(new Set(values).size).toBe(1);
        expect(await store.serverSecret('hmac', 'later', T0 + 1)).toBe(values[0]);
        expect(await store.serverSecret('other', 'z', T0)).toBe('z');
      });
    });

    describe('revoked tokens', () => {
      it('records revocations idempotently per realm and jti, lists the living ones, forgets expired ones', async () => {
        await store.revokeToken({ realm: 'acme', jti: 'j1', expiresTimestamp: T0 + 100, revokedTimestamp: T0 });
        await store.revokeToken({ realm: 'acme', jti: 'j1', expiresTimestamp: T0 + 100, revokedTimestamp: T0 + 1 });
        await store.revokeToken({ realm: 'other', jti: 'j1', expiresTimestamp: T0 + 300, revokedTimestamp: T0 });
        await store.revokeToken({ realm: 'acme', jti: 'j2', expiresTimestamp: T0 + 50, revokedTimestamp: T0 });
        const living = (at: number) => store.activeRevokedTokens(at).then((rows) => rows.map((r) => `${r.realm}/${r.jti}@${r.expiresTimestamp}`));
        expect(await living(T0)).toEqual([`acme/j1@${T0 + 100}`, `other/j1@${T0 + 300}`, `acme/j2@${T0 + 50}`]);
        expect(await living(T0 + 51)).toEqual([`acme/j1@${T0 + 100}`, `other/j1@${T0 + 300}`]);
        // A later revocation tidies rows of tokens that expired before it.
        await store.revokeToken({ realm: 'acme', jti: 'j3', expiresTimestamp: T0 + 500, revokedTimestamp: T0 + 200 });
        expect(await living(0)).toEqual([`other/j1@${T0 + 300}`, `acme/j3@${T0 + 500}`]);
      });
    });

    describe('organizations', () => {
      it('creates an organization with its admin user as its first member', async () => {
        const written = org('acme', 'o1', 'Acme', {
          displayName: 'Acme Corp',
          url: 'https://acme.example.com',
          domains: ['acme.example.com', 'acme.test'],
          attributes: { zeta: ['1'], alpha: ['x', 'y'], empty: [] },
        });
        await store.createOrganization(written, adminOf(written), T0 + 7);
        const read = await store.getOrganization('acme', 'o1');
        expect(read).toEqual(written);
        // Attribute keys come back in the order they were written.
        expect(Object.keys(read!.attributes)).toEqual(['zeta', 'alpha', 'empty']);
        expect(await store.getUser('acme', 'admin-o1')).toEqual(adminOf(written));
        expect(await store.isMember('acme', 'o1', 'admin-o1')).toBe(true);
        expect(await store.countMembers('acme', 'o1', {})).toBe(1);
        expect(await store.getOrganization('other', 'o1')).toBeUndefined();
        expect(await store.getOrganization('acme', 'o2')).toBeUndefined();
      });

      it('creates an organization without an admin user when none is given', async () => {
        await store.createOrganization(org('acme', 'o1', 'Acme'));
        expect(await store.countMembers('acme', 'o1', {})).toBe(0);
      });

      it('refuses a taken name in the realm and writes neither the organization nor its admin user', async () => {
        await store.createOrganization(org('acme', 'o1', 'Acme'));
        const clash = org('acme', 'o2', 'Acme');
        expect(await conflictOf(store.createOrganization(clash, adminOf(clash)))).toBe('organization name');
        expect(await store.getOrganization('acme', 'o2')).toBeUndefined();
        expect(await store.getUser('acme', 'admin-o2')).toBeUndefined();
        // Names are unique per realm and compared exactly.
        await store.createOrganization(org('other', 'o3', 'Acme'));
        await store.createOrganization(org('acme', 'o4', 'acme'));
        expect(await store.countOrganizations('acme', {})).toBe(2);
      });

      it('refuses an id taken in the realm as an organization id conflict', async () => {
        await store.createOrganization(org('acme', 'o1', 'Acme'));
        const clash = org('acme', 'o1', 'Another');
        expect(await conflictOf(store.createOrganization(clash, adminOf(clash)))).toBe('organization id');
        expect((await store.getOrganization('acme', 'o1'))?.name).toBe('Acme');
        expect(await store.countOrganizations('acme', {})).toBe(1);
      });

      it('scopes ids to the realm: two realms each hold an organization of one id, apart (issue 27, finding 8)', async () => {
        const mine = org('acme', 'shared', 'Mine');
        const theirs = org('other', 'shared', 'Theirs', { domains: ['theirs.example'] });
        await store.createOrganization(mine, { ...adminOf(mine), id: 'admin-acme-shared' }, T0);
        await store.createOrganization(theirs, { ...adminOf(theirs), id: 'admin-other-shared' }, T0 + 1);
        expect(await store.getOrganization('acme', 'shared')).toEqual(mine);
        expect(await store.getOrganization('other', 'shared')).toEqual(theirs);
        await store.createUser(user('acme', 'alice'));
        await store.createUser(user('other', 'bob'));
        expect(await store.addMember('acme', 'shared', 'alice', T0 + 2)).toBe(true);
        expect(await store.addMember('other', 'shared', 'bob', T0 + 3)).toBe(true);
        // A user of one realm joins no organization of the other, whatever the id.
        expect(await store.addMember('acme', 'shared', 'bob', T0 + 4)).toBe(false);
        expect(ids(await store.listMembers('acme', 'shared', {}))).toEqual(['admin-acme-shared', 'alice']);
        expect(ids(await store.listMembers('other', 'shared', {}))).toEqual(['admin-other-shared', 'bob']);
        expect(await store.countMembers('other', 'shared', {})).toBe(2);
        expect(await store.isMember('acme', 'shared', 'bob')).toBe(false);
        expect(await store.isMember('other', 'shared', 'bob')).toBe(true);
        expect(ids(await store.listUserOrganizations('other', 'bob'))).toEqual(['shared']);
        // Roles of one organization are not the other's.
        await store.createRoles('acme', 'shared', [{ id: 'r-acme-editor', name: 'editor', description: 'acme' }], T0);
        await store.createRoles('other', 'shared', [{ id: 'r-other-editor', name: 'editor', description: 'other' }], T0);
        expect((await store.getRole('acme', 'shared', 'editor'))?.id).toBe('r-acme-editor');
        expect((await store.getRole('other', 'shared', 'editor'))?.id).toBe('r-other-editor');
        expect((await store.changeMemberRoles('other', 'shared', 'bob', ['editor'], 'grant', T0)).kind).toBe('done');
        expect(await store.hasRole('other', 'shared', 'editor', 'bob')).toBe(true);
        expect(await store.listRoleUsers('acme', 'shared', 'editor', {})).toEqual([]);
        expect(ids((await store.listRoleUsers('other', 'shared', 'editor', {}))!)).toEqual(['bob']);
        expect((await store.listMemberRoles('other', 'shared', 'bob'))!.map((role) => role.id)).toEqual(['r-other-editor']);
        expect((await store.updateRoleDescription('acme', 'shared', 'editor', 'changed'))?.id).toBe('r-acme-editor');
        expect((await store.getRole('other', 'shared', 'editor'))?.description).toBe('other');
        expect((await store.listUserOrganizationRoles('other', 'bob')).map((entry) => entry.roles.map((role) => role.id))).toEqual([['r-other-editor']]);
        // Changes of one leave the other as it was.
        expect(await store.removeMember('acme', 'shared', 'bob')).toBe(false);
        expect(await store.isMember('other', 'shared', 'bob')).toBe(true);
        expect(await store.deleteRoles('acme', 'shared', ['editor'])).toHaveLength(1);
        expect(await store.hasRole('other', 'shared', 'editor', 'bob')).toBe(true);
        expect(await store.deleteOrganization('acme', 'shared')).toBe(true);
        expect(await store.getOrganization('acme', 'shared')).toBeUndefined();
        expect(await store.getUser('acme', 'admin-acme-shared')).toBeUndefined();
        expect(await store.getOrganization('other', 'shared')).toEqual(theirs);
        expect(await store.getUser('other', 'admin-other-shared')).toBeDefined();
        expect(ids(await store.listMembers('other', 'shared', {}))).toEqual(['admin-other-shared', 'bob']);
        expect(await store.hasRole('other', 'shared', 'editor', 'bob')).toBe(true);
        expect((await store.listRoles('other', 'shared'))!.length).toBe(DEFAULT_ORGANIZATION_ROLES.length + 1);
        // The id is free again in the realm that deleted it, and still taken in the other.
        await store.createOrganization(org('acme', 'shared', 'Mine again'));
        expect(await conflictOf(store.createOrganization(org('other', 'shared', 'Clash')))).toBe('organization id');
      });

      it('lists organizations ordered by name in code-point order, with first and max', async () => {
        for (const [id, name] of [
          ['o1', 'beta'],
          ['o2', 'Zeta'],
          ['o3', 'alpha'],
          ['o4', 'Alpha'],
        ]) {
          await store.createOrganization(org('acme', id!, name!));
        }
        await store.createOrganization(org('other', 'o5', 'aardvark'));
        expect((await store.listOrganizations('acme', {})).map((o) => o.name)).toEqual(['Alpha', 'Zeta', 'alpha', 'beta']);
        expect((await store.listOrganizations('acme', { first: 1, max: 2 })).map((o) => o.name)).toEqual(['Zeta', 'alpha']);
        expect((await store.listOrganizations('acme', { first: 3 })).map((o) => o.name)).toEqual(['beta']);
        expect(await store.listOrganizations('acme', { first: 10, max: 5 })).toEqual([]);
        expect(await store.listOrganizations('nope', {})).toEqual([]);
      });

      it('searches name and display name case-insensitively, treating % and _ literally', async () => {
        await store.createOrganization(org('acme', 'o1', 'Acme Labs'));
        await store.createOrganization(org('acme', 'o2', 'globex', { displayName: 'Globex LABS' }));
        await store.createOrganization(org('acme', 'o3', 'initech'));
        await store.createOrganization(org('acme', 'o4', '100%_real'));
        expect(ids(await store.listOrganizations('acme', { search: 'labs' }))).toEqual(['o1', 'o2']);
        expect(await store.countOrganizations('acme', { search: 'LABS' })).toBe(2);
        expect(ids(await store.listOrganizations('acme', { search: '%' }))).toEqual(['o4']);
        expect(ids(await store.listOrganizations('acme', { search: 'e_h' }))).toEqual([]);
        expect(ids(await store.listOrganizations('acme', { search: '' }))).toEqual(['o4', 'o1', 'o2', 'o3']);
      });

      it('filters by attributes: every pair must hold, the value being one of the key’s values', async () => {
        await store.createOrganization(org('acme', 'o1', 'a', { attributes: { tier: ['gold', 'silver'], region: ['eu'] } }));
        await store.createOrganization(org('acme', 'o2', 'b', { attributes: { tier: ['gold'], region: ['us'] } }));
        await store.createOrganization(org('acme', 'o3', 'c', { attributes: { tier: ['bronze'], note: ['gold'] } }));
        await store.createOrganization(org('acme', 'o4', 'd', { attributes: { label: ['with space', 'quote"back\\slash'] } }));
        expect(ids(await store.listOrganizations('acme', { attributes: [['tier', 'gold']] }))).toEqual(['o1', 'o2']);
        expect(ids(await store.listOrganizations('acme', { attributes: [['tier', 'silver']] }))).toEqual(['o1']);
        expect(
          ids(await store.listOrganizations('acme', { attributes: [['tier', 'gold'], ['region', 'us']] })),
        ).toEqual(['o2']);
        expect(ids(await store.listOrganizations('acme', { attributes: [['tier', 'GOLD']] }))).toEqual([]);
        expect(ids(await store.listOrganizations('acme', { attributes: [['missing', 'gold']] }))).toEqual([]);
        expect(ids(await store.listOrganizations('acme', { attributes: [['label', 'quote"back\\slash']] }))).toEqual(['o4']);
        expect(ids(await store.listOrganizations('acme', { attributes: [['label', 'with space']] }))).toEqual(['o4']);
        expect(
          await store.countOrganizations('acme', { search: 'a', attributes: [['tier', 'gold']], first: 5, max: 0 }),
        ).toBe(1);
      });

      it('answers filters of as many attribute pairs as the API lets through', async () => {
        await store.createOrganization(org('acme', 'o1', 'a', { attributes: { tier: ['gold'] } }));
        const pairs = Array.from({ length: MAX_QUERY_TERMS }, (): [string, string] => ['tier', 'gold']);
        expect(ids(await store.listOrganizations('acme', { attributes: pairs }))).toEqual(['o1']);
        expect(await store.countOrganizations('acme', { attributes: pairs })).toBe(1);
      });

      it('counts organizations matching the filter, ignoring first and max', async () => {
        for (let i = 0; i < 5; i += 1) await store.createOrganization(org('acme', `o${i}`, `org-${i}`));
        expect(await store.countOrganizations('acme', { first: 2, max: 1 })).toBe(5);
        expect(await store.countOrganizations('other', {})).toBe(0);
      });

      it('replaces name, display name, url and attributes, and domains only when given', async () => {
        await store.createOrganization(
          org('acme', 'o1', 'Acme', { displayName: 'A', url: 'https://a.example', domains: ['a.example'], attributes: { k: ['v'] } }),
        );
        expect(await store.updateOrganization('acme', 'o1', { name: 'Acme 2', displayName: null, url: null, attributes: {} })).toBe(true);
        expect(await store.getOrganization('acme', 'o1')).toEqual(org('acme', 'o1', 'Acme 2', { domains: ['a.example'] }));
        expect(
          await store.updateOrganization('acme', 'o1', {
            name: 'Acme 2',
            displayName: 'Two',
            url: 'https://b.example',
            attributes: { x: ['1', '2'] },
            domains: [],
          }),
        ).toBe(true);
        expect(await store.getOrganization('acme', 'o1')).toEqual(
          org('acme', 'o1', 'Acme 2', { displayName: 'Two', url: 'https://b.example', attributes: { x: ['1', '2'] } }),
        );
      });

      it('reports an unknown organization on update and leaves other realms alone', async () => {
        await store.createOrganization(org('acme', 'o1', 'Acme'));
        const update = { name: 'Changed', displayName: null, url: null, attributes: {} };
        expect(await store.updateOrganization('other', 'o1', update)).toBe(false);
        expect(await store.updateOrganization('acme', 'o9', update)).toBe(false);
        expect((await store.getOrganization('acme', 'o1'))?.name).toBe('Acme');
      });

      it('refuses to rename onto a taken name and changes nothing', async () => {
        await store.createOrganization(org('acme', 'o1', 'Acme', { displayName: 'keep me' }));
        await store.createOrganization(org('acme', 'o2', 'Globex'));
        const what = await conflictOf(
          store.updateOrganization('acme', 'o1', { name: 'Globex', displayName: null, url: null, attributes: {} }),
        );
        expect(what).toBe('organization name');
        expect(await store.getOrganization('acme', 'o1')).toEqual(org('acme', 'o1', 'Acme', { displayName: 'keep me' }));
      });

      it('deletes an organization with its memberships and admin user, keeping other users', async () => {
        const acme = org('acme', 'o1', 'Acme');
        const globex = org('acme', 'o2', 'Globex');
        await store.createOrganization(acme, adminOf(acme));
        await store.createOrganization(globex, adminOf(globex));
        await store.createUser(user('acme', 'u1'));
        await store.addMember('acme', 'o1', 'u1', T0);
        await store.addMember('acme', 'o2', 'u1', T0);
        // The admin of o1 also belongs to o2; its membership there goes with the user.
        await store.addMember('acme', 'o2', 'admin-o1', T0);
        expect(await store.deleteOrganization('other', 'o1')).toBe(false);
        expect(await store.deleteOrganization('acme', 'o1')).toBe(true);
        expect(await store.getOrganization('acme', 'o1')).toBeUndefined();
        expect(await store.getUser('acme', 'admin-o1')).toBeUndefined();
        expect(await store.isMember('acme', 'o1', 'u1')).toBe(false);
        expect(await store.getUser('acme', 'u1')).toBeDefined();
        expect((await store.listMembers('acme', 'o2', {})).map((u) => u.id)).toEqual(['admin-o2', 'u1']);
        expect((await store.listUserOrganizations('acme', 'u1')).map((o) => o.id)).toEqual(['o2']);
        expect(await store.deleteOrganization('acme', 'o1')).toBe(false);
      });
    });

    describe('memberships', () => {
      beforeEach(async () => {
        const acme = org('acme', 'o1', 'Acme');
        await store.createOrganization(acme, adminOf(acme), T0);
        await store.createUser(user('acme', 'u1', { username: 'zoe', email: 'zoe@example.com', firstName: 'Zoe', lastName: 'Adams' }));
        await store.createUser(user('acme', 'u2', { username: 'adam', email: 'adam@corp.example', lastName: 'Young' }));
        await store.createUser(user('acme', 'u3', { username: 'mia', firstName: 'Mia' }));
        await store.createUser(user('other', 'x1', { username: 'outsider' }));
      });

      it('adds a member and checks it', async () => {
        expect(await store.isMember('acme', 'o1', 'u1')).toBe(false);
        expect(await store.addMember('acme', 'o1', 'u1', T0 + 1)).toBe(true);
        expect(await store.isMember('acme', 'o1', 'u1')).toBe(true);
        expect(await store.isMember('other', 'o1', 'u1')).toBe(false);
      });

      it('answers many concurrent checks each on its own: members, non-members, unknown organizations, other realms', async () => {
        const globex = org('other', 'o2', 'Globex');
        await store.createOrganization(globex, adminOf(globex), T0);
        await store.addMember('acme', 'o1', 'u1', T0 + 1);
        await store.addMember('acme', 'o1', 'u3', T0 + 2);
        await store.addMember('other', 'o2', 'x1', T0 + 3);
        const questions: Array<[string, string, string, boolean]> = [
          ['acme', 'o1', 'u1', true],
          ['acme', 'o1', 'u2', false],
          ['acme', 'o1', 'u3', true],
          ['acme', 'o1', 'admin-o1', true],
          ['acme', 'o9', 'u1', false],
          ['acme', 'o1', 'nobody', false],
          // Realm isolation: the same organization and member asked under the other realm.
          ['other', 'o1', 'u1', false],
          ['other', 'o2', 'x1', true],
          ['acme', 'o2', 'x1', false],
          ['acme', 'o1', 'x1', false],
          ['no-such-realm', 'o1', 'u1', false],
        ];
        // Each question several times, interleaved, all asked before any is answered.
        const asked = Array.from({ length: 7 }, () => questions).flat();
        const answers = await Promise.all(asked.map(([realmName, orgId, userId]) => store.isMember(realmName, orgId, userId)));
        expect(answers).toEqual(asked.map(([, , , member]) => member));
      });

      it('sees an add or a remove in the very next check, also among concurrent checks', async () => {
        expect(await store.isMember('acme', 'o1', 'u2')).toBe(false);
        expect(await store.addMember('acme', 'o1', 'u2', T0 + 1)).toBe(true);
        expect(await Promise.all([store.isMember('acme', 'o1', 'u2'), store.isMember('acme', 'o1', 'u1')])).toEqual([true, false]);
        expect(await store.removeMember('acme', 'o1', 'u2')).toBe(true);
        expect(await Promise.all([store.isMember('acme', 'o1', 'u2'), store.isMember('acme', 'o1', 'u2')])).toEqual([false, false]);
      });

      it('treats adding an existing member as a no-op that keeps its place', async () => {
        await store.addMember('acme', 'o1', 'u1', T0 + 1);
        await store.addMember('acme', 'o1', 'u2', T0 + 2);
        expect(await store.addMember('acme', 'o1', 'u1', T0 + 3)).toBe(true);
        expect((await store.listMembers('acme', 'o1', {})).map((u) => u.id)).toEqual(['admin-o1', 'u1', 'u2']);
      });

      it('refuses unknown organizations and users, and users of another realm', async () => {
        expect(await store.addMember('acme', 'o9', 'u1', T0)).toBe(false);
        expect(await store.addMember('acme', 'o1', 'u9', T0)).toBe(false);
        expect(await store.addMember('acme', 'o1', 'x1', T0)).toBe(false);
        expect(await store.addMember('other', 'o1', 'x1', T0)).toBe(false);
        expect(await store.countMembers('acme', 'o1', {})).toBe(1);
      });

      it('removes a member once and only in the organization’s realm', async () => {
        await store.addMember('acme', 'o1', 'u1', T0);
        expect(await store.removeMember('other', 'o1', 'u1')).toBe(false);
        expect(await store.removeMember('acme', 'o1', 'u1')).toBe(true);
        expect(await store.isMember('acme', 'o1', 'u1')).toBe(false);
        expect(await store.removeMember('acme', 'o1', 'u1')).toBe(false);
        expect(await store.getUser('acme', 'u1')).toBeDefined();
      });

      it('lists members in the order they joined, with first and max', async () => {
        await store.addMember('acme', 'o1', 'u3', T0 + 3);
        await store.addMember('acme', 'o1', 'u1', T0 + 1);
        await store.addMember('acme', 'o1', 'u2', T0 + 2);
        expect(ids(await store.listMembers('acme', 'o1', {}))).toEqual(['admin-o1', 'u3', 'u1', 'u2']);
        expect(ids(await store.listMembers('acme', 'o1', { first: 1, max: 2 }))).toEqual(['u3', 'u1']);
        expect(ids(await store.listMembers('acme', 'o1', { first: 3 }))).toEqual(['u2']);
        expect(await store.listMembers('other', 'o1', {})).toEqual([]);
        expect(await store.listMembers('acme', 'o9', {})).toEqual([]);
      });

      it('leaves out admin accounts on request and counts the same way', async () => {
        await store.addMember('acme', 'o1', 'u1', T0);
        expect(ids(await store.listMembers('acme', 'o1', { excludeAdminAccounts: true }))).toEqual(['u1']);
        expect(await store.countMembers('acme', 'o1', { excludeAdminAccounts: true })).toBe(1);
        expect(await store.countMembers('acme', 'o1', { excludeAdminAccounts: false, first: 1, max: 0 })).toBe(2);
      });

      it('matches any search term against username, email, first and last name case-insensitively', async () => {
        for (const id of ['u1', 'u2', 'u3']) await store.addMember('acme', 'o1', id, T0);
        expect(ids(await store.listMembers('acme', 'o1', { searchTerms: ['ADAM'] }))).toEqual(['u1', 'u2']);
        expect(ids(await store.listMembers('acme', 'o1', { searchTerms: ['corp.example'] }))).toEqual(['u2']);
        expect(ids(await store.listMembers('acme', 'o1', { searchTerms: ['young', 'MIA'] }))).toEqual(['u2', 'u3']);
        expect(ids(await store.listMembers('acme', 'o1', { searchTerms: ['%'] }))).toEqual([]);
        expect(await store.countMembers('acme', 'o1', { searchTerms: ['zoe', 'org-admin'] })).toBe(2);
        expect(await store.countMembers('acme', 'o1', { searchTerms: [''] })).toBe(4);
        // As many terms as the API lets through.
        const many = [...Array.from({ length: MAX_QUERY_TERMS - 1 }, (_, i) => `nobody-${i}`), 'MIA'];
        expect(ids(await store.listMembers('acme', 'o1', { searchTerms: many }))).toEqual(['u3']);
        expect(await store.countMembers('acme', 'o1', { searchTerms: many })).toBe(1);
      });

      it('lists a user’s organizations ordered by name, within the realm', async () => {
        const zeta = org('acme', 'o2', 'zeta');
        await store.createOrganization(zeta);
        await store.createOrganization(org('acme', 'o3', 'Beta'));
        await store.addMember('acme', 'o2', 'u1', T0);
        await store.addMember('acme', 'o1', 'u1', T0);
        await store.addMember('acme', 'o3', 'u1', T0);
        expect((await store.listUserOrganizations('acme', 'u1')).map((o) => o.name)).toEqual(['Acme', 'Beta', 'zeta']);
        expect(await store.listUserOrganizations('other', 'u1')).toEqual([]);
        expect(await store.listUserOrganizations('acme', 'u9')).toEqual([]);
      });
    });

    describe('member pages (keyset paging behind first and max)', () => {
      /** Members in the list besides the organization's admin user. */
      const SIZE = 60;
      const MemberFilterKinds = [{}, { excludeAdminAccounts: true }, { searchTerms: ['-1', '-4'] }];

      beforeEach(async () => {
        const acme = org('acme', 'o1', 'Acme');
        await store.createOrganization(acme, adminOf(acme), T0);
        for (let i = 0; i < SIZE; i += 1) {
          const id = `m-${String(i).padStart(2, '0')}`;
          await store.createUser(user('acme', id));
          // Joined in an order unlike the ids', so that no other order can pass for the join order.
          await store.addMember('acme', 'o1', id, T0 + ((i * 37) % SIZE));
        }
      });

      /** What `OFFSET first LIMIT max` over the list as it is now gives. */
      async function byPosition(filter: { first: number; max: number; excludeAdminAccounts?: boolean; searchTerms?: string[] }): Promise<string[]> {
        const { first, max, ...rest } = filter;
        return ids(await store.listMembers('acme', 'o1', rest)).slice(first, first + max);
      }

      it('walks the list page by page, at every page size, exactly as positions in it', async () => {
        const everyone = ids(await store.listMembers('acme', 'o1', {}));
        expect(everyone).toHaveLength(SIZE + 1);
        for (const max of [1, 7, 20, 61, 1000]) {
          const walked: string[] = [];
          for (let first = 0; ; first += max) {
            const page = ids(await store.listMembers('acme', 'o1', { first, max }));
            expect(page).toEqual(everyone.slice(first, first + max));
            walked.push(...page);
            if (page.length < max) break;
          }
          expect(walked).toEqual(everyone);
        }
      });

      it('keeps first meaning a position in the list as it is now when members join or leave between pages', async () => {
        const max = 10;
        const seen: string[][] = [];
        const page = async (first: number): Promise<string[]> => {
          const answer = ids(await store.listMembers('acme', 'o1', { first, max }));
          expect(answer).toEqual(await byPosition({ first, max }));
          seen.push(answer);
          return answer;
        };
        const first = await page(0);
        await page(10);
        // A member of a page already read leaves: everything after it moves up one place.
        expect(await store.removeMember('acme', 'o1', first[3])).toBe(true);
        await page(20);
        // A member joins (at the end) and another leaves past the next page.
        await store.createUser(user('acme', 'late'));
        await store.addMember('acme', 'o1', 'late', T0 + 1000);
        await page(30);
        const later = await byPosition({ first: 55, max: 1 });
        expect(await store.removeMember('acme', 'o1', later[0])).toBe(true);
        await page(40);
        // Leaving and joining again: same count, new place at the end.
        expect(await store.removeMember('acme', 'o1', first[5])).toBe(true);
        await store.addMember('acme', 'o1', first[5], T0 + 1001);
        await page(50);
        // 61 places, one left, one joined, one more left, one left and came back: 60 places.
        expect(await page(60)).toEqual([]);
        // Read again from the start, the pages are the list as it is now.
        const again: string[] = [];
        for (let at = 0; ; at += max) {
          const answer = await page(at);
          again.push(...answer);
          if (answer.length < max) break;
        }
        expect(again).toEqual(ids(await store.listMembers('acme', 'o1', {})));
        expect(again).toContain('late');
        expect(again.at(-1)).toBe(first[5]);
      });

      it('pages each filter on its own, also when their walks interleave', async () => {
        const max = 4;
        const done = MemberFilterKinds.map(() => false);
        for (let first = 0; done.includes(false); first += max) {
          for (const [index, filter] of MemberFilterKinds.entries()) {
            if (done[index]) continue;
            const answer = ids(await store.listMembers('acme', 'o1', { ...filter, first, max }));
            expect(answer).toEqual(await byPosition({ ...filter, first, max }));
            if (answer.length < max) done[index] = true;
          }
        }
        expect(await byPosition({ searchTerms: ['-1', '-4'], first: 0, max: 100 })).toHaveLength(20);
      });

      it('answers any position directly, before, after and between walks', async () => {
        for (const [first, max] of [[37, 5], [0, 5], [5, 5], [37, 5], [42, 30], [61, 5], [99, 5], [10, 0]]) {
          expect(ids(await store.listMembers('acme', 'o1', { first, max }))).toEqual(await byPosition({ first, max }));
        }
      });

      it('answers nothing for an organization deleted between pages, and for another realm', async () => {
        await store.listMembers('acme', 'o1', { first: 0, max: 10 });
        expect(await store.listMembers('other', 'o1', { first: 10, max: 10 })).toEqual([]);
        expect(await store.deleteOrganization('acme', 'o1')).toBe(true);
        expect(await store.listMembers('acme', 'o1', { first: 10, max: 10 })).toEqual([]);
      });
    });

    describe('organization pages (keyset paging behind first and max)', () => {
      const SIZE = 40;
      const OrganizationFilterKinds = [{}, { search: 'ORG-1' }, { attributes: [['tier', 'gold']] as Array<[string, string]> }];

      /** Names in an order unlike the ids' (and mixed case), so that no other order can pass for the name order. */
      const nameOf = (i: number) => `${i % 3 === 0 ? 'Org' : 'org'}-${String((i * 17) % SIZE).padStart(2, '0')}`;

      beforeEach(async () => {
        for (let i = 0; i < SIZE; i += 1) {
          const tier = i % 4 === 0 ? ['gold'] : ['silver'];
          await store.createOrganization(org('acme', `o-${String(i).padStart(2, '0')}`, nameOf(i), { attributes: { tier } }));
        }
        await store.createOrganization(org('other', 'elsewhere', 'org-00'));
      });

      /** What `OFFSET first LIMIT max` over the list as it is now gives. */
      async function byPosition(filter: { first: number; max: number; search?: string; attributes?: Array<[string, string]> }): Promise<string[]> {
        const { first, max, ...rest } = filter;
        return ids(await store.listOrganizations('acme', rest)).slice(first, first + max);
      }

      it('walks the list page by page, at every page size, exactly as positions in it', async () => {
        const everyone = ids(await store.listOrganizations('acme', {}));
        expect(everyone).toHaveLength(SIZE);
        for (const max of [1, 7, 20, 40, 1000]) {
          const walked: string[] = [];
          for (let first = 0; ; first += max) {
            const page = ids(await store.listOrganizations('acme', { first, max }));
            expect(page).toEqual(everyone.slice(first, first + max));
            walked.push(...page);
            if (page.length < max) break;
          }
          expect(walked).toEqual(everyone);
        }
      });

      it('keeps first meaning a position in the list as it is now when organizations come, go or are renamed between pages', async () => {
        const max = 8;
        const page = async (first: number): Promise<string[]> => {
          const answer = ids(await store.listOrganizations('acme', { first, max }));
          expect(answer).toEqual(await byPosition({ first, max }));
          return answer;
        };
        const first = await page(0);
        await page(8);
        // One already listed goes: everything after it moves up one place.
        expect(await store.deleteOrganization('acme', first[2])).toBe(true);
        await page(16);
        // One comes, sorting before every page read so far.
        await store.createOrganization(org('acme', 'newcomer', 'Aaa'));
        await page(24);
        // One already listed is renamed to sort after the next page's start.
        const renamed = first[4];
        const before = (await store.getOrganization('acme', renamed))!;
        expect(await store.updateOrganization('acme', renamed, { name: 'zzz', displayName: null, url: null, attributes: before.attributes })).toBe(true);
        await page(32);
        // Another store or realm changing its own list does not disturb this one's positions.
        await store.createOrganization(org('other', 'elsewhere-2', 'Aaa'));
        await page(40);
        const again: string[] = [];
        for (let at = 0; ; at += max) {
          const answer = await page(at);
          again.push(...answer);
          if (answer.length < max) break;
        }
        expect(again).toEqual(ids(await store.listOrganizations('acme', {})));
        expect(again[0]).toBe('newcomer');
        expect(again.at(-1)).toBe(renamed);
      });

      it('keeps a filtered walk right when a display name or attributes change what the filter matches', async () => {
        const max = 3;
        const search = 'special';
        const filtered = async (first: number): Promise<string[]> => {
          const answer = ids(await store.listOrganizations('acme', { search, first, max }));
          expect(answer).toEqual(await byPosition({ search, first, max }));
          return answer;
        };
        const gold = async (first: number): Promise<string[]> => {
          const answer = ids(await store.listOrganizations('acme', { attributes: [['tier', 'gold']], first, max }));
          expect(answer).toEqual(await byPosition({ attributes: [['tier', 'gold']], first, max }));
          return answer;
        };
        const all = ids(await store.listOrganizations('acme', {}));
        for (const id of all.slice(0, 12)) {
          const current = (await store.getOrganization('acme', id))!;
          await store.updateOrganization('acme', id, { name: current.name, displayName: 'Special', url: null, attributes: current.attributes });
        }
        expect(await filtered(0)).toEqual(all.slice(0, 3));
        expect(await gold(0)).toHaveLength(3);
        // A display name is the only change: the name order stays, the filtered list loses one.
        const early = (await store.getOrganization('acme', all[1]))!;
        await store.updateOrganization('acme', all[1], { name: early.name, displayName: null, url: null, attributes: early.attributes });
        expect(await filtered(3)).toEqual(all.slice(4, 7));
        // An attribute is the only change: the gold list gains the realm's first silver organization.
        const silver = [];
        for (const id of all) if ((await store.getOrganization('acme', id))!.attributes.tier?.[0] === 'silver') silver.push(id);
        const promoted = (await store.getOrganization('acme', silver[0]))!;
        await store.updateOrganization('acme', silver[0], { name: promoted.name, displayName: promoted.displayName, url: null, attributes: { tier: ['gold'] } });
        await gold(3);
        expect(ids(await store.listOrganizations('acme', { attributes: [['tier', 'gold']] }))).toContain(silver[0]);
      });

      it('pages each filter on its own, also when their walks interleave', async () => {
        const max = 3;
        const done = OrganizationFilterKinds.map(() => false);
        for (let first = 0; done.includes(false); first += max) {
          for (const [index, filter] of OrganizationFilterKinds.entries()) {
            if (done[index]) continue;
            const answer = ids(await store.listOrganizations('acme', { ...filter, first, max }));
            expect(answer).toEqual(await byPosition({ ...filter, first, max }));
            if (answer.length < max) done[index] = true;
          }
        }
        expect(await byPosition({ attributes: [['tier', 'gold']], first: 0, max: 100 })).toHaveLength(10);
      });

      it('answers any position directly, before, after and between walks', async () => {
        for (const [first, max] of [[17, 5], [0, 5], [5, 5], [17, 5], [22, 30], [40, 5], [99, 5], [10, 0]]) {
          expect(ids(await store.listOrganizations('acme', { first, max }))).toEqual(await byPosition({ first, max }));
        }
      });
    });

    describe('user pages (keyset paging behind first and max)', () => {
      const SIZE = 40;
      const UserFilterKinds = [{}, { search: 'USER-1' }, { username: 'r-2' }, { email: 'example.org' }];

      beforeEach(async () => {
        for (let i = 0; i < SIZE; i += 1) {
          // Usernames in an order unlike the ids' and in mixed case: the order is case-insensitive.
          const name = `${i % 3 === 0 ? 'User' : 'user'}-${String((i * 17) % SIZE).padStart(2, '0')}`;
          await store.createUser(user('acme', `u-${String(i).padStart(2, '0')}`, { username: name, email: i % 2 === 0 ? `${name}@example.org` : null }));
        }
        // Never listed: a service account, and another realm's user.
        await store.createUser(user('acme', 'sa', { username: 'service-account-x', kind: 'service-account' }));
        await store.createUser(user('other', 'elsewhere', { username: 'user-00' }));
      });

      /** What `OFFSET first LIMIT max` over the list as it is now gives. */
      async function byPosition(filter: { first: number; max: number; search?: string; username?: string; email?: string }): Promise<string[]> {
        const { first, max, ...rest } = filter;
        return ids(await store.findUsers('acme', rest)).slice(first, first + max);
      }

      it('walks the list page by page, at every page size, exactly as positions in it', async () => {
        const everyone = ids(await store.findUsers('acme', {}));
        expect(everyone).toHaveLength(SIZE);
        for (const max of [1, 7, 20, 40, 1000]) {
          const walked: string[] = [];
          for (let first = 0; ; first += max) {
            const page = ids(await store.findUsers('acme', { first, max }));
            expect(page).toEqual(everyone.slice(first, first + max));
            walked.push(...page);
            if (page.length < max) break;
          }
          expect(walked).toEqual(everyone);
        }
      });

      it('keeps first meaning a position in the list as it is now when users come or go between pages', async () => {
        const max = 8;
        const page = async (first: number): Promise<string[]> => {
          const answer = ids(await store.findUsers('acme', { first, max }));
          expect(answer).toEqual(await byPosition({ first, max }));
          return answer;
        };
        await page(0);
        await page(8);
        // A user comes, sorting before every page read so far.
        await store.createUser(user('acme', 'early', { username: 'AAA' }));
        await page(16);
        // An organization comes with its admin user, and goes again with it.
        const globex = org('acme', 'globex', 'Globex');
        await store.createOrganization(globex, adminOf(globex), T0);
        await page(24);
        expect(await store.deleteOrganization('acme', 'globex')).toBe(true);
        await page(32);
        // A service account comes: not listed, positions unchanged.
        await store.createUser(user('acme', 'sa-2', { username: 'a-service-account', kind: 'service-account' }));
        await page(40);
        const again: string[] = [];
        for (let at = 0; ; at += max) {
          const answer = await page(at);
          again.push(...answer);
          if (answer.length < max) break;
        }
        expect(again).toEqual(ids(await store.findUsers('acme', {})));
        expect(again[0]).toBe('early');
        expect(again).not.toContain('admin-globex');
      });

      it('pages each filter on its own, also when their walks interleave', async () => {
        const max = 3;
        const done = UserFilterKinds.map(() => false);
        for (let first = 0; done.includes(false); first += max) {
          for (const [index, filter] of UserFilterKinds.entries()) {
            if (done[index]) continue;
            const answer = ids(await store.findUsers('acme', { ...filter, first, max }));
            expect(answer).toEqual(await byPosition({ ...filter, first, max }));
            if (answer.length < max) done[index] = true;
          }
        }
        expect(await byPosition({ email: 'example.org', first: 0, max: 100 })).toHaveLength(20);
      });

      it('answers any position directly, before, after and between walks', async () => {
        for (const [first, max] of [[17, 5], [0, 5], [5, 5], [17, 5], [22, 30], [40, 5], [99, 5], [10, 0]]) {
          expect(ids(await store.findUsers('acme', { first, max }))).toEqual(await byPosition({ first, max }));
        }
      });
    });

    describe('realm administrators, key usage, login clients and codes', () => {
      it('changes a user\u2019s enabled flag and admin role, only in its realm, and counts users like it finds them', async () => {
        await store.createUser(user('acme', 'u1', { username: 'alice' }));
        await store.createUser(user('acme', 'u2', { username: 'bob', email: 'bob@example.com' }));
        expect((await store.getUser('acme', 'u1'))?.realmAdmin).toBe(false);
        const updated = await store.updateUser('acme', 'u1', { realmAdmin: true });
        expect(updated).toEqual({ ...user('acme', 'u1', { username: 'alice' }), realmAdmin: true });
        expect(await store.updateUser('acme', 'u1', { enabled: false })).toEqual({ ...updated, enabled: false });
        expect(await store.updateUser('other', 'u1', { enabled: true })).toBeUndefined();
        expect((await store.getUser('acme', 'u1'))?.enabled).toBe(false);
        expect((await store.updateUser('acme', 'u1', { passwordHash: 'scrypt$new' }))?.passwordHash).toBe('scrypt$new');
        expect(await store.updateUser('acme', 'u1', { enabled: true })).toMatchObject({ passwordHash: 'scrypt$new', realmAdmin: true });
        expect((await store.updateUser('acme', 'u1', { passwordHash: null }))?.passwordHash).toBeNull();
        expect(await store.countUsers('acme', {})).toBe(2);
        expect(await store.countUsers('acme', { search: 'BOB' })).toBe(1);
        expect(await store.countUsers('acme', { search: nulChar })).toBe(0);
      });

      it('replaces the permissions of active keys only and records when a key was last used', async () => {
        const key = apiKey('acme', 'k1', 'ci');
        await store.createApiKey(key, serviceAccount(key));
        expect((await store.getApiKey('k1'))?.lastUsedTimestamp).toBeNull();
        expect(await store.setApiKeyPermissions('k1', ['view-users'])).toBe(true);
        await store.touchApiKey('k1', T0 + 60_000);
        expect(await store.getApiKey('k1')).toEqual({ ...key, permissions: ['view-users'], lastUsedTimestamp: T0 + 60_000 });
        await store.revokeApiKey('k1', T0 + 1);
        expect(await store.setApiKeyPermissions('k1', ['view-organizations'])).toBe(false);
        expect(await store.setApiKeyPermissions('nope', ['view-organizations'])).toBe(false);
        expect((await store.getApiKey('k1'))?.permissions).toEqual(['view-users']);
      });

      it('registers public and confidential clients per realm with their exact redirect URIs', async () => {
        const client = { realm: 'acme', clientId: 'spa', name: 'SPA', redirectUris: ['https://app.example.com/cb', 'http://127.0.0.1:8080/cb'], createdTimestamp: T0, secretHash: null, organizationsClaim: false };
        const confidential = { ...client, clientId: 'web', secretHash: 'hmac-sha256$abc', organizationsClaim: true };
        await store.createOidcClient(confidential);
        expect(await store.getOidcClient('acme', 'web')).toEqual(confidential);
        expect(await store.deleteOidcClient('acme', 'web')).toBe(true);
        await store.createOidcClient(client);
        await store.createOidcClient({ ...client, realm: 'other' });
        expect(await conflictOf(store.createOidcClient({ ...client, name: 'again' }))).toBe('client id');
        expect(await store.getOidcClient('acme', 'spa')).toEqual(client);
        expect(await store.getOidcClient('acme', 'nope')).toBeUndefined();
        expect(await store.listOidcClients('acme')).toEqual([client]);
        expect(await store.deleteOidcClient('acme', 'spa')).toBe(true);
        expect(await store.deleteOidcClient('acme', 'spa')).toBe(false);
        expect(await store.getOidcClient('other', 'spa')).toEqual({ ...client, realm: 'other' });
        expect(await store.setOidcClientOrganizationsClaim('other', 'spa', true)).toBe(true);
        expect(await store.getOidcClient('other', 'spa')).toEqual({ ...client, realm: 'other', organizationsClaim: true });
        expect(await store.setOidcClientOrganizationsClaim('acme', 'spa', true)).toBe(false);
      });

      it('keeps a realm\'s organizations claim setting', async () => {
        await store.createRealm(realm('claims', { organizationsClaim: true }));
        expect((await store.getRealm('claims'))?.organizationsClaim).toBe(true);
        expect((await store.getRealmSettings('claims'))?.organizationsClaim).toBe(true);
        expect((await store.updateRealm('claims', { organizationsClaim: false }))?.organizationsClaim).toBe(false);
        expect((await store.getRealm('acme'))?.organizationsClaim).toBe(false);
      });

      it('hands an authorization code out exactly once, and forgets expired codes when saving new ones', async () => {
        await store.createUser(user('acme', 'u1'));
        const code = {
          codeHash: 'h1', realm: 'acme', clientId: 'spa', redirectUri: 'https://app.example.com/cb', userId: 'u1',
          codeChallenge: 'challenge', nonce: 'n-1', scope: 'openid', authTime: 1_764_000_000, expiresTimestamp: T0 + 60_000,
        };
        await store.saveAuthorizationCode(code, T0);
        await store.saveAuthorizationCode({ ...code, codeHash: 'h2', nonce: null }, T0);
        const both = await Promise.all([store.consumeAuthorizationCode('h1'), store.consumeAuthorizationCode('h1')]);
        expect(both.filter((found) => found !== undefined)).toEqual([code]);
        // Saving at a time after h2 expired forgets h2.
        await store.saveAuthorizationCode({ ...code, codeHash: 'h3', expiresTimestamp: T0 + 200_000 }, T0 + 100_000);
        expect(await store.consumeAuthorizationCode('h2')).toBeUndefined();
        expect((await store.consumeAuthorizationCode('h3'))?.codeHash).toBe('h3');
      });
    });

    describe('organization roles', () => {
      /** An organization with its default admin user, and two end users who are members. */
      async function orgWithMembers(id = 'o1'): Promise<Organization> {
        const acme = org('acme', id, `Org ${id}`);
        await store.createOrganization(acme, adminOf(acme), T0);
        for (const member of ['alice', 'bob']) {
          if (!(await store.getUser('acme', member))) await store.createUser(user('acme', member));
          await store.addMember('acme', id, member, T0 + 1);
        }
        return acme;
      }
      const names = (roles: Array<{ name: string }> | undefined): string[] | undefined => roles?.map((role) => role.name);
      const sortedDefaults = [...DEFAULT_ORGANIZATION_ROLE_NAMES].sort();

      it('gives a new organization the default roles, all held by its default admin user', async () => {
        await orgWithMembers();
        const roles = await store.listRoles('acme', 'o1');
        expect(names(roles)).toEqual(sortedDefaults);
        for (const role of DEFAULT_ORGANIZATION_ROLES) {
          expect(roles!.find((r) => r.name === role.name)).toMatchObject({ organizationId: 'o1', description: role.description, createdTimestamp: T0 });
        }
        expect(names(await store.listMemberRoles('acme', 'o1', 'admin-o1'))).toEqual(sortedDefaults);
        expect(await store.listMemberRoles('acme', 'o1', 'alice')).toEqual([]);
        expect(ids(await store.listRoleUsers('acme', 'o1', 'manage-roles', {}) ?? [])).toEqual(['admin-o1']);
        expect(await store.listRoleUsers('acme', 'o1', 'manage-roles', { excludeAdminAccounts: true })).toEqual([]);
      });

      it('creates the default roles without holders when the organization has no admin user', async () => {
        await store.createOrganization(org('acme', 'o1', 'Acme'), undefined, T0);
        expect(names(await store.listRoles('acme', 'o1'))).toEqual(sortedDefaults);
        expect(await store.listRoleUsers('acme', 'o1', 'view-organization', {})).toEqual([]);
      });

      it('creates roles in order, reports names that exist (also twice in one list), and only in the realm', async () => {
        await orgWithMembers();
        const created = await store.createRoles(
          'acme',
          'o1',
          [
            { id: 'r1', name: 'editor', description: 'Edits things' },
            { id: 'r2', name: 'view-roles', description: 'mine' },
            { id: 'r3', name: 'viewer', description: null },
            { id: 'r4', name: 'editor', description: 'again' },
          ],
          T0 + 2,
        );
        expect(created?.map((c) => [c.created, c.role.name, c.role.description])).toEqual([
          [true, 'editor', 'Edits things'],
          [false, 'view-roles', 'View roles of this organization'],
          [true, 'viewer', null],
          [false, 'editor', 'Edits things'],
        ]);
        expect(await store.getRole('acme', 'o1', 'editor')).toEqual({ id: 'r1', organizationId: 'o1', name: 'editor', description: 'Edits things', createdTimestamp: T0 + 2 });
        expect(await store.getRole('other', 'o1', 'editor')).toBeUndefined();
        expect(await store.getRole('acme', 'o1', 'Editor')).toBeUndefined();
        expect(await store.createRoles('other', 'o1', [{ id: 'r9', name: 'x', description: null }], T0)).toBeUndefined();
        expect(await store.createRoles('acme', 'nope', [{ id: 'r9', name: 'x', description: null }], T0)).toBeUndefined();
        expect(await store.listRoles('acme', 'nope')).toBeUndefined();
        expect(await store.listRoles('other', 'o1')).toBeUndefined();
      });

      it('keeps role names per organization: the same name in two organizations is two roles', async () => {
        await orgWithMembers('o1');
        await orgWithMembers('o2');
        await store.createRoles('acme', 'o1', [{ id: 'r1', name: 'editor', description: null }], T0);
        const second = await store.createRoles('acme', 'o2', [{ id: 'r2', name: 'editor', description: null }], T0);
        expect(second?.[0]?.created).toBe(true);
        expect(await conflictOf(store.createRoles('acme', 'o2', [{ id: 'r1', name: 'other', description: null }], T0))).toBe('role id');
        expect(names(await store.listRoles('acme', 'o2'))).toContain('editor');
      });

      it('updates a description and deletes roles with their grants', async () => {
        await orgWithMembers();
        await store.createRoles('acme', 'o1', [{ id: 'r1', name: 'editor', description: 'old' }], T0);
        expect(await store.updateRoleDescription('acme', 'o1', 'editor', 'new')).toMatchObject({ id: 'r1', description: 'new' });
        expect(await store.updateRoleDescription('acme', 'o1', 'editor', null)).toMatchObject({ description: null });
        expect(await store.updateRoleDescription('acme', 'o1', 'ghost', 'x')).toBeUndefined();
        expect(await store.updateRoleDescription('other', 'o1', 'editor', 'x')).toBeUndefined();
        await store.changeMemberRoles('acme', 'o1', 'alice', ['editor'], 'grant', T0);
        const deleted = await store.deleteRoles('acme', 'o1', ['editor', 'ghost', 'editor']);
        expect(deleted?.map((role) => role?.id)).toEqual(['r1', undefined, undefined]);
        expect(await store.getRole('acme', 'o1', 'editor')).toBeUndefined();
        expect(await store.listMemberRoles('acme', 'o1', 'alice')).toEqual([]);
        // A role created again under the name does not bring the old grant back.
        await store.createRoles('acme', 'o1', [{ id: 'r2', name: 'editor', description: null }], T0);
        expect(await store.hasRole('acme', 'o1', 'editor', 'alice')).toBe(false);
        expect(await store.deleteRoles('acme', 'nope', ['editor'])).toBeUndefined();
      });

      it('grants and revokes a member\'s roles, in order, telling what changed', async () => {
        await orgWithMembers();
        await store.createRoles('acme', 'o1', [{ id: 'r1', name: 'editor', description: null }], T0);
        const granted = await store.changeMemberRoles('acme', 'o1', 'alice', ['editor', 'ghost', 'view-roles', 'editor'], 'grant', T0 + 3);
        expect(granted.kind).toBe('done');
        const outcomes = granted.kind === 'done' ? granted.changes.map((c) => (c.outcome === 'no-role' ? [c.outcome, c.name] : [c.outcome, c.role.name])) : [];
        expect(outcomes).toEqual([
          ['changed', 'editor'],
          ['no-role', 'ghost'],
          ['changed', 'view-roles'],
          ['unchanged', 'editor'],
        ]);
        expect(names(await store.listMemberRoles('acme', 'o1', 'alice'))).toEqual(['editor', 'view-roles']);
        expect(await store.hasRole('acme', 'o1', 'editor', 'alice')).toBe(true);
        expect(await store.hasRole('acme', 'o1', 'editor', 'bob')).toBe(false);
        expect(await store.hasRole('other', 'o1', 'editor', 'alice')).toBe(false);
        const revoked = await store.changeMemberRoles('acme', 'o1', 'alice', ['editor', 'manage-roles'], 'revoke', T0);
        expect(revoked.kind === 'done' && revoked.changes.map((c) => c.outcome)).toEqual(['changed', 'unchanged']);
        expect(names(await store.listMemberRoles('acme', 'o1', 'alice'))).toEqual(['view-roles']);
      });

      it('refuses grants to a non-member, an unknown user or organization, and changes nothing', async () => {
        await orgWithMembers();
        await store.createUser(user('acme', 'carol'));
        await store.createUser(user('other', 'stranger'));
        expect(await store.changeMemberRoles('acme', 'o1', 'carol', ['view-roles'], 'grant', T0)).toEqual({ kind: 'not-member' });
        expect(await store.changeMemberRoles('acme', 'o1', 'ghost', ['view-roles'], 'grant', T0)).toEqual({ kind: 'no-user' });
        expect(await store.changeMemberRoles('acme', 'o1', 'stranger', ['view-roles'], 'grant', T0)).toEqual({ kind: 'no-user' });
        expect(await store.changeMemberRoles('acme', 'nope', 'alice', ['view-roles'], 'grant', T0)).toEqual({ kind: 'no-organization' });
        expect(await store.changeMemberRoles('other', 'o1', 'alice', ['view-roles'], 'revoke', T0)).toEqual({ kind: 'no-organization' });
        expect(await store.listMemberRoles('acme', 'o1', 'carol')).toBeUndefined();
        expect(ids(await store.listRoleUsers('acme', 'o1', 'view-roles', {}) ?? [])).toEqual(['admin-o1']);
      });

      it('removes a member\'s grants with the membership: added again, the member holds no role', async () => {
        await orgWithMembers();
        await store.changeMemberRoles('acme', 'o1', 'alice', ['view-roles', 'manage-roles'], 'grant', T0);
        expect(await store.removeMember('acme', 'o1', 'alice')).toBe(true);
        expect(await store.hasRole('acme', 'o1', 'view-roles', 'alice')).toBe(false);
        await store.addMember('acme', 'o1', 'alice', T0 + 9);
        expect(await store.listMemberRoles('acme', 'o1', 'alice')).toEqual([]);
      });

      it('lists the users of a role in grant order, and undefined for an unknown role', async () => {
        await orgWithMembers();
        await store.changeMemberRoles('acme', 'o1', 'bob', ['view-members'], 'grant', T0);
        await store.changeMemberRoles('acme', 'o1', 'alice', ['view-members'], 'grant', T0);
        expect(ids((await store.listRoleUsers('acme', 'o1', 'view-members', {}))!)).toEqual(['admin-o1', 'bob', 'alice']);
        expect(ids((await store.listRoleUsers('acme', 'o1', 'view-members', { excludeAdminAccounts: true }))!)).toEqual(['bob', 'alice']);
        expect(await store.listRoleUsers('acme', 'o1', 'ghost', {})).toBeUndefined();
        expect(await store.listRoleUsers('other', 'o1', 'view-members', {})).toBeUndefined();
      });

      it('lists a user\'s organizations with the user\'s roles in each, by organization name', async () => {
        await orgWithMembers('o2');
        await orgWithMembers('o1');
        await store.changeMemberRoles('acme', 'o2', 'alice', ['view-roles', 'manage-members'], 'grant', T0);
        const memberships = await store.listUserOrganizationRoles('acme', 'alice');
        expect(memberships.map((m) => [m.organization.id, names(m.roles)])).toEqual([
          ['o1', []],
          ['o2', ['manage-members', 'view-roles']],
        ]);
        expect(await store.listUserOrganizationRoles('acme', 'carol')).toEqual([]);
        expect(await store.listUserOrganizationRoles('other', 'alice')).toEqual([]);
      });

      it('deletes roles and grants with their organization', async () => {
        await orgWithMembers();
        await store.changeMemberRoles('acme', 'o1', 'alice', ['view-roles'], 'grant', T0);
        expect(await store.deleteOrganization('acme', 'o1')).toBe(true);
        expect(await store.listRoles('acme', 'o1')).toBeUndefined();
        expect(await store.listUserOrganizationRoles('acme', 'alice')).toEqual([]);
        // The organization created again under its id starts with fresh default roles and no grants.
        await store.createOrganization(org('acme', 'o1', 'Again'), undefined, T0);
        expect(await store.hasRole('acme', 'o1', 'view-roles', 'alice')).toBe(false);
      });

      it('finds nothing for values containing NUL instead of throwing', async () => {
        await orgWithMembers();
        expect(await store.getRole('acme', 'o1', nulChar)).toBeUndefined();
        expect(await store.listRoles('acme', nulChar)).toBeUndefined();
        expect(await store.updateRoleDescription('acme', 'o1', nulChar, 'x')).toBeUndefined();
        expect(await store.deleteRoles('acme', 'o1', [nulChar])).toEqual([undefined]);
        expect(await store.hasRole('acme', 'o1', nulChar, 'alice')).toBe(false);
        expect(await store.listRoleUsers('acme', 'o1', nulChar, {})).toBeUndefined();
        expect(await store.listMemberRoles('acme', 'o1', nulChar)).toBeUndefined();
        expect(await store.listUserOrganizationRoles('acme', nulChar)).toEqual([]);
        expect(await store.changeMemberRoles('acme', 'o1', nulChar, ['view-roles'], 'grant', T0)).toEqual({ kind: 'no-user' });
        const change = await store.changeMemberRoles('acme', 'o1', 'alice', [nulChar], 'grant', T0);
        expect(change.kind === 'done' && change.changes.map((c) => c.outcome)).toEqual(['no-role']);
      });
    });

    describe('concurrency', () => {
      it('keeps one membership when the same member is added 20 times at once', async () => {
        const acme = org('acme', 'o1', 'Acme');
        await store.createOrganization(acme, adminOf(acme));
        await store.createUser(user('acme', 'u1'));
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.addMember('acme', 'o1', 'u1', T0 + i)));
        expect(results).toEqual(Array(20).fill(true));
        expect(ids(await store.listMembers('acme', 'o1', {}))).toEqual(['admin-o1', 'u1']);
        expect(await store.countMembers('acme', 'o1', {})).toBe(2);
      });

      it('never leaves a grant to a non-member when grants race removals of the member', async () => {
        const acme = org('acme', 'o1', 'Acme');
        await store.createOrganization(acme, adminOf(acme));
        await store.createUser(user('acme', 'u1'));
        for (let round = 0; round < 10; round += 1) {
          await store.addMember('acme', 'o1', 'u1', T0);
          const [granted] = await Promise.all([
            store.changeMemberRoles('acme', 'o1', 'u1', ['view-roles', 'view-members'], 'grant', T0),
            store.removeMember('acme', 'o1', 'u1'),
          ]);
          expect(['done', 'not-member']).toContain(granted.kind);
          expect(await store.isMember('acme', 'o1', 'u1')).toBe(false);
          expect(await store.hasRole('acme', 'o1', 'view-roles', 'u1')).toBe(false);
        }
      });

      it('lets exactly one of two simultaneous creates with the same name win', async () => {
        const first = org('acme', 'o1', 'Same');
        const second = org('acme', 'o2', 'Same');
        const outcomes = await Promise.allSettled([
          store.createOrganization(first, adminOf(first)),
          store.createOrganization(second, adminOf(second)),
        ]);
        const fulfilled = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        const rejected = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
        expect(fulfilled).toHaveLength(1);
        expect(rejected).toHaveLength(1);
        expect(rejected[0]!.reason).toBeInstanceOf(StoreConflictError);
        expect((rejected[0]!.reason as StoreConflictError).what).toBe('organization name');
        const [winner] = await store.listOrganizations('acme', {});
        expect(await store.countOrganizations('acme', {})).toBe(1);
        // The loser's admin user was rolled back with it.
        expect((await store.findUsers('acme', {})).map((u) => u.id)).toEqual([`admin-${winner!.id}`]);
      });
    });

    describe('lookups that cannot match', () => {
      it('find nothing for values containing NUL instead of throwing', async () => {
        const nul = 'a\u0000b';
        await store.createOrganization(org('acme', 'o1', 'Acme'));
        await store.createUser(user('acme', 'u1'));
        expect(await store.getRealm(nul)).toBeUndefined();
        expect(await store.updateRealm(nul, { enabled: false })).toBeUndefined();
        expect(await store.getUser('acme', nul)).toBeUndefined();
        expect(await store.findUserByUsername('acme', nul)).toBeUndefined();
        expect(await store.findUsers('acme', { search: nul })).toEqual([]);
        expect(await store.getApiKey(nul)).toBeUndefined();
        expect(await store.revokeApiKey(nul, T0)).toBe(false);
        expect(await store.getOrganization('acme', nul)).toBeUndefined();
        expect(await store.listOrganizations('acme', { search: nul })).toEqual([]);
        expect(await store.countOrganizations('acme', { attributes: [[nul, 'x']] })).toBe(0);
        expect(await store.deleteOrganization('acme', nul)).toBe(false);
        expect(await store.addMember('acme', 'o1', nul, T0)).toBe(false);
        expect(await store.isMember('acme', nul, 'u1')).toBe(false);
        expect(await store.removeMember('acme', 'o1', nul)).toBe(false);
        expect(await store.listMembers('acme', nul, {})).toEqual([]);
        expect(await store.countMembers('acme', 'o1', { searchTerms: [nul] })).toBe(0);
        expect(await store.listUserOrganizations('acme', nul)).toEqual([]);
      });
    });

    it('closes idempotently', async () => {
      await store.close();
      await expect(store.close()).resolves.toBeUndefined();
    });
  });
}
