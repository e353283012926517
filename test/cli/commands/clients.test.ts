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
      stdout: 'Registered client spa in realm acme with redirect URIs https://app.example.com/callback, http://127.0.0.1:5173/callback.\n',
      stderr: '',
    });
    expect(await sandbox.json('clients', 'list', '--realm', 'acme')).toEqual([
      {
        realm: 'acme',
        clientId: 'spa',
        name: 'Single-page app',
        redirectUris: ['https://app.example.com/callback', 'http://127.0.0.1:5173/callback'],
        createdTimestamp: expect.any(Number),
      },
    ]);
    expect((await sandbox.run('clients', 'delete', 'spa', '--realm', 'acme')).stdout).toBe('Deleted client spa of realm acme.\n');
    expect(await sandbox.json('clients', 'list', '--realm', 'acme')).toEqual([]);
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
