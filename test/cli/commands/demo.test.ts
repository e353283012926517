import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenPath, usersPath } from '../../../src/api';
import { demoCredentialsDir, runDemo } from '../../../src/cli/commands/demo';
import { captureIO } from '../capture-io';
import { BIN, childEnv, ensureBuilt } from '../compiled-cli';
import { createSandbox, type CliSandbox } from '../harness';

beforeAll(ensureBuilt, 120_000);

let sandbox: CliSandbox;
beforeEach(() => {
  sandbox = createSandbox();
});
afterEach(() => sandbox.cleanup());

/** Runs the demo in-process until `ready` has been handled, then stops it; returns what it printed. */
async function withRunningDemo(json: boolean, whileRunning: (stdout: string) => Promise<void>): Promise<string> {
  const dataFile = join(sandbox.dir, '.orgadmin', 'orgadmin.db');
  const { io, out, err, waitForOutput } = captureIO(sandbox.dir);
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const demo = runDemo({ dataFile, host: '127.0.0.1', port: 0, json }, io, stopped);
  let failure: unknown;
  try {
    const readyMarker = json ? '}\n' : 'Press Ctrl-C to stop.\n';
    // The demo ending before it is ready is a failure too (its output says why).
    const ended = demo.then(() => {
      throw new Error(`demo ended before it was ready: ${out()} ${err()}`);
    });
    await Promise.race([waitForOutput((stdout) => stdout.endsWith(readyMarker), 20_000), ended]);
    if (!out().endsWith(readyMarker)) throw new Error(`demo did not become ready: ${out()} ${err()}`);
    await whileRunning(out());
  } catch (error) {
    failure = error;
  }
  stop();
  await demo;
  if (failure) throw failure;
  expect(err()).toBe('');
  return out();
}

describe('orgadmin demo', () => {
  it('serves a demo realm whose saved key gets a token that can look up alice', async () => {
    const stdout = await withRunningDemo(false, async (output) => {
      const url = /^orgadmin listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(output)![1]!;
      const clientId = /^ {2}Client ID: {2}(\S+)$/m.exec(output)![1]!;
      const credentialsFile = join(sandbox.dir, '.orgadmin', 'demo-credentials.json');
      expect(output).toContain(`saved in ${credentialsFile}`);
      const saved = JSON.parse(readFileSync(credentialsFile, 'utf8')) as { clientId: string; clientSecret: string };
      expect(saved.clientId).toBe(clientId);
      expect(output).not.toContain(saved.clientSecret);
      expect(output).toContain(`curl -s ${url}${tokenPath('demo')}`);

      const token = await fetch(`${url}${tokenPath('demo')}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: saved.clientId, client_secret: saved.clientSecret }).toString(),
      });
      expect(token.status).toBe(200);
      const accessToken = ((await token.json()) as { access_token: string }).access_token;
      const users = await fetch(`${url}${usersPath('demo')}?username=alice&exact=true`, { headers: { authorization: `Bearer ${accessToken}` } });
      expect(users.status).toBe(200);
      expect(((await users.json()) as Array<{ email: string }>).map((u) => u.email)).toEqual(['alice@example.com']);
    });
    expect(stdout).toMatch(/^ {2}Realm: {6}demo$/m);
    expect(stdout).toMatch(/^ {2}Users: {6}alice \([0-9a-f-]{36}\), bob \([0-9a-f-]{36}\), carol \([0-9a-f-]{36}\)$/m);
  });

  it('reuses the same key on a second run and prints a JSON summary with --json', async () => {
    let firstClientId = '';
    await withRunningDemo(false, async (output) => {
      firstClientId = /^ {2}Client ID: {2}(\S+)$/m.exec(output)![1]!;
    });
    const stdout = await withRunningDemo(true, async () => undefined);
    const summary = JSON.parse(stdout.slice(stdout.indexOf('\n') + 1)) as { realm: string; clientId: string; users: Array<{ username: string }> };
    expect(summary.clientId).toBe(firstClientId);
    expect(summary.realm).toBe('demo');
    expect(summary.users.map((u) => u.username)).toEqual(['alice', 'bob', 'carol']);
  });

  it('refuses a bad --port as a usage error and creates nothing', async () => {
    const result = await sandbox.runRaw(['demo', '--port', 'eighty']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'orgadmin: --port must be a whole number from 0 to 65535, not "eighty".\n' });
    expect(existsSync(join(sandbox.dir, '.orgadmin'))).toBe(false);
  });

  it('runs as a real process under .orgadmin/ of the working directory and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'demo', '--port', '0'], { cwd: sandbox.dir, env: childEnv() });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Press Ctrl-C to stop.')) resolve();
      });
      void exited.then((code) => reject(new Error(`demo exited with ${code}: ${out}`)));
    });
    expect(existsSync(join(sandbox.dir, '.orgadmin', 'orgadmin.db'))).toBe(true);
    expect(existsSync(join(sandbox.dir, '.orgadmin', 'demo-credentials.json'))).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('keeps the credentials next to a SQLite file, but under .orgadmin/ of the working directory for a PostgreSQL URL', () => {
    expect(demoCredentialsDir('/data/orgadmin/orgadmin.db', '/work')).toBe('/data/orgadmin');
    const dir = demoCredentialsDir('postgres://app:s3cret-pw@db.example.com:5432/orgadmin', '/work');
    // Not a directory made from the URL: it would hold (and the summary would print) the password.
    expect(dir).toBe(join('/work', '.orgadmin'));
    expect(dir).not.toContain('s3cret-pw');
  });
});
