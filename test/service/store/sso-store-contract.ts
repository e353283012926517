/**
 * The behaviour of `Store.sso` (verified domains, identity providers, mappers, federated identities,
 * broker sign-ins) that both stores share, run against each (sqlite-contract.test.ts,
 * postgres-contract.test.ts). Each test gets a fresh, empty store from `open`.
 */
import type { Organization } from '../../../src/api';
import type { IdentityProviderRecord } from '../../../src/service/store/sso-store';
import { StoreConflictError, newUser, type RealmRecord } from '../../../src/service/store/store';
import type { OpenedStore } from './store-contract';

const T0 = 1_764_000_000_000;

function realm(name: string): RealmRecord {
  return {
    name,
    enabled: true,
    tokenLifetimeSeconds: 300,
    createAdminUser: true,
    rateLimit: null,
    organizationsClaim: false,
    createdTimestamp: T0,
    privateKeyPem: 'private',
    publicKeyPem: 'public',
    keyId: `kid-${name}`,
  };
}

const org = (realmName: string, id: string, domains: string[]): Organization => ({ id, name: id, displayName: null, url: null, domains, attributes: {}, realm: realmName });

function provider(alias: string, organizationId: string | null, overrides: Partial<IdentityProviderRecord> = {}): IdentityProviderRecord {
  return {
    realm: 'acme',
    alias,
    internalId: `internal-${alias}`,
    organizationId,
    providerId: 'oidc',
    displayName: null,
    enabled: true,
    trustEmail: false,
    config: { clientId: 'broker', issuer: 'https://idp.example' },
    sealedClientSecret: null,
    createdTimestamp: T0,
    ...overrides,
  };
}

async function conflictOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StoreConflictError);
  return (error as StoreConflictError).what;
}

/** Registers the shared SSO store tests under `describe(name)`. */
export function describeSsoStoreContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`${name}: domains, identity providers, brokered sign-in`, () => {
    let opened: OpenedStore;
    let store: OpenedStore['store'];

    beforeEach(async () => {
      opened = await open();
      store = opened.store;
      await store.createRealm(realm('acme'));
      await store.createRealm(realm('other'));
      await store.createOrganization(org('acme', 'o1', ['a.example', 'b.example']));
      await store.createOrganization(org('acme', 'o2', ['a.example']));
    });
    afterEach(async () => {
      await opened.cleanup();
    });

    it('verifies a listed domain once per realm, keeps it while listed and frees it when it leaves the list', async () => {
      expect(await store.sso.verifyDomain('acme', 'o1', 'c.example', T0)).toEqual({ outcome: 'not_listed' });
      expect(await store.sso.verifyDomain('acme', 'nope', 'a.example', T0)).toEqual({ outcome: 'not_listed' });
      expect(await store.sso.verifyDomain('acme', 'o1', 'a.example', T0)).toEqual({ outcome: 'verified' });
      expect(await store.sso.verifyDomain('acme', 'o1', 'a.example', T0 + 1)).toEqual({ outcome: 'verified' });
      expect(await store.sso.verifyDomain('acme', 'o2', 'a.example', T0)).toEqual({ outcome: 'taken', organizationId: 'o1' });
      expect(await store.sso.verifyDomain('acme', 'o1', 'b.example', T0)).toEqual({ outcome: 'verified' });
      expect(await store.sso.verifiedDomains('acme', 'o1')).toEqual(['a.example', 'b.example']);
      expect(await store.sso.verifiedDomains('acme', 'o2')).toEqual([]);

      await store.updateOrganization('acme', 'o1', { name: 'o1', displayName: null, url: null, attributes: {}, domains: ['b.example', 'd.example'] });
      expect(await store.sso.verifiedDomains('acme', 'o1')).toEqual(['b.example']);
      await store.updateOrganization('acme', 'o1', { name: 'renamed', displayName: null, url: null, attributes: {} });
      expect(await store.sso.verifiedDomains('acme', 'o1')).toEqual(['b.example']);
      expect(await store.sso.verifyDomain('acme', 'o2', 'a.example', T0)).toEqual({ outcome: 'verified' });
      await store.deleteOrganization('acme', 'o2');
      await store.createOrganization(org('acme', 'o3', ['a.example']));
      expect(await store.sso.verifyDomain('acme', 'o3', 'a.example', T0)).toEqual({ outcome: 'verified' });
    });

    it('verifies the same domain in two realms independently', async () => {
      await store.createOrganization(org('other', 'x1', ['a.example']));
      expect(await store.sso.verifyDomain('acme', 'o1', 'a.example', T0)).toEqual({ outcome: 'verified' });
      expect(await store.sso.verifyDomain('other', 'x1', 'a.example', T0)).toEqual({ outcome: 'verified' });
    });

    it('keeps the domains and providers of two realms\' organizations of one id apart (issue 27, finding 8)', async () => {
      await store.createOrganization(org('other', 'o1', ['a.example', 'z.example']));
      expect(await store.sso.verifyDomain('acme', 'o1', 'a.example', T0)).toEqual({ outcome: 'verified' });
      expect(await store.sso.verifyDomain('other', 'o1', 'z.example', T0)).toEqual({ outcome: 'verified' });
      expect(await store.sso.verifiedDomains('acme', 'o1')).toEqual(['a.example']);
      expect(await store.sso.verifiedDomains('other', 'o1')).toEqual(['z.example']);
      await store.sso.createIdentityProvider(provider('corp', 'o1'));
      await store.sso.createIdentityProvider(provider('corp', 'o1', { realm: 'other', internalId: 'internal-other-corp' }));
      expect((await store.sso.routesForDomain('other', 'z.example')).map((route) => route.provider.internalId)).toEqual(['internal-other-corp']);
      // A change of one organization's domains leaves the other's verifications be.
      await store.updateOrganization('acme', 'o1', { name: 'o1', displayName: null, url: null, attributes: {}, domains: ['b.example'] });
      expect(await store.sso.verifiedDomains('acme', 'o1')).toEqual([]);
      expect(await store.sso.verifiedDomains('other', 'o1')).toEqual(['z.example']);
      // Deleting one takes its own providers and verifications only.
      expect(await store.deleteOrganization('acme', 'o1')).toBe(true);
      expect(await store.sso.getIdentityProvider('acme', 'corp')).toBeUndefined();
      expect((await store.sso.listIdentityProviders('other', 'o1')).map((p) => p.internalId)).toEqual(['internal-other-corp']);
      expect(await store.sso.verifiedDomains('other', 'o1')).toEqual(['z.example']);
      const bob = newUser({ id: 'u-bob-other', realm: 'other', username: 'bob', kind: 'user', createdTimestamp: T0 });
      await store.sso.admitFederatedUser({ newUser: bob, userId: bob.id, realm: 'other', organizationId: 'o1', timestamp: T0 });
      expect(await store.isMember('other', 'o1', bob.id)).toBe(true);
    });

    it('lets exactly one of two organizations racing for a domain verify it', async () => {
      const outcomes = await Promise.all([store.sso.verifyDomain('acme', 'o1', 'a.example', T0), store.sso.verifyDomain('acme', 'o2', 'a.example', T0)]);
      expect(outcomes.filter((o) => o.outcome === 'verified')).toHaveLength(1);
      expect(outcomes.filter((o) => o.outcome === 'taken')).toHaveLength(1);
    });

    it('keeps identity providers per realm and alias, with owner, settings and sealed secret', async () => {
      const written = provider('corp', 'o1', { displayName: 'Corp', sealedClientSecret: 'sealed', config: { clientId: 'c', 'home.idp.discovery.org': 'o1' } });
      await store.sso.createIdentityProvider(written);
      expect(await conflictOf(store.sso.createIdentityProvider({ ...written, internalId: 'another' }))).toBe('identity provider alias');
      expect(await store.sso.getIdentityProvider('acme', 'corp')).toEqual(written);
      expect(await store.sso.getIdentityProvider('other', 'corp')).toBeUndefined();
      await store.sso.createIdentityProvider(provider('alpha', 'o1'));
      await store.sso.createIdentityProvider(provider('loose', null));
      expect((await store.sso.listIdentityProviders('acme', 'o1')).map((p) => p.alias)).toEqual(['alpha', 'corp']);

      const update = { providerId: 'keycloak-oidc', displayName: null, enabled: false, trustEmail: true, config: { clientId: 'd' }, sealedClientSecret: null };
      expect(await store.sso.updateIdentityProvider('acme', 'corp', 'o2', update)).toBe(false);
      expect(await store.sso.updateIdentityProvider('acme', 'corp', 'o1', update)).toBe(true);
      expect(await store.sso.getIdentityProvider('acme', 'corp')).toEqual({ ...written, ...update });

      // Link takes an unlinked provider or the organization's own; unlink only from its owner.
      expect(await store.sso.setIdentityProviderOwner('acme', 'corp', 'o2', null)).toEqual({ previousOwner: 'o1' });
      expect((await store.sso.getIdentityProvider('acme', 'corp'))?.organizationId).toBe('o1');
      expect(await store.sso.setIdentityProviderOwner('acme', 'corp', null, 'o1')).toEqual({ previousOwner: 'o1' });
      expect((await store.sso.getIdentityProvider('acme', 'corp'))?.organizationId).toBeNull();
      expect(await store.sso.setIdentityProviderOwner('acme', 'corp', 'o2', null)).toEqual({ previousOwner: null });
      expect((await store.sso.getIdentityProvider('acme', 'corp'))?.organizationId).toBe('o2');
      expect(await store.sso.setIdentityProviderOwner('acme', 'nope', 'o2', null)).toBeUndefined();

      expect(await store.sso.deleteIdentityProvider('acme', 'corp', 'o1')).toBe(false);
      expect(await store.sso.deleteIdentityProvider('acme', 'corp', 'o2')).toBe(true);
      expect(await store.sso.getIdentityProvider('acme', 'corp')).toBeUndefined();
      // A deleted organization takes its providers with it; an unlinked one stays.
      await store.deleteOrganization('acme', 'o1');
      expect(await store.sso.getIdentityProvider('acme', 'alpha')).toBeUndefined();
      expect(await store.sso.getIdentityProvider('acme', 'loose')).toBeDefined();
    });

    it('routes a verified domain to the enabled providers of the organization that verified it', async () => {
      await store.sso.createIdentityProvider(provider('b-idp', 'o1'));
      await store.sso.createIdentityProvider(provider('a-idp', 'o1'));
      await store.sso.createIdentityProvider(provider('off', 'o1', { enabled: false }));
      await store.sso.createIdentityProvider(provider('theirs', 'o2'));
      expect(await store.sso.routesForDomain('acme', 'a.example')).toEqual([]);
      await store.sso.verifyDomain('acme', 'o1', 'a.example', T0);
      const routes = await store.sso.routesForDomain('acme', 'a.example');
      expect(routes.map((r) => [r.organizationId, r.provider.alias])).toEqual([
        ['o1', 'a-idp'],
        ['o1', 'b-idp'],
      ]);
      expect(await store.sso.routesForDomain('acme', 'b.example')).toEqual([]);
      expect(await store.sso.routesForDomain('other', 'a.example')).toEqual([]);
    });

    it('keeps mappers per provider with unique names, gone with their provider', async () => {
      await store.sso.createIdentityProvider(provider('corp', 'o1'));
      const mapper = { id: 'm1', realm: 'acme', alias: 'corp', name: 'email', mapperType: 'oidc-user-attribute-idp-mapper', config: { claim: 'email' }, createdTimestamp: T0 };
      await store.sso.createMapper(mapper);
      await store.sso.createMapper({ ...mapper, id: 'm2', name: 'roles', createdTimestamp: T0 + 1 });
      expect(await conflictOf(store.sso.createMapper({ ...mapper, id: 'm3' }))).toBe('mapper name');
      expect((await store.sso.listMappers('acme', 'corp')).map((m) => m.id)).toEqual(['m1', 'm2']);
      expect(await store.sso.getMapper('acme', 'corp', 'm1')).toEqual(mapper);
      expect(await conflictOf(store.sso.updateMapper('acme', 'corp', 'm2', { name: 'email', mapperType: 'x', config: {} }))).toBe('mapper name');
      expect(await store.sso.updateMapper('acme', 'corp', 'm2', { name: 'r', mapperType: 'x', config: { a: 'b' } })).toBe(true);
      expect(await store.sso.getMapper('acme', 'corp', 'm2')).toMatchObject({ name: 'r', mapperType: 'x', config: { a: 'b' } });
      expect(await store.sso.updateMapper('acme', 'corp', 'nope', { name: 'r2', mapperType: 'x', config: {} })).toBe(false);
      expect(await store.sso.deleteMapper('acme', 'corp', 'm2')).toBe(true);
      expect(await store.sso.deleteMapper('acme', 'corp', 'm2')).toBe(false);
      await store.sso.deleteIdentityProvider('acme', 'corp', 'o1');
      expect(await store.sso.listMappers('acme', 'corp')).toEqual([]);
    });

    it('admits a federated user in one transaction: user, link and membership, or nothing', async () => {
      await store.sso.createIdentityProvider(provider('corp', 'o1'));
      const bob = newUser({ id: 'u-bob', realm: 'acme', username: 'bob', email: 'bob@a.example', kind: 'user', createdTimestamp: T0 });
      const link = { realm: 'acme', alias: 'corp', issuer: 'https://idp.example', subject: 'sub-1', userId: 'u-bob' };
      await store.sso.admitFederatedUser({ newUser: bob, userId: 'u-bob', link, realm: 'acme', organizationId: 'o1', timestamp: T0 });
      expect(await store.getUser('acme', 'u-bob')).toMatchObject({ username: 'bob', email: 'bob@a.example' });
      expect(await store.isMember('acme', 'o1', 'u-bob')).toBe(true);
      expect(await store.sso.findFederatedUser('acme', 'corp', 'https://idp.example', 'sub-1')).toBe('u-bob');
      expect(await store.sso.findFederatedUser('acme', 'corp', 'https://other.example', 'sub-1')).toBeUndefined();
      // A later sign-in only makes sure of the membership.
      await store.removeMember('acme', 'o1', 'u-bob');
      await store.sso.admitFederatedUser({ userId: 'u-bob', realm: 'acme', organizationId: 'o1', timestamp: T0 + 1 });
      expect(await store.isMember('acme', 'o1', 'u-bob')).toBe(true);

      // A second account that would take bob's username writes nothing, not even its link.
      const clash = newUser({ id: 'u-2', realm: 'acme', username: 'BOB', kind: 'user', createdTimestamp: T0 });
      const clashLink = { ...link, subject: 'sub-2', userId: 'u-2' };
      expect(await conflictOf(store.sso.admitFederatedUser({ newUser: clash, userId: 'u-2', link: clashLink, realm: 'acme', organizationId: 'o1', timestamp: T0 }))).toBe('username');
      expect(await store.getUser('acme', 'u-2')).toBeUndefined();
      expect(await store.sso.findFederatedUser('acme', 'corp', 'https://idp.example', 'sub-2')).toBeUndefined();
      // The same upstream account linked twice is a conflict too.
      expect(await conflictOf(store.sso.admitFederatedUser({ userId: 'u-bob', link, realm: 'acme', organizationId: 'o1', timestamp: T0 }))).toBe('federated identity');

      // Deleting the provider forgets its links; deleting the user forgets theirs.
      await store.sso.deleteIdentityProvider('acme', 'corp', 'o1');
      await store.sso.createIdentityProvider(provider('corp', 'o1'));
      expect(await store.sso.findFederatedUser('acme', 'corp', 'https://idp.example', 'sub-1')).toBeUndefined();
    });

    it('grants the mapped roles in the admission\'s transaction: a grant that fails leaves no user, link or membership', async () => {
      await store.sso.createIdentityProvider(provider('corp', 'o1'));
      await store.createRoles('acme', 'o1', [{ id: 'r-admin', name: 'admin', description: null }], T0);
      const carol = newUser({ id: 'u-carol', realm: 'acme', username: 'carol', email: 'carol@a.example', kind: 'user', createdTimestamp: T0 });
      const link = { realm: 'acme', alias: 'corp', issuer: 'https://idp.example', subject: 'sub-carol', userId: 'u-carol' };
      const signIn = { newUser: carol, userId: 'u-carol', link, realm: 'acme', organizationId: 'o1', timestamp: T0, roles: ['admin', 'gone'] };

      store = await opened.reopenRefusingInserts('role_grants');
      // Matched by message: a driver's error class may come from another test file's globals in a
      // shared jest worker, where toThrow would not recognise it as an Error.
      await expect(store.sso.admitFederatedUser(signIn)).rejects.toMatchObject({ message: expect.stringContaining('refused by the test') });
      expect(await store.getUser('acme', 'u-carol')).toBeUndefined();
      expect(await store.isMember('acme', 'o1', 'u-carol')).toBe(false);
      expect(await store.sso.findFederatedUser('acme', 'corp', 'https://idp.example', 'sub-carol')).toBeUndefined();
    });

    it('admits with the mapped roles, answering the ones the organization does not have', async () => {
      await store.sso.createIdentityProvider(provider('corp', 'o1'));
      await store.createRoles('acme', 'o1', [{ id: 'r-admin', name: 'admin', description: null }], T0);
      const carol = newUser({ id: 'u-carol', realm: 'acme', username: 'carol', email: 'carol@a.example', kind: 'user', createdTimestamp: T0 });
      const link = { realm: 'acme', alias: 'corp', issuer: 'https://idp.example', subject: 'sub-carol', userId: 'u-carol' };
      expect(await store.sso.admitFederatedUser({ newUser: carol, userId: 'u-carol', link, realm: 'acme', organizationId: 'o1', timestamp: T0, roles: ['admin', 'gone'] })).toEqual(['gone']);
      expect(await store.hasRole('acme', 'o1', 'admin', 'u-carol')).toBe(true);
      expect(await store.isMember('acme', 'o1', 'u-carol')).toBe(true);
      // Again (a later sign-in that syncs by FORCE): the grant is there already.
      expect(await store.sso.admitFederatedUser({ userId: 'u-carol', realm: 'acme', organizationId: 'o1', timestamp: T0 + 1, roles: ['admin'] })).toEqual([]);
    });

    it('hands a pending broker sign-in out exactly once and forgets expired ones', async () => {
      await store.sso.createIdentityProvider(provider('corp', 'o1'));
      const login = { stateHash: 's1', realm: 'acme', alias: 'corp', browserHash: 'b', codeVerifier: 'v', nonce: 'n', request: { client_id: 'spa', state: 'x' }, expiresTimestamp: T0 + 600_000 };
      await store.sso.saveBrokerLogin(login, T0);
      await store.sso.saveBrokerLogin({ ...login, stateHash: 'old', expiresTimestamp: T0 - 1 }, T0 - 2);
      await store.sso.saveBrokerLogin({ ...login, stateHash: 's2' }, T0);
      expect(await store.sso.consumeBrokerLogin('old')).toBeUndefined();
      const [a, b] = await Promise.all([store.sso.consumeBrokerLogin('s1'), store.sso.consumeBrokerLogin('s1')]);
      expect([a, b].filter((found) => found !== undefined)).toEqual([login]);
      // A provider deleted mid-sign-in takes its pending sign-ins with it.
      await store.sso.deleteIdentityProvider('acme', 'corp', 'o1');
      expect(await store.sso.consumeBrokerLogin('s2')).toBeUndefined();
    });

    it('finds nothing for values no stored text holds', async () => {
      const nul = 'a\u0000b';
      expect(await store.sso.getIdentityProvider('acme', nul)).toBeUndefined();
      expect(await store.sso.verifiedDomains('acme', nul)).toEqual([]);
      expect(await store.sso.routesForDomain('acme', nul)).toEqual([]);
      expect(await store.sso.consumeBrokerLogin(nul)).toBeUndefined();
      expect(await store.sso.findFederatedUser('acme', 'corp', nul, 's')).toBeUndefined();
    });
  });
}
