import { createSandbox, type CliSandbox } from '../harness';
import { createRealms } from '../signing-keys';

interface KeyJson {
  clientId: string;
  realm: string;
  name: string;
  permissions: string[];
  createdTimestamp: number;
  revoked: boolean;
}

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = createSandbox();
  // The realms are set-up, not the subject: pooled keys instead of two RSA generations per test.
  await createRealms(sandbox.dataFile, 'acme', 'other');
});
afterEach(() => sandbox.cleanup());

describe('orgadmin keys create', () => {
  it('prints the client id, the secret and that the secret is not shown again', async () => {
    const result = await sandbox.run('keys', 'create', '--realm', 'acme', '--name', 'ci', '--permissions', 'view-organizations,create-organization');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Created API key ci in realm acme\.\n/);
    expect(result.stdout).toMatch(/^  Client ID: +\S+$/m);
    expect(result.stdout).toMatch(/^  Client secret: +\S{16,}$/m);
    expect(result.stdout).toMatch(/^  Permissions: +view-organizations, create-organization$/m);
    expect(result.stdout).toContain('Store the secret now: it is not shown again.');
  });

  it('prints exactly clientId, clientSecret and permissions with --json, and the note on stderr', async () => {
    const result = await sandbox.run('keys', 'create', '--realm', 'acme', '--name', 'ci', '--permissions=view-users', '--json');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('Store the secret now: it is not shown again.\n');
    const key = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(key).sort()).toEqual(['clientId', 'clientSecret', 'permissions']);
    expect(key.permissions).toEqual(['view-users']);
    expect(typeof key.clientSecret).toBe('string');
  });

  it('drops repeated permissions', async () => {
    const key = await sandbox.json<{ permissions: string[] }>('keys', 'create', '--realm', 'acme', '--name', 'ci', '--permissions', 'view-users,view-users');
    expect(key.permissions).toEqual(['view-users']);
  });

  it('refuses an unknown realm and creates nothing', async () => {
    const result = await sandbox.run('keys', 'create', '--realm', 'nope', '--name', 'ci', '--permissions', 'view-users');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'orgadmin: Realm "nope" does not exist.\n' });
    expect(await sandbox.json('keys', 'list')).toEqual([]);
  });

  it('refuses a name that an active key of the realm has and changes nothing', async () => {
    await sandbox.run('keys', 'create', '--realm', 'acme', '--name', 'ci', '--permissions', 'view-users');
    const before = await sandbox.run('keys', 'list', '--json');
    const result = await sandbox.run('keys', 'create', '--realm', 'acme', '--name', 'ci', '--permissions', 'view-organizations');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'orgadmin: Realm "acme" already has an API key named "ci".\n' });
    expect(await sandbox.run('keys', 'list', '--json')).toEqual(before);
  });

  it('allows the name of a revoked key again', async () => {
    const first = await sandbox.json<{ clientId: string }>('keys', 'create', '--realm', 'acme', '--name', 'ci', '--permissions', 'view-users');
    await sandbox.run('keys', 'revoke', first.clientId);
    const second = await sandbox.run('keys', 'create', '--realm', 'acme', '--name', 'ci', '--permissions', 'view-users');
    expect(second.code).toBe(0);
  });

  it('refuses an unknown permission, lists the valid ones and creates nothing', async () => {
    const result = await sandbox.run('keys', 'create', '--realm', 'acme', '--name', 'ci', '--permissions', 'view-users,admin');
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'orgadmin: unknown permission "admin"; valid permissions are view-organizations, manage-organizations, create-organization, view-users, introspect-tokens, view-events, manage-events.\n',
    });
    expect(await sandbox.json('keys', 'list')).toEqual([]);
  });

  it('refuses an empty entry in --permissions', async () => {
    const result = await sandbox.run('keys', 'create', '--realm', 'acme', '--name', 'ci', '--permissions', 'view-users,,');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^orgadmin: --permissions has an empty entry in "view-users,,"; [^\n]+\.\n$/);
    expect(await sandbox.json('keys', 'list')).toEqual([]);
  });

  it.each([
    [['--name', 'ci', '--permissions', 'view-users'], 'realm'],
    [['--realm', 'acme', '--permissions', 'view-users'], 'name'],
    [['--realm', 'acme', '--name', 'ci'], 'permissions'],
  ])('refuses a missing required flag (%j lacks --%s)', async (flags, missing) => {
    const result = await sandbox.run('keys', 'create', ...flags);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `orgadmin: missing required flag --${missing} for "orgadmin keys create"; see "orgadmin keys create --help".\n`,
    });
    expect(await sandbox.json('keys', 'list')).toEqual([]);
  });

  it('refuses a misspelt flag instead of creating a key without it', async () => {
    const result = await sandbox.run('keys', 'create', '--realm', 'acme', '--name', 'ci', '--permission', 'view-users');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('orgadmin: unknown flag --permission for "orgadmin keys create"; see "orgadmin keys create --help".\n');
    expect(await sandbox.json('keys', 'list')).toEqual([]);
  });
});

describe('orgadmin keys list', () => {
  it('lists keys of every realm, or of one realm, without secrets', async () => {
    const a = await sandbox.json<{ clientId: string; clientSecret: string }>('keys', 'create', '--realm', 'acme', '--name', 'a', '--permissions', 'view-users');
    const b = await sandbox.json<{ clientId: string; clientSecret: string }>('keys', 'create', '--realm', 'other', '--name', 'b', '--permissions', 'view-organizations');

    const all = await sandbox.json<KeyJson[]>('keys', 'list');
    expect(all.map((k) => [k.realm, k.name, k.clientId, k.revoked])).toEqual([
      ['acme', 'a', a.clientId, false],
      ['other', 'b', b.clientId, false],
    ]);
    const acme = await sandbox.json<KeyJson[]>('keys', 'list', '--realm', 'acme');
    expect(acme.map((k) => k.name)).toEqual(['a']);

    const table = await sandbox.run('keys', 'list');
    const json = await sandbox.run('keys', 'list', '--json');
    for (const output of [table.stdout, json.stdout]) {
      expect(output).not.toContain(a.clientSecret);
      expect(output).not.toContain(b.clientSecret);
      expect(output).not.toMatch(/secret/i);
    }
    expect(table.stdout).toMatch(/^CLIENT ID\s+REALM\s+NAME\s+STATUS\s+CREATED\s+PERMISSIONS$/m);
    expect(table.stdout).toMatch(new RegExp(`^${a.clientId}\\s+acme\\s+a\\s+active\\s+\\S+\\s+view-users$`, 'm'));
  });

  it('says so when a realm has no keys', async () => {
    expect(await sandbox.run('keys', 'list', '--realm', 'acme')).toEqual({ code: 0, stdout: 'No API keys in realm acme.\n', stderr: '' });
  });

  it('refuses an unknown realm', async () => {
    expect(await sandbox.run('keys', 'list', '--realm', 'nope')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'orgadmin: Realm "nope" does not exist.\n',
    });
  });
});

describe('orgadmin keys revoke', () => {
  it('marks the key revoked', async () => {
    const key = await sandbox.json<{ clientId: string }>('keys', 'create', '--realm', 'acme', '--name', 'ci', '--permissions', 'view-users');
    const result = await sandbox.run('keys', 'revoke', key.clientId);
    expect(result).toEqual({ code: 0, stdout: `Revoked API key ${key.clientId}.\n`, stderr: '' });
    const [listed] = await sandbox.json<KeyJson[]>('keys', 'list', '--realm', 'acme');
    expect(listed).toMatchObject({ clientId: key.clientId, revoked: true });
    expect((await sandbox.run('keys', 'list')).stdout).toMatch(/\brevoked\b/);
  });

  it('refuses an unknown client id and changes nothing', async () => {
    await sandbox.run('keys', 'create', '--realm', 'acme', '--name', 'ci', '--permissions', 'view-users');
    const before = await sandbox.run('keys', 'list', '--json');
    const result = await sandbox.run('keys', 'revoke', 'no-such-client');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'orgadmin: API key "no-such-client" does not exist.\n' });
    expect(await sandbox.run('keys', 'list', '--json')).toEqual(before);
  });

  it('refuses a missing CLIENT_ID as a usage error', async () => {
    const result = await sandbox.run('keys', 'revoke');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('orgadmin: missing CLIENT_ID for "orgadmin keys revoke"; see "orgadmin keys revoke --help".\n');
  });
});
