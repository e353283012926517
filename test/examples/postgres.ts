/**
 * Test helper: a throwaway PostgreSQL server (`initdb` + `pg_ctl` from /usr/local/bin) on a free
 * port of 127.0.0.1, in a temporary directory, with trust authentication. PostgreSQL refuses to
 * run as root, so as root (CI) it runs as the `postgres` user (or `nobody`) through `runuser`.
 */
import { execFile } from 'node:child_process';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const PG_BIN = process.env.PG_BIN ?? '/usr/local/bin';

/** A running PostgreSQL server. */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres?sslmode=disable` */
  connectionString: string;
  port: number;
  /** Stops the server (immediately) and removes its directory. */
  close(): Promise<void>;
}

/** A port that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePromise(port));
    });
  });
}

/** The unprivileged account the server runs as when this process is root. */
async function serverAccount(): Promise<{ user: string; uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  for (const user of ['postgres', 'nobody']) {
    try {
      const [{ stdout: uid }, { stdout: gid }] = await Promise.all([exec('id', ['-u', user]), exec('id', ['-g', user])]);
      return { user, uid: Number(uid.trim()), gid: Number(gid.trim()) };
    } catch {
      // Try the next account.
    }
  }
  throw new Error('running as root, but neither a postgres nor a nobody account exists to run PostgreSQL as');
}

/** Starts PostgreSQL; the caller must `close()` it. */
export async function startPostgres(): Promise<TestPostgres> {
  const dir = await mkdtemp(join(tmpdir(), 'orgadmin-pg-'));
  const account = await serverAccount();
  const run = (command: string, args: string[]) =>
    account === undefined
      ? exec(join(PG_BIN, command), args, { timeout: 60_000 })
      : exec('runuser', ['-u', account.user, '--', join(PG_BIN, command), ...args], { timeout: 60_000 });
  if (account !== undefined) {
    await chown(dir, account.uid, account.gid);
    await chmod(dir, 0o700);
  }
  const data = join(dir, 'data');
  let started = false;
  const close = async (): Promise<void> => {
    if (started) await run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    started = false;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    const port = await freePort();
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
    await run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
    started = true;
    return { connectionString: `postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`, port, close };
  } catch (error) {
    await close();
    throw error;
  }
}
