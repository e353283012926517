/**
 * `orgadmin events list|tail` on a real SQLite data file, and `realms update --event-retention`.
 * Changes are made through the command line and through the administration API on the same file
 * acting for an API key (another actor, with an address), then read back through the commands.
 */
import { Admin } from '../../../src/service/admin';
import { openStore } from '../../../src/service/store/open-store';
import { main } from '../../../src/cli/main';
import { captureIO } from '../capture-io';
import { createSandbox, type CliSandbox } from '../harness';

interface EventJson {
  id: string;
  time: number;
  type: string;
  resourcePath?: string;
  representation?: string;
  authDetails: { realmId: string; clientId?: string; userId?: string; ipAddress?: string };
}

const KEY_ORIGIN = { clientId: 'ci-key', userId: 'service-account-ci', ipAddress: '192.0.2.7' };

let sandbox: CliSandbox;

/** Runs `work` with the administration API on the sandbox's data file, acting for the CI key. */
async function asKey<T>(work: (admin: Admin) => Promise<T>): Promise<T> {
  const store = await openStore(sandbox.dataFile);
  try {
    return await work(new Admin(store, { origin: KEY_ORIGIN }));
  } finally {
    await store.close();
  }
}

beforeEach(async () => {
  sandbox = createSandbox();
  await sandbox.run('realms', 'create', 'acme');
  await sandbox.run('users', 'create', '--realm', 'acme', '--username', 'alice');
  await asKey((admin) => admin.createUser('acme', { username: 'bob', email: 'bob@example.com' }));
});
afterEach(() => sandbox.cleanup());

describe('orgadmin events list', () => {
  it('lists the realm\'s events newest first, naming each actor', async () => {
    const events = await sandbox.json<EventJson[]>('events', 'list', '--realm', 'acme');
    expect(events.map((event) => event.type)).toEqual(['admin.USER-CREATE', 'admin.USER-CREATE', 'admin.REALM-CREATE']);
    expect(events[0]!.authDetails).toEqual({ realmId: 'acme', ...KEY_ORIGIN });
    expect(events[1]!.authDetails).toEqual({ realmId: 'acme', clientId: 'orgadmin-cli' });
    expect(JSON.parse(events[0]!.representation!)).toMatchObject({ username: 'bob', email: 'bob@example.com' });

    const table = await sandbox.run('events', 'list', '--realm', 'acme');
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TIME +TYPE +RESOURCE +ACTOR$/);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z +admin\.USER-CREATE +users\/[0-9a-f-]{36} +service-account-ci@192\.0\.2\.7$/);
    expect(lines[2]).toMatch(/ admin\.USER-CREATE +users\/[0-9a-f-]{36} +orgadmin-cli$/);
    expect(lines).toHaveLength(4);
  });

  it('answers each filter: type, resource path prefix, actor, time range, paging', async () => {
    const all = await sandbox.json<EventJson[]>('events', 'list', '--realm', 'acme');
    const bob = all[0]!;
    const types = async (...flags: string[]): Promise<string[]> =>
      (await sandbox.json<EventJson[]>('events', 'list', '--realm', 'acme', ...flags)).map((event) => event.id);

    expect(await types('--type', 'admin.REALM-*')).toEqual([all[2]!.id]);
    expect(await types('--type', 'admin.REALM-CREATE,admin.USER-*')).toEqual(all.map((event) => event.id));
    expect(await types('--resource-path', bob.resourcePath!)).toEqual([bob.id]);
    expect(await types('--actor', 'ci-key')).toEqual([bob.id]);
    expect(await types('--actor', 'service-account-ci')).toEqual([bob.id]);
    expect(await types('--actor', 'orgadmin-cli')).toEqual([all[1]!.id, all[2]!.id]);
    expect(await types('--from', String(bob.time))).toEqual(all.filter((event) => event.time >= bob.time).map((event) => event.id));
    expect(await types('--to', String(all[2]!.time))).toEqual([]);
    expect(await types('--from', new Date(all[2]!.time).toISOString(), '--to', new Date(bob.time + 1).toISOString())).toEqual(all.map((event) => event.id));
    expect(await types('--first', '1', '--max', '1')).toEqual([all[1]!.id]);
  });

  it('says so when nothing matches', async () => {
    const result = await sandbox.run('events', 'list', '--realm', 'acme', '--type', 'access.*');
    expect(result).toEqual({ code: 0, stdout: 'No events in realm acme match.\n', stderr: '' });
  });

  it.each([
    [['--from', 'yesterday'], '--from "yesterday" is neither milliseconds since the epoch nor an ISO 8601 date or date-time'],
    [['--type', 'admin.(USER)'], '--type "admin.(USER)" may hold only letters, digits, ".", "_", "-" and "*"'],
    [['--max', '0'], '--max must be a whole number from 1 to 1000, not "0"'],
    [['--first', '-1'], '--first must be a whole number from 0 to 9007199254740991, not "-1"'],
  ])('refuses %j as a usage error with one sentence', async (flags, message) => {
    const result = await sandbox.run('events', 'list', '--realm', 'acme', ...flags);
    expect(result).toEqual({ code: 2, stdout: '', stderr: `orgadmin: ${message}.\n` });
  });

  it('refuses an unknown realm', async () => {
    const result = await sandbox.run('events', 'list', '--realm', 'nope');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'orgadmin: Realm "nope" does not exist.\n' });
  });
});

describe('orgadmin events tail', () => {
  it('prints the newest events, then each new one once, as JSON lines, and stops after --count', async () => {
    const captured = captureIO(sandbox.dir);
    const running = main(
      ['events', 'tail', '--realm', 'acme', '--type', 'admin.USER-*', '--lines', '1', '--count', '3', '--interval', '10', '--json', '--data', sandbox.dataFile],
      captured.io,
    );
    await captured.waitForOutput((stdout) => stdout.split('\n').length > 1);
    // Written by another actor on the same data file while tail follows; the API key is filtered out by --type.
    await asKey(async (admin) => {
      await admin.createUser('acme', { username: 'carol' });
      await admin.createApiKey('acme', { name: 'ignored', permissions: ['view-events'] });
      await admin.createUser('acme', { username: 'dave' });
    });
    expect(await running).toBe(0);
    expect(captured.err()).toBe('');
    const printed = captured.out().trimEnd().split('\n').map((line) => JSON.parse(line) as EventJson);
    expect(printed.map((event) => [event.type, JSON.parse(event.representation!).username])).toEqual([
      ['admin.USER-CREATE', 'bob'],
      ['admin.USER-CREATE', 'carol'],
      ['admin.USER-CREATE', 'dave'],
    ]);
    expect(new Set(printed.map((event) => event.id)).size).toBe(3);
  });

  it('refuses an interval below 10 ms before opening the data file', async () => {
    const result = await sandbox.run('events', 'tail', '--realm', 'acme', '--interval', '1');
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'orgadmin: --interval must be a whole number from 10 to 60000, not "1".\n' });
  });
});

describe('orgadmin realms update --event-retention', () => {
  const retention = (): Promise<number | null> => asKey((admin) => admin.realms.eventRetentionDays('acme'));

  it('sets the days the realm keeps its events, and forever, recording the change', async () => {
    expect(await sandbox.run('realms', 'update', 'acme', '--event-retention', '30')).toEqual({ code: 0, stdout: 'Updated realm acme.\n', stderr: '' });
    expect(await retention()).toBe(30);
    const [event] = await sandbox.json<EventJson[]>('events', 'list', '--realm', 'acme', '--type', 'admin.REALM-UPDATE');
    expect(JSON.parse(event!.representation!)).toMatchObject({ eventRetentionDays: 30 });
    await sandbox.run('realms', 'update', 'acme', '--event-retention', 'forever');
    expect(await retention()).toBeNull();
  });

  it.each([['0'], ['3651'], ['1.5'], ['never']])('refuses --event-retention %s and changes nothing', async (value) => {
    await sandbox.run('realms', 'update', 'acme', '--event-retention', '7');
    const result = await sandbox.run('realms', 'update', 'acme', '--event-retention', value);
    expect(result).toEqual({ code: 2, stdout: '', stderr: `orgadmin: --event-retention must be a whole number of days from 1 to 3650 or "forever", not "${value}".\n` });
    expect(await retention()).toBe(7);
  });
});
