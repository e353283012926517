/**
 * The missing-permission hint names a command that exists: the command quoted in the hint, run as
 * written (with a real client id), gives the key the permission the failed call needed.
 */
import { ForbiddenError } from '../../src/client';
import { describeError, type Operation, type ReportingContext } from '../../src/provider/diagnostics';
import { createSandbox, type CliSandbox } from '../cli/harness';
import { createRealms } from '../cli/signing-keys';

const env: ReportingContext = { baseUrl: 'https://acme.example.com', realm: 'acme', authMethod: 'client_credentials', secrets: [] };
const update: Operation = { action: 'update organization', target: '"42" in realm "acme"', permission: 'manage-organizations' };
const forbidden = new ForbiddenError({ status: 403, error: 'insufficient_scope', method: 'PUT', path: '/realms/acme/orgs/42' });

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = createSandbox();
  await createRealms(sandbox.dataFile, 'acme');
});
afterEach(() => sandbox.cleanup());

describe('the missing-permission hint', () => {
  it('names `orgadmin keys update`, and that command as written grants the missing permission', async () => {
    const detail = describeError(forbidden, update, env).detail;
    const quoted = /`(orgadmin keys update [^`]+)`/.exec(detail);
    expect(quoted).not.toBeNull();
    expect(quoted![1]).toBe('orgadmin keys update CLIENT_ID --realm acme --permissions manage-organizations,...');

    const key = await sandbox.json<{ clientId: string }>('keys', 'create', '--realm', 'acme', '--name', 'ci', '--permissions', 'view-users');
    // The placeholders: the key's client id, and the permissions it keeps in place of `...`.
    const argv = quoted![1]!.split(' ').slice(1).map((word) => word.replace('CLIENT_ID', key.clientId).replace(',...', ',view-users'));
    const result = await sandbox.run(...argv);
    expect(result.code).toBe(0);
    const [listed] = await sandbox.json<Array<{ permissions: string[] }>>('keys', 'list');
    expect(listed!.permissions).toEqual(['manage-organizations', 'view-users']);
  });

  it('names the key when the provider knows its client id, so the command needs only the kept permissions', () => {
    const detail = describeError(forbidden, update, { ...env, clientId: 'ci-key-7' }).detail;
    expect(detail).toContain('The API key "ci-key-7" lacks the `manage-organizations` permission.');
    expect(detail).toContain('`orgadmin keys update ci-key-7 --realm acme --permissions manage-organizations,...`');
    expect(detail).not.toContain('CLIENT_ID');
  });

  it('tells the user of an access token how to get a token that has the permission, not to change a key', () => {
    const detail = describeError(forbidden, update, { ...env, authMethod: 'access_token' }).detail;
    expect(detail).toContain('The user of the access token lacks the `manage-organizations` permission.');
    expect(detail).toContain("a realm administrator's tokens carry every permission");
    expect(detail).not.toContain('keys update');
  });
});
