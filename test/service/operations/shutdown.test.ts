/**
 * Graceful shutdown of `orgadmin serve` (a real process, from source) under load: 50 connections
 * of membership checks and writes, then SIGTERM. Every request the service accepted (each has its
 * line in the JSON request log) is answered, none fails, and the process exits 0 within the bound.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { memberPath, orgsPath, tokenPath } from '../../../src/api';
import { Admin } from '../../../src/service/admin';
import { SqliteStore } from '../../../src/service/store/sqlite-store';

const ROOT = join(__dirname, '..', '..', '..');
const CONNECTIONS = 50;
const SHUTDOWN_TIMEOUT_SECONDS = 5;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orgadmin-ops-shutdown-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `orgadmin ARGS` from source (SWC) in a child process. */
function orgadmin(args: string[]) {
  const script = `require(${JSON.stringify(join(ROOT, 'src/cli/main'))}).main(process.argv.slice(1), require(${JSON.stringify(join(ROOT, 'src/cli/io'))}).processIO()).then((code) => { process.exitCode = code; })`;
  return spawn(process.execPath, ['--require', join(ROOT, 'examples/register.js'), '-e', script, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('orgadmin serve on SIGTERM under load', () => {
  it('answers every accepted request, fails none, and exits 0 within --shutdown-timeout', async () => {
    const dataFile = join(dir, 'load.db');
    const store = SqliteStore.open(dataFile);
    const admin = new Admin(store);
    await admin.createRealm('acme', { tokenLifetimeSeconds: 3600 });
    const key = await admin.createApiKey('acme', { name: 'load', permissions: ['view-organizations', 'manage-organizations', 'create-organization'] });
    const users: string[] = [];
    for (let i = 0; i < CONNECTIONS; i += 1) users.push((await admin.createUser('acme', { username: `user-${i}` })).id);
    await store.close();

    const child = orgadmin(['serve', '--port', '0', '--data', dataFile, '--shutdown-timeout', String(SHUTDOWN_TIMEOUT_SECONDS)]);
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /^orgadmin listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
    });

    const pool = new Pool(url, { connections: CONNECTIONS, pipelining: 1 });
    try {
      const token = await pool.request({
        method: 'POST',
        path: tokenPath('acme'),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }).toString(),
      });
      const authorization = `Bearer ${((await token.body.json()) as { access_token: string }).access_token}`;
      const created = await pool.request({ method: 'POST', path: orgsPath('acme'), headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'load' }) });
      await created.body.dump();
      const orgId = String(created.headers.location).split('/').pop()!;

      // Each connection alternates writes (add a member) and membership checks until the service
      // stops taking connections.
      const statuses = new Map<number, number>();
      let answered = 0;
      const refused: string[] = [];
      let signalled: ((value?: unknown) => void) | undefined;
      const enoughLoad = new Promise((resolve) => (signalled = resolve));
      const worker = async (index: number): Promise<void> => {
        const path = memberPath('acme', orgId, users[index]!);
        for (let round = 0; ; round += 1) {
          try {
            const response = await pool.request({ method: round % 2 === 0 ? 'PUT' : 'GET', path, headers: { authorization } });
            await response.body.dump();
            statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
            answered += 1;
            if (answered === 2000) signalled?.();
          } catch (error) {
            refused.push((error as { code?: string }).code ?? String(error));
            return;
          }
        }
      };
      const workers = Array.from({ length: CONNECTIONS }, (_, index) => worker(index));
      await enoughLoad;
      const signalledAt = performance.now();
      child.kill('SIGTERM');
      const code = await exited;
      const exitMs = performance.now() - signalledAt;
      await Promise.all(workers);

      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      expect(exitMs).toBeLessThan(SHUTDOWN_TIMEOUT_SECONDS * 1000);
      expect(stderr).toBe('');
      // Every request the service accepted has its line; each was answered to the client, none failed.
      const lines = stdout.trimEnd().split('\n').slice(1).map((line) => JSON.parse(line) as { msg: string; req?: { url: string }; res?: { statusCode: number } });
      const accepted = lines.filter((line) => line.msg === 'request completed' && line.req!.url.includes('/members/'));
      expect(accepted.length).toBe(answered);
      expect([...statuses.keys()].sort()).toEqual([201, 204]);
      expect(accepted.every((line) => line.res!.statusCode === 201 || line.res!.statusCode === 204)).toBe(true);
      // Connections ended only by the service no longer taking new ones (or closing those it was done with).
      for (const reason of refused) expect(['ECONNREFUSED', 'UND_ERR_SOCKET', 'ECONNRESET', 'UND_ERR_CLOSED']).toContain(reason);
    } finally {
      await pool.destroy();
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
