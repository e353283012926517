import { createSandbox, type CliSandbox } from '../harness';

interface MemberJson {
  id: string;
  username: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  emailVerified: boolean;
  enabled: boolean;
  createdTimestamp: number;
}

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = createSandbox();
  await sandbox.run('realms', 'create', 'acme');
});
afterEach(() => sandbox.cleanup());

describe('orgadmin users create', () => {
  it('creates a user and prints its id', async () => {
    const result = await sandbox.run('users', 'create', '--realm', 'acme', '--username', 'alice');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Created user alice in realm acme with id [0-9a-f-]{36}\.\n$/);
  });

  it('prints the user with its id as JSON, and never the password', async () => {
    const user = await sandbox.json<MemberJson>(
      'users', 'create', '--realm', 'acme', '--username', 'alice', '--email', 'alice@example.com',
      '--first-name', 'Alice', '--last-name', 'Anders', '--password', 'correct horse battery',
    );
    expect(user).toMatchObject({ username: 'alice', email: 'alice@example.com', firstName: 'Alice', lastName: 'Anders', enabled: true });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(user)).not.toContain('correct horse');
    expect(JSON.stringify(user)).not.toMatch(/password/i);
  });

  it('refuses an unknown realm and creates nothing', async () => {
    const result = await sandbox.run('users', 'create', '--realm', 'nope', '--username', 'alice');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'orgadmin: Realm "nope" does not exist.\n' });
    expect(await sandbox.json('users', 'list', '--realm', 'acme')).toEqual([]);
  });

  it('refuses a duplicate username and changes nothing', async () => {
    await sandbox.run('users', 'create', '--realm', 'acme', '--username', 'alice', '--email', 'alice@example.com');
    const before = await sandbox.run('users', 'list', '--realm', 'acme', '--json');
    const result = await sandbox.run('users', 'create', '--realm', 'acme', '--username', 'alice', '--email', 'other@example.com');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'orgadmin: Realm "acme" already has a user named "alice".\n' });
    expect(await sandbox.run('users', 'list', '--realm', 'acme', '--json')).toEqual(before);
  });

  it('refuses an invalid email and creates nothing', async () => {
    const result = await sandbox.run('users', 'create', '--realm', 'acme', '--username', 'alice', '--email', 'not-an-email');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'orgadmin: Email "not-an-email" is not a valid address.\n' });
    expect(await sandbox.json('users', 'list', '--realm', 'acme')).toEqual([]);
  });

  it('refuses a missing --username as a usage error', async () => {
    const result = await sandbox.run('users', 'create', '--realm', 'acme', '--email', 'a@example.com');
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'orgadmin: missing required flag --username for "orgadmin users create"; see "orgadmin users create --help".\n',
    });
    expect(await sandbox.json('users', 'list', '--realm', 'acme')).toEqual([]);
  });

  it('refuses --password without a value instead of creating a user without one', async () => {
    const result = await sandbox.run('users', 'create', '--realm', 'acme', '--username', 'alice', '--password');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('orgadmin: flag --password needs a value (--password P).\n');
    expect(await sandbox.json('users', 'list', '--realm', 'acme')).toEqual([]);
  });
});

describe('orgadmin users list', () => {
  it('lists the users of the realm ordered by username', async () => {
    await sandbox.run('users', 'create', '--realm', 'acme', '--username', 'bob', '--email', 'bob@example.com', '--first-name', 'Bob');
    await sandbox.run('users', 'create', '--realm', 'acme', '--username', 'alice', '--first-name', 'Alice', '--last-name', 'Anders');
    await sandbox.run('keys', 'create', '--realm', 'acme', '--name', 'ci', '--permissions', 'view-users');

    const users = await sandbox.json<MemberJson[]>('users', 'list', '--realm', 'acme');
    // The key's service account is not a user an administrator manages.
    expect(users.map((u) => u.username)).toEqual(['alice', 'bob']);

    const table = await sandbox.run('users', 'list', '--realm', 'acme');
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+USERNAME\s+EMAIL\s+NAME$/);
    expect(lines[1]).toMatch(/^[0-9a-f-]{36}\s+alice\s+Alice Anders$/);
    expect(lines[2]).toMatch(/^[0-9a-f-]{36}\s+bob\s+bob@example\.com\s+Bob$/);
  });

  it('says so when the realm has no users', async () => {
    expect(await sandbox.run('users', 'list', '--realm', 'acme')).toEqual({ code: 0, stdout: 'No users in realm acme.\n', stderr: '' });
  });

  it('refuses an unknown realm', async () => {
    expect(await sandbox.run('users', 'list', '--realm', 'nope')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'orgadmin: Realm "nope" does not exist.\n',
    });
  });

  it('refuses a missing --realm as a usage error', async () => {
    const result = await sandbox.run('users', 'list');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('orgadmin: missing required flag --realm for "orgadmin users list"; see "orgadmin users list --help".\n');
  });
});

describe('orgadmin users --admin, grant-admin, revoke-admin', () => {
  it('creates an administrator, and gives and takes the role of an existing user', async () => {
    const created = await sandbox.run('users', 'create', '--realm', 'acme', '--username', 'root', '--password', 'pw', '--admin');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^Created user root \(realm administrator\) in realm acme with id [0-9a-f-]{36}\.\n$/);

    await sandbox.run('users', 'create', '--realm', 'acme', '--username', 'alice');
    expect(await sandbox.run('users', 'grant-admin', 'alice', '--realm', 'acme')).toEqual({
      code: 0,
      stdout: 'User alice is now an administrator of realm acme.\n',
      stderr: '',
    });
    expect(await sandbox.json('users', 'revoke-admin', 'alice', '--realm', 'acme')).toMatchObject({ username: 'alice', realm: 'acme', realmAdmin: false });
    expect(await sandbox.json('users', 'grant-admin', 'ALICE', '--realm', 'acme')).toMatchObject({ username: 'alice', realmAdmin: true });
  });

  it('refuses an unknown user or realm and changes nothing', async () => {
    expect(await sandbox.run('users', 'grant-admin', 'nobody', '--realm', 'acme')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'orgadmin: Realm "acme" has no user "nobody".\n',
    });
    expect(await sandbox.run('users', 'grant-admin', 'nobody', '--realm', 'nope')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'orgadmin: Realm "nope" does not exist.\n',
    });
    expect((await sandbox.run('users', 'grant-admin', '--realm', 'acme')).code).toBe(2);
  });
});
