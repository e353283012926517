/**
 * What every store must get right when several stores share one database (the service, the CLI,
 * other service instances): the realm cache (src/service/store/realm-cache.ts) and the member and
 * organization page boundaries (src/service/store/page-boundaries.ts), each remembered per store. Written once and run
 * against SQLite (sqlite-caches.test.ts) and PostgreSQL (postgres-store.test.ts).
 */
import { generateSigningKey } from '../../../src/service/auth/jwt';
import { DEFAULT_REALM_RECHECK_MS } from '../../../src/service/store/realm-cache';
import type { RealmRecord, Store } from '../../../src/service/store/store';

const signingKey = generateSigningKey();

/** A realm with a real signing key. */
export function cachedRealm(name: string): RealmRecord {
  return { name, enabled: true, tokenLifetimeSeconds: 300, createAdminUser: false, organizationsClaim: false, rateLimit: null, createdTimestamp: 1, ...signingKey };
}

/** One database that several stores open. */
export interface SharedDatabase {
  /** Opens one more store on the database with these realm cache options. */
  open(options: { realmRecheckMs?: number; now?: () => number }): Promise<Store>;
  /** Sets a realm's token lifetime with plain SQL on a connection of its own, as another program would. */
  setTokenLifetimeBehindTheStores(realm: string, seconds: number): Promise<void>;
  /** Removes the database. */
  cleanup(): Promise<void>;
}

/** Registers the shared-database tests under `describe(name)`; `database()` gives a fresh, empty database each test. */
export function describeSharedDatabase(name: string, database: () => Promise<SharedDatabase>): void {
  describe(name, () => {
    let db: SharedDatabase;
    let store: Store;
    const opened: Store[] = [];
    /** An hour: longer than any test, so only the store's own invalidation can refresh a realm. */
    const NEVER = 3_600_000;

    async function open(options: { realmRecheckMs?: number; now?: () => number } = {}): Promise<Store> {
      const next = await db.open(options);
      opened.push(next);
      return next;
    }

    /** Disables realm `acme` through another store on the same database (as the CLI would). */
    async function disableElsewhere(): Promise<void> {
      const other = await db.open({});
      try {
        await other.updateRealm('acme', { enabled: false });
      } finally {
        await other.close();
      }
    }

    beforeEach(async () => {
      db = await database();
      store = await open({ realmRecheckMs: NEVER });
      await store.createRealm(cachedRealm('acme'));
    });
    afterEach(async () => {
      for (const each of opened.splice(0)) await each.close();
      await db.cleanup();
    });

    it('serves settings without the private key, and the key only through getRealm', async () => {
      const settings = await store.getRealmSettings('acme');
      const { privateKeyPem, ...expected } = cachedRealm('acme');
      expect(settings).toEqual(expected);
      expect(settings).not.toHaveProperty('privateKeyPem');
      expect((await store.getRealm('acme'))?.privateKeyPem).toBe(privateKeyPem);
    });

    it('shows its own realm updates on the next read', async () => {
      expect((await store.getRealmSettings('acme'))?.enabled).toBe(true);
      await store.updateRealm('acme', { enabled: false, tokenLifetimeSeconds: 60 });
      expect(await store.getRealmSettings('acme')).toMatchObject({ enabled: false, tokenLifetimeSeconds: 60 });
    });

    it('shows a realm change made by another store within the default recheck interval', async () => {
      let clock = 1_000;
      const defaults = await open({ now: () => clock });
      expect((await defaults.getRealmSettings('acme'))?.enabled).toBe(true);
      await disableElsewhere();
      // Within the interval the remembered realm is still served; past it, the change shows.
      clock += DEFAULT_REALM_RECHECK_MS - 1;
      expect((await defaults.getRealmSettings('acme'))?.enabled).toBe(true);
      clock += 1;
      expect((await defaults.getRealmSettings('acme'))?.enabled).toBe(false);
    });

    it('answers cachedRealmSettings without the database only what getRealmSettings would, within the recheck interval', async () => {
      let clock = 1_000;
      const peeking = await open({ now: () => clock });
      // Nothing read yet: the cache cannot answer, and an unknown realm is never answered from it.
      expect(peeking.cachedRealmSettings('acme')).toBeUndefined();
      expect(await peeking.getRealmSettings('acme')).toEqual(await store.getRealmSettings('acme'));
      expect(peeking.cachedRealmSettings('acme')).toEqual(await peeking.getRealmSettings('acme'));
      expect(peeking.cachedRealmSettings('nope')).toBeUndefined();
      // A copy, as from getRealmSettings.
      peeking.cachedRealmSettings('acme')!.enabled = false;
      expect(peeking.cachedRealmSettings('acme')?.enabled).toBe(true);
      // Past the interval it cannot tell whether another store changed the realm: it does not answer.
      await disableElsewhere();
      clock += DEFAULT_REALM_RECHECK_MS;
      expect(peeking.cachedRealmSettings('acme')).toBeUndefined();
      expect((await peeking.getRealmSettings('acme'))?.enabled).toBe(false);
      expect(peeking.cachedRealmSettings('acme')?.enabled).toBe(false);
      // Its own update empties the cache.
      await peeking.updateRealm('acme', { enabled: true });
      expect(peeking.cachedRealmSettings('acme')).toBeUndefined();
    });

    it('reads the realm with its key afresh on every call', async () => {
      expect((await store.getRealm('acme'))?.enabled).toBe(true);
      await disableElsewhere();
      expect((await store.getRealm('acme'))?.enabled).toBe(false);
    });

    it('shows a realm change made by another store on the next read when rechecking every read', async () => {
      const exact = await open({ realmRecheckMs: 0 });
      expect((await exact.getRealmSettings('acme'))?.enabled).toBe(true);
      await disableElsewhere();
      expect((await exact.getRealmSettings('acme'))?.enabled).toBe(false);
    });

    it('shows a realm change written by a plain SQL connection (another process) after the recheck', async () => {
      let clock = 1_000;
      const quick = await open({ realmRecheckMs: 10, now: () => clock });
      expect((await quick.getRealmSettings('acme'))?.tokenLifetimeSeconds).toBe(300);
      await db.setTokenLifetimeBehindTheStores('acme', 42);
      expect((await quick.getRealmSettings('acme'))?.tokenLifetimeSeconds).toBe(300);
      clock += 10;
      expect((await quick.getRealmSettings('acme'))?.tokenLifetimeSeconds).toBe(42);
    });

    it('refuses a negative recheck interval', async () => {
      await expect(db.open({ realmRecheckMs: -1 })).rejects.toThrow(/realmRecheckMs/);
    });

    it('finds a realm created after a read that missed it', async () => {
      expect(await store.getRealmSettings('later')).toBeUndefined();
      const other = await db.open({});
      try {
        await other.createRealm(cachedRealm('later'));
      } finally {
        await other.close();
      }
      expect((await store.getRealmSettings('later'))?.name).toBe('later');
    });

    it('hands out copies: changing returned settings does not change the next read', async () => {
      const first = await store.getRealmSettings('acme');
      first!.enabled = false;
      expect((await store.getRealmSettings('acme'))?.enabled).toBe(true);
    });

    it('does not keep what a read overlapping its own update saw', async () => {
      // Both start in the same turn: the read may see the realm before the update, but what it
      // saw must not outlive the update.
      const [, read] = await Promise.all([store.updateRealm('acme', { tokenLifetimeSeconds: 77 }), store.getRealmSettings('acme')]);
      expect([300, 77]).toContain(read?.tokenLifetimeSeconds);
      expect((await store.getRealmSettings('acme'))?.tokenLifetimeSeconds).toBe(77);
    });

    it('keeps member pages right when another store changes the list between pages', async () => {
      const other = await open({});
      const organization = { id: 'o1', name: 'one', displayName: null, url: null, domains: [], attributes: {}, realm: 'acme' };
      await store.createOrganization(organization);
      const user = (id: string) => ({
        id, realm: 'acme', username: id, email: null, firstName: null, lastName: null, emailVerified: false, enabled: true,
        createdTimestamp: 1, kind: 'user' as const, adminOfOrganization: null, passwordHash: null, realmAdmin: false,
      });
      for (let i = 0; i < 12; i += 1) {
        await store.createUser(user(`m${i}`));
        await store.addMember('acme', 'o1', `m${i}`, i);
      }
      const ids = async (first: number) => (await store.listMembers('acme', 'o1', { first, max: 4 })).map((u) => u.id);
      expect(await ids(0)).toEqual(['m0', 'm1', 'm2', 'm3']);
      expect(await ids(4)).toEqual(['m4', 'm5', 'm6', 'm7']);
      // The other store (another instance) removes a member this one has already listed.
      expect(await other.removeMember('acme', 'o1', 'm1')).toBe(true);
      expect(await ids(8)).toEqual(['m9', 'm10', 'm11']);
      // And removes one and adds it back: as many members, a new order.
      expect(await other.removeMember('acme', 'o1', 'm9')).toBe(true);
      expect(await other.addMember('acme', 'o1', 'm9', 99)).toBe(true);
      expect(await ids(4)).toEqual(['m5', 'm6', 'm7', 'm8']);
      expect(await ids(8)).toEqual(['m10', 'm11', 'm9']);
    });

    it('keeps organization pages right when another store changes the list between pages', async () => {
      const other = await open({});
      const organization = (id: string, name: string) => ({ id, name, displayName: null, url: null, domains: [], attributes: {}, realm: 'acme' });
      for (let i = 0; i < 12; i += 1) await store.createOrganization(organization(`o${i}`, `org-${String(i).padStart(2, '0')}`));
      const ids = async (first: number) => (await store.listOrganizations('acme', { first, max: 4 })).map((o) => o.id);
      expect(await ids(0)).toEqual(['o0', 'o1', 'o2', 'o3']);
      expect(await ids(4)).toEqual(['o4', 'o5', 'o6', 'o7']);
      // The other store (another instance) deletes an organization this one has already listed.
      expect(await other.deleteOrganization('acme', 'o1')).toBe(true);
      expect(await ids(8)).toEqual(['o9', 'o10', 'o11']);
      // And renames one this one has listed: as many organizations, a new order.
      expect(await other.updateOrganization('acme', 'o5', { name: 'org-99', displayName: null, url: null, attributes: {} })).toBe(true);
      expect(await ids(4)).toEqual(['o6', 'o7', 'o8', 'o9']);
      expect(await ids(8)).toEqual(['o10', 'o11', 'o5']);
    });
  });
}
