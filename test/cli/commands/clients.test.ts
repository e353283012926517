import { createSandbox, type CliSandbox } from '../harness';

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = createSandbox();
  await sandbox.run('realms', 'create', 'acme');
});
afterEach(() => sandbox.cleanup());

describe('orgadmin clients', () => {
  it('registers a public client with its exact redirect URIs, lists it and deletes it', async () => {
    const created = await sandbox.run(
      'clients', 'create', 'spa', '--realm', 'acme', '--name', 'Single-page app',
      '--redirect-uri', 'https://app.example.com/callback,http://127.0.0.1:5173/callback',
    );
    expect(created).toEqual({
      code: 0,
      stdout: 'Registered public client spa in realm acme with redirect URIs https://app.example.com/callback, http://127.0.0.1:5173/callback.\n',
      stderr: '',
    });
    expect(await sandbox.json('clients', 'list', '--realm', 'acme')).toEqual([
      {
        realm: 'acme',
        clientId: 'spa',
        name: 'Single-page app',
        redirectUris: ['https://app.example.com/callback', 'http://127.0.0.1:5173/callback'],
        createdTimestamp: expect.any(Number),
        organizationsClaim: false,
        confidential: false,
      },
    ]);
    expect((await sandbox.run('clients', 'delete', 'spa', '--realm', 'acme')).stdout).toBe('Deleted client spa of realm acme.\n');
    expect(await sandbox.json('clients', 'list', '--realm', 'acme')).toEqual([]);
  });

  it('registers a client whose user tokens carry the organizations claim, and turns it off again', async () => {
    await sandbox.run('clients', 'create', 'app', '--realm', 'acme', '--redirect-uri', 'https://app.example.com/cb', '--organizations-claim', 'on');
    expect((await sandbox.json<Array<{ organizationsClaim: boolean }>>('clients', 'list', '--realm', 'acme'))[0]!.organizationsClaim).toBe(true);
    const updated = await sandbox.run('clients', 'update', 'app', '--realm', 'acme', '--organizations-claim', 'off');
    expect(updated).toEqual({ code: 0, stdout: 'Updated client app of realm acme: organizations claim off.\n', stderr: '' });
    expect((await sandbox.json<Array<{ organizationsClaim: boolean }>>('clients', 'list', '--realm', 'acme'))[0]!.organizationsClaim).toBe(false);
    const missing = await sandbox.run('clients', 'update', 'ghost', '--realm', 'acme', '--organizations-claim', 'on');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('orgadmin: Realm "acme" has no client "ghost".\n');
    expect((await sandbox.run('clients', 'update', 'app', '--realm', 'acme', '--organizations-claim', 'yes')).code).toBe(2);
  });

  it('refuses unsafe redirect URIs, reserved and duplicate client ids, and registers nothing', async () => {
    const refused = (args: string[]) => sandbox.run('clients', 'create', ...args, '--realm', 'acme');
    expect((await refused(['spa', '--redirect-uri', 'http://app.example.com/cb'])).stderr).toBe(
      'orgadmin: Redirect URI "http://app.example.com/cb" must use https (http only for localhost and loopback addresses).\n',
    );
    expect((await refused(['spa', '--redirect-uri', 'https://app.example.com/cb#frag'])).stderr).toBe(
      'orgadmin: Redirect URI "https://app.example.com/cb#frag" must not have a fragment.\n',
    );
    expect((await refused(['spa', '--redirect-uri', '/relative'])).stderr).toBe('orgadmin: Redirect URI "/relative" is not an absolute URL.\n');
    expect((await refused(['orgadmin-dashboard', '--redirect-uri', 'https://x.example/cb'])).stderr).toBe(
      'orgadmin: Client id "orgadmin-dashboard" is reserved for the service\'s own clients.\n',
    );
    expect(await sandbox.json('clients', 'list', '--realm', 'acme')).toEqual([]);
    await refused(['spa', '--redirect-uri', 'https://app.example.com/cb']);
    const twice = await refused(['spa', '--redirect-uri', 'https://other.example.com/cb']);
    expect(twice).toEqual({ code: 1, stdout: '', stderr: 'orgadmin: Realm "acme" already has a client "spa".\n' });
  });
});
