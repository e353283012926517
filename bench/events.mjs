/**
 * Benchmark of admin events and webhooks (`npm run bench:events`; runs from the TypeScript sources, also run by `npm run
 * bench:service`). Not a test: it prints one table per store (SQLite, PostgreSQL).
 *
 * | row | compared with | target |
 * |---|---|---|
 * | writes with events on: organization create + membership add through the HTTP API, each change recording its event and an outbox row (the realm has a webhook) | the same writes on a store opened with events off (`recordEvents: false`) | ≥ 0.9× |
 * | delivery latency, commit to receiver: a webhook receiver's arrival time minus the event's time (taken inside the writing transaction, so the figure includes the commit) | — | p99 < 1 s |
 *
 * Both write targets run side by side in this process, each a real service on port 0 over its own
 * store (a SQLite file; a schema of one throwaway PostgreSQL cluster, test/helpers/postgres.ts,
 * fsync off), measured in alternating order round after round; the table shows medians over the
 * rounds and the load average, since other work on the machine moves every number. The latency
 * row runs `startServer` (its delivery worker included) with a receiver on 127.0.0.1.
 *
 * Environment: BENCH_ROUNDS (default 5), BENCH_WRITES (create + add pairs per target and round,
 * default 300), BENCH_CONCURRENCY (writes in flight, default 8), BENCH_DELIVERIES (events timed for
 * latency, default 500), BENCH_STORES (default sqlite,postgres).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median } from './stats.mjs';

// The service straight from its TypeScript sources (transpiled by SWC as they load), so this
// benchmark needs no build; the PostgreSQL cluster comes from the tests' helper.
const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
require(join(here, '..', 'examples', 'register.js'));
const { buildApp } = require(join(here, '..', 'src', 'service', 'app.ts'));
const { Admin } = require(join(here, '..', 'src', 'service', 'admin', 'index.ts'));
const { startServer } = require(join(here, '..', 'src', 'service', 'server.ts'));
const { PostgresStore } = require(join(here, '..', 'src', 'service', 'store', 'postgres-store.ts'));
const { SqliteStore } = require(join(here, '..', 'src', 'service', 'store', 'sqlite-store.ts'));
const { startPostgres } = require(join(here, '..', 'test', 'helpers', 'postgres.ts'));

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WRITES = Number(process.env.BENCH_WRITES ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 500);
const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',').map((name) => name.trim());
const TARGETS = { writeRatio: 0.9, latencyP99Ms: 1000 };

/** A receiver that drops every delivery (the write targets' webhook), or times them (the latency row). */
async function startReceiver(onEvent) {
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const arrived = Date.now();
      onEvent?.({ time: arrived - JSON.parse(Buffer.concat(chunks).toString('utf8')).time });
      response.writeHead(200).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/hook`, server };
}

/** A bearer token of a new API key with every permission in realm `acme`. */
async function bearer(baseUrl, admin) {
  const key = await admin.createApiKey('acme', { name: 'bench', permissions: ['view-organizations', 'manage-organizations', 'create-organization', 'view-users', 'view-events', 'manage-events'] });
  const answer = await fetch(`${baseUrl}/realms/acme/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }).toString(),
  });
  return `Bearer ${(await answer.json()).access_token}`;
}

/**
 * Starts a write target: a service on `store` (realm `acme`, users to add, a webhook when events
 * are on); returns its address, a token, the users' ids and how to close it.
 */
async function startWriteTarget(store, eventsOn, hookUrl) {
  const app = await buildApp({ store, logger: false, allowPrivateWebhooks: true });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `http://127.0.0.1:${app.server.address().port}`;
  const admin = new Admin(store, { allowPrivateWebhooks: true });
  await admin.createRealm('acme', { tokenLifetimeSeconds: 3600 });
  // With events on, the realm has a webhook, so each change also writes its outbox row.
  if (eventsOn) await admin.webhooks.create('acme', { url: hookUrl, eventTypes: ['*'] });
  const userIds = [];
  for (let i = 0; i < CONCURRENCY; i += 1) userIds.push((await admin.createUser('acme', { username: `member-${i}` })).id);
  return { baseUrl, authorization: await bearer(baseUrl, admin), userIds, close: async () => {
    await app.close();
    await store.close();
  } };
}

let organizationCounter = 0;

/** Makes `count` organization creates, each followed by a membership add, `CONCURRENCY` at a time; returns pairs per second. */
async function writePairs(target, count) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    target.userIds.map(async (userId) => {
      while (next < count) {
        next += 1;
        const created = await fetch(`${target.baseUrl}/realms/acme/orgs`, {
          method: 'POST',
          headers: { authorization: target.authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `bench-${(organizationCounter += 1)}` }),
        });
        if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
        const orgId = created.headers.get('location').split('/').pop();
        const added = await fetch(`${target.baseUrl}/realms/acme/orgs/${orgId}/members/${userId}`, { method: 'PUT', headers: { authorization: target.authorization } });
        if (added.status !== 201) throw new Error(`add member answered ${added.status}: ${await added.text()}`);
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

/** The p-th percentile (0–100) of `values`. */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Commit-to-receiver latency of `DELIVERIES` organization creates on a running service with its worker. */
async function deliveryLatency(dataFile) {
  const delays = [];
  let resolveAll = () => undefined;
  const allArrived = new Promise((resolve) => (resolveAll = resolve));
  const receiver = await startReceiver(({ time }) => {
    delays.push(time);
    if (delays.length === DELIVERIES) resolveAll();
  });
  const server = await startServer({ dataFile, port: 0, host: '127.0.0.1', logger: false, allowPrivateWebhooks: true, instanceName: 'bench' });
  try {
    const admin = new Admin(server.store, { allowPrivateWebhooks: true });
    await admin.createRealm('acme', { tokenLifetimeSeconds: 3600 });
    await admin.webhooks.create('acme', { url: receiver.url, eventTypes: ['admin.ORGANIZATION-CREATE'] });
    const target = { baseUrl: server.url, authorization: await bearer(server.url, admin) };
    // Paced by the writes' own answers, one at a time: latency, not a backlog, is measured.
    for (let i = 0; i < DELIVERIES; i += 1) {
      const created = await fetch(`${target.baseUrl}/realms/acme/orgs`, {
        method: 'POST',
        headers: { authorization: target.authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `latency-${i}` }),
      });
      if (created.status !== 201) throw new Error(`create answered ${created.status}`);
    }
    await allArrived;
  } finally {
    await server.close();
    receiver.server.close();
  }
  return { p50: percentile(delays, 50), p99: percentile(delays, 99), max: Math.max(...delays) };
}

const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');
const verdict = (ok) => (ok ? 'met' : 'MISSED');

const dir = mkdtempSync(join(tmpdir(), 'orgadmin-bench-events-'));
let postgres;
const hook = await startReceiver();
try {
  for (const kind of STORES) {
    const open = async (eventsOn, name) => {
      if (kind === 'sqlite') return SqliteStore.open(join(dir, `${name}.db`), { recordEvents: eventsOn });
      if (kind === 'postgres') return PostgresStore.open(await (postgres ??= await startPostgres()).createSchema(), { recordEvents: eventsOn });
      throw new Error(`BENCH_STORES: unknown store ${kind} (sqlite, postgres)`);
    };
    const on = await startWriteTarget(await open(true, 'on'), true, hook.url);
    const off = await startWriteTarget(await open(false, 'off'), false, hook.url);
    const rates = { on: [], off: [] };
    try {
      await writePairs(on, 50);
      await writePairs(off, 50);
      for (let round = 0; round < ROUNDS; round += 1) {
        process.stderr.write(`${kind} round ${round + 1}/${ROUNDS}, load ${load()}\n`);
        // Alternating which goes first, so a busy moment of the machine weighs on both alike.
        const order = round % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
        for (const mode of order) rates[mode].push(await writePairs(mode === 'on' ? on : off, WRITES));
      }
    } finally {
      await on.close();
      await off.close();
    }
    const latencyFile = kind === 'sqlite' ? join(dir, 'latency.db') : await postgres.createSchema();
    const latency = await deliveryLatency(latencyFile);
    const ratio = median(rates.on) / median(rates.off);
    console.log(`\n### ${kind} (load ${load()})\n`);
    console.log('| row | measured | compared with | ratio | target |');
    console.log('|---|---|---|---|---|');
    console.log(
      `| organization create + membership add, events on | ${median(rates.on).toFixed(0)} pairs/s | events off: ${median(rates.off).toFixed(0)} pairs/s | ${ratio.toFixed(2)}× | ≥ ${TARGETS.writeRatio}× ${verdict(ratio >= TARGETS.writeRatio)} |`,
    );
    console.log(`| delivery latency, commit to receiver, p50 | ${latency.p50} ms | | | |`);
    console.log(`| delivery latency, commit to receiver, p99 (max ${latency.max} ms) | ${latency.p99} ms | | | < ${TARGETS.latencyP99Ms} ms ${verdict(latency.p99 < TARGETS.latencyP99Ms)} |`);
  }
} finally {
  hook.server.close();
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
}
