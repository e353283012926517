/**
 * `orgadmin demo`: the service on a local port with a ready-made realm,
 * API key and users, and a summary that says how to get a token. Runs until SIGINT or SIGTERM.
 */
import { dirname, join, resolve } from 'node:path';
import { tokenPath } from '../../api';
import { Admin } from '../../service/admin';
import { dashboardPath } from '../../service/login-paths';
import { startServer } from '../../service/server';
import { isPostgresUrl } from '../../service/store/open-store';
import { defineCommand } from '../command';
import { COMMON_FLAGS, DEFAULT_DATA_FILE, resolveDataFile } from '../context';
import { EXIT } from '../errors';
import type { CliIO } from '../io';
import { printJson } from '../output';
import { bootstrapDemo, DEMO_CREDENTIALS_FILE, type DemoBootstrap } from './demo-bootstrap';
import { DEFAULT_HOST, DEFAULT_PORT, explainStartError, LISTEN_FLAGS, listenForStopSignal, parsePort } from './serve';

/** Quotes a value for a POSIX shell command line. */
function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The human summary: where the service is, what was set up, how to get a token (no secret in it). */
function summary(url: string, demo: DemoBootstrap, credentialsFile: string): string {
  const secretFromFile = `$(node -p 'require(${JSON.stringify(credentialsFile).replace(/'/g, `'\\''`)}).clientSecret')`;
  return [
    `orgadmin demo is running at ${url}`,
    `  Realm:      ${demo.realm}`,
    `  Client ID:  ${demo.clientId}`,
    `  Secret:     saved in ${credentialsFile} (readable only by you)`,
    `  Users:      ${demo.users.map((u) => `${u.username} (${u.id})`).join(', ')}`,
    '',
    `Dashboard: ${url}${dashboardPath(demo.realm)}`,
    `  sign in as "${demo.adminUsername}" with the "adminPassword" saved in ${credentialsFile}`,
    '',
    'Get an access token:',
    `  curl -s ${shellQuote(url + tokenPath(demo.realm))} \\`,
    `    -d grant_type=client_credentials -d client_id=${shellQuote(demo.clientId)} \\`,
    `    --data-urlencode "client_secret=${secretFromFile}"`,
    '',
    'Press Ctrl-C to stop.',
    '',
  ].join('\n');
}

/**
 * The directory that keeps the demo's saved credentials: next to a SQLite data file, or, when the
 * data is in PostgreSQL, the default data directory under `cwd`. Why not "next to" a URL: the
 * directory name would be made from the URL, password included, and printed in the summary.
 */
export function demoCredentialsDir(dataFile: string, cwd: string): string {
  return isPostgresUrl(dataFile) ? resolve(cwd, dirname(DEFAULT_DATA_FILE)) : dirname(dataFile);
}

/**
 * Starts the service, bootstraps the demo data on its store, prints the summary and serves until
 * `stop` settles; then closes the server and its store.
 */
export async function runDemo(options: { dataFile: string; host: string; port: number; json: boolean }, io: CliIO, stop: Promise<unknown>): Promise<void> {
  const server = await startServer({ dataFile: options.dataFile, host: options.host, port: options.port, logger: false }).catch(
    (error: unknown) => {
      throw explainStartError(error, options);
    },
  );
  try {
    const dir = demoCredentialsDir(options.dataFile, io.cwd);
    const demo = await bootstrapDemo(new Admin(server.store), dir);
    const credentialsFile = join(dir, DEMO_CREDENTIALS_FILE);
    io.stdout(`orgadmin listening on ${server.url}\n`);
    if (options.json) {
      printJson(io, { url: server.url, realm: demo.realm, clientId: demo.clientId, credentialsFile, users: demo.users });
    } else {
      io.stdout(summary(server.url, demo, credentialsFile));
    }
    await stop;
  } finally {
    await server.close();
  }
}

const demo = defineCommand(
  {
    command: 'demo',
    summary: 'Runs the service with a demo realm, an API key and three users, until SIGINT or SIGTERM.',
    flags: {
      ...LISTEN_FLAGS,
      ...COMMON_FLAGS,
    },
  },
  async ({ flags }, io) => {
    const port = flags.port === undefined ? DEFAULT_PORT : parsePort(flags.port);
    const dataFile = resolveDataFile(flags.data, io);
    const stop = listenForStopSignal();
    try {
      await runDemo({ dataFile, host: flags.host ?? DEFAULT_HOST, port, json: flags.json }, io, stop.received);
    } finally {
      stop.dispose();
    }
    return EXIT.ok;
  },
);

/** `orgadmin demo ...` */
export const runDemoCommand = demo.run;
