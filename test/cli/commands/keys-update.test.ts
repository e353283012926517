/**
 * `orgadmin keys update CLIENT_ID --permissions ...`: the command the provider's missing-permission
 * hint names. Checked on the data file and through the running service: a token fetched after the
 * update carries the new permissions.
 */
import { ClientCredentialsTokenSource, ForbiddenError, OrgAdminClient } from '../../../src/client';
import { startServer } from '../../../src/service/server';
import { createSandbox, type CliSandbox } from '../harness';
import { createRealms } from '../signing-keys';

interface KeyJson {
  clientId: string;
  realm: string;
  name: string;
  permissions: string[];
  revoked: boolean;
}

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = createSandbox();
  await createRealms(sandbox.dataFile, 'acme', 'other');
});
afterEach(() => sandbox.cleanup());

/** Creates a key and returns its client id and secret. */
async function createKey(realm: string, permissions: string): Promise<{ clientId: string; clientSecret: string }> {
  return sandbox.json('keys', 'create', '--realm', realm, '--name', 'ci', '--permissions', permissions);
}

describe('orgadmin keys update', () => {
  it('replaces the permissions and says what the key has now', async () => {
    const key = await createKey('acme', 'view-organizations');
    const result = await sandbox.run('keys', 'update', key.clientId, '--permissions', 'manage-organizations,view-users');
    expect(result).toEqual({
      code: 0,
      stdout: `Updated API key ci (${key.clientId}) in realm acme: permissions manage-organizations, view-users.\n`,
      stderr: '',
    });
    const [listed] = await sandbox.json<KeyJson[]>('keys', 'list', '--realm', 'acme');
    expect(listed).toMatchObject({ clientId: key.clientId, permissions: ['manage-organizations', 'view-users'], revoked: false });
  });

  it('prints the updated key without any secret with --json', async () => {
    const key = await createKey('acme', 'view-organizations');
    const result = await sandbox.run('keys', 'update', key.clientId, '--permissions=view-users,view-users', '--realm', 'acme', '--json');
    expect(result.code).toBe(0);
    const updated = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(updated).toMatchObject({ clientId: key.clientId, realm: 'acme', name: 'ci', permissions: ['view-users'], revoked: false });
    expect(result.stdout).not.toContain(key.clientSecret);
    expect(result.stdout).not.toMatch(/secret/i);
  });

  it('gives tokens fetched afterwards the new permissions', async () => {
    const key = await createKey('acme', 'view-organizations');
    const server = await startServer({ dataFile: sandbox.dataFile, host: '127.0.0.1', port: 0, logger: false });
    const client = (): OrgAdminClient =>
      new OrgAdminClient({
        baseUrl: server.url,
        realm: 'acme',
        tokenSource: new ClientCredentialsTokenSource({ baseUrl: server.url, clientId: key.clientId, clientSecret: key.clientSecret }),
      });
    const before = client();
    const after = client();
    try {
      await expect(before.findUsers({ username: 'nobody' })).rejects.toBeInstanceOf(ForbiddenError);
      expect((await sandbox.run('keys', 'update', key.clientId, '--permissions', 'view-organizations,view-users')).code).toBe(0);
      await expect(after.findUsers({ username: 'nobody' })).resolves.toEqual([]);
    } finally {
      await before.close();
      await after.close();
      await server.close();
    }
  });

  it('refuses a key of another realm than --realm and changes nothing', async () => {
    const key = await createKey('other', 'view-users');
    const before = await sandbox.run('keys', 'list', '--json');
    const result = await sandbox.run('keys', 'update', key.clientId, '--realm', 'acme', '--permissions', 'manage-organizations');
    expect(result).toEqual({ code: 1, stdout: '', stderr: `orgadmin: Realm "acme" has no API key "${key.clientId}".\n` });
    expect(await sandbox.run('keys', 'list', '--json')).toEqual(before);
  });

  it('refuses an unknown client id', async () => {
    const result = await sandbox.run('keys', 'update', 'no-such-client', '--permissions', 'view-users');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'orgadmin: API key "no-such-client" does not exist.\n' });
  });

  it('refuses a revoked key and changes nothing', async () => {
    const key = await createKey('acme', 'view-users');
    await sandbox.run('keys', 'revoke', key.clientId);
    const before = await sandbox.run('keys', 'list', '--json');
    const result = await sandbox.run('keys', 'update', key.clientId, '--permissions', 'manage-organizations');
    expect(result).toEqual({ code: 1, stdout: '', stderr: `orgadmin: API key "${key.clientId}" is revoked.\n` });
    expect(await sandbox.run('keys', 'list', '--json')).toEqual(before);
  });

  it('refuses an unknown permission as a usage error and changes nothing', async () => {
    const key = await createKey('acme', 'view-users');
    const before = await sandbox.run('keys', 'list', '--json');
    const result = await sandbox.run('keys', 'update', key.clientId, '--permissions', 'view-users,admin');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'orgadmin: unknown permission "admin"; valid permissions are view-organizations, manage-organizations, create-organization, view-users, introspect-tokens, view-events, manage-events.\n',
    );
    expect(await sandbox.run('keys', 'list', '--json')).toEqual(before);
  });

  it.each([
    [[], 'orgadmin: missing required flag --permissions for "orgadmin keys update"; see "orgadmin keys update --help".\n'],
    [['--permissions', 'view-users', 'extra'], 'orgadmin: unexpected argument "extra" for "orgadmin keys update"; see "orgadmin keys update --help".\n'],
  ])('refuses a malformed command line (%j) as a usage error', async (rest, stderr) => {
    const key = await createKey('acme', 'view-users');
    const result = await sandbox.run('keys', 'update', key.clientId, ...rest);
    expect(result).toEqual({ code: 2, stdout: '', stderr });
  });

  it('is listed in the help of the keys group', async () => {
    const result = await sandbox.runRaw(['keys', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ +update +Replaces an active API key's permissions/m);
  });
});
