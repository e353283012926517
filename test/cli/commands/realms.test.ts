import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox, type CliSandbox } from '../harness';

interface RealmJson {
  name: string;
  enabled: boolean;
  tokenLifetimeSeconds: number;
  createAdminUser: boolean;
  createdTimestamp: number;
}

let sandbox: CliSandbox;
beforeEach(() => {
  sandbox = createSandbox();
});
afterEach(() => sandbox.cleanup());

describe('orgadmin realms create', () => {
  it('creates a realm with the default token lifetime and says so', async () => {
    const result = await sandbox.run('realms', 'create', 'acme');
    expect(result).toEqual({ code: 0, stdout: 'Created realm acme (tokens live 300 s).\n', stderr: '' });
    const realms = await sandbox.json<RealmJson[]>('realms', 'list');
    expect(realms.map((r) => [r.name, r.tokenLifetimeSeconds])).toEqual([['acme', 300]]);
  });

  it('prints the realm as JSON with --json, and never its signing key', async () => {
    const realm = await sandbox.json<RealmJson>('realms', 'create', 'acme', '--token-lifetime', '600');
    expect(Object.keys(realm).sort()).toEqual(['createAdminUser', 'createdTimestamp', 'enabled', 'name', 'organizationsClaim', 'tokenLifetimeSeconds']);
    expect(realm).toMatchObject({ name: 'acme', enabled: true, tokenLifetimeSeconds: 600, createAdminUser: true });
  });

  it('accepts --token-lifetime=SECONDS', async () => {
    const realm = await sandbox.json<RealmJson>('realms', 'create', 'acme', '--token-lifetime=120');
    expect(realm.tokenLifetimeSeconds).toBe(120);
  });

  it('creates the data file and its directory on first use', async () => {
    expect(existsSync(join(sandbox.dir, 'data'))).toBe(false);
    await sandbox.run('realms', 'create', 'acme');
    expect(existsSync(sandbox.dataFile)).toBe(true);
  });

  it('uses ORGADMIN_DATA, relative to the working directory, when --data is not given', async () => {
    const created = await sandbox.runRaw(['realms', 'create', 'acme'], { ORGADMIN_DATA: 'env/custom.db' });
    expect(created.code).toBe(0);
    expect(existsSync(join(sandbox.dir, 'env', 'custom.db'))).toBe(true);
  });

  it('uses .orgadmin/orgadmin.db under the working directory by default', async () => {
    const created = await sandbox.runRaw(['realms', 'create', 'acme']);
    expect(created.code).toBe(0);
    expect(existsSync(join(sandbox.dir, '.orgadmin', 'orgadmin.db'))).toBe(true);
    const listed = await sandbox.runRaw(['realms', 'list', '--json']);
    expect((JSON.parse(listed.stdout) as RealmJson[]).map((r) => r.name)).toEqual(['acme']);
  });

  it('refuses a realm that already exists and changes nothing', async () => {
    await sandbox.run('realms', 'create', 'acme', '--token-lifetime', '600');
    const before = await sandbox.run('realms', 'list', '--json');
    const result = await sandbox.run('realms', 'create', 'acme');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'orgadmin: Realm "acme" already exists.\n' });
    expect(await sandbox.run('realms', 'list', '--json')).toEqual(before);
  });

  it('refuses an invalid realm name with one sentence and creates nothing', async () => {
    const result = await sandbox.run('realms', 'create', 'Not_A_Label');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^orgadmin: Realm name "Not_A_Label" is not valid: [^\n]+\.\n$/);
    expect(await sandbox.json('realms', 'list')).toEqual([]);
  });

  // Out of range is as malformed as not a number (docs/guides/cli.md, exit codes): exit 2, one
  // message naming the range, and the data file is not even opened.
  it.each([['abc'], ['0'], ['-5'], ['1.5'], ['86401'], ['90000'], ['99999999999999999999']])(
    'refuses --token-lifetime %s as a usage error naming the range and creates nothing',
    async (value) => {
      const result = await sandbox.run('realms', 'create', 'acme', `--token-lifetime=${value}`);
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: `orgadmin: --token-lifetime must be a whole number of seconds from 1 to 86400, not "${value}".\n`,
      });
      expect(existsSync(sandbox.dataFile)).toBe(false);
    },
  );

  it.each([['1'], ['86400']])('accepts the bounds of the range: --token-lifetime %s', async (value) => {
    const realm = await sandbox.json<{ tokenLifetimeSeconds: number }>('realms', 'create', 'acme', '--token-lifetime', value);
    expect(realm.tokenLifetimeSeconds).toBe(Number(value));
  });

  it('refuses a missing NAME as a usage error', async () => {
    const result = await sandbox.run('realms', 'create');
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'orgadmin: missing NAME for "orgadmin realms create"; see "orgadmin realms create --help".\n',
    });
  });

  it('refuses an unknown flag and creates nothing', async () => {
    const result = await sandbox.run('realms', 'create', 'acme', '--lifetime', '60');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('orgadmin: unknown flag --lifetime for "orgadmin realms create"; see "orgadmin realms create --help".\n');
    expect(existsSync(sandbox.dataFile)).toBe(false);
  });
});

describe('orgadmin realms list', () => {
  it('says it cannot open a data file that is not a database, in one sentence', async () => {
    const junk = join(sandbox.dir, 'junk.db');
    writeFileSync(junk, 'this is a text file, not a SQLite database; '.repeat(10));
    const result = await sandbox.runRaw(['realms', 'list', '--data', junk]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `orgadmin: cannot open data file ${junk}: file is not a database.\n` });
  });


  it('says so when there are no realms', async () => {
    expect(await sandbox.run('realms', 'list')).toEqual({
      code: 0,
      stdout: 'No realms yet; create one with "orgadmin realms create NAME".\n',
      stderr: '',
    });
  });

  it('shows a table ordered by name', async () => {
    await sandbox.run('realms', 'create', 'zeta');
    await sandbox.run('realms', 'create', 'acme', '--token-lifetime', '60');
    const result = await sandbox.run('realms', 'list');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+ENABLED\s+TOKEN LIFETIME\s+CREATED$/);
    expect(lines[1]).toMatch(/^acme\s+yes\s+60 s\s+\d{4}-\d\d-\d\dT/);
    expect(lines[2]).toMatch(/^zeta\s+yes\s+300 s\s+/);
    expect(lines).toHaveLength(3);
  });
});

describe('orgadmin realms update', () => {
  /** The realm's stored settings, read with the Admin API (the CLI view leaves the rate limit out). */
  async function storedRealm(name: string): Promise<{ tokenLifetimeSeconds: number; createAdminUser: boolean; rateLimit: unknown }> {
    const { SqliteStore } = await import('../../../src/service/store/sqlite-store');
    const { Admin } = await import('../../../src/service/admin');
    const store = SqliteStore.open(sandbox.dataFile);
    try {
      const realm = (await new Admin(store).listRealms()).find((r) => r.name === name)!;
      return { tokenLifetimeSeconds: realm.tokenLifetimeSeconds, createAdminUser: realm.createAdminUser, rateLimit: realm.rateLimit };
    } finally {
      await store.close();
    }
  }

  it("changes the realm's token lifetime, default admin user switch and rate limit", async () => {
    await sandbox.run('realms', 'create', 'acme');
    const result = await sandbox.run('realms', 'update', 'acme', '--token-lifetime', '900', '--admin-user', 'off', '--rate-limit', '20/60');
    expect(result).toEqual({ code: 0, stdout: 'Updated realm acme.\n', stderr: '' });
    expect(await storedRealm('acme')).toEqual({ tokenLifetimeSeconds: 900, createAdminUser: false, rateLimit: { requests: 20, windowSeconds: 60 } });

    expect((await sandbox.run('realms', 'update', 'acme', '--rate-limit', 'off')).code).toBe(0);
    expect((await storedRealm('acme')).rateLimit).toBe('off');
    expect((await sandbox.run('realms', 'update', 'acme', '--rate-limit', 'default')).code).toBe(0);
    expect((await storedRealm('acme')).rateLimit).toBeNull();
  });

  it.each([
    [['--rate-limit', 'fast'], '--rate-limit must be REQUESTS/SECONDS (e.g. 100/60), "off" or "default", not "fast".'],
    [['--admin-user', 'yes'], '--admin-user must be "on" or "off", not "yes".'],
    [['--organizations-claim', 'true'], '--organizations-claim must be "on" or "off", not "true".'],
    [['--token-lifetime', '0'], '--token-lifetime must be a whole number of seconds from 1 to 86400, not "0".'],
    [[], 'realms update needs at least one of --token-lifetime, --admin-user, --organizations-claim, --rate-limit, --event-retention.'],
  ])('exits 2 on %j with one sentence and changes nothing', async (flags, message) => {
    await sandbox.run('realms', 'create', 'acme');
    const before = await storedRealm('acme');
    const result = await sandbox.run('realms', 'update', 'acme', ...flags);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(await storedRealm('acme')).toEqual(before);
  });

  it('turns the organizations claim of users\' tokens on and off', async () => {
    await sandbox.run('realms', 'create', 'acme');
    type Shown = { organizationsClaim: boolean };
    expect((await sandbox.json<Shown>('realms', 'update', 'acme', '--organizations-claim', 'on')).organizationsClaim).toBe(true);
    expect((await sandbox.json<Shown[]>('realms', 'list'))[0]!.organizationsClaim).toBe(true);
    expect((await sandbox.json<Shown>('realms', 'update', 'acme', '--organizations-claim', 'off')).organizationsClaim).toBe(false);
  });

  it('exits 1 for a realm that does not exist', async () => {
    await sandbox.run('realms', 'create', 'acme');
    const result = await sandbox.run('realms', 'update', 'globex', '--rate-limit', '5/1');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Realm "globex" does not exist.');
  });
});
