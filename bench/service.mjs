#!/usr/bin/env node
/**
 * Benchmark of the service's hottest call: "check organization membership"
 * (`GET /realms/acme/orgs/{org}/members/{user}` with a Bearer token, 204), compared with a bare
 * `node:http` server that answers 204 to the same request.
 *
 * Run with `npm run bench:service` (builds first; uses dist/). Environment:
 *   BENCH_DURATION     seconds of measurement per target (default 10)
 *   BENCH_CONNECTIONS  concurrent connections (default 50)
 *
 * The load generator (autocannon) runs in a child process (this same file with `--load`), not in
 * the server's process: a generator in the same event loop would steal the server's time and
 * measure itself. The two processes still share the machine's cores; the report says how many.
 * Targets: the service reaches at least 0.5x the bare server's requests per second, p99 < 20 ms.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP_SECONDS = 2;
const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 20;

/** Child mode: reads autocannon's options as JSON on stdin, runs it and prints its result as one JSON line. */
async function runLoadGenerator() {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  const options = JSON.parse(text);
  const autocannon = require('autocannon');
  const result = await autocannon({ ...options, method: 'GET' });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** Runs the load generator in a child process against `url` and returns autocannon's result. */
function load(url, headers, duration) {
  return new Promise((resolve, reject) => {
    const options = { url, headers, connections: CONNECTIONS, duration, pipelining: 1 };
    // Options go through stdin, not argv: they hold the bearer token, and any local user can read
    // another process's command line.
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--load'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    child.stdin.end(JSON.stringify(options));
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      resolve(JSON.parse(out));
    });
  });
}

/** Warms the target up (JIT, connection pools), then measures it. */
async function measure(name, url, headers) {
  await load(url, headers, WARMUP_SECONDS);
  const result = await load(url, headers, DURATION);
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) {
    throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
  };
}

/** Sends one HTTP request and returns status, headers and body text. */
async function http(method, url, { headers = {}, body } = {}) {
  const response = await fetch(url, { method, headers, body });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Sets up realm `acme`, a key, a user and an organization with the user as a member; returns a token and the member URL. */
async function bootstrap(server) {
  const { Admin } = require(join(here, '..', 'dist', 'service', 'admin.js'));
  const admin = new Admin(server.store);
  await admin.createRealm('acme', { tokenLifetimeSeconds: 3600 });
  const key = await admin.createApiKey('acme', {
    name: 'bench',
    permissions: ['view-organizations', 'manage-organizations', 'create-organization', 'view-users'],
  });
  const user = await admin.createUser('acme', { username: 'bench-user', email: 'bench@example.com' });

  const token = await http('POST', `${server.url}/realms/acme/protocol/openid-connect/token`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }).toString(),
  });
  if (token.status !== 200) throw new Error(`token endpoint answered ${token.status}: ${token.text}`);
  const authorization = `Bearer ${JSON.parse(token.text).access_token}`;

  const created = await http('POST', `${server.url}/realms/acme/orgs`, {
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench-org' }),
  });
  if (created.status !== 201) throw new Error(`create organization answered ${created.status}: ${created.text}`);
  const orgId = created.headers.get('location').split('/').pop();

  const memberPath = `/realms/acme/orgs/${encodeURIComponent(orgId)}/members/${encodeURIComponent(user.id)}`;
  const added = await http('PUT', `${server.url}${memberPath}`, { headers: { authorization } });
  if (added.status !== 201) throw new Error(`add member answered ${added.status}: ${added.text}`);
  const checked = await http('GET', `${server.url}${memberPath}`, { headers: { authorization } });
  if (checked.status !== 204) throw new Error(`check membership answered ${checked.status}: ${checked.text}`);
  return { authorization, memberPath };
}

/** A bare node:http server that answers every request with 204, listening on a free port. */
async function startBareServer() {
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(204);
    response.end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Formats milliseconds for the table. */
const ms = (value) => `${value.toFixed(2)} ms`;

async function runBenchmark() {
  const { startServer } = require(join(here, '..', 'dist', 'service', 'server.js'));
  const dir = mkdtempSync(join(tmpdir(), 'orgadmin-bench-'));
  let service;
  let bare;
  try {
    service = await startServer({ dataFile: join(dir, 'bench.db'), host: '127.0.0.1', port: 0, logger: false });
    const { authorization, memberPath } = await bootstrap(service);
    bare = await startBareServer();
    const headers = { authorization };

    console.log(
      `check membership, ${CONNECTIONS} connections, ${DURATION} s each after ${WARMUP_SECONDS} s warm-up; ` +
        `autocannon in a child process; ${availableParallelism()} CPUs shared by server and generator\n`,
    );
    const rows = [];
    rows.push(await measure('bare node:http (204)', `${bare.url}${memberPath}`, headers));
    rows.push(await measure('service: check membership', `${service.url}${memberPath}`, headers));

    const [bareRow, serviceRow] = rows;
    const ratio = serviceRow.requestsPerSecond / bareRow.requestsPerSecond;
    const table = [
      ['target', 'req/s', 'p50', 'p99', 'requests'],
      ...rows.map((r) => [r.name, r.requestsPerSecond.toFixed(0), ms(r.p50), ms(r.p99), String(r.total)]),
    ];
    const widths = table[0].map((_, column) => Math.max(...table.map((row) => row[column].length)));
    for (const row of table) console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  '));
    console.log('');
    const ratioOk = ratio >= TARGET_RATIO;
    const p99Ok = serviceRow.p99 < TARGET_P99_MS;
    console.log(`ratio service/bare req/s: ${ratio.toFixed(2)} (target >= ${TARGET_RATIO}: ${ratioOk ? 'met' : 'MISSED'})`);
    console.log(`service p99: ${ms(serviceRow.p99)} (target < ${TARGET_P99_MS} ms: ${p99Ok ? 'met' : 'MISSED'})`);
    process.exitCode = ratioOk && p99Ok ? 0 : 1;
  } finally {
    await bare?.close();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Entry point last: every top-level constant above is initialised by now.
if (process.argv[2] === '--load') {
  await runLoadGenerator();
} else {
  await runBenchmark();
}
