import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Admin, AdminError } from '../../src/service/admin';
import { ApiKeySecrets } from '../../src/service/auth/api-key-secrets';
import { SqliteStore } from '../../src/service/store/sqlite-store';

describe('Admin', () => {
  let dir: string;
  let store: SqliteStore;
  let admin: Admin;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orgadmin-admin-'));
    store = SqliteStore.open(join(dir, 'admin.db'));
    admin = new Admin(store);
    await admin.createRealm('acme');
  });
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  describe('realms', () => {
    it('creates a realm with defaults and lists it', async () => {
      const info = await admin.createRealm('beta-2', { tokenLifetimeSeconds: 600, createAdminUser: false });
      expect(info).toEqual({ name: 'beta-2', enabled: true, tokenLifetimeSeconds: 600, createAdminUser: false, organizationsClaim: false, rateLimit: null, createdTimestamp: expect.any(Number) });
      expect((await admin.getRealm('acme'))).toMatchObject({ tokenLifetimeSeconds: 300, createAdminUser: true });
      expect((await admin.listRealms()).map((r) => r.name)).toEqual(['acme', 'beta-2']);
      expect(await admin.getRealm('nope')).toBeUndefined();
    });

    it.each(['Acme', 'a_b', '-a', 'a-', '', 'x'.repeat(64), 'a.b'])('refuses the realm name %j', async (name) => {
      await expect(admin.createRealm(name)).rejects.toThrow(AdminError);
      expect(await admin.getRealm(name)).toBeUndefined();
    });

    it('refuses a duplicate realm, naming it', async () => {
      await expect(admin.createRealm('acme')).rejects.toThrow(new AdminError('Realm "acme" already exists.'));
    });

    it('refuses a bad token lifetime', async () => {
      await expect(admin.createRealm('short', { tokenLifetimeSeconds: 0 })).rejects.toThrow(/Token lifetime 0/);
      expect(await admin.getRealm('short')).toBeUndefined();
    });

    it('enables and disables a realm and changes its settings', async () => {
      await admin.createRealm('toggle');
      expect((await admin.setRealmEnabled('toggle', false)).enabled).toBe(false);
      expect((await admin.updateRealm('toggle', { createAdminUser: false, enabled: true })).createAdminUser).toBe(false);
      await expect(admin.setRealmEnabled('ghost', false)).rejects.toThrow(/Realm "ghost" does not exist/);
    });

    it('sets a realm rate limit: its own limit, off, and back to the service default', async () => {
      await admin.createRealm('limits');
      expect((await admin.updateRealm('limits', { rateLimit: { requests: 10, windowSeconds: 60 } })).rateLimit).toEqual({ requests: 10, windowSeconds: 60 });
      expect((await admin.getRealm('limits'))?.rateLimit).toEqual({ requests: 10, windowSeconds: 60 });
      expect((await admin.updateRealm('limits', { rateLimit: 'off' })).rateLimit).toBe('off');
      expect((await admin.updateRealm('limits', { rateLimit: null })).rateLimit).toBeNull();
    });

    it.each([
      [{ requests: 0, windowSeconds: 60 }, 'Rate limit requests 0 is not a whole number between 1 and 1000000.'],
      [{ requests: 10, windowSeconds: 86_401 }, 'Rate limit window 86401 is not a whole number of seconds between 1 and 86400.'],
      ['sometimes', 'Rate limit "sometimes" is not a limit, "off", or the service default.'],
    ])('refuses the rate limit %j and changes nothing, not even the other fields', async (rateLimit, message) => {
      if (!(await admin.getRealm('strict'))) await admin.createRealm('strict');
      await admin.updateRealm('strict', { rateLimit: { requests: 7, windowSeconds: 7 } });
      await expect(
        admin.updateRealm('strict', { tokenLifetimeSeconds: 900, rateLimit: rateLimit as never }),
      ).rejects.toThrow(new AdminError(message));
      expect(await admin.getRealm('strict')).toMatchObject({ tokenLifetimeSeconds: 300, rateLimit: { requests: 7, windowSeconds: 7 } });
    });
  });

  describe('API keys', () => {
    it('creates a key with a service-account user, shows the secret once, lists without secrets', async () => {
      const key = await admin.createApiKey('acme', { name: 'ci', permissions: ['view-organizations', 'view-organizations', 'view-users'] });
      expect(key).toEqual({ clientId: expect.any(String), clientSecret: expect.any(String), name: 'ci', permissions: ['view-organizations', 'view-users'] });
      const [listed] = (await admin.listApiKeys('acme')).filter((k) => k.clientId === key.clientId);
      expect(listed).toEqual({
        clientId: key.clientId,
        realm: 'acme',
        name: 'ci',
        permissions: ['view-organizations', 'view-users'],
        serviceAccountUserId: expect.any(String),
        createdTimestamp: expect.any(Number),
        revoked: false,
        revokedTimestamp: null,
        lastUsedTimestamp: null,
      });
      expect(JSON.stringify(await admin.listApiKeys())).not.toContain(key.clientSecret);
      const sa = await store.getUser('acme', listed.serviceAccountUserId);
      expect(sa?.username).toBe(`service-account-${key.clientId}`);
    });

    it.each([
      ['an unknown realm', 'ghost', { name: 'k', permissions: ['view-users'] }, /Realm "ghost" does not exist/],
      ['an unknown permission', 'acme', { name: 'k', permissions: ['fly'] }, /Unknown permission "fly"/],
      ['an empty permission list', 'acme', { name: 'k', permissions: [] }, /at least one permission/],
      ['an empty name', 'acme', { name: '', permissions: ['view-users'] }, /API key name ""/],
      ['a name with a NUL character', 'acme', { name: 'k\u0000', permissions: ['view-users'] }, /API key names must not contain control characters/],
      ['a name with a right-to-left override', 'acme', { name: 'ci\u202eyek', permissions: ['view-users'] }, /API key names must not contain characters that change the text direction/],
      ['a name of zero-width characters', 'acme', { name: '\u200b\u200c', permissions: ['view-users'] }, /API key names must contain a visible character/],
    ])('refuses %s and creates nothing', async (_what, realm, opts, message) => {
      const before = (await admin.listApiKeys()).length;
      await expect(admin.createApiKey(realm, opts)).rejects.toThrow(message);
      expect((await admin.listApiKeys()).length).toBe(before);
    });

    it('refuses a duplicate active key name, and allows it again after revoking', async () => {
      const first = await admin.createApiKey('acme', { name: 'dup', permissions: ['view-users'] });
      await expect(admin.createApiKey('acme', { name: 'dup', permissions: ['view-users'] })).rejects.toThrow(/already has an API key named "dup"/);
      await admin.revokeApiKey(first.clientId);
      expect((await admin.listApiKeys('acme')).find((k) => k.clientId === first.clientId)?.revoked).toBe(true);
      await expect(admin.createApiKey('acme', { name: 'dup', permissions: ['view-users'] })).resolves.toMatchObject({ name: 'dup' });
    });

    it('refuses to revoke an unknown key', async () => {
      await expect(admin.revokeApiKey('key-ghost')).rejects.toThrow(new AdminError('API key "key-ghost" does not exist.'));
    });
  });

  describe('clients', () => {
    it('records each registered client as public or confidential, as it is, and never its secret', async () => {
      const publicOne = await admin.createClient('acme', { clientId: 'spa', redirectUris: ['https://app.example/cb'] });
      const confidential = await admin.createClient('acme', { clientId: 'backend', redirectUris: ['https://api.example/cb'], confidential: true });
      expect(publicOne.clientSecret).toBeUndefined();
      expect(confidential.clientSecret).toEqual(expect.any(String));
      const events = await admin.events.list('acme', { type: 'admin.CLIENT-CREATE', max: 100 });
      const shown = (clientId: string): unknown => events.find((event) => event.resourcePath === `clients/${clientId}`)?.representation;
      expect(JSON.parse(shown('spa') as string)).toMatchObject({ clientId: 'spa', publicClient: true });
      expect(JSON.parse(shown('backend') as string)).toMatchObject({ clientId: 'backend', publicClient: false });
      expect(JSON.stringify(events)).not.toContain(confidential.clientSecret);
    });
  });

  describe('users', () => {
    it('refuses names that spoof others (DEL, C1, direction overrides) in user and client names, creating nothing', async () => {
      await expect(admin.createUser('acme', { username: 'spoof', firstName: 'Ann\u202e' })).rejects.toThrow(
        new AdminError('First name must not contain characters that change the text direction (such as U+202E).'),
      );
      await expect(admin.createUser('acme', { username: 'spoof', lastName: 'x\u0085' })).rejects.toThrow(
        new AdminError('Last name must not contain control characters (U+007F to U+009F).'),
      );
      expect(await admin.findUserByUsername('acme', 'spoof')).toBeUndefined();
      await expect(admin.createClient('acme', { clientId: 'spoof', name: '\u2060', redirectUris: ['https://app.example/cb'] })).rejects.toThrow(
        new AdminError('Client name must contain a visible character.'),
      );
    });

    it('creates, lists and finds users', async () => {
      const user = await admin.createUser('acme', { username: 'Zed', email: 'zed@example.com', firstName: 'Zed', lastName: 'Z', password: 'pw' });
      expect(user).toEqual({
        id: expect.any(String),
        username: 'Zed',
        email: 'zed@example.com',
        firstName: 'Zed',
        lastName: 'Z',
        emailVerified: false,
        enabled: true,
        createdTimestamp: expect.any(Number),
      });
      expect((await admin.findUserByUsername('acme', 'zed'))?.id).toBe(user.id);
      expect((await admin.listUsers('acme')).map((u) => u.username)).toContain('Zed');
      expect(await admin.findUserByUsername('acme', 'nobody')).toBeUndefined();
    });

    it.each([
      ['a duplicate username', { username: 'zed' }, /already has a user named "zed"/],
      ['a duplicate email', { username: 'zed2', email: 'ZED@example.com' }, /already has a user with email "ZED@example.com"/],
      ['an invalid email', { username: 'x1', email: 'not-an-email' }, /Email "not-an-email" is not a valid address/],
      ['an empty username', { username: '' }, /Username ""/],
      ['a reserved username', { username: 'org-admin-123' }, /reserved/],
      ['a username with a NUL character', { username: 'nul\u0000user' }, /Usernames must not contain control characters/],
      ['a first name with a control character', { username: 'ctl1', firstName: 'A\u0007' }, /First name must not contain control characters/],
    ])('refuses %s and creates nothing', async (_what, opts, message) => {
      const before = (await admin.listUsers('acme')).length;
      await expect(admin.createUser('acme', opts)).rejects.toThrow(message);
      expect((await admin.listUsers('acme')).length).toBe(before);
    });

    it('refuses users of an unknown realm', async () => {
      await expect(admin.createUser('ghost', { username: 'x' })).rejects.toThrow(AdminError);
      await expect(admin.listUsers('ghost')).rejects.toThrow(AdminError);
    });
  });
});

describe('Admin: realm administrators, key changes and public clients', () => {
  let store: SqliteStore;
  let admin: Admin;
  beforeEach(async () => {
    store = SqliteStore.open(':memory:');
    admin = new Admin(store);
    await admin.createRealm('acme');
  });
  afterEach(async () => {
    await store.close();
  });

  it('gives and takes the administrator role of end users only, and refuses unknown users', async () => {
    await admin.createUser('acme', { username: 'alice' });
    expect((await admin.setRealmAdmin('acme', 'Alice', true)).realmAdmin).toBe(true);
    expect((await admin.getUserInfo('acme', 'alice'))?.realmAdmin).toBe(true);
    expect((await admin.setRealmAdmin('acme', 'alice', false)).realmAdmin).toBe(false);
    await expect(admin.setRealmAdmin('acme', 'nobody', true)).rejects.toThrow('Realm "acme" has no user "nobody".');
    const key = await admin.createApiKey('acme', { name: 'ci', permissions: ['view-users'] });
    await expect(admin.setRealmAdmin('acme', `service-account-${key.clientId}`, true)).rejects.toThrow(/has no user/);
  });

  it('changes the permissions of a key of the realm, checked like at creation', async () => {
    await admin.createRealm('other');
    const key = await admin.createApiKey('acme', { name: 'ci', permissions: ['view-users'] });
    expect((await admin.setApiKeyPermissions('acme', key.clientId, ['view-organizations', 'view-organizations'])).permissions).toEqual(['view-organizations']);
    await expect(admin.setApiKeyPermissions('acme', key.clientId, [])).rejects.toThrow('API key "ci" needs at least one permission.');
    await expect(admin.setApiKeyPermissions('acme', key.clientId, ['admin'])).rejects.toThrow('Unknown permission "admin".');
    await expect(admin.setApiKeyPermissions('other', key.clientId, ['view-users'])).rejects.toThrow(`Realm "other" has no API key "${key.clientId}".`);
    await expect(admin.revokeApiKey(key.clientId, 'other')).rejects.toThrow(`Realm "other" has no API key "${key.clientId}".`);
    expect((await store.getApiKey(key.clientId))?.permissions).toEqual(['view-organizations']);
  });

  it('rotates the secret of an active key: the new one works, the old one does not', async () => {
    const key = await admin.createApiKey('acme', { name: 'ci', permissions: ['view-users'] });
    const rotated = await admin.rotateApiKeySecret('acme', key.clientId);
    expect(rotated).toEqual({ clientId: key.clientId, clientSecret: expect.any(String), name: 'ci', permissions: ['view-users'] });
    const stored = (await store.getApiKey(key.clientId))!;
    const secrets = new ApiKeySecrets(store);
    expect(await secrets.verify(stored, rotated.clientSecret)).toBe(true);
    expect(await secrets.verify(stored, key.clientSecret)).toBe(false);
    await admin.revokeApiKey(key.clientId);
    await expect(admin.rotateApiKeySecret('acme', key.clientId)).rejects.toThrow(`API key "${key.clientId}" is revoked.`);
  });
});
