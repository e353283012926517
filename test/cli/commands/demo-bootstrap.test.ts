import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PERMISSIONS } from '../../../src/api';
import { bootstrapDemo, DEMO_CREDENTIALS_FILE } from '../../../src/cli/commands/demo-bootstrap';
import { Admin } from '../../../src/service/admin';
import { ApiKeySecrets } from '../../../src/service/auth/api-key-secrets';
import { verifyPassword } from '../../../src/service/auth/secrets';
import { SqliteStore } from '../../../src/service/store/sqlite-store';

let dir: string;
let store: SqliteStore;
let admin: Admin;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'orgadmin-demo-'));
  store = SqliteStore.open(join(dir, 'orgadmin.db'));
  admin = new Admin(store);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Whether `secret` is the stored secret of the key `clientId`. */
async function secretMatches(clientId: string, secret: string): Promise<boolean> {
  const key = await store.getApiKey(clientId);
  return key !== undefined && (await new ApiKeySecrets(store).verify(key, secret));
}

describe('bootstrapDemo', () => {
  it('creates the demo realm, an all-permission key whose secret it saves 0600, and alice, bob and carol', async () => {
    const demo = await bootstrapDemo(admin, dir);

    expect(demo.realm).toBe('demo');
    expect(await admin.getRealm('demo')).toBeDefined();
    const keys = await admin.listApiKeys('demo');
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ clientId: demo.clientId, name: 'demo', revoked: false });
    expect([...keys[0]!.permissions].sort()).toEqual([...PERMISSIONS].sort());
    expect(await secretMatches(demo.clientId, demo.clientSecret)).toBe(true);

    const file = join(dir, DEMO_CREDENTIALS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      realm: 'demo',
      clientId: demo.clientId,
      clientSecret: demo.clientSecret,
      adminUsername: 'admin',
      adminPassword: demo.adminPassword,
    });

    expect(demo.users.map((u) => [u.username, u.email])).toEqual([
      ['alice', 'alice@example.com'],
      ['bob', 'bob@example.com'],
      ['carol', 'carol@example.com'],
    ]);
    const administrator = (await admin.getUserInfo('demo', 'admin'))!;
    expect(administrator).toMatchObject({ realmAdmin: true, enabled: true, hasPassword: true });
    expect((await admin.listUsers('demo')).map((u) => u.id).sort()).toEqual([...demo.users.map((u) => u.id), administrator.id].sort());
    const stored = (await store.getUser('demo', administrator.id))!;
    expect(await verifyPassword(demo.adminPassword, stored.passwordHash)).toBe(true);
  });

  it('gives the administrator a new password, saved, when the credentials file predates it', async () => {
    const first = await bootstrapDemo(admin, dir);
    const file = join(dir, DEMO_CREDENTIALS_FILE);
    writeFileSync(file, JSON.stringify({ realm: 'demo', clientId: first.clientId, clientSecret: first.clientSecret }));
    const second = await bootstrapDemo(admin, dir);
    expect(second.clientId).toBe(first.clientId);
    expect(second.adminPassword).not.toBe(first.adminPassword);
    expect(JSON.parse(readFileSync(file, 'utf8')).adminPassword).toBe(second.adminPassword);
    const stored = (await store.findUserByUsername('demo', 'admin'))!;
    expect(await verifyPassword(second.adminPassword, stored.passwordHash)).toBe(true);
    expect(await verifyPassword(first.adminPassword, stored.passwordHash)).toBe(false);
  });

  it('reuses the realm, the key and the users on a second run', async () => {
    const first = await bootstrapDemo(admin, dir);
    const second = await bootstrapDemo(admin, dir);

    expect(second).toEqual(first);
    expect(await admin.listApiKeys('demo')).toHaveLength(1);
    expect(await admin.listUsers('demo')).toHaveLength(4);
  });

  it('revokes the key and makes a new one when the saved secret is gone', async () => {
    const first = await bootstrapDemo(admin, dir);
    rmSync(join(dir, DEMO_CREDENTIALS_FILE));

    const second = await bootstrapDemo(admin, dir);

    expect(second.clientId).not.toBe(first.clientId);
    expect(await secretMatches(second.clientId, second.clientSecret)).toBe(true);
    const keys = await admin.listApiKeys('demo');
    expect(keys.map((k) => [k.clientId, k.revoked])).toEqual([
      [first.clientId, true],
      [second.clientId, false],
    ]);
    expect(JSON.parse(readFileSync(join(dir, DEMO_CREDENTIALS_FILE), 'utf8')).clientId).toBe(second.clientId);
    expect(second.users.map((u) => u.id)).toEqual(first.users.map((u) => u.id));
  });

  it('treats a damaged credentials file like a missing one', async () => {
    const first = await bootstrapDemo(admin, dir);
    writeFileSync(join(dir, DEMO_CREDENTIALS_FILE), '{ not json');

    const second = await bootstrapDemo(admin, dir);

    expect(second.clientId).not.toBe(first.clientId);
    expect(await secretMatches(second.clientId, second.clientSecret)).toBe(true);
    expect(statSync(join(dir, DEMO_CREDENTIALS_FILE)).mode & 0o777).toBe(0o600);
  });

  it('writes the secret into a fresh private file, not through a leftover temporary file or link', async () => {
    const file = join(dir, DEMO_CREDENTIALS_FILE);
    const elsewhere = join(dir, 'elsewhere.txt');
    // What a crashed run, or someone else, could leave at the temporary name.
    symlinkSync(elsewhere, `${file}.${process.pid}.tmp`);
    const demo = await bootstrapDemo(admin, dir);
    expect(existsSync(elsewhere)).toBe(false);
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ clientSecret: demo.clientSecret });
  });

  it('creates the directory of the credentials file when it is missing', async () => {
    const nested = join(dir, 'nested', 'demo');
    await bootstrapDemo(admin, nested);
    expect(existsSync(join(nested, DEMO_CREDENTIALS_FILE))).toBe(true);
  });
});
