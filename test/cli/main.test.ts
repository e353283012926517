import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { reportError } from '../../src/cli/errors';
import { lazyCommand, loadOptionalCommand } from '../../src/cli/main';
import { captureIO } from './capture-io';
import { createSandbox, type CliSandbox } from './harness';

let sandbox: CliSandbox;
beforeEach(() => {
  sandbox = createSandbox();
});
afterEach(() => sandbox.cleanup());

describe('orgadmin (top level)', () => {
  it('lists the commands on --help and exits 0', async () => {
    const result = await sandbox.runRaw(['--help']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    for (const word of ['serve', 'realms', 'keys', 'users', 'provider', 'demo']) expect(result.stdout).toMatch(new RegExp(`^  ${word} `, 'm'));
  });

  it('prints the package version on --version', async () => {
    const result = await sandbox.runRaw(['--version']);
    expect(result).toEqual({ code: 0, stdout: `${(require('../../package.json') as { version: string }).version}\n`, stderr: '' });
  });

  it('exits 2 with one sentence when no command is given', async () => {
    const result = await sandbox.runRaw([]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'orgadmin: a command is needed; run "orgadmin --help" for the list of commands.\n',
    });
  });

  it('exits 2 on an unknown command', async () => {
    const result = await sandbox.runRaw(['realm', 'list']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'orgadmin: unknown command "realm"; run "orgadmin --help" for the list of commands.\n',
    });
  });

  it('exits 2 on an unknown top-level flag', async () => {
    const result = await sandbox.runRaw(['--verbose']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('orgadmin: unknown flag --verbose; run "orgadmin --help" for the list of commands.\n');
  });

  it('exits 2 on an unknown subcommand of a group', async () => {
    const result = await sandbox.run('keys', 'delete', 'abc');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('orgadmin: unknown command "orgadmin keys delete"; see "orgadmin keys --help".\n');
  });

  it('exits 2 when a group is given no subcommand', async () => {
    const result = await sandbox.runRaw(['users']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('orgadmin: "orgadmin users" needs a command (create, list, grant-admin, revoke-admin); see "orgadmin users --help".\n');
  });

  it('lists the subcommands of a group on --help', async () => {
    const result = await sandbox.runRaw(['keys', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^  create /m);
    expect(result.stdout).toMatch(/^  list /m);
    expect(result.stdout).toMatch(/^  revoke /m);
  });

  it.each([['serve'], ['demo'], ['realms', 'create'], ['realms', 'list'], ['keys', 'create'], ['keys', 'list'], ['keys', 'revoke'], ['users', 'create'], ['users', 'list']])(
    'prints help for "%s %s" without touching the data file',
    async (...words: string[]) => {
      const result = await sandbox.run(...words.filter((w) => w !== undefined), '--help');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Usage: orgadmin ${words.join(' ')}`);
      expect(existsSync(sandbox.dataFile)).toBe(false);
    },
  );
});

describe('optional commands', () => {
  it('dispatches "orgadmin provider" to the provider module', async () => {
    const result = await sandbox.runRaw(['provider', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: orgadmin provider');
  });

  it('says a command is not available, exits 1, when its module is not in the build', async () => {
    const { io, out, err } = captureIO(sandbox.dir);
    const command = lazyCommand('./commands/no-such-command', 'runNoSuchCommand', 'provider commands are not available in this build.');
    // main() reports errors this way; the command itself throws.
    const code = await command(['install'], io).catch((error: unknown) => reportError(error, io));
    expect(code).toBe(1);
    expect(err()).toBe('orgadmin: provider commands are not available in this build.\n');
    expect(out()).toBe('');
  });
});

describe('loadOptionalCommand', () => {
  it('returns undefined when the module is not part of the build', () => {
    expect(loadOptionalCommand('./commands/no-such-command', 'runNoSuchCommand')).toBeUndefined();
  });

  it('returns undefined when the module lacks the export', () => {
    expect(loadOptionalCommand('./output', 'runSomething')).toBeUndefined();
  });

  it('returns the exported command when it is there', () => {
    expect(typeof loadOptionalCommand('./commands/realms', 'runRealmsCommand')).toBe('function');
  });

  it('rethrows when the module exists but cannot load (a broken build stays visible)', () => {
    // A path that exists as a directory without an index is still "not found" for the module
    // itself; a module whose own dependency is missing must throw instead.
    const broken = join(__dirname, 'fixtures', 'broken-command');
    expect(() => loadOptionalCommand(broken, 'run')).toThrow(/no-such-dependency/);
  });
});
