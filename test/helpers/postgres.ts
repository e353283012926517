/**
 * Test helper: a throwaway PostgreSQL 15 cluster (initdb + pg_ctl from /usr/local/bin) in a
 * temporary directory, listening on a free port of 127.0.0.1 with its unix socket in that
 * directory. fsync is off: the data dies with the test anyway. One cluster per test file; each
 * test can take its own empty schema from {@link TestPostgres.createSchema} (a schema costs
 * milliseconds where a database costs a few hundred).
 *
 * PostgreSQL refuses to run as root, and the tests do run as root (CI), so the server then runs
 * as the `postgres` user, or as `nobody` where that user does not exist; the temporary directory
 * is handed to that user.
 */
import { execFile } from 'node:child_process';
import { access, chown, constants, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

const run = promisify(execFile);

/** Where the PostgreSQL binaries are (the machine image links them into /usr/local/bin). */
const BIN_DIR = process.env.ORGADMIN_TEST_PG_BIN ?? '/usr/local/bin';
/** The cluster's superuser (trust authentication on loopback only). */
const SUPERUSER = 'postgres';

/** A running throwaway cluster. */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/orgadmin`: an empty database created for the caller. */
  url: string;
  /**
   * Creates an empty schema in that database and returns a URL whose connections use it
   * (`?options=-c search_path=…`): one per test keeps tests apart.
   */
  createSchema(): Promise<string>;
  /** Stops the server (fast shutdown: connections are ended) and keeps its data, for {@link TestPostgres.resume}. */
  pause(): Promise<void>;
  /** Starts the paused server again on the same port with the same data. */
  resume(): Promise<void>;
  /** Stops the server (immediate shutdown) and removes the temporary directory. Idempotent. */
  stop(): Promise<void>;
}

/** The account the server runs as: the current one unless that is root. */
async function serverAccount(): Promise<{ name: string; uid: number; gid: number } | undefined> {
  if (userInfo().uid !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
      return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
    } catch {
      // No such user: try the next one.
    }
  }
  throw new Error('Cannot start PostgreSQL as root and found neither a "postgres" nor a "nobody" user to run it as.');
}

/** Runs a PostgreSQL program, as `account` when given (runuser needs no password as root). */
async function runAs(account: { name: string } | undefined, program: string, args: string[]): Promise<void> {
  const [file, argv] = account
    ? ['runuser', ['-u', account.name, '--', join(BIN_DIR, program), ...args]]
    : [join(BIN_DIR, program), args];
  try {
    await run(file, argv, { timeout: 60_000 });
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${program} failed: ${(stderr || stdout || String(error)).trim()}`);
  }
}

/** A port that was free a moment ago (the server is started right after; a clash is retried). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

let schemaCounter = 0;

/** Starts a cluster and creates one database in it. */
export async function startPostgres(): Promise<TestPostgres> {
  for (const program of ['initdb', 'pg_ctl']) {
    await access(join(BIN_DIR, program), constants.X_OK).catch(() => {
      throw new Error(
        `${join(BIN_DIR, program)} is missing: install PostgreSQL 15 (Debian: postgresql-15) and link its bin directory's ` +
          'programs there, or set ORGADMIN_TEST_PG_BIN to that directory.',
      );
    });
  }
  const account = await serverAccount();
  const dir = await mkdtemp(join(tmpdir(), 'orgadmin-pg-'));
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  // Set before pg_ctl start is tried: a start that timed out may still leave a server running.
  let launched = false;
  let started = false;
  const stop = async (): Promise<void> => {
    if (launched) {
      launched = false;
      await runAs(account, 'pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w']).catch(() => undefined);
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    if (account) await chown(dir, account.uid, account.gid);
    // -N: no fsync of the new cluster; C locale: the same on every machine.
    await runAs(account, 'initdb', ['-D', dataDir, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '-N']);
    let port = 0;
    let serverOptions = '';
    for (let attempt = 1; !started; attempt += 1) {
      port = await freePort();
      serverOptions = [
        `-p ${port}`,
        `-k ${dir}`,
        '-c listen_addresses=127.0.0.1',
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
        '-c shared_buffers=16MB',
      ].join(' ');
      try {
        launched = true;
        await runAs(account, 'pg_ctl', ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', serverOptions]);
        started = true;
      } catch (error) {
        // Another process may have taken the port in between; anything else is reported.
        const log = await readFile(logFile, 'utf8').catch(() => '');
        if (attempt >= 3 || !/could not (bind|create listen socket)/i.test(log)) {
          throw new Error(`${(error as Error).message}\n${log.trim()}`);
        }
      }
    }
    const url = `postgres://${SUPERUSER}@127.0.0.1:${port}/orgadmin`;
    const admin = new Client({ connectionString: `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres` });
    await admin.connect();
    try {
      await admin.query('CREATE DATABASE orgadmin');
    } finally {
      await admin.end();
    }
    const createSchema = async (): Promise<string> => {
      schemaCounter += 1;
      const schema = `test_${schemaCounter}`;
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE SCHEMA ${schema}`);
      } finally {
        await client.end();
      }
      return `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    };
    const pause = async (): Promise<void> => {
      await runAs(account, 'pg_ctl', ['stop', '-D', dataDir, '-m', 'fast', '-w']);
    };
    const resume = async (): Promise<void> => {
      await runAs(account, 'pg_ctl', ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', serverOptions]);
    };
    return { url, createSchema, pause, resume, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
